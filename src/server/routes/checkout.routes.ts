import { Hono } from 'hono';
import { couponValidateEndpoint, tempCheckoutEndpoint } from '../../contract/checkout.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import type { OutboxWorker } from '../mail/outbox';
import { endpointHandler } from '../http/endpoint-handler';
import { refusing } from '../orders/refusal';
import type { RateLimiter } from '../rate-limit/rate-limit.middleware';
import { RATE_LIMITS } from '../rate-limit/rate-limit';
import { couponValidateHandler, markingMisses, tempCheckoutHandler } from './checkout.handlers';
import type { TempCheckoutConfig } from '../orders/temp-checkout';

/** Whether a temp-checkout body names a coupon: only then does it spend a coupon attempt. */
const namesCoupon = (body: unknown) =>
  typeof body === 'object' && body !== null && typeof (body as { coupon?: unknown }).coupon === 'string' && (body as { coupon: string }).coupon.trim() !== '';

/**
 * Checkout (spec §7 coupon/validate and temp-checkout): coupons checked against the lead's
 * chosen plan, and the order placed at the server's totals. Rate limited per lead, per the lead's
 * device and under a high address ceiling (issue 18 item 5: customers behind one carrier
 * address all pay). Every answer that can tell whether a code is usable (each coupon/validate,
 * each temp-checkout that names a coupon) is a guess, and a guess that misses spends one attempt
 * of a budget both share (RULINGS 23: coupon codes must not be guessable by brute force, through
 * either door). Guesses are counted before the endpoint's own limit, so a guess refused for its
 * lead or device spends nothing of the address's budgets, and a request the endpoint's limit
 * refuses gives its guess back (a 429 is no miss).
 */
export function checkoutRoutes(db: Db, config: TempCheckoutConfig, mailWorker: Pick<OutboxWorker, 'nudge'>, now: () => number, limiter: RateLimiter) {
  const app = new Hono<AppEnv>();
  app.post(
    couponValidateEndpoint.path,
    limiter.guesses(RATE_LIMITS.couponAttempts),
    limiter.limit(RATE_LIMITS.couponValidate),
    endpointHandler(couponValidateEndpoint, (input, c) => refusing(c, () => markingMisses(c, () => couponValidateHandler(db, input, now())))),
  );
  app.post(
    tempCheckoutEndpoint.path,
    limiter.guesses(RATE_LIMITS.couponAttempts, { when: namesCoupon }),
    limiter.limit(RATE_LIMITS.tempCheckout),
    endpointHandler(tempCheckoutEndpoint, (input, c) => refusing(c, () => markingMisses(c, () => tempCheckoutHandler(c, { db, config, mailWorker }, input, now())))),
  );
  return app;
}
