import { Hono } from 'hono';
import { couponValidateEndpoint, tempCheckoutEndpoint } from '../../contract/checkout.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import type { PolicyDelivery } from '../policies/deliver-policy';
import { endpointHandler } from '../http/endpoint-handler';
import { refusing } from '../orders/refusal';
import type { RateLimiter } from '../rate-limit/rate-limit.middleware';
import { RATE_LIMITS } from '../rate-limit/rate-limit';
import { couponValidateHandler, tempCheckoutHandler } from './checkout.handlers';

/**
 * Checkout (spec §7 coupon/validate and temp-checkout): coupons checked against the lead's
 * chosen plan, and the order placed at the server's totals. Rate limited per address and per
 * lead (RULINGS 23: coupon codes must not be guessable by brute force).
 */
export function checkoutRoutes(db: Db, delivery: PolicyDelivery, now: () => number, limiter: RateLimiter) {
  const app = new Hono<AppEnv>();
  app.post(
    couponValidateEndpoint.path,
    limiter.limit(RATE_LIMITS.couponValidate),
    endpointHandler(couponValidateEndpoint, (input, c) => refusing(c, () => couponValidateHandler(db, input, now()))),
  );
  app.post(
    tempCheckoutEndpoint.path,
    limiter.limit(RATE_LIMITS.tempCheckout),
    endpointHandler(tempCheckoutEndpoint, (input, c) => refusing(c, () => tempCheckoutHandler(c, db, delivery, input, now()))),
  );
  return app;
}
