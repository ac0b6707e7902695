import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { issuePolicyInTx } from '../policies/issue-policy';
import { couponHasRoom, lockCoupon, usesHeldByOthers, type OrderRow } from './order-state';

export type { OrderRow } from './order-state';

/** What settling a paid order did. */
export type Settlement =
  /** The invoice is now paid and the order has its policy (created: this call issued it). */
  | { settled: true; policyId: number; created: boolean }
  /**
   * Nothing was written: the lead's invoice was paid already, by another order (paid_twice), or
   * the coupon has no use left for this order (coupon_used_up). A gateway payment is refunded.
   */
  | { settled: false; reason: 'paid_twice' | 'coupon_used_up' };

/**
 * What follows an order being paid, in the transaction that marks it paid (RULINGS 18, 21): its
 * invoice turns 'paid' (so the lead is "already in a deal"), the coupon's use is counted, and the
 * policy is issued. Run by temp-checkout for a 100 % order and by the payment notice handler.
 *
 * The caller holds the lead's invoice already (invoice-store.ts lockLeadInvoice: temp-checkout
 * and the payment notice take it first), so the invoice read here is current and nothing of the
 * lead changes until the transaction ends. The coupon never goes past its limit, under any race:
 * its row is locked before its uses are counted (after the invoice, as in every transaction that
 * takes both, so two settlements cannot deadlock).
 * `heldUse`: the order held a use until now (it was pending within its hold and is its lead's
 * newest order, order-state.ts), so only its paid uses must be under the limit; otherwise (a late
 * payment after the hold, after a newer checkout or after a failure) the uses other leads hold
 * count too, and without room nothing is written.
 */
export async function settlePaidOrder(
  tx: Db,
  order: Pick<OrderRow, 'id' | 'leadId' | 'invoiceId' | 'couponId'>,
  now: number,
  heldUse: boolean,
): Promise<Settlement> {
  const coupon = order.couponId === null ? null : await lockCoupon(tx, order.couponId);
  const [invoice] = await tx.select({ status: t.invoices.status }).from(t.invoices).where(eq(t.invoices.id, order.invoiceId)).for('update');
  if (!invoice || invoice.status !== 'open') {
    // Paid already: by this order (a repeated settle) it has its policy; by another, none.
    const [own] = await tx.select({ id: t.policies.id }).from(t.policies).where(eq(t.policies.orderId, order.id));
    return own ? { settled: true, policyId: own.id, created: false } : { settled: false, reason: 'paid_twice' };
  }
  if (coupon) {
    const held = heldUse ? 0 : await usesHeldByOthers(tx, coupon.id, order.leadId, now);
    if (!couponHasRoom(coupon, held)) return { settled: false, reason: 'coupon_used_up' };
    await tx
      .update(t.coupons)
      .set({ usedCount: sql`${t.coupons.usedCount} + 1` })
      .where(eq(t.coupons.id, coupon.id));
  }
  await tx.update(t.invoices).set({ status: 'paid', updatedAt: new Date(now) }).where(eq(t.invoices.id, order.invoiceId));
  const policy = await issuePolicyInTx(tx, order, now);
  return { settled: true, ...policy };
}
