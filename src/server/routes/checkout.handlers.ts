import type { Context } from 'hono';
import type { CouponCode } from '../../contract/checkout.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import type { MessageKey } from '../http/messages';
import { fail } from '../http/respond';
import { Refusal } from '../orders/refusal';
import { validateCoupon, type CouponValidateInput } from '../orders/coupons';
import { tempCheckout, type TempCheckoutConfig, type TempCheckoutInput } from '../orders/temp-checkout';
import type { OutboxWorker } from '../mail/outbox';

/** coupon/validate on the app's clock (a coupon's dates are checked against its today). */
export function couponValidateHandler(db: Db, input: CouponValidateInput, now: number) {
  return validateCoupon(db, input, now);
}

/**
 * temp-checkout: the order placed, or 409 totals_changed when the page's total is not the
 * server's, with the fresh totals for the page to show (`data.totals`) and nothing created.
 */
export async function tempCheckoutHandler(
  c: Context<AppEnv>,
  deps: { db: Db; config: TempCheckoutConfig; mailWorker: Pick<OutboxWorker, 'nudge'> },
  input: TempCheckoutInput,
  now: number,
) {
  const outcome = await tempCheckout(deps.db, deps.config, input, now);
  if ('totalsChanged' in outcome) {
    // The total without a discount, for a code sent with it: the code gave none (markingMisses).
    if (input.coupon && outcome.totalsChanged.discount === 0) c.set('couponMiss', true);
    return fail(c, 409, 'totals_changed', { errors: { total_price_vat: 'totals_changed' }, totals: outcome.totalsChanged });
  }
  // A 100 % order issued its policy and queued its mail: the worker sends it now, beside the answer.
  if (outcome.policyToDeliver !== null) await deps.mailWorker.nudge();
  return outcome.placed;
}

/** The refusals that say a code is no coupon this lead could ever use. */
const MISSES: ReadonlySet<MessageKey> = new Set<CouponCode>(['coupon_unknown', 'coupon_expired', 'coupon_wrong_provider']);

/**
 * Runs a coupon/validate or temp-checkout call and marks on the context whether its answer is a
 * coupon guess that missed (issue 33 item 5), for the guess limit to keep its count: a 422
 * coupon_unknown (a disabled code too), coupon_expired (not valid yet too) or
 * coupon_wrong_provider. temp-checkout marks its own 409 totals_changed whose fresh totals carry
 * no discount, which tells a made-up total the same without saying why. Not a miss: a usable
 * code (2xx, or a 409 whose totals carry its discount), a used-up one (coupon_used_up: a real
 * coupon whose uses went to customers; one sent with a made-up total cannot be told from a miss
 * and counts as one, but the page always sends the total it was shown), and every answer that
 * says nothing of the code (unknown lead, no plan chosen, review incomplete, lead paid, a
 * refused body, coupon_required, a 429, a 5xx).
 */
export async function markingMisses<T>(c: Context<AppEnv>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refusal && MISSES.has(error.key)) c.set('couponMiss', true);
    throw error;
  }
}
