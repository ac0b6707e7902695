import { Hono } from 'hono';
import { paymentStatusEndpoint } from '../../contract/payment.endpoints';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { refusing } from '../orders/refusal';
import { paymentStatus } from '../payments/payment-status';

/**
 * payment-status (issue 11): what /payment-result and /thank-you-p show, read from the order the
 * gateway's answer was applied to. Signed like every API call; /payment-result polls it every
 * 2 s for about 20 s while the answer has not arrived, so it is a plain read with no rate limit.
 */
export function paymentStatusRoutes(db: Db, config: AppConfig) {
  const app = new Hono<AppEnv>();
  app.post(
    paymentStatusEndpoint.path,
    endpointHandler(paymentStatusEndpoint, (input, c) => refusing(c, () => paymentStatus(db, input, config.publicUrl))),
  );
  return app;
}
