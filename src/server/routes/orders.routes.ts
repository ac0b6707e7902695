import { Hono } from 'hono';
import { proceedBuyNowEndpoint, proceedReviewEndpoint } from '../../contract/quote.endpoints';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import type { LogError } from '../http/error-handler';
import { refusing } from '../orders/refusal';
import { clientAddress } from '../rate-limit/client-address';
import { proceedWithPlan, type OrdersConfig } from './orders.handlers';

/** Choosing a plan: the invoice built from the stored quote, behind the bot check (RULINGS 11, 16). */
export function ordersRoutes(db: Db, config: OrdersConfig & Pick<AppConfig, 'trustProxy'>, now: () => number, logError: LogError) {
  const app = new Hono<AppEnv>();
  for (const endpoint of [proceedReviewEndpoint, proceedBuyNowEndpoint]) {
    app.post(
      endpoint.path,
      endpointHandler(endpoint, (input, c) =>
        refusing(c, () => proceedWithPlan(db, config, input, { now: now(), clientAddress: clientAddress(c, config.trustProxy), logError })),
      ),
    );
  }
  return app;
}
