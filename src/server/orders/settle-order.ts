import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { issuePolicyInTx } from '../policies/issue-policy';

export type OrderRow = typeof t.orders.$inferSelect;

/** What settling a paid order did. */
export type Settlement =
  /** The invoice is now paid and the order has its policy (created: this call issued it). */
  | { settled: true; policyId: number; created: boolean }
  /** The invoice was paid already, by another order of the lead: no second policy. */
  | { settled: false; reason: 'invoice_paid_by_another_order' }
  /** A 100 % order whose coupon reached its limit meanwhile (nothing must be written). */
  | { settled: false; reason: 'coupon_used_up' };

/**
 * What follows an order being paid, in the transaction that marked it paid (RULINGS 18, 21):
 * its invoice turns 'paid' (so the lead is "already in a deal"), the coupon's use is counted, and
 * the policy is issued. Run by temp-checkout for a 100 % order and by the payment result handler.
 *
 * The coupon: a 100 % order is refused when the coupon is used up (`couponLimit: 'refuse'`); a
 * payment the gateway has taken is honoured at the price the customer saw, so its use is counted
 * even past the limit (`'honour'`).
 */
export async function settlePaidOrder(
  tx: Db,
  order: Pick<OrderRow, 'id' | 'leadId' | 'invoiceId' | 'couponId'>,
  now: number,
  couponLimit: 'refuse' | 'honour',
): Promise<Settlement> {
  const at = new Date(now);
  const invoice = await tx
    .update(t.invoices)
    .set({ status: 'paid', updatedAt: at })
    .where(and(eq(t.invoices.id, order.invoiceId), eq(t.invoices.status, 'open')))
    .returning({ id: t.invoices.id });
  if (invoice.length === 0) {
    // Paid already: by this order (a repeated settle) it has its policy; by another, none.
    const [own] = await tx.select({ id: t.policies.id }).from(t.policies).where(eq(t.policies.orderId, order.id));
    return own ? { settled: true, policyId: own.id, created: false } : { settled: false, reason: 'invoice_paid_by_another_order' };
  }
  if (order.couponId !== null) {
    const withinLimit = couponLimit === 'refuse' ? or(isNull(t.coupons.usageLimit), lt(t.coupons.usedCount, t.coupons.usageLimit)) : undefined;
    const counted = await tx
      .update(t.coupons)
      .set({ usedCount: sql`${t.coupons.usedCount} + 1` })
      .where(and(eq(t.coupons.id, order.couponId), withinLimit))
      .returning({ id: t.coupons.id });
    if (counted.length === 0) return { settled: false, reason: 'coupon_used_up' };
  }
  const policy = await issuePolicyInTx(tx, order, now);
  return { settled: true, ...policy };
}
