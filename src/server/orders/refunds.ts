import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';

/**
 * The refunds list (issue 33 item 3): every capture the gateway took that buys nothing, as the
 * payment notice recorded it (payments/payment-notice.ts), newest first. Each names what an APS
 * REFUND needs: the merchant reference, the fort_id and the amount.
 */
export interface RefundListItem {
  merchant_reference: string;
  fort_id: string;
  /** What the capture took, cents. */
  amount_cents: number;
  currency: string;
  /** paid_twice, order_void, coupon_used_up (the order bought nothing) or charged_again (a further capture of an order paid already). */
  reason: string;
  /** When the notice that took it was applied. */
  recorded: string;
  /** The order's own status: 'refund', or 'paid' for a further capture of a paid order (which keeps its policy). */
  order_status: string;
  /** The order's policy number, when the order is paid (charged_again): the customer keeps it. */
  policy_number: string | null;
}

/** The refunds due, newest first (at most `limit`). */
export async function listRefunds(db: Db, limit = 500): Promise<RefundListItem[]> {
  const rows = await db
    .select({ refund: t.refunds, orderStatus: t.orders.status, policyNumber: t.policies.policyNumber })
    .from(t.refunds)
    .innerJoin(t.orders, eq(t.orders.id, t.refunds.orderId))
    .leftJoin(t.policies, eq(t.policies.orderId, t.orders.id))
    .orderBy(desc(t.refunds.createdAt), desc(t.refunds.id))
    .limit(limit);
  return rows.map(({ refund, orderStatus, policyNumber }) => ({
    merchant_reference: refund.merchantReference,
    fort_id: refund.fortId,
    amount_cents: refund.amountCents,
    currency: refund.currency,
    reason: refund.reason,
    recorded: refund.createdAt.toISOString(),
    order_status: orderStatus,
    policy_number: policyNumber,
  }));
}
