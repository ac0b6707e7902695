import { Hono } from 'hono';
import { requestCallBackEndpoint } from '../../contract/quote.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { refusing } from '../orders/refusal';
import { answeringRateLimits, type RateLimiter } from '../rate-limit/rate-limit.middleware';
import { RATE_LIMITS } from '../rate-limit/rate-limit';
import { requestCallBackHandler } from './call-backs.handlers';

/**
 * Call-back requests (RULINGS 12–13); the broker lists them with `npm run broker -- call-backs`.
 * Limited per address here and per normalised phone number in the store (issue 7).
 */
export function callBacksRoutes(db: Db, now: () => number, limiter: RateLimiter) {
  const app = new Hono<AppEnv>();
  app.post(
    requestCallBackEndpoint.path,
    limiter.limit(RATE_LIMITS.requestCallBack),
    endpointHandler(requestCallBackEndpoint, (input, c) =>
      answeringRateLimits(c, () => refusing(c, () => requestCallBackHandler(db, input, now()))),
    ),
  );
  return app;
}
