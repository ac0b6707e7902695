import * as v from 'valibot';
import { defineEndpoint, langSchema, uuidSchema } from './endpoint';

/**
 * The outcome of a payment as the SPA reads it (issue 11 item 4): /payment-result after the
 * gateway sent the browser back, and /thank-you-p after a 100 % order. The gateway's answer is
 * never read from the URL: the return handler applied it to the order, and this endpoint reads
 * the order, so a forged or edited address shows nothing it should not.
 */

/** APS allows [A-Za-z0-9_.-] in a merchant reference, at most 40 characters (RULINGS 19). */
export const MERCHANT_REFERENCE_PATTERN = /^[A-Za-z0-9_.-]{1,40}$/;
export const merchantReferenceSchema = v.pipe(v.string(), v.maxLength(40), v.regex(MERCHANT_REFERENCE_PATTERN));

/**
 * Whether the address's lead and reference can name an order at all: a hand-edited or cut-off
 * link is known not to, so the page says so instead of asking the server a question it refuses.
 */
export function isPaymentQuery(uuid: string, reference: string | null): boolean {
  return v.is(uuidSchema, uuid) && (reference === null || v.is(merchantReferenceSchema, reference));
}

/** An order's state: waiting for the gateway's answer, paid, or declined/cancelled. */
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Why a payment failed, as the page words it: the bank declined it (APS status 13), the customer
 * cancelled on the gateway's page (response code 00072), or anything else.
 */
export const PAYMENT_FAILURE_REASONS = ['declined', 'cancelled', 'other'] as const;
export type PaymentFailureReason = (typeof PAYMENT_FAILURE_REASONS)[number];

/** A paid order's policy: its number and the absolute, unguessable address of its PDF certificate. */
export const paymentPolicySchema = v.object({
  policy_number: v.string(),
  certificate_url: v.string(),
});
export type PaymentPolicy = v.InferOutput<typeof paymentPolicySchema>;

export const paymentStatusEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/payment-status',
  v.object({
    /** The lead whose order it is (RULINGS 24: whoever holds the uuid). */
    uuid: uuidSchema,
    /**
     * The attempt the gateway answered (the return's `ref`); it must be one of the lead's orders.
     * Without it: the lead's paid order, else its latest one.
     */
    merchant_reference: v.optional(v.nullable(merchantReferenceSchema), null),
    language: langSchema,
  }),
  v.object({
    merchant_reference: v.string(),
    status: v.picklist(PAYMENT_STATUSES),
    /** What the order costs (and what was paid once paid), integer US cents. */
    amount: v.pipe(v.number(), v.integer()),
    currency: v.string(),
    /** Set for a failed order only. */
    reason: v.nullable(v.picklist(PAYMENT_FAILURE_REASONS)),
    /** Set once the order is paid and its policy issued. */
    policy: v.nullable(paymentPolicySchema),
    /** When the order was paid (ISO 8601), or null. */
    paid_at: v.nullable(v.string()),
  }),
);

export type PaymentStatusData = v.InferOutput<(typeof paymentStatusEndpoint)['data']>;
export type PaymentStatusRequest = v.InferInput<(typeof paymentStatusEndpoint)['request']>;
