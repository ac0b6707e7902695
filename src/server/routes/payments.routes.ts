import { Hono, type Context } from 'hono';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { errorFacts, RETRY_AFTER_SECONDS, type LogError } from '../http/error-handler';
import { seeOther } from '../payments/see-other';
import { handlePaymentNotice, type NoticeOutcome, type NoticeSource } from '../payments/payment-notice';
import type { OutboxWorker } from '../mail/outbox';

export interface PaymentsDeps {
  db: Db;
  config: AppConfig;
  mailWorker: Pick<OutboxWorker, 'nudge'>;
  now: () => number;
  logError: LogError;
}

/** Where Amazon Payment Services sends the browser back, and its direct transaction feedback. */
export const APS_RETURN_PATH = '/payments/aps/return';
export const APS_FEEDBACK_PATH = '/payments/aps/feedback';

/** The SPA's page that shows a payment's outcome (it reads it with payment-status). */
const RESULT_PAGE = '/payment-result';

/**
 * The gateway's answers (RULINGS 20): form posts outside the signed API, trusted for their APS
 * signature only (payment-notice.ts does the work). The return is the customer's browser, so it
 * always ends on the SPA's result page; the feedback is the gateway, which retries until it reads
 * a 200, so a refused notice gets a 4xx (retrying will not help) and a database failure a 503
 * (retrying will). A body that is not a form is a 400 on both.
 */
export function paymentsRoutes(deps: PaymentsDeps) {
  const app = new Hono<AppEnv>();

  app.post(APS_RETURN_PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    const outcome = await receive(c, deps, 'return', APS_RETURN_PATH);
    if (outcome === null) return unavailable(c);
    if (outcome.verdict === 'malformed') return c.text('Bad request: not a payment response.', 400);
    return seeOther(c, resultPage(outcome));
  });

  app.post(APS_FEEDBACK_PATH, async (c) => {
    c.header('Cache-Control', 'no-store');
    const outcome = await receive(c, deps, 'feedback', APS_FEEDBACK_PATH);
    if (outcome === null) return unavailable(c);
    if (outcome.verdict === 'applied' || outcome.verdict === 'repeated') return c.text('OK', 200);
    return c.text(`Refused: ${outcome.verdict}`, 400);
  });

  return app;
}

/**
 * Handles the notice; null when the database failed, after one error line (facts only: the
 * failure's class and SQLSTATE, never the payload, which holds the customer's e-mail and name).
 */
async function receive(c: Context<AppEnv>, deps: PaymentsDeps, source: NoticeSource, route: string): Promise<NoticeOutcome | null> {
  try {
    return await handlePaymentNotice(deps, source, c.req.header('content-type'), c.get('rawBody') ?? '');
  } catch (error) {
    try {
      deps.logError({ event: 'error', request_id: c.get('requestId'), method: c.req.method, route, ...errorFacts(error) });
    } catch {
      // A failing log sink must not turn the 503 into a 500.
    }
    return null;
  }
}

/**
 * Nothing was applied: the gateway retries its feedback, and a reload re-posts the return. The
 * database away or the disk full (issue 34) both end here, so Retry-After says when to.
 */
const unavailable = (c: Context<AppEnv>) => {
  c.header('Retry-After', String(RETRY_AFTER_SECONDS));
  return c.text('Service unavailable: the payment response was not recorded; please retry.', 503);
};

/**
 * The SPA's result page. A genuine notice (applied now or before, success or failure) names the
 * lead, the attempt and the order's language; a refused one names only a language, never a uuid
 * (RULINGS 24: a forged post must not learn whose lead a reference belongs to).
 */
function resultPage(outcome: Exclude<NoticeOutcome, { verdict: 'malformed' }>): string {
  const query =
    outcome.verdict === 'applied' || outcome.verdict === 'repeated'
      ? new URLSearchParams({ uuid: outcome.leadUuid, ref: outcome.merchantReference, lang: outcome.lang })
      : new URLSearchParams({ lang: outcome.lang });
  return `${RESULT_PAGE}?${query.toString()}`;
}
