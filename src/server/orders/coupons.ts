import { eq } from 'drizzle-orm';
import type * as v from 'valibot';
import { DISCOUNT_TYPE, type CouponCode, type couponValidateEndpoint } from '../../contract/checkout.endpoints';
import { todayIso } from '../../contract/dates';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { findLeadByUuid } from '../leads/lead-store';
import { checkoutInvoice, invoiceFigures } from './invoice-store';
import { Refusal } from './refusal';
import { couponHasRoom, lockCoupon, usesHeldByOthers } from './order-state';
import { checkoutTotals, type CouponTerms } from './totals';

export type CouponRow = typeof t.coupons.$inferSelect;
export type CouponValidateInput = v.InferOutput<(typeof couponValidateEndpoint)['request']>;
export type CouponValidateAnswer = v.InferInput<(typeof couponValidateEndpoint)['data']>;

/**
 * Why `coupon` cannot be used today on an order of `insurerId`, or null when it can. Pure, in
 * the order a customer can act on: an unknown or disabled code, outside its dates (before
 * valid_from counts as expired too: the customer cannot use it now), used up (its paid uses plus
 * the uses `held` by other leads' pending orders reach its limit: order-state.ts), another
 * insurer's.
 */
export function couponProblem(coupon: CouponRow | undefined, order: { insurerId: number; today: string; held: number }): CouponCode | null {
  if (!coupon || !coupon.active) return 'coupon_unknown';
  if (order.today < coupon.validFrom || order.today > coupon.validTo) return 'coupon_expired';
  if (!couponHasRoom(coupon, order.held)) return 'coupon_used_up';
  if (coupon.providerId !== null && coupon.providerId !== order.insurerId) return 'coupon_wrong_provider';
  return null;
}

/** The coupon with this code as typed (compared as stored: upper case, no spaces), or undefined. */
export async function findCoupon(db: Db, code: string): Promise<CouponRow | undefined> {
  const [row] = await db.select().from(t.coupons).where(eq(t.coupons.code, code));
  return row;
}

/** A coupon row as the totals module reads it. */
export function couponTerms(coupon: CouponRow): CouponTerms {
  return { type: coupon.discountType === DISCOUNT_TYPE.fixed ? DISCOUNT_TYPE.fixed : DISCOUNT_TYPE.percentage, value: coupon.discountValue };
}

/** What a code typed at checkout is: its coupon (if any) and why it cannot be used (null: it can). */
export interface CouponVerdict {
  coupon: CouponRow | undefined;
  problem: CouponCode | null;
}

/**
 * Whether the coupon `code` names can be used now on `leadId`'s order of `insurerId`, counting
 * the uses other leads hold (order-state.ts). With `lock`, the coupon row stays locked until the
 * transaction ends, so a checkout that goes on to place an order holds the count it read.
 */
export async function checkCoupon(
  db: Db,
  code: string,
  order: { insurerId: number; leadId: number; now: number },
  lock: boolean,
): Promise<CouponVerdict> {
  if (code === '') return { coupon: undefined, problem: 'coupon_required' };
  const found = await findCoupon(db, code);
  const coupon = found && lock ? await lockCoupon(db, found.id) : found;
  const held = !coupon || coupon.usageLimit === null ? 0 : await usesHeldByOthers(db, coupon.id, order.leadId, order.now);
  return { coupon, problem: couponProblem(coupon, { insurerId: order.insurerId, today: todayIso(order.now), held }) };
}

/** The 422 of a coupon that cannot be used, its code under each of `fields`. */
export function couponRefusal(problem: CouponCode, fields: readonly string[]): Refusal {
  return new Refusal(422, problem, Object.fromEntries(fields.map((field) => [field, problem])));
}

/**
 * coupon/validate (spec §7): the discount a coupon gives on the lead's chosen plan and the
 * order's totals with it, priced from the stored invoice. Reads only: a use is held when an order
 * is placed (temp-checkout) and counted when it is paid. Throws Refusal: 404 unknown lead; 409 lead_in_deal, plan_not_chosen; 422
 * with `promo_code` coupon_required, coupon_unknown, coupon_expired, coupon_used_up or
 * coupon_wrong_provider (each with its message in the request's language).
 */
export async function validateCoupon(db: Db, input: CouponValidateInput, now: number): Promise<CouponValidateAnswer> {
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new Refusal(404, 'not_found', { uuid: 'not_found' });
  const { invoice } = await checkoutInvoice(db, lead.id, false);
  const { coupon, problem } = await checkCoupon(db, input.promo_code, { insurerId: invoice.insurerId, leadId: lead.id, now }, false);
  if (problem) throw couponRefusal(problem, ['promo_code']);
  const terms = couponTerms(coupon!);
  const totals = checkoutTotals(invoiceFigures(invoice), terms);
  return { code: coupon!.code, discount_amount: totals.discount, discount_type_id: terms.type, discount_value: coupon!.discountValue, totals };
}
