import { and, eq, gt, ne, notExists, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { todayIso } from '../../contract/dates';
import type { Db } from '../db/client';
import * as t from '../db/schema';

/**
 * The life of an order between temp-checkout and the gateway's answer (schema.ts, orders.status):
 * how long it may be paid, what voids it, and the coupon uses it holds meanwhile.
 */

export type OrderRow = typeof t.orders.$inferSelect;
type CouponRow = typeof t.coupons.$inferSelect;

/**
 * How long a pending order may be paid, and so how long it holds a use of its coupon: an hour
 * is far more than any customer needs on the gateway's page, and short enough that abandoned
 * checkouts cannot keep a limited coupon from everyone else for long. After it the payments page
 * sends the customer back to checkout, where one click places a fresh order.
 */
export const ORDER_HOLD_MS = 60 * 60 * 1000;

/** Why an order can no longer be paid (orders.void_reason). */
export type VoidReason = 'trip_changed' | 'plan_changed' | 'traveller_changed' | 'coupon_withdrawn' | 'expired' | 'legacy';

/**
 * Why money the gateway took buys no policy (refunds.reason); the broker refunds it. The first
 * three are also the order's refund_reason (its one capture bought nothing); charged_again is a
 * further capture of an order that is paid or to be refunded already, which keeps its status.
 */
export type RefundReason = 'paid_twice' | 'order_void' | 'coupon_used_up' | 'charged_again';

/**
 * Why a pending order can no longer be paid although nobody voided it yet, or null while it
 * can: its hold ran out, or its coupon was disabled or is past its last day (a withdrawn coupon
 * voids the orders that use it, including ones whose customer is on the gateway's page now).
 */
export function lapseOf(order: Pick<OrderRow, 'createdAt'>, coupon: Pick<CouponRow, 'active' | 'validTo'> | null, now: number): VoidReason | null {
  if (now - order.createdAt.getTime() > ORDER_HOLD_MS) return 'expired';
  if (coupon && (!coupon.active || todayIso(now) > coupon.validTo)) return 'coupon_withdrawn';
  return null;
}

/**
 * Voids the pending orders of a lead (its trip, plan or travellers changed: what they priced is
 * not what the lead now holds) or of a coupon (the broker withdrew it), in the caller's
 * transaction. A payment that still arrives for one of them is refunded, never turned into a
 * policy (payment-notice.ts). Returns how many were voided.
 */
export async function voidPendingOrders(tx: Db, of: { leadId: number } | { couponId: number }, reason: VoidReason, now: number): Promise<number> {
  const voided = await tx
    .update(t.orders)
    .set({ status: 'void', voidedAt: new Date(now), voidReason: reason })
    .where(and(eq(t.orders.status, 'pending'), 'leadId' in of ? eq(t.orders.leadId, of.leadId) : eq(t.orders.couponId, of.couponId)))
    .returning({ id: t.orders.id });
  return voided.length;
}

/**
 * Whether no order of the lead is newer than `order`. A lead holds a coupon use through its
 * newest order only (issue 33 item 5): a new checkout, with another coupon or none, releases what
 * its earlier orders held, so one lead can never sit on a use of every limited coupon at once.
 */
export async function isNewestOrderOfLead(tx: Db, order: Pick<OrderRow, 'id' | 'leadId'>): Promise<boolean> {
  const [newer] = await tx
    .select({ id: t.orders.id })
    .from(t.orders)
    .where(and(eq(t.orders.leadId, order.leadId), gt(t.orders.id, order.id)))
    .limit(1);
  return newer === undefined;
}

/**
 * How many uses of a coupon other leads hold now: leads whose newest order (isNewestOrderOfLead)
 * uses it, is pending, is still within its hold and whose invoice is still open (a lead is paid
 * for once, so a lead counts once however many attempts it made). `usedCount` (paid orders) plus
 * this is what a new order must stay under. Call it with the coupon row locked (lockCoupon) so
 * that two checkouts cannot both see the last free use.
 */
export async function usesHeldByOthers(tx: Db, couponId: number, leadId: number | null, now: number): Promise<number> {
  const newer = alias(t.orders, 'newer_order');
  const [row] = await tx
    .select({ leads: sql<number>`count(distinct ${t.orders.leadId})::int` })
    .from(t.orders)
    .innerJoin(t.invoices, eq(t.invoices.id, t.orders.invoiceId))
    .where(
      and(
        eq(t.orders.couponId, couponId),
        eq(t.orders.status, 'pending'),
        gt(t.orders.createdAt, new Date(now - ORDER_HOLD_MS)),
        eq(t.invoices.status, 'open'),
        leadId === null ? undefined : ne(t.orders.leadId, leadId),
        notExists(tx.select({ id: newer.id }).from(newer).where(and(eq(newer.leadId, t.orders.leadId), gt(newer.id, t.orders.id)))),
      ),
    );
  return row?.leads ?? 0;
}

/** The coupon row, locked until the transaction ends: its uses are counted one checkout at a time. */
export async function lockCoupon(tx: Db, couponId: number): Promise<CouponRow | undefined> {
  const [row] = await tx.select().from(t.coupons).where(eq(t.coupons.id, couponId)).for('update');
  return row;
}

/** Whether a coupon with `usedCount` paid uses and `held` uses held by other leads has a use left. */
export function couponHasRoom(coupon: Pick<CouponRow, 'usageLimit' | 'usedCount'>, held: number): boolean {
  return coupon.usageLimit === null || coupon.usedCount + held < coupon.usageLimit;
}
