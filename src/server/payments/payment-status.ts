import { and, desc, eq } from 'drizzle-orm';
import type { PaymentFailureReason, PaymentStatus, PaymentStatusData } from '../../contract/payment.endpoints';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { findLeadByUuid } from '../leads/lead-store';
import { Refusal } from '../orders/refusal';
import { certificatePath } from '../policies/issue-policy';

export interface PaymentStatusInput {
  uuid: string;
  merchant_reference: string | null;
}

/** APS's response code when the customer pressed Cancel on the gateway's page. */
const CANCELLED_CODE = '00072';
/** APS's response codes start with the two-digit status; 13 is "purchase failure" (the bank declined). */
const DECLINED_STATUS = '13';

/**
 * Why a failed order failed, from the gateway's response code the order kept: the customer
 * cancelled, the bank declined, or anything else (a timeout, a refused request).
 */
export function failureReason(responseCode: string | null): PaymentFailureReason {
  if (responseCode === CANCELLED_CODE) return 'cancelled';
  if (responseCode?.startsWith(DECLINED_STATUS)) return 'declined';
  return 'other';
}

type OrderRow = typeof t.orders.$inferSelect;

/**
 * The order the page asks about. With a reference: that order, which must be the lead's; a
 * reference of another lead answers exactly like an unknown one, so holding one lead's uuid
 * tells nothing about other leads' orders (RULINGS 24). Without: the lead's paid order (the one
 * that counts, whatever was tried after), else its latest attempt.
 */
async function orderOf(db: Db, leadId: number, reference: string | null): Promise<OrderRow | null> {
  if (reference !== null) {
    const [order] = await db
      .select()
      .from(t.orders)
      .where(and(eq(t.orders.leadId, leadId), eq(t.orders.merchantReference, reference)));
    return order ?? null;
  }
  const [paid] = await db
    .select()
    .from(t.orders)
    .where(and(eq(t.orders.leadId, leadId), eq(t.orders.status, 'paid')))
    .orderBy(desc(t.orders.id))
    .limit(1);
  if (paid) return paid;
  const [latest] = await db.select().from(t.orders).where(eq(t.orders.leadId, leadId)).orderBy(desc(t.orders.id)).limit(1);
  return latest ?? null;
}

/**
 * payment-status: an order's state, amount and, once paid, its policy with the absolute address
 * of its certificate (`publicUrl` + the token's path), so the link works from the e-mail's
 * client and the SPA alike. Read only: applying the gateway's answer is the return handler's job.
 */
export async function paymentStatus(db: Db, input: PaymentStatusInput, publicUrl: string): Promise<PaymentStatusData> {
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new Refusal(404, 'not_found', { uuid: 'not_found' });
  const order = await orderOf(db, lead.id, input.merchant_reference);
  if (!order) throw new Refusal(404, 'not_found', { merchant_reference: 'not_found' });
  const status = order.status as PaymentStatus;
  const [policy] =
    status === 'paid'
      ? await db.select({ policyNumber: t.policies.policyNumber, downloadToken: t.policies.downloadToken }).from(t.policies).where(eq(t.policies.orderId, order.id))
      : [];
  return {
    merchant_reference: order.merchantReference,
    status,
    amount: order.totalCents,
    currency: order.currency,
    reason: status === 'failed' ? failureReason(order.responseCode) : null,
    policy: policy ? { policy_number: policy.policyNumber, certificate_url: `${publicUrl}${certificatePath(policy.downloadToken)}` } : null,
    paid_at: order.paidAt ? order.paidAt.toISOString() : null,
  };
}
