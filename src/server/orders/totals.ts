import { DISCOUNT_TYPE, type CheckoutTotals } from '../../contract/checkout.endpoints';

/**
 * The one place money is computed (RULINGS 11, 17, 18): the invoice when a plan is chosen, the
 * coupon's answer, temp-checkout's order and get-personal-details' checkout_totals all come from
 * `checkoutTotals`, in integer US cents. Pure: callers pass the stored figures and settings.
 */

/** Provider ids with the spec's special money rules (RULINGS 17). */
export const PROVIDER_OWN_VAT = 7;
export const PROVIDER_STAMP_FEE = 3;

/** What an order is made of: the stored plan and add-on prices, and the VAT and stamp fee stored with them. */
export interface OrderFigures {
  providerId: number;
  planCents: number;
  addons: readonly { cents: number }[];
  vatPercent: number;
  stampFeeCents: number;
}

/** A coupon as the totals read it: type 1 a percent (1–100) of the plan, type 2 a fixed amount in cents. */
export interface CouponTerms {
  type: (typeof DISCOUNT_TYPE)[keyof typeof DISCOUNT_TYPE];
  value: number;
}

/**
 * `percent` of `cents`, to the cent, half a cent rounded up. Exact: cents × percent is an exact
 * integer, and a quotient that is a whole number and a half is exactly representable, so
 * Math.round sees the true value (1 005 × 10 % = 100.5 → 101).
 */
export function percentOf(cents: number, percent: number): number {
  return Math.round((cents * percent) / 100);
}

/**
 * The discount a coupon gives on an order, never below 0:
 * - percentage (type 1): of the plan premium only (RULINGS 18), so even 100 % leaves the add-ons;
 * - fixed (type 2): its amount, at most plan + add-ons, so the subtotal never goes below 0.
 */
export function couponDiscount(planCents: number, addonsCents: number, coupon: CouponTerms | null): number {
  if (!coupon) return 0;
  const discount =
    coupon.type === DISCOUNT_TYPE.percentage
      ? percentOf(planCents, Math.min(100, Math.max(0, coupon.value)))
      : Math.min(coupon.value, planCents + addonsCents);
  return Math.max(0, discount);
}

/**
 * VAT on the discounted amount (RULINGS 18).
 * - Provider 7 takes VAT from its own invoice, which states it per line: the plan line after the
 *   discount, then each add-on line, each rounded on its own and summed. A discount larger than
 *   the plan (a fixed coupon) goes on to reduce the add-on lines in their order.
 * - Everyone else: one VAT on the subtotal.
 */
function vatCents(order: OrderFigures, discount: number, subtotal: number): number {
  if (order.providerId !== PROVIDER_OWN_VAT) return percentOf(subtotal, order.vatPercent);
  let left = discount;
  const line = (cents: number) => {
    const taken = Math.min(left, cents);
    left -= taken;
    return percentOf(cents - taken, order.vatPercent);
  };
  return [order.planCents, ...order.addons.map((addon) => addon.cents)].reduce((sum, cents) => sum + line(cents), 0);
}

/**
 * What the customer pays, line by line: plan + add-ons − discount = subtotal; VAT on the
 * subtotal; the stamp fee for provider 3 only and only when above 0 (a government fee, so it
 * stays even with a 100 % coupon); total = subtotal + VAT + stamp fee.
 */
export function checkoutTotals(order: OrderFigures, coupon: CouponTerms | null): CheckoutTotals {
  const addonsCents = order.addons.reduce((sum, addon) => sum + addon.cents, 0);
  const discount = couponDiscount(order.planCents, addonsCents, coupon);
  const subtotal = order.planCents + addonsCents - discount;
  const vatAmount = vatCents(order, discount, subtotal);
  const stampFee = order.providerId === PROVIDER_STAMP_FEE && order.stampFeeCents > 0 ? order.stampFeeCents : 0;
  return {
    plan_price: order.planCents,
    addons_price: addonsCents,
    discount,
    subtotal,
    vat_percent: order.vatPercent,
    vat_amount: vatAmount,
    stamp_fee: stampFee,
    total: subtotal + vatAmount + stampFee,
  };
}
