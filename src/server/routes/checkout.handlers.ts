import type { Context } from 'hono';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { fail } from '../http/respond';
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
    return fail(c, 409, 'totals_changed', { errors: { total_price_vat: 'totals_changed' }, totals: outcome.totalsChanged });
  }
  // A 100 % order issued its policy and queued its mail: the worker sends it now, beside the answer.
  if (outcome.policyToDeliver !== null) await deps.mailWorker.nudge();
  return outcome.placed;
}
