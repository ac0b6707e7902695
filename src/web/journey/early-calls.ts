import type { Language } from '../../contract/endpoint';
import { startEarly } from '../services/http-client';
import { fetchPaymentStatus } from '../services/payment.service';
import { fetchQuotes } from '../services/quote.service';
import { fetchLeadWithPlan } from '../services/review.service';
import { quotesShareLink } from './step-lead';

/** The page as the app boots on it (main.tsx): its path, query and lead, and the language. */
export interface EarlyPage {
  path: string;
  /** The query kept in the address (startup-query.ts), e.g. "?ref=SF-…". */
  search: string;
  uuid: string | null;
  sessionId: string | null;
  lang: Language;
}

/**
 * A link to a lead's page (the quote list, the compare table, review, checkout, the payment
 * result) starts that page's first call at boot, beside the scripts and the language it waits
 * for, through the service function the page's machine calls with the arguments it will pass:
 * the data no longer waits for the app's first render (issue 19). The page's own call takes the
 * answer (http-client.ts startEarly). Not the first page's lists: measured in Chromium, asking for them during the
 * pre-rendered page's hydration made the form show later, not sooner.
 */
export function startEarlyCalls(page: EarlyPage): void {
  const { path, search, lang } = page;
  // As the journey reads them (journey.machine.ts initialContext): an empty value is none.
  const uuid = page.uuid || null;
  const sessionId = page.sessionId || null;
  if (!uuid) return;
  if (path === '/compare-quotes' || path === '/compare-offers') {
    startEarly(() => fetchQuotes(uuid, lang, quotesShareLink(path === '/compare-offers' ? 'offers' : 'quotes', uuid)));
  } else if (path === '/review-details' || path === '/checkout') {
    startEarly(() => fetchLeadWithPlan(uuid, sessionId, lang));
  } else if (path === '/payment-result' || path === '/thank-you-p') {
    const reference = path === '/payment-result' ? new URLSearchParams(search).get('ref') || null : null;
    startEarly(() => fetchPaymentStatus({ uuid, reference, lang }));
  }
}
