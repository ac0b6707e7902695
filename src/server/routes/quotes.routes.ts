import { Hono } from 'hono';
import { todayIso } from '../../contract/dates';
import { compareQuotesEndpoint } from '../../contract/quote.endpoints';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { fail } from '../http/respond';
import { LeadNotFoundError } from '../leads/lead-errors';
import { cachedJson, sendCachedJson, type CachedJson } from '../http/cached-json';
import { message } from '../http/messages';
import { answerMemo, compareQuotesAnswer, type QuotesDeps } from './quotes.handlers';

/** Leads whose compare-quotes answer is kept (per language and link): the busiest recent ones. */
const KEPT_ANSWERS = 500;

/** Quote endpoints (spec §7 compare-quotes). `now` is the app's clock, for the tracker's last visit and insurer retries. */
export function quotesRoutes(deps: QuotesDeps, now: () => number) {
  const app = new Hono<AppEnv>();
  const answers = answerMemo<CachedJson>(deps.db, KEPT_ANSWERS);
  app.post(
    compareQuotesEndpoint.path,
    endpointHandler(compareQuotesEndpoint, async (input, c) => {
      try {
        const nowMs = now();
        const lang = c.get('lang');
        const envelope = (data: unknown) => cachedJson({ status: 200, message: message('ok', lang), data });
        return sendCachedJson(c, await compareQuotesAnswer(deps, answers, input, todayIso(nowMs), nowMs, envelope, lang));
      } catch (error) {
        if (error instanceof LeadNotFoundError) return fail(c, 404, 'not_found');
        throw error;
      }
    }),
  );
  return app;
}
