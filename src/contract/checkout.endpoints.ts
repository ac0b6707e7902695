import * as v from 'valibot';
import { agentIdSchema, defineEndpoint, langSchema, uuidSchema } from './endpoint';

/**
 * Checkout (spec §7 coupon/validate and temp-checkout; RULINGS 17–18). Every amount is integer
 * US cents and every one is the server's: the page shows the totals the server answers, and
 * temp-checkout refuses figures that are not the server's (409 totals_changed with fresh ones).
 */

const cents = v.pipe(v.number(), v.integer());

/** Coupon discount types (spec §3: 1 means percentage); 2 is a fixed amount in cents. */
export const DISCOUNT_TYPE = { percentage: 1, fixed: 2 } as const;

/** A coupon code as typed: whitespace is stripped (spec §5), compared without case. */
export function couponCodeText(text: string): string {
  return text.replace(/\s+/g, '').toUpperCase();
}
export const COUPON_CODE_MAX_LENGTH = 32;

/** Codes of a refused coupon, each with its own message in English and Arabic. */
export const COUPON_CODES = ['coupon_unknown', 'coupon_expired', 'coupon_used_up', 'coupon_wrong_provider', 'coupon_required'] as const;
export type CouponCode = (typeof COUPON_CODES)[number];
export const isCouponCode = (value: unknown): value is CouponCode => COUPON_CODES.includes(value as CouponCode);

/** What the customer pays, line by line (spec §2 price summary), from the server's one totals module. */
export const checkoutTotalsSchema = v.object({
  /** Plan premium, VAT excluded. */
  plan_price: cents,
  /** The chosen add-ons together, VAT excluded. */
  addons_price: cents,
  /** The coupon's discount (0 without one); never more than the plan and add-ons. */
  discount: cents,
  /** Plan + add-ons − discount: what VAT is computed on. */
  subtotal: cents,
  vat_percent: v.number(),
  vat_amount: cents,
  /** Provider 3 only, and only when above 0. */
  stamp_fee: cents,
  /** What the customer pays: subtotal + VAT + stamp fee. */
  total: cents,
});
export type CheckoutTotals = v.InferOutput<typeof checkoutTotalsSchema>;

const codeSchema = v.pipe(v.string(), v.maxLength(COUPON_CODE_MAX_LENGTH * 4), v.transform(couponCodeText));

export const couponValidateEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/coupon/validate',
  v.object({
    promo_code: codeSchema,
    /** The lead whose chosen plan the coupon is for (RULINGS 24: whoever holds the uuid). */
    uuid: uuidSchema,
    /** Sent by the spec's client; the server makes its own per attempt. */
    merchant_reference: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(80))), null),
    language: v.optional(langSchema, 'en'),
    insurance_type: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(20))), 'travel'),
  }),
  v.object({
    /** The coupon as stored (upper case). */
    code: v.string(),
    /** The discount on this order, cents. */
    discount_amount: cents,
    discount_type_id: v.picklist([DISCOUNT_TYPE.percentage, DISCOUNT_TYPE.fixed]),
    /** Percent for type 1, cents for type 2. */
    discount_value: v.number(),
    /** The order's totals with this coupon. */
    totals: checkoutTotalsSchema,
  }),
);

export const tempCheckoutEndpoint = defineEndpoint(
  '/miscellaneous/travel/wiz/temp-checkout',
  v.object({
    uuid: uuidSchema,
    session_id: v.optional(v.nullable(uuidSchema), null),
    agent_id: agentIdSchema,
    language: v.optional(langSchema, 'en'),
    /** The coupon applied on the page, or null. */
    coupon: v.optional(v.nullable(codeSchema), null),
    /** The total the page showed, cents: compared with the server's, never charged. */
    total_price_vat: cents,
    /** Sent by the spec's client; recorded, never used. */
    merchant_reference: v.optional(v.unknown()),
    vat: v.optional(v.unknown()),
    stamp_fee: v.optional(v.unknown()),
    url: v.optional(v.unknown()),
    is_hundred_percent: v.optional(v.unknown()),
  }),
  v.object({
    /** True when nothing is left to pay: the order is paid, the page shows /thank-you-p. */
    redirect_to_thank_you: v.boolean(),
    /** This attempt's unique reference (RULINGS 19); the browser leaves for /pay/<merchant_reference>. */
    merchant_reference: v.string(),
    /** Where the browser goes to pay, or null when nothing is left to pay. */
    payment_url: v.nullable(v.string()),
    totals: checkoutTotalsSchema,
  }),
);
