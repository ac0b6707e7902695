import { eq } from 'drizzle-orm';
import type * as v from 'valibot';
import { DISCOUNT_TYPE, type CouponCode, type couponValidateEndpoint } from '../../contract/checkout.endpoints';
import { todayIso } from '../../contract/dates';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { findLeadByUuid } from '../leads/lead-store';
import { checkoutInvoice, invoiceFigures } from './invoice-store';
import { Refusal } from './refusal';
import { checkoutTotals, type CouponTerms } from './totals';

export type CouponRow = typeof t.coupons.$inferSelect;
export type CouponValidateInput = v.InferOutput<(typeof couponValidateEndpoint)['request']>;
export type CouponValidateAnswer = v.InferInput<(typeof couponValidateEndpoint)['data']>;

/**
 * Why `coupon` cannot be used today on an order of `insurerId`, or null when it can. Pure, in
 * the order a customer can act on: an unknown or disabled code, outside its dates (before
 * valid_from counts as expired too: the customer cannot use it now), used up, another insurer's.
 */
export function couponProblem(coupon: CouponRow | undefined, order: { insurerId: number; today: string }): CouponCode | null {
  if (!coupon || !coupon.active) return 'coupon_unknown';
  if (order.today < coupon.validFrom || order.today > coupon.validTo) return 'coupon_expired';
  if (coupon.usageLimit !== null && coupon.usedCount >= coupon.usageLimit) return 'coupon_used_up';
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

/**
 * The coupon `code` names, if it can be used today on an order of `insurerId`. Otherwise throws
 * Refusal 422 with the coupon's own code (and message) under each of `fields`: coupon/validate
 * names its `promo_code`, temp-checkout both `promo_code` and its own `coupon`.
 */
export async function usableCoupon(
  db: Db,
  code: string,
  order: { insurerId: number; today: string },
  fields: readonly string[],
): Promise<CouponRow> {
  const refuse = (problem: CouponCode) => new Refusal(422, problem, Object.fromEntries(fields.map((field) => [field, problem])));
  if (code === '') throw refuse('coupon_required');
  const coupon = await findCoupon(db, code);
  const problem = couponProblem(coupon, order);
  if (problem) throw refuse(problem);
  return coupon!;
}

/**
 * coupon/validate (spec §7): the discount a coupon gives on the lead's chosen plan and the
 * order's totals with it, priced from the stored invoice. Reads only; the use is counted when
 * the order is paid. Throws Refusal: 404 unknown lead; 409 lead_in_deal, plan_not_chosen; 422
 * with `promo_code` coupon_required, coupon_unknown, coupon_expired, coupon_used_up or
 * coupon_wrong_provider (each with its message in the request's language).
 */
export async function validateCoupon(db: Db, input: CouponValidateInput, now: number): Promise<CouponValidateAnswer> {
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new Refusal(404, 'not_found', { uuid: 'not_found' });
  const { invoice } = await checkoutInvoice(db, lead.id, false);
  const coupon = await usableCoupon(db, input.promo_code, { insurerId: invoice.insurerId, today: todayIso(now) }, ['promo_code']);
  const terms = couponTerms(coupon);
  const totals = checkoutTotals(invoiceFigures(invoice), terms);
  return { code: coupon.code, discount_amount: totals.discount, discount_type_id: terms.type, discount_value: coupon.discountValue, totals };
}
