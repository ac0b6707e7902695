import { Hono } from 'hono';
import { botChallengeEndpoint } from '../../contract/quote.endpoints';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import type { RateLimiter } from '../rate-limit/rate-limit.middleware';
import { RATE_LIMITS } from '../rate-limit/rate-limit';
import { botChallenge } from './bot-check.handlers';

/** The bot check's challenge (RULINGS 16); proceed-review spends the solution. Rate limited (issue 7). */
export function botCheckRoutes(db: Db, config: Pick<AppConfig, 'altchaHmacKey'>, now: () => number, limiter: RateLimiter) {
  const app = new Hono<AppEnv>();
  app.post(
    botChallengeEndpoint.path,
    limiter.limit(RATE_LIMITS.botChallenge),
    endpointHandler(botChallengeEndpoint, () => botChallenge(db, config, now())),
  );
  return app;
}
