import { policyPagePath } from '../../contract/policy-page.endpoints';
import { and, desc, eq, sql } from 'drizzle-orm';
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
 * The orders the page asks about: `asked`, the one with the reference (which must be the lead's:
 * a reference of another lead answers exactly like an unknown one, so holding one lead's uuid
 * tells nothing about other leads' orders, RULINGS 24); `policy`, the lead's paid order (it holds
 * the policy; a lead is paid for once); `latest`, its latest attempt; `refund`, its latest
 * payment to be refunded (a refunds row: a 'refund' order's capture, or a second capture of a
 * paid one), the asked attempt's own first.
 */
async function ordersOf(db: Db, leadId: number, reference: string | null) {
  const [asked] =
    reference === null ? [] : await db.select().from(t.orders).where(and(eq(t.orders.leadId, leadId), eq(t.orders.merchantReference, reference)));
  const newest = (status?: string) =>
    db
      .select()
      .from(t.orders)
      .where(and(eq(t.orders.leadId, leadId), status === undefined ? undefined : eq(t.orders.status, status)))
      .orderBy(desc(t.orders.id))
      .limit(1);
  const refunds = db
    .select({ merchantReference: t.refunds.merchantReference, amountCents: t.refunds.amountCents, currency: t.refunds.currency })
    .from(t.refunds)
    .innerJoin(t.orders, eq(t.orders.id, t.refunds.orderId))
    .where(eq(t.orders.leadId, leadId))
    .orderBy(desc(sql`${t.refunds.merchantReference} = ${reference ?? ''}`), desc(t.refunds.id))
    .limit(1);
  const [[policy], [latest], [refund]] = await Promise.all([newest('paid'), newest(), refunds]);
  return { asked: asked ?? null, policy: policy ?? null, latest: latest ?? null, refund: refund ?? null };
}

/** What the page says of an order: paid, waiting, or why it bought no policy. */
function statusOf(order: OrderRow): { status: PaymentStatus; reason: PaymentFailureReason | null } {
  switch (order.status) {
    case 'paid':
      return { status: 'paid', reason: null };
    case 'pending':
      return { status: 'pending', reason: null };
    case 'void':
      return { status: 'failed', reason: 'changed' };
    // Refunded already (issue 36) or still to be: either way the payment bought no policy.
    case 'refund':
    case 'refunded':
      return { status: 'failed', reason: 'refund' };
    default:
      return { status: 'failed', reason: failureReason(order.responseCode) };
  }
}

/**
 * payment-status: an order's state, amount and, once paid, its policy with the absolute address
 * of its certificate (`publicUrl` + the token's path), so the link works from the e-mail's
 * client and the SPA alike. Once the lead is paid for, it is always the order that holds the
 * policy that answers, whichever attempt was asked about, so a customer who paid twice sees their
 * policy and, in `refund`, the second payment that will be refunded. Without a policy: the asked
 * attempt, else the latest. Read only: applying the gateway's answer is the return handler's job.
 */
export async function paymentStatus(db: Db, input: PaymentStatusInput, publicUrl: string): Promise<PaymentStatusData> {
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new Refusal(404, 'not_found', { uuid: 'not_found' });
  const orders = await ordersOf(db, lead.id, input.merchant_reference);
  if (input.merchant_reference !== null && !orders.asked) throw new Refusal(404, 'not_found', { merchant_reference: 'not_found' });
  const order = orders.policy ?? orders.asked ?? orders.latest;
  if (!order) throw new Refusal(404, 'not_found', { merchant_reference: 'not_found' });
  const { status, reason } = statusOf(order);
  const [policy] =
    status === 'paid'
      ? await db.select({ policyNumber: t.policies.policyNumber, downloadToken: t.policies.downloadToken, pageToken: t.policies.pageToken }).from(t.policies).where(eq(t.policies.orderId, order.id))
      : [];
  const { refund } = orders;
  return {
    merchant_reference: order.merchantReference,
    status,
    amount: order.totalCents,
    currency: order.currency,
    reason,
    policy: policy
      ? { policy_number: policy.policyNumber, certificate_url: `${publicUrl}${certificatePath(policy.downloadToken)}`, policy_page: policyPagePath(policy.pageToken) }
      : null,
    paid_at: order.paidAt && status === 'paid' ? order.paidAt.toISOString() : null,
    refund: refund ? { merchant_reference: refund.merchantReference, amount: refund.amountCents, currency: refund.currency } : null,
  };
}
