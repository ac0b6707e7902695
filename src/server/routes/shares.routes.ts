import { Hono } from 'hono';
import { latestLeadByIdEndpoint, latestLeadByUuidEndpoint, sendEmailByPageEndpoint } from '../../contract/quote.endpoints';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import type { OutboxWorker } from '../mail/outbox';
import { refusing } from '../orders/refusal';
import type { RateLimiter } from '../rate-limit/rate-limit.middleware';
import { RATE_LIMITS } from '../rate-limit/rate-limit';
import { latestLeadById, latestLeadByUuid, sendEmailByPage } from './shares.handlers';

/**
 * Agent mode (RULINGS 14–15): e-mail a page to the customer, and the lead reads with the WhatsApp
 * text. Rate limited per address and device, and the e-mails also per lead (issue 7).
 */
export function sharesRoutes(
  db: Db,
  config: Pick<AppConfig, 'publicUrl'>,
  mailWorker: Pick<OutboxWorker, 'nudge'>,
  now: () => number,
  limiter: RateLimiter,
) {
  const app = new Hono<AppEnv>();
  app.post(
    sendEmailByPageEndpoint.path,
    limiter.limit(RATE_LIMITS.sendEmailByPage),
    endpointHandler(sendEmailByPageEndpoint, (input, c) => refusing(c, () => sendEmailByPage(db, mailWorker, config.publicUrl, input, now()))),
  );
  app.post(
    latestLeadByIdEndpoint.path,
    limiter.limit(RATE_LIMITS.latestLeadById),
    endpointHandler(latestLeadByIdEndpoint, (input, c) => refusing(c, () => latestLeadById(db, config, input, now()))),
  );
  app.post(
    latestLeadByUuidEndpoint.path,
    limiter.limit(RATE_LIMITS.latestLeadByUuid),
    endpointHandler(latestLeadByUuidEndpoint, (input, c) => refusing(c, () => latestLeadByUuid(db, config, input, now()))),
  );
  return app;
}
