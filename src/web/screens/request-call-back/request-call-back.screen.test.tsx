import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JourneyInput } from '../../../../machines/journey.types';
import { LEAD_UUID, SAMPLE_LEAD, SAMPLE_REFERENCE, SAMPLE_VALUES, SESSION_UUID } from '../../../../machines/travel-details/travel-details.model';
import { activateLanguage } from '../../i18n/locale';
import * as callBackService from '../../services/call-back.service';
import { ApiError } from '../../services/http-client';
import * as leadService from '../../services/lead.service';
import * as referenceService from '../../services/reference.service';
import { COMPANY_INFO_FALLBACK } from '../../shell/company-info.fallback';
import { localStore } from '../../storage/local-store';
import { renderApp } from '../../../../tests/support/render-app';

/**
 * The short call-back wizard in the whole app (RULINGS 12–13), the API replaced by stubbed
 * services: /thank-you → /request-call-back → /call-back, the header offer, prefill, the shared
 * validation, server refusals and the rate limit.
 */

vi.mock('../../services/call-back.service', () => ({ requestCallBack: vi.fn() }));
vi.mock('../../services/lead.service', () => ({
  saveLead: vi.fn(),
  fetchPersonalDetails: vi.fn(),
  fetchRecentLeads: vi.fn(),
  checkAgent: vi.fn(),
}));
vi.mock('../../services/reference.service', () => ({
  fetchCountryOptions: vi.fn(),
  fetchCountryCodeOptions: vi.fn(),
  fetchTravelConfigs: vi.fn(),
}));

const callBack = vi.mocked(callBackService);
const lead = vi.mocked(leadService);
const reference = vi.mocked(referenceService);
const INFO = COMPANY_INFO_FALLBACK.en;

beforeAll(async () => {
  await activateLanguage('en');
});

beforeEach(() => {
  vi.resetAllMocks();
  reference.fetchCountryCodeOptions.mockResolvedValue(SAMPLE_REFERENCE.phoneCodes);
  // Travel details, where "start over" lands, keeps loading: these tests are not about it.
  reference.fetchCountryOptions.mockReturnValue(new Promise(() => {}));
  reference.fetchTravelConfigs.mockReturnValue(new Promise(() => {}));
  lead.fetchPersonalDetails.mockResolvedValue({
    get_customer: { id: 1, name: '', email: '', phone_country_code: '', phone_number: '', complete_phone_number: '' },
    lead_details: { ...SAMPLE_LEAD, name: 'Lead Person', email: 'lead@example.com', phone_country_code: '+33', phone_number: '0612345678' },
    get_invoice: null,
    checkout_totals: null,
    isLeadAlreadyInDeal: false,
    recent_searches: [],
  });
  callBack.requestCallBack.mockResolvedValue({ call_back_id: 41 });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

function open(path: string, journey: Partial<JourneyInput> = {}) {
  const { router, actor } = renderApp(path, { path: path.split('?')[0]!, uuid: null, sessionId: null, agentId: null, ...journey });
  return { router, actor, step: () => actor.getSnapshot().value };
}

const form = () => screen.findByTestId('call-back-form', {});
const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const submit = () => act(() => fireEvent.click(screen.getByRole('button', { name: 'Call me back' })));

describe('/thank-you (no online quote, RULINGS 12)', () => {
  it('row 13(e): says why, offers the toll-free line, WhatsApp, a call back, and "Back to travel details" keeps the lead (uuid)', async () => {
    const { step, router } = open(`/thank-you?uuid=${LEAD_UUID}`, { uuid: LEAD_UUID, sessionId: SESSION_UUID });
    const page = screen.getByTestId('screen-thank-you').closest('div')!.parentElement!;
    // Issue 38: the team's call is said once, and the button asks for another number, not for that same call.
    expect(screen.getByText('We cannot quote your trip online, so our team will call you shortly on the number you gave us.')).toBeTruthy();
    expect(screen.queryByText(/will contact you shortly/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Request a call back' })).toBeNull();
    expect(screen.getByText(/manual quote/)).toBeTruthy();
    const tel = within(page).getByRole('link', { name: `Call us toll-free on ${INFO.toll_free_number}` });
    expect(tel.getAttribute('href')).toBe(INFO.toll_free_number_tel);
    expect(within(page).getByRole('link', { name: 'Message us on WhatsApp' }).getAttribute('href')).toBe(INFO.whatsapp_url);
    // Row 13(e) of issue 8: back lands on this lead's travel details, uuid and sid kept.
    act(() => fireEvent.click(screen.getByRole('link', { name: 'Back to travel details' })));
    expect(step()).toBe('travellerDetails');
    expect(router.state.location.pathname).toBe('/traveller-details');
    expect(new URLSearchParams(router.state.location.search).get('uuid')).toBe(LEAD_UUID);
  });

  it('leads through /request-call-back to /call-back, sending the stored details for the lead', async () => {
    localStore.setJson('personal_details', SAMPLE_VALUES);
    const { step, router } = open(`/thank-you?uuid=${LEAD_UUID}`, { uuid: LEAD_UUID, sessionId: SESSION_UUID, agentId: '101' });
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Call me on another number' })));
    expect(step()).toBe('requestCallBack');
    expect(router.state.location.pathname).toBe('/request-call-back');
    await form();
    expect(screen.getByTestId('call-back-steps').textContent).toContain('Step 1 of 2');
    expect(field(/Full name/).value).toBe(SAMPLE_VALUES.name);
    expect(field(/Phone number/).value).toBe(SAMPLE_VALUES.phone_number);
    expect(field(/^Email/).value).toBe(SAMPLE_VALUES.email);
    expect(lead.fetchPersonalDetails).not.toHaveBeenCalled();

    submit();
    await waitFor(() => expect(step()).toBe('callBack'));
    expect(callBack.requestCallBack).toHaveBeenCalledWith({
      name: SAMPLE_VALUES.name,
      email: SAMPLE_VALUES.email,
      phone_country_code: '+961',
      phone_number: SAMPLE_VALUES.phone_number,
      uuid: LEAD_UUID,
      reason: 'no_online_quote',
      agent_id: 101,
      lang: 'en',
    });
    expect(localStore.get('callBack')).toBe('1');
    expect(router.state.location.pathname).toBe('/call-back');
    expect(screen.getByTestId('screen-call-back')).toBeTruthy();
    expect(screen.getByTestId('call-back-steps').textContent).toContain('Step 2 of 2');
    const options = screen.getByTestId('contact-options');
    expect(within(options).getByRole('link', { name: `Call us toll-free on ${INFO.toll_free_number}` }).getAttribute('href')).toBe(INFO.toll_free_number_tel);
    expect(within(options).getByRole('link', { name: 'Message us on WhatsApp' }).getAttribute('href')).toBe(INFO.whatsapp_url);
    // The header offers no second call back on the call-back pages.
    expect(screen.queryByTestId('header-call-back')).toBeNull();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Back to travel details' })));
    expect(step()).toBe('travellerDetails');
  });
});

describe('/request-call-back', () => {
  it('from the header: prefilled from the lead, sent with reason header (not the page’s own)', async () => {
    const { step, actor } = open(`/thank-you?uuid=${LEAD_UUID}`, { uuid: LEAD_UUID, sessionId: SESSION_UUID });
    expect(step()).toBe('thankYou');
    act(() => fireEvent.click(screen.getByTestId('header-call-back')));
    expect(step()).toBe('requestCallBack');
    expect(actor.getSnapshot().context.callBackReason).toBe('header');
    await form();
    expect(lead.fetchPersonalDetails).toHaveBeenCalledWith(LEAD_UUID, 'en');
    expect(field(/Full name/).value).toBe('Lead Person');
    expect(field(/Phone number/).value).toBe('0612345678');
    submit();
    await waitFor(() => expect(step()).toBe('callBack'));
    expect(callBack.requestCallBack.mock.calls[0]![0]).toMatchObject({ reason: 'header', uuid: LEAD_UUID, phone_country_code: '+33', agent_id: 0 });
  });

  it('issue 38: the name hint asks whom to ask for when calling, not the name on a passport', async () => {
    open('/request-call-back');
    await form();
    const hint = document.getElementById(field(/Full name/).getAttribute('aria-describedby')!.split(' ')[0]!);
    expect(hint?.textContent).toBe('Who we should ask for when we call, in English letters.');
    expect(screen.getByTestId('call-back-form').textContent).not.toMatch(/passport/i);
  });

  it('opened by its URL: an empty form, checked by the travel details rules and messages before sending', async () => {
    const { step } = open('/request-call-back');
    await form();
    expect(field(/Full name/).value).toBe('');
    submit();
    expect(await screen.findByText('Please enter your first name, last name or full name')).toBeTruthy();
    expect(screen.getByText('Please enter phone number')).toBeTruthy();
    expect(screen.getByText('Please enter your email')).toBeTruthy();
    expect(document.activeElement).toBe(field(/Full name/));
    fireEvent.change(field(/Full name/), { target: { value: 'Sami Khoury' } });
    fireEvent.change(field(/Phone number/), { target: { value: '71 23' } });
    fireEvent.change(field(/^Email/), { target: { value: 'sami@example' } });
    submit();
    expect(await screen.findByText('Please enter at least 7 digits and max 8 digits.')).toBeTruthy();
    expect(screen.getByText('Email address must be valid')).toBeTruthy();
    expect(callBack.requestCallBack).not.toHaveBeenCalled();
    fireEvent.change(field(/Phone number/), { target: { value: '71234567' } });
    fireEvent.change(field(/^Email/), { target: { value: 'sami@example.com' } });
    submit();
    await waitFor(() => expect(step()).toBe('callBack'));
    expect(callBack.requestCallBack.mock.calls[0]![0]).toMatchObject({ name: 'Sami Khoury', uuid: null, reason: 'customer_request' });
  });

  it('shows the server’s field error on its field and keeps what was typed', async () => {
    localStore.setJson('personal_details', SAMPLE_VALUES);
    callBack.requestCallBack.mockRejectedValue(
      new ApiError('invalid', '/x', 422, { status: 422, message: 'refused', data: { errors: { email: 'email_invalid' } } }),
    );
    const { step } = open('/request-call-back');
    await form();
    fireEvent.change(field(/Full name/), { target: { value: 'Rania Haddad Nassar' } });
    submit();
    expect(await screen.findByText('Email address must be valid')).toBeTruthy();
    expect(step()).toBe('requestCallBack');
    expect(field(/Full name/).value).toBe('Rania Haddad Nassar');
    expect(field(/^Email/).getAttribute('aria-invalid')).toBe('true');
  });

  it('says so clearly when the server refuses too many requests (429), keeping the form', async () => {
    localStore.setJson('personal_details', SAMPLE_VALUES);
    callBack.requestCallBack.mockRejectedValue(new ApiError('rejected', '/x', 429, { status: 429, message: 'Too many requests', data: {} }));
    const { step } = open('/request-call-back');
    await form();
    submit();
    const alert = await screen.findByTestId('call-back-failure');
    expect(alert.textContent).toContain('Please wait a few minutes and try again.');
    expect(step()).toBe('requestCallBack');
    expect(field(/Full name/).value).toBe(SAMPLE_VALUES.name);
  });

  it('shows the error view when the calling codes cannot be read', async () => {
    reference.fetchCountryCodeOptions.mockRejectedValue(new ApiError('network', '/x', null, null));
    open('/request-call-back');
    expect(await screen.findByText('An error occurred')).toBeTruthy();
  });
});
