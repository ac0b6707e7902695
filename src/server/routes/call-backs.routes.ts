import { Hono } from 'hono';
import { requestCallBackEndpoint } from '../../contract/quote.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { refusing } from '../orders/refusal';
import { requestCallBackHandler } from './call-backs.handlers';

/** Call-back requests (RULINGS 12–13); the broker lists them with `npm run broker -- call-backs`. */
export function callBacksRoutes(db: Db, now: () => number) {
  const app = new Hono<AppEnv>();
  app.post(
    requestCallBackEndpoint.path,
    endpointHandler(requestCallBackEndpoint, (input, c) => refusing(c, () => requestCallBackHandler(db, input, now()))),
  );
  return app;
}
