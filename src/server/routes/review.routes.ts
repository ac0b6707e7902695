import { Hono } from 'hono';
import { saveTravellerInfoEndpoint } from '../../contract/review.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { refusing } from '../orders/refusal';
import type { RateLimiter } from '../rate-limit/rate-limit.middleware';
import { RATE_LIMITS } from '../rate-limit/rate-limit';
import { saveTravellerHandler } from './review.handlers';

/**
 * The review step (spec §7 save-traveller-info): travellers saved one at a time against the
 * chosen plan's rules. Rate limited per address and per lead (issue 7).
 */
export function reviewRoutes(db: Db, now: () => number, limiter: RateLimiter) {
  const app = new Hono<AppEnv>();
  app.post(
    saveTravellerInfoEndpoint.path,
    limiter.limit(RATE_LIMITS.saveTravellerInfo),
    endpointHandler(saveTravellerInfoEndpoint, (input, c) => refusing(c, () => saveTravellerHandler(db, input, now()))),
  );
  return app;
}
