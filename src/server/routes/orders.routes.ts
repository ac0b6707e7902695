import { Hono } from 'hono';
import { proceedBuyNowEndpoint, proceedReviewEndpoint } from '../../contract/quote.endpoints';
import type { AppConfig } from '../app';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { refusing } from '../orders/refusal';
import { proceedWithPlan } from './orders.handlers';

/** Choosing a plan: the invoice built from the stored quote, behind the bot check (RULINGS 11, 16). */
export function ordersRoutes(db: Db, config: Pick<AppConfig, 'altchaHmacKey'>, now: () => number) {
  const app = new Hono<AppEnv>();
  for (const endpoint of [proceedReviewEndpoint, proceedBuyNowEndpoint]) {
    app.post(
      endpoint.path,
      endpointHandler(endpoint, (input, c) => refusing(c, () => proceedWithPlan(db, config, input, now()))),
    );
  }
  return app;
}
