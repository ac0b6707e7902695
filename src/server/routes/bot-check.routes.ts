import { Hono } from 'hono';
import { botChallengeEndpoint } from '../../contract/quote.endpoints';
import type { AppConfig } from '../app';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { botChallenge } from './bot-check.handlers';

/** The bot check's challenge (RULINGS 16); proceed-review spends the solution. */
export function botCheckRoutes(db: Db, config: Pick<AppConfig, 'altchaHmacKey'>, now: () => number) {
  const app = new Hono<AppEnv>();
  app.post(botChallengeEndpoint.path, endpointHandler(botChallengeEndpoint, () => botChallenge(db, config, now())));
  return app;
}
