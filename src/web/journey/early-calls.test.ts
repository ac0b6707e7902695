// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient } from '../services/http-client';
import { fetchPaymentStatus } from '../services/payment.service';
import { fetchQuotes } from '../services/quote.service';
import { fetchLeadWithPlan } from '../services/review.service';
import { startEarlyCalls } from './early-calls';
import { quotesShareLink } from './step-lead';

/** The API edge replaced: every request is counted by path and left unanswered (only who asks matters). */
function countRequests() {
  const sent: string[] = [];
  configureHttpClient({
    baseUrl: 'http://early.test',
    signingKey: 'test',
    fetch: async (input) => {
      sent.push(new URL((input as Request).url).pathname);
      return new Promise<Response>(() => undefined);
    },
  });
  return sent;
}

const UUID = '5c1b7a2e-8f3d-4c6a-9b1e-2d4f6a8c0e13';
const SESSION = '7d2e9f4a-1b3c-4d5e-8f6a-0b1c2d3e4f50';

afterEach(() => vi.useRealTimers());

describe('a lead page opened from its link asks for its data at boot, and the screen takes that answer (issue 19)', () => {
  it.each([
    ['/compare-quotes', '/miscellaneous/travel/wiz/compare-quotes', () => fetchQuotes(UUID, 'ar', quotesShareLink('quotes', UUID))],
    ['/compare-offers', '/miscellaneous/travel/wiz/compare-quotes', () => fetchQuotes(UUID, 'ar', quotesShareLink('offers', UUID))],
    ['/review-details', '/miscellaneous/travel/wiz/get-personal-details', () => fetchLeadWithPlan(UUID, SESSION, 'ar')],
    ['/checkout', '/miscellaneous/travel/wiz/get-personal-details', () => fetchLeadWithPlan(UUID, SESSION, 'ar')],
    ['/payment-result', '/miscellaneous/travel/wiz/payment-status', () => fetchPaymentStatus({ uuid: UUID, reference: 'SAF1-ABC', lang: 'ar' })],
    ['/thank-you-p', '/miscellaneous/travel/wiz/payment-status', () => fetchPaymentStatus({ uuid: UUID, reference: null, lang: 'ar' })],
  ])('%s: one request, as the page’s own call would send it', async (path, endpoint, screenCall) => {
    const sent = countRequests();
    startEarlyCalls({ path, search: '?ref=SAF1-ABC', uuid: UUID, sessionId: SESSION, lang: 'ar' });
    void screenCall().catch(() => undefined);
    await vi.waitFor(() => expect(sent).toEqual([endpoint]));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([endpoint]);
  });

  it('the travel details page and a link without a lead start nothing', async () => {
    const sent = countRequests();
    startEarlyCalls({ path: '/traveller-details', search: '', uuid: UUID, sessionId: null, lang: 'en' });
    startEarlyCalls({ path: '/checkout', search: '', uuid: '', sessionId: null, lang: 'en' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual([]);
  });
});
