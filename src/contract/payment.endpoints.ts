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
 * link is known not to, so the page says so instead of asking the server a question it refuses;
 * nor can an address without a lead (null).
 */
export function isPaymentQuery(uuid: string | null, reference: string | null): boolean {
  return v.is(uuidSchema, uuid) && (reference === null || v.is(merchantReferenceSchema, reference));
}

/** An order's state: waiting for the gateway's answer, paid, or declined/cancelled. */
export const PAYMENT_STATUSES = ['pending', 'paid', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * Why an order bought no policy, as the page words it: the bank declined it (APS status 13), the
 * customer cancelled on the gateway's page (response code 00072), anything else the gateway said;
 * `changed`: the order was voided before it was paid (the trip, plan, travellers or coupon changed
 * since checkout, or it was not paid in time), so no money was taken; `refund`: the gateway took
 * the money for an order that had been voided, so no policy is issued and the payment (`refund`
 * below) is refunded in full. Each of them is followed by "Try again" at checkout.
 */
export const PAYMENT_FAILURE_REASONS = ['declined', 'cancelled', 'other', 'changed', 'refund'] as const;
export type PaymentFailureReason = (typeof PAYMENT_FAILURE_REASONS)[number];

/**
 * A paid order's policy: its number, the absolute, unguessable address of its PDF certificate,
 * and the path of the customer's own policy page (/policy/<token>, issue 37).
 */
export const paymentPolicySchema = v.object({
  policy_number: v.string(),
  certificate_url: v.string(),
  policy_page: v.string(),
});
export type PaymentPolicy = v.InferOutput<typeof paymentPolicySchema>;

/** A payment taken for nothing, to be refunded: its attempt and amount (integer US cents). */
export const paymentRefundSchema = v.object({
  merchant_reference: v.string(),
  amount: v.pipe(v.number(), v.integer()),
  currency: v.string(),
});
export type PaymentRefund = v.InferOutput<typeof paymentRefundSchema>;

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
    /**
     * A payment of this lead that buys no policy and is refunded in full: the asked-for attempt
     * when it is one (a second payment for a lead already paid, or a payment for a voided
     * order), else the lead's latest such payment; null when there is none. With status `paid`
     * it is the customer's second payment ("you paid twice").
     */
    refund: v.nullable(paymentRefundSchema),
  }),
);

export type PaymentStatusData = v.InferOutput<(typeof paymentStatusEndpoint)['data']>;
export type PaymentStatusRequest = v.InferInput<(typeof paymentStatusEndpoint)['request']>;
