import { Hono } from 'hono';
import { latestLeadByIdEndpoint, latestLeadByUuidEndpoint, sendEmailByPageEndpoint } from '../../contract/quote.endpoints';
import type { AppConfig } from '../app';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { createMailer } from '../mail/mailer';
import { refusing } from '../orders/refusal';
import { latestLeadById, latestLeadByUuid, sendEmailByPage } from './shares.handlers';

/** Agent mode (RULINGS 14–15): e-mail a page to the customer, and the lead reads with the WhatsApp text. */
export function sharesRoutes(db: Db, config: Pick<AppConfig, 'publicUrl' | 'smtpUrl' | 'mailFrom' | 'outboxDir'>, now: () => number) {
  const app = new Hono<AppEnv>();
  const mailer = createMailer(db, config, now);
  app.post(
    sendEmailByPageEndpoint.path,
    endpointHandler(sendEmailByPageEndpoint, (input, c) => refusing(c, () => sendEmailByPage(db, mailer, config.publicUrl, input))),
  );
  app.post(
    latestLeadByIdEndpoint.path,
    endpointHandler(latestLeadByIdEndpoint, (input, c) => refusing(c, () => latestLeadById(db, config, input))),
  );
  app.post(
    latestLeadByUuidEndpoint.path,
    endpointHandler(latestLeadByUuidEndpoint, (input, c) => refusing(c, () => latestLeadByUuid(db, config, input))),
  );
  return app;
}
