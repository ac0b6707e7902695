import { Hono } from 'hono';
import { todayIso } from '../../contract/dates';
import { compareQuotesEndpoint } from '../../contract/quote.endpoints';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { fail } from '../http/respond';
import { LeadNotFoundError } from '../leads/lead-errors';
import { compareQuotes, type QuotesDeps } from './quotes.handlers';

/** Quote endpoints (spec §7 compare-quotes). `now` is the app's clock, for the tracker's last visit and insurer retries. */
export function quotesRoutes(deps: QuotesDeps, now: () => number) {
  const app = new Hono<AppEnv>();
  app.post(
    compareQuotesEndpoint.path,
    endpointHandler(compareQuotesEndpoint, async (input, c) => {
      try {
        const nowMs = now();
        return await compareQuotes(deps, input, todayIso(nowMs), nowMs);
      } catch (error) {
        if (error instanceof LeadNotFoundError) return fail(c, 404, 'not_found');
        throw error;
      }
    }),
  );
  return app;
}
