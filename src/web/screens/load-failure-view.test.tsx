import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../tests/support/render-app';
import { activateLanguage } from '../i18n/locale';
import { ApiError, configureHttpClient } from '../services/http-client';
import * as quoteService from '../services/quote.service';
import * as referenceService from '../services/reference.service';
import * as reviewService from '../services/review.service';

/**
 * Issue 17 item 7: a link whose lead no one has (the server answers 404 for its uuid) ends, on
 * each page that reads the lead, in "We could not find this quote" with a new quote and the
 * contact options, not in a refresh view that cannot help; "Start a new quote" opens travel
 * details without the uuid. The lead reads are stubs at the service edge, answering 404 as the
 * server does (tests/integration/leads-read.test.ts and quotes.test.ts check that it does).
 */

vi.mock('../services/quote.service', () => ({ fetchQuotes: vi.fn(), proceedReview: vi.fn(), sendEmailByPage: vi.fn() }));
vi.mock('../services/bot-check.service', () => ({ getBotCheckToken: vi.fn(), preloadBotCheck: vi.fn() }));
vi.mock('../services/review.service', () => ({ fetchLeadWithPlan: vi.fn(), fetchWhatsappTemplate: vi.fn(), saveTravellerInfo: vi.fn() }));
vi.mock('../services/reference.service', () => ({
  fetchCountryOptions: vi.fn(),
  fetchCountryCodeOptions: vi.fn(),
  fetchRelationshipOptions: vi.fn(),
  fetchTravelConfigs: vi.fn(),
}));
const quotes = vi.mocked(quoteService);
const review = vi.mocked(reviewService);
const reference = vi.mocked(referenceService);

const UNKNOWN_UUID = '3f1c2b9a-8d7e-4c6b-9a5f-1e2d3c4b5a69';
const notFound = () => new ApiError('rejected', '/lead', 404, { status: 404, message: 'Not found', data: {} });
const pending = () => new Promise<never>(() => {});

const TEXT = {
  en: { heading: 'We could not find this quote', refresh: 'Refresh', newQuote: 'Start a new quote' },
  ar: { heading: 'لم نعثر على عرض السعر هذا', refresh: 'تحديث', newQuote: 'اطلب عرض سعر جديدًا' },
} as const;

beforeAll(() => {
  configureHttpClient({ baseUrl: 'http://lead-not-found.test', signingKey: 'test', fetch: pending });
});
beforeEach(() => {
  vi.resetAllMocks();
  quotes.fetchQuotes.mockRejectedValue(notFound());
  review.fetchLeadWithPlan.mockRejectedValue(notFound());
  // What travel details and review ask for beside the lead: never answered, never needed here.
  reference.fetchCountryOptions.mockImplementation(pending);
  reference.fetchCountryCodeOptions.mockImplementation(pending);
  reference.fetchRelationshipOptions.mockImplementation(pending);
  reference.fetchTravelConfigs.mockImplementation(pending);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe.each(['en', 'ar'] as const)('an unknown lead in the address, in %s', (lang) => {
  beforeAll(() => activateLanguage(lang));
  afterAll(() => activateLanguage('en'));

  it.each(['compare-quotes', 'review-details', 'checkout'] as const)('/%s shows "We could not find this quote" with the contact options and no Refresh; Start a new quote opens travel details without the uuid', async (route) => {
    const { router } = renderApp(`/${route}?uuid=${UNKNOWN_UUID}&lang=${lang}`, { path: `/${route}`, uuid: UNKNOWN_UUID, sessionId: null, agentId: null }, { lang });
    const view = await screen.findByTestId('lead-not-found');
    expect(view.querySelector('h2')?.textContent).toBe(TEXT[lang].heading);
    expect(screen.queryByRole('button', { name: TEXT[lang].refresh })).toBeNull();
    expect(view.querySelector('[data-testid="contact-options"]')).not.toBeNull();

    act(() => fireEvent.click(screen.getByRole('button', { name: TEXT[lang].newQuote })));
    await screen.findByTestId('screen-traveller-details');
    expect(router.state.location.pathname).toBe('/traveller-details');
    expect(`${router.state.location.search}`).not.toContain(UNKNOWN_UUID);
  });
});
