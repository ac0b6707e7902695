import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayIso } from '../../../contract/dates';
import type { LeadDetails } from '../../../contract/lead.endpoints';
import type { JourneyInput } from '../../../../machines/journey.types';
import {
  DEVICE_UUID,
  LEAD_UUID,
  OTHER_LEAD_UUID,
  SAMPLE_LEAD,
  SAMPLE_REFERENCE,
  SESSION_UUID,
  recentSearch,
} from '../../../../machines/travel-details/travel-details.model';
import { activateLanguage } from '../../i18n/locale';
import { ApiError } from '../../services/http-client';
import * as leadService from '../../services/lead.service';
import * as referenceService from '../../services/reference.service';
import { localStore } from '../../storage/local-store';
import { renderApp } from '../../../../tests/support/render-app';

/**
 * The travel details screen in the whole app, with the services stubbed: what it shows while
 * loading, the chooser, the agent error, restoring and saving a lead, and what the journey and
 * local storage receive. Typing into the form is the form's own test and the e2e test's.
 */

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

const lead = vi.mocked(leadService);
const reference = vi.mocked(referenceService);

const today = todayIso();
/** A saved lead whose trip is still ahead, so the restored form passes every rule. */
const SAVED_LEAD: LeadDetails = { ...SAMPLE_LEAD, start_date: addDays(today, 20), end_date: addDays(today, 29) };
const SAVED = { customer: { id: 1, name: '', email: '', phone_country_code: '', phone_number: '', complete_phone_number: '' } };

function apiError(status: number | null, data: Record<string, unknown> = {}) {
  const kind = status === null ? 'network' : status >= 500 ? 'server' : status === 422 ? 'invalid' : 'rejected';
  return new ApiError(kind, '/x', status, status === null ? null : { status, message: 'refused', data });
}

beforeAll(async () => {
  await activateLanguage('en');
});

beforeEach(() => {
  vi.resetAllMocks();
  reference.fetchCountryOptions.mockResolvedValue([{ value: '422', label: 'Lebanon' }, ...SAMPLE_REFERENCE.countries]);
  reference.fetchCountryCodeOptions.mockResolvedValue(SAMPLE_REFERENCE.phoneCodes);
  reference.fetchTravelConfigs.mockResolvedValue({ maxTravellerCount: 8, familyChildMaxAge: 18 } as Awaited<
    ReturnType<typeof referenceService.fetchTravelConfigs>
  >);
  lead.fetchRecentLeads.mockResolvedValue({ leads: [], recent: [] });
  lead.checkAgent.mockResolvedValue({ id: 101, name: 'Demo Agent' });
  lead.fetchPersonalDetails.mockResolvedValue({ get_customer: SAVED.customer, lead_details: SAVED_LEAD, get_invoice: null, checkout_totals: null, isLeadAlreadyInDeal: false, recent_searches: [] });
  lead.saveLead.mockResolvedValue({ ...SAVED, uuid: LEAD_UUID, lead_map_id: 77, session_id: SESSION_UUID, device_uuid: DEVICE_UUID, redirect: null });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

function renderScreen(search = '', journey: Partial<JourneyInput> = {}, lang: 'en' | 'ar' = 'en') {
  const { router, actor } = renderApp(
    `/traveller-details${search}`,
    {
      path: '/traveller-details',
      uuid: null,
      sessionId: null,
      agentId: null,
      ...journey,
    },
    { lang },
  );
  return { router, actor, step: () => actor.getSnapshot().value };
}

const form = () => screen.findByTestId('travel-details-form', {});
/** A field's value without the direction marks that keep a code like +961 left to right in Arabic. */
const withoutMarks = (value: string) => value.replace(/[\u200e\u200f\u2066-\u2069]/g, '');
const fullName = () => screen.getByLabelText(/Full name/) as HTMLInputElement;

describe('loading', () => {
  it('shows a loader, then the form', async () => {
    renderScreen();
    expect(screen.getByTestId('screen-traveller-details')).toBeTruthy();
    expect(screen.getByTestId('travel-details-loading')).toBeTruthy();
    await form();
    expect(screen.queryByTestId('travel-details-loading')).toBeNull();
    expect(reference.fetchCountryOptions).toHaveBeenCalledWith('en');
    expect(lead.fetchRecentLeads).not.toHaveBeenCalled();
    expect(lead.checkAgent).not.toHaveBeenCalled();
  });

  it('shows the error view when the reference lists cannot be read', async () => {
    reference.fetchTravelConfigs.mockRejectedValue(apiError(500));
    renderScreen();
    expect(await screen.findByText('An error occurred')).toBeTruthy();
    expect(screen.queryByTestId('travel-details-form')).toBeNull();
  });

  it('prefills name, e-mail and phone from the link', async () => {
    renderScreen('?name=Rania%20Haddad&email=r@x.com&pn=71234567&country_code=961');
    await form();
    expect(fullName().value).toBe('Rania Haddad');
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('r@x.com');
    expect((screen.getByLabelText(/^Phone number/) as HTMLInputElement).value).toBe('71234567');
    expect(withoutMarks((screen.getByRole('combobox', { name: /^Country code/ }) as HTMLInputElement).value)).toBe('+961');
  });

  it('row 7: a link with an unknown country_code and a too long pn shows +961 and 8 digits', async () => {
    renderScreen('?pn=711234567890&country_code=9999');
    await form();
    expect(withoutMarks((screen.getByRole('combobox', { name: /^Country code/ }) as HTMLInputElement).value)).toBe('+961');
    expect((screen.getByLabelText(/^Phone number/) as HTMLInputElement).value).toBe('71123456');
  });

  describe('in Arabic', () => {
    beforeAll(() => activateLanguage('ar'));
    afterAll(() => activateLanguage('en'));

    it('row 7: a link with an unknown country_code and a too long pn shows +961 and 8 digits', async () => {
      renderScreen('?pn=711234567890&country_code=9999', {}, 'ar');
      await form();
      expect(withoutMarks((screen.getByRole('combobox', { name: /^رمز الدولة/ }) as HTMLInputElement).value)).toBe('+961');
      expect((screen.getByLabelText(/^رقم الهاتف/) as HTMLInputElement).value).toBe('71123456');
    });

    it('prefills name, e-mail and phone from the link, the code +961 read left to right', async () => {
      renderScreen('?name=Rania%20Haddad&email=r@x.com&pn=71234567&country_code=961', {}, 'ar');
      await form();
      expect((screen.getByLabelText(/^الاسم الكامل/) as HTMLInputElement).value).toBe('Rania Haddad');
      expect((screen.getByLabelText(/^البريد الإلكتروني/) as HTMLInputElement).value).toBe('r@x.com');
      expect((screen.getByLabelText(/^رقم الهاتف/) as HTMLInputElement).value).toBe('71234567');
      expect(withoutMarks((screen.getByRole('combobox', { name: /^رمز الدولة/ }) as HTMLInputElement).value)).toBe('+961');
    });
  });
});

/** The labels these tests find, per language (Arabic from locales/ar/messages.po). */
const LABELS = {
  en: { annual: 'Annual multi-trip', single: 'Single trip', name: /^Full name/, email: /^Email/, phone: /^Phone number/ },
  ar: { annual: 'سنوية متعددة الرحلات', single: 'رحلة واحدة', name: /^الاسم الكامل/, email: /^البريد الإلكتروني/, phone: /^رقم الهاتف/ },
} as const;

describe.each(['en', 'ar'] as const)('the address and the header in %s', (lang) => {
  const labels = LABELS[lang];
  beforeAll(() => activateLanguage(lang));
  afterAll(() => activateLanguage('en'));
  const radio = (name: string) => screen.getByRole('radio', { name }) as HTMLInputElement;

  it('row 4: switching the trip type writes insurance_type (the rest of the query kept), and insurance_type preselects it on load', async () => {
    const { router } = renderScreen(`?lang=${lang}&utm_source=news`, {}, lang);
    await form();
    const query = () => new URLSearchParams(router.state.location.search);
    expect(query().get('insurance_type')).toBeNull();
    act(() => fireEvent.click(radio(labels.annual)));
    await waitFor(() => expect(query().get('insurance_type')).toBe('2'));
    expect([query().get('utm_source'), query().get('lang'), router.state.location.pathname]).toEqual(['news', lang, '/traveller-details']);
    act(() => fireEvent.click(radio(labels.single)));
    await waitFor(() => expect(query().get('insurance_type')).toBe('1'));
    cleanup();

    renderScreen(`?lang=${lang}&insurance_type=2`, {}, lang);
    await form();
    expect(radio(labels.annual).checked).toBe(true);
    cleanup();
    // An unknown value is the default, a single trip.
    renderScreen(`?lang=${lang}&insurance_type=7`, {}, lang);
    await form();
    expect(radio(labels.single).checked).toBe(true);
  });

  it('row 10: "Call me back" in the header after typing a name, e-mail and phone (not saved) opens the call-back form prefilled with them', async () => {
    const { step, router } = renderScreen(`?lang=${lang}&state=new`, {}, lang);
    await form();
    fireEvent.change(screen.getByLabelText(labels.name), { target: { value: 'Rania Haddad' } });
    fireEvent.change(screen.getByLabelText(labels.email), { target: { value: 'rania.unsaved@example.com' } });
    fireEvent.change(screen.getByLabelText(labels.phone), { target: { value: '71123456' } });
    act(() => fireEvent.click(screen.getByTestId('header-call-back')));
    expect(step()).toBe('requestCallBack');
    expect(router.state.location.pathname).toBe('/request-call-back');
    const callBackForm = await screen.findByTestId('call-back-form');
    const box = (label: RegExp) => within(callBackForm).getByLabelText(label) as HTMLInputElement;
    await waitFor(() => expect(box(labels.name).value).toBe('Rania Haddad'));
    expect(box(labels.email).value).toBe('rania.unsaved@example.com');
    expect(box(labels.phone).value).toBe('71123456');
    expect(lead.saveLead).not.toHaveBeenCalled();
  });
});

describe('the leads chooser', () => {
  beforeEach(() => {
    localStore.set('device_uuid', DEVICE_UUID);
    lead.fetchRecentLeads.mockResolvedValue({
      leads: [recentSearch(LEAD_UUID, 1), recentSearch(OTHER_LEAD_UUID, 2)],
      recent: [recentSearch(LEAD_UUID, 1)],
    });
  });

  it('lists the device’s leads once each, with where each one continues', async () => {
    renderScreen();
    const dialog = await screen.findByRole('dialog', { name: 'Select from existing entered data' });
    expect(lead.fetchRecentLeads).toHaveBeenCalledWith(DEVICE_UUID, 'en');
    const items = within(dialog).getAllByTestId('recent-lead');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('France, Türkiye');
    expect(items[0]!.textContent).toContain('2 travellers');
    expect(items[0]!.textContent).toContain('Continue at: compare quotes');
    expect(items[1]!.textContent).toContain('Continue at: review details');
  });

  it.each([
    [0, 'compareQuotes', LEAD_UUID],
    [1, 'reviewDetails', OTHER_LEAD_UUID],
  ] as const)('picking lead %i opens %s for it and stores it with traveller index 0', async (index, page, uuid) => {
    const { step, router } = renderScreen();
    const dialog = await screen.findByRole('dialog');
    act(() => fireEvent.click(within(dialog).getAllByTestId('recent-lead')[index]!));
    await waitFor(() => expect(step()).toBe(page));
    expect(new URLSearchParams(router.state.location.search).get('uuid')).toBe(uuid);
    expect(localStore.get('uuid')).toBe(uuid);
    expect(localStore.get('traveller_index')).toBe('0');
  });

  it('"Enter new details" closes the dialog and shows an empty form', async () => {
    renderScreen('?name=Rania%20Haddad');
    const dialog = await screen.findByRole('dialog');
    act(() => fireEvent.click(within(dialog).getByRole('button', { name: 'Enter new details' })));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await form();
    expect(fullName().value).toBe('Rania Haddad');
  });
});

describe('agent links (RULINGS 14)', () => {
  it('shows an alert for an unknown agent', async () => {
    lead.checkAgent.mockRejectedValue(apiError(422, { errors: { agent_id: 'agent_unknown' } }));
    renderScreen('?agent_id=99999', { agentId: '99999' });
    const alert = await screen.findByTestId('agent-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toContain('This agent link is not valid. Please check it with your broker.');
    expect(lead.checkAgent).toHaveBeenCalledWith(99999, 'en');
  });

  describe('in Arabic', () => {
    beforeAll(() => activateLanguage('ar'));
    afterAll(() => activateLanguage('en'));

    it('shows the alert for an unknown agent in Arabic, asking the server in Arabic', async () => {
      lead.checkAgent.mockRejectedValue(apiError(422, { errors: { agent_id: 'agent_unknown' } }));
      renderScreen('?agent_id=99999', { agentId: '99999' }, 'ar');
      const alert = await screen.findByTestId('agent-error');
      expect(alert.getAttribute('role')).toBe('alert');
      expect(alert.textContent).toContain('رابط الوكيل هذا غير صالح. يرجى التحقّق منه لدى وسيط التأمين.');
      expect(alert.textContent).not.toContain('This agent link');
      expect(lead.checkAgent).toHaveBeenCalledWith(99999, 'ar');
    });

    it('shows nothing for a known agent', async () => {
      renderScreen('?agent_id=101', { agentId: '101' }, 'ar');
      await form();
      expect(lead.checkAgent).toHaveBeenCalledWith(101, 'ar');
      expect(screen.queryByTestId('agent-error')).toBeNull();
    });
  });

  it('shows nothing for a known agent', async () => {
    renderScreen('?agent_id=101', { agentId: '101' });
    await form();
    expect(screen.queryByTestId('agent-error')).toBeNull();
  });
});

describe('a lead named by ?uuid=', () => {
  const open = () => renderScreen(`?uuid=${LEAD_UUID}`, { uuid: LEAD_UUID });

  it('is restored into the form, and saved in place', async () => {
    const { step, router } = open();
    await form();
    expect(lead.fetchPersonalDetails).toHaveBeenCalledWith(LEAD_UUID, 'en');
    expect(fullName().value).toBe('Rania Haddad');
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Proceed' })));
    await waitFor(() => expect(step()).toBe('compareQuotes'));
    expect(lead.saveLead).toHaveBeenCalledTimes(1);
    expect(lead.saveLead.mock.calls[0]![0]).toMatchObject({ uuid: LEAD_UUID, name: 'Rania Haddad', agent_id: 0, lang: 'en' });
    const query = new URLSearchParams(router.state.location.search);
    expect([query.get('uuid'), query.get('sid')]).toEqual([LEAD_UUID, SESSION_UUID]);
    expect({
      uuid: localStore.get('uuid'),
      session_id: localStore.get('session_id'),
      device_uuid: localStore.get('device_uuid'),
      map_id: localStore.get('map_id'),
      traveller_index: localStore.get('traveller_index'),
    }).toEqual({ uuid: LEAD_UUID, session_id: SESSION_UUID, device_uuid: DEVICE_UUID, map_id: '77', traveller_index: '0' });
    expect(JSON.parse(localStore.get('personal_details')!)).toMatchObject({ name: 'Rania Haddad', email: SAVED_LEAD.email });
  });

  it('shows "Email already taken" on the e-mail field after a 409, keeping the values', async () => {
    lead.saveLead.mockRejectedValue(apiError(409, { email_taken: true }));
    const { step } = open();
    await form();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Proceed' })));
    expect(await screen.findByText('Email already taken with another phone number. Enter the phone number you used before with this e-mail, or use another e-mail.')).toBeTruthy();
    expect(step()).toBe('travellerDetails');
    expect(fullName().value).toBe('Rania Haddad');
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe(SAVED_LEAD.email);
    expect(screen.queryByText('Something went wrong')).toBeNull();
  });

  it('row 13(f): after "Email already taken" the customer is offered a call back, which opens the call-back form', async () => {
    lead.saveLead.mockRejectedValue(apiError(409, { email_taken: true }));
    const { step, router } = open();
    await form();
    expect(screen.queryByTestId('contact-taken-help')).toBeNull();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Proceed' })));
    const help = await screen.findByTestId('contact-taken-help');
    expect(help.textContent).toContain('Enter the phone number you used before');
    act(() => fireEvent.click(within(help).getByRole('button', { name: 'Call me back' })));
    expect(step()).toBe('requestCallBack');
    expect(router.state.location.pathname).toBe('/request-call-back');
  });

  it('issue 38: a known phone with a new e-mail is told what to do, and a call back is one tap away, starting from what was typed', async () => {
    lead.saveLead.mockRejectedValue(apiError(409, { phone_taken: true }));
    const { step, router } = open();
    await form();
    const email = screen.getByLabelText(/^Email/) as HTMLInputElement;
    fireEvent.change(email, { target: { value: 'rania.new@example.com' } });
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Proceed' })));
    expect(
      await screen.findByText('Phone number already taken with another e-mail. Enter the e-mail you used before with this phone number, or use another phone number.'),
    ).toBeTruthy();
    const help = await screen.findByTestId('contact-taken-help');
    expect(help.getAttribute('data-taken')).toBe('phone');
    expect(help.textContent).toContain('Enter the e-mail you used before with it');
    act(() => fireEvent.click(within(help).getByRole('button', { name: 'Call me back' })));
    expect(step()).toBe('requestCallBack');
    expect(router.state.location.pathname).toBe('/request-call-back');
    const callBackForm = await screen.findByTestId('call-back-form', {});
    expect((within(callBackForm).getByLabelText(/^Email/) as HTMLInputElement).value).toBe('rania.new@example.com');
    expect((within(callBackForm).getByLabelText(/Full name/) as HTMLInputElement).value).toBe('Rania Haddad');
  });

  it('opens the system error dialog when the save fails, keeping the values', async () => {
    lead.saveLead.mockRejectedValue(apiError(null));
    const { step } = open();
    await form();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Proceed' })));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(step()).toBe('travellerDetails');
    expect(fullName().value).toBe('Rania Haddad');
  });

  it('shows /thank-you with the lead when no plan can quote it online (RULINGS 12), storing the thankyou flag', async () => {
    lead.saveLead.mockResolvedValue({ ...SAVED, uuid: LEAD_UUID, lead_map_id: 77, session_id: SESSION_UUID, device_uuid: DEVICE_UUID, redirect: 'thank-you' });
    const { step, router } = open();
    await form();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Proceed' })));
    await waitFor(() => expect(step()).toBe('thankYou'));
    expect(screen.getByTestId('screen-thank-you')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/thank-you');
    expect(new URLSearchParams(router.state.location.search).get('uuid')).toBe(LEAD_UUID);
    expect([localStore.get('thankyou'), localStore.get('uuid')]).toEqual(['1', LEAD_UUID]);
  });

  it('starts blank when the lead does not exist', async () => {
    lead.fetchPersonalDetails.mockRejectedValue(apiError(404));
    open();
    await form();
    expect(fullName().value).toBe('');
  });
});
