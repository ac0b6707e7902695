import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PolicyPage } from '../../../contract/policy-page.endpoints';
import { renderApp } from '../../../../tests/support/render-app';
import { activateLanguage } from '../../i18n/locale';
import { pendingBuyAgain, clearBuyAgain } from '../../journey/buy-again';
import { ApiError, configureHttpClient } from '../../services/http-client';
import * as leadStatus from '../../services/lead-status.service';
import * as service from '../../services/policy-page.service';

/**
 * The policy page of a paid trip (issue 37 item 2) and the way every journey link to a paid lead
 * reaches it (RULINGS 28), rendered in the whole app. The server's answers are mocked at the
 * service (the integration tests check the server); the travel details step's own calls stay
 * pending.
 */

vi.mock('../../services/policy-page.service', () => ({
  fetchPolicyPage: vi.fn(),
  resendPolicy: vi.fn(),
  requestCancellation: vi.fn(),
}));
vi.mock('../../services/lead-status.service', () => ({ fetchLeadStatus: vi.fn() }));
const api = { ...vi.mocked(service), ...vi.mocked(leadStatus) };

const TOKEN = '7f'.repeat(32);
const LEAD = '0b9d2c4e-1f3a-4b5c-8d6e-7f8091a2b3c4';

const POLICY: PolicyPage = {
  policy_number: 'SFR-26-7K3Q9M2T',
  status: 'not_started',
  issued_at: '2026-11-20T10:00:00.000Z',
  insurer: { name: 'Levant Shield (demo)', assistance_phone: '+961 1 555 712' },
  plan: { name: 'Schengen Visa Care', coverage: 'Standard', family: true, medical_limit_usd: 60_000, schengen_visa_compliant: true },
  addons: [
    { code: 'winter_sports', name: 'Winter sports', limit_usd: 10_000 },
    { code: 'rental_car_excess', name: 'Rental car excess', limit_usd: null },
  ],
  trip: { trip_type: 1, start_date: '2027-01-10', end_date: '2027-01-20', days: 11, direction: 'outbound', destinations: ['France', 'Italy'], source: 'Lebanon' },
  travellers: [
    { name: 'RANIA HADDAD', dob: '1988-04-02', passport: '••••••123' },
    { name: 'KARIM HADDAD', dob: '2015-09-30', passport: '••••••456' },
  ],
  receipt: {
    plan_cents: 10_000,
    addons: [{ name: 'Winter sports', cents: 3_000 }],
    discount_cents: 1_000,
    coupon_code: 'SAFAR10',
    vat_percent: 11,
    vat_cents: 1_320,
    stamp_cents: 200,
    total_cents: 13_520,
    merchant_reference: 'SAF42-MFX3K2A1-7QZC0P4M8R2D',
  },
  certificate: { en: '/policies/abc/certificate.pdf', ar: '/policies/abc/certificate.pdf?lang=ar' },
  email: 'ra•••@example.com',
  can_request_cancellation: true,
  cancellation_request: null,
  buy_again: {
    name: 'Rania Haddad',
    email: 'rania@example.com',
    phone_country_code: '+961',
    phone_number: '3123456',
    inbound_outbound: true,
    trip_type: 1,
    start_date: null,
    end_date: null,
    destination_id: [75, 110],
    source_id: 122,
    no_of_traveller: 2,
    is_family: true,
    travellers_info: [
      { id: null, dob: '1988-04-02', first_name: 'Rania', middle_name: null, last_name: 'Haddad', relationship_type_id: 5 },
      { id: null, dob: '2015-09-30', first_name: 'Karim', middle_name: null, last_name: 'Haddad', relationship_type_id: 3 },
    ],
  },
};

const pendingFetch: typeof fetch = () => new Promise(() => {});

beforeAll(async () => {
  await activateLanguage('en');
  configureHttpClient({ baseUrl: 'http://policy.test', signingKey: 'test', fetch: pendingFetch });
});
beforeEach(() => {
  vi.resetAllMocks();
  api.fetchPolicyPage.mockResolvedValue(POLICY);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  clearBuyAgain();
});

function openPolicy(agentId: string | null = null) {
  const { router, actor } = renderApp(`/policy/${TOKEN}?lang=en`, { path: `/policy/${TOKEN}`, uuid: null, sessionId: null, agentId });
  return { router, actor, step: () => actor.getSnapshot().value };
}

describe('/policy/<token>: the customer\'s policy page', () => {
  it('shows the plan as a Family plan, the covers with their limits, the trip, the masked travellers, the receipt and the 24/7 line as a tel: link', async () => {
    openPolicy();
    const page = await screen.findByTestId('policy-page');
    expect(api.fetchPolicyPage).toHaveBeenCalledWith(TOKEN, 'en');
    expect(screen.getByTestId('screen-policy').textContent).toBe('Your policy');
    expect(within(page).getByText(/Family plan/)).toBeTruthy();
    expect(screen.getByTestId('policy-status').dataset.status).toBe('not_started');
    // Amounts are isolated left to right inside the sentence (U+2066 … U+2069).
    const covers = screen.getByTestId('policy-addons').textContent!.replace(/[\u2066\u2069]/g, '');
    expect(covers).toContain('Winter sports — up to');
    expect(covers).toContain('Winter sports — up to $10,000 per traveller');
    expect(covers).toContain('Rental car excess');
    const travellers = screen.getByTestId('policy-travellers').textContent!;
    expect(travellers).toContain('RANIA HADDAD');
    expect(travellers).toContain('••••••123');
    expect(travellers).not.toMatch(/[A-Z]{2}\d{6}/);
    expect(screen.getByTestId('policy-total').textContent).toContain('135.20');
    expect(screen.getByTestId('policy-receipt').textContent).toContain('Discount (SAFAR10)');
    const call = screen.getByTestId('policy-assistance-call');
    expect(call.getAttribute('href')).toBe('tel:+9611555712');
    expect(screen.getByTestId('certificate-en').getAttribute('href')).toBe(POLICY.certificate.en);
    expect(screen.getByTestId('certificate-ar').getAttribute('href')).toBe(POLICY.certificate.ar);
    // Opened by its own link, not for a journey page of the lead: no "paid" line.
    expect(screen.queryByTestId('policy-paid-notice')).toBeNull();
  });

  it('a token that names no policy says so, with a way to a new quote', async () => {
    api.fetchPolicyPage.mockRejectedValue(new ApiError('rejected', '/policy-page', 404, null));
    const { step } = openPolicy();
    await screen.findByTestId('policy-not-found');
    act(() => fireEvent.click(screen.getByTestId('policy-not-found-new-quote')));
    expect(step()).toBe('travellerDetails');
  });

  it('"Send it again" says where it went; over the hourly limit it says to try later', async () => {
    api.resendPolicy.mockResolvedValueOnce('ra•••@example.com').mockRejectedValueOnce(new ApiError('rejected', '/resend', 429, null));
    openPolicy();
    fireEvent.click(await screen.findByTestId('policy-resend'));
    await waitFor(() => expect(screen.getByTestId('policy-resend-result').textContent).toBe('We sent the certificate again to ra•••@example.com.'));
    expect(api.resendPolicy).toHaveBeenCalledWith(TOKEN, 'en');
    fireEvent.click(screen.getByTestId('policy-resend'));
    await waitFor(() => expect(screen.getByTestId('policy-resend-result').textContent).toContain('sent several times in the last hour'));
  });

  it('a cancellation request needs a reason, is sent with the note, and the page then shows its status', async () => {
    api.requestCancellation.mockResolvedValue({
      ...POLICY,
      can_request_cancellation: false,
      cancellation_request: { reason: 'visa_refused', note: 'Refused on 3 Jan', status: 'open', created_at: '2026-12-04T09:00:00.000Z' },
    });
    openPolicy();
    fireEvent.click(await screen.findByTestId('policy-cancel-open'));
    fireEvent.click(screen.getByTestId('policy-cancel-submit'));
    expect(await screen.findByText('Choose a reason.')).toBeTruthy();
    expect(api.requestCancellation).not.toHaveBeenCalled();
    fireEvent.click(screen.getByLabelText('My visa was refused'));
    fireEvent.change(screen.getByLabelText('Note (optional)'), { target: { value: '  Refused on\n3 Jan ' } });
    fireEvent.click(screen.getByTestId('policy-cancel-submit'));
    const status = await screen.findByTestId('policy-cancellation-status');
    expect(api.requestCancellation).toHaveBeenCalledWith(TOKEN, 'visa_refused', 'Refused on 3 Jan', 'en');
    expect(status.dataset.status).toBe('open');
    expect(status.textContent).toContain('We received your request on 4 Dec 2026');
  });

  it('offers no cancellation once the policy started', async () => {
    api.fetchPolicyPage.mockResolvedValue({ ...POLICY, status: 'valid', can_request_cancellation: false });
    openPolicy();
    await screen.findByTestId('policy-page');
    expect(screen.queryByTestId('policy-cancellation')).toBeNull();
  });

  it('"Buy again" opens travel details with this policy\'s travellers, and names the policy for the new lead', async () => {
    const { step, router } = openPolicy();
    fireEvent.click(await screen.findByTestId('policy-buy-again'));
    expect(step()).toBe('travellerDetails');
    expect(router.state.location.pathname).toBe('/traveller-details');
    expect(pendingBuyAgain()).toEqual({ policyToken: TOKEN, details: POLICY.buy_again });
  });
});

describe('a journey link to a paid lead (RULINGS 28)', () => {
  it.each(['/checkout', '/review-details', '/compare-quotes', '/compare-offers', '/traveller-details'])('%s?uuid=<paid> asks first, shows no form, and opens the policy with a line saying it is paid', async (path) => {
    let answer: (value: { status: 'paid'; policy_page: string }) => void = () => {};
    api.fetchLeadStatus.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const { router, actor } = renderApp(`${path}?uuid=${LEAD}&lang=en`, { path, uuid: LEAD, sessionId: null, agentId: null });
    expect(screen.getByTestId('lead-status-check')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Buy now|Proceed|Save/ })).toBeNull();
    expect(api.fetchLeadStatus).toHaveBeenCalledWith(LEAD, 'en');
    await act(async () => answer({ status: 'paid', policy_page: `/policy/${TOKEN}` }));
    expect(actor.getSnapshot().value).toBe('policy');
    expect(router.state.location.pathname).toBe(`/policy/${TOKEN}`);
    expect(new URLSearchParams(router.state.location.search).get('uuid')).toBeNull();
    expect(router.state.historyAction).toBe('REPLACE');
    expect((await screen.findByTestId('policy-paid-notice')).textContent).toBe('This trip is paid. Here is its policy.');
  });

  it('to an agent, the line says the customer has paid', async () => {
    api.fetchLeadStatus.mockResolvedValue({ status: 'paid', policy_page: `/policy/${TOKEN}` });
    renderApp(`/compare-quotes?uuid=${LEAD}&agent_id=101`, { path: '/compare-quotes', uuid: LEAD, sessionId: null, agentId: '101' });
    expect((await screen.findByTestId('policy-paid-notice')).textContent).toBe('The customer has paid for this trip. Here is its policy.');
  });

  it('a lead that is not paid opens its page once the server said so, and is not asked about again', async () => {
    api.fetchLeadStatus.mockResolvedValue({ status: 'open', policy_page: null });
    const { actor } = renderApp(`/checkout?uuid=${LEAD}`, { path: '/checkout', uuid: LEAD, sessionId: null, agentId: null });
    await screen.findByTestId('screen-checkout');
    expect(actor.getSnapshot().value).toBe('checkout');
    expect(api.fetchLeadStatus).toHaveBeenCalledTimes(1);
  });
});

afterAll(() => vi.restoreAllMocks());
