import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JourneyInput } from '../../../../machines/journey.types';
import {
  BOT_TOKEN,
  EMPTY_DATA,
  ERROR_DATA,
  QUOTES_LEAD_UUID,
  QUOTES_SESSION_UUID,
  SAMPLE_DATA,
  SAMPLE_QUOTES,
  quotesData,
} from '../../../../machines/quotes/quotes.model';
import { activateLanguage } from '../../i18n/locale';
import { ApiError } from '../../services/http-client';
import * as botCheck from '../../services/bot-check.service';
import * as quoteService from '../../services/quote.service';
import { localStore } from '../../storage/local-store';
import { renderApp } from '../../../../tests/support/render-app';

/**
 * The quote list in the whole app, with the API services and the bot check stubbed: loader,
 * summary, cards with add-ons that move the price, sort and filter, drawer, compare tray (up to
 * 3), buy now to /review-details, the empty and error states and the agent shares.
 */

vi.mock('../../services/quote.service', () => ({ fetchQuotes: vi.fn(), proceedReview: vi.fn(), sendEmailByPage: vi.fn() }));
vi.mock('../../services/bot-check.service', () => ({ getBotCheckToken: vi.fn(), preloadBotCheck: vi.fn() }));

const quotes = vi.mocked(quoteService);
const bot = vi.mocked(botCheck);
const [first, second, third, fourth] = SAMPLE_QUOTES as [(typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0]];

beforeAll(async () => {
  await activateLanguage('en');
});

beforeEach(() => {
  vi.resetAllMocks();
  quotes.fetchQuotes.mockResolvedValue(SAMPLE_DATA);
  quotes.proceedReview.mockResolvedValue({} as Awaited<ReturnType<typeof quoteService.proceedReview>>);
  quotes.sendEmailByPage.mockResolvedValue({ sent: true });
  bot.getBotCheckToken.mockResolvedValue(BOT_TOKEN);
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

function renderScreen(journey: Partial<JourneyInput> = {}) {
  const { router, actor } = renderApp(`/compare-quotes?uuid=${QUOTES_LEAD_UUID}`, {
    path: '/compare-quotes',
    uuid: QUOTES_LEAD_UUID,
    sessionId: QUOTES_SESSION_UUID,
    agentId: null,
    ...journey,
  });
  return { router, actor, step: () => actor.getSnapshot().value };
}

/** The cards, once the list has drawn all of them (it draws a few per task, use-revealed-count.ts). */
const cards = async () => {
  const list = await screen.findByTestId('quote-list', {});
  await waitFor(() => expect(list.getAttribute('aria-busy')).toBe('false'));
  return screen.getAllByTestId('quote-card');
};
const card = (quoteId: number) => screen.getAllByTestId('quote-card').find((element) => element.dataset.quoteId === String(quoteId))!;
const totalOf = (quoteId: number) => within(card(quoteId)).getByTestId('quote-total').textContent;

/** The input a select's visible label names (the label also names its list box). */
function labelled(label: string): HTMLInputElement {
  const inputs = screen.getAllByLabelText(label).filter((element) => element.tagName === 'INPUT');
  if (inputs.length !== 1) throw new Error(`${inputs.length} inputs labelled ${label}`);
  return inputs[0] as HTMLInputElement;
}

/** Opens a Mantine select by its label and clicks an option of its own list (rendered once it opens). */
function pickOption(label: string, option: string) {
  act(() => fireEvent.click(labelled(label)));
  const list = screen.getByRole('listbox', { name: label });
  act(() => fireEvent.click(within(list).getByRole('option', { name: option })));
}
/** An amount as shown: "$61" inside left-to-right isolates (issue 8 row 12). */
const dollars = (cents: number) => `\u2066$${Math.round(cents / 100).toLocaleString('en-US')}\u2069`;

describe('loading and the summary', () => {
  it('shows the searching loader, then the count, destinations, dates and cards cheapest first', async () => {
    let answer = () => {};
    quotes.fetchQuotes.mockReturnValueOnce(new Promise((resolve) => (answer = () => resolve(SAMPLE_DATA))));
    renderScreen();
    // After the lead was found not paid (RULINGS 28), the quotes are searched for.
    expect((await screen.findByTestId('quotes-loading')).getAttribute('role')).toBe('status');
    act(() => answer());
    const list = await cards();
    expect(quotes.fetchQuotes).toHaveBeenCalledWith(QUOTES_LEAD_UUID, 'en', `${location.origin}/compare-quotes?uuid=${QUOTES_LEAD_UUID}`);
    expect(screen.getByTestId('quotes-count').textContent).toBe('4 plans for 2 travellers');
    expect(screen.getByTestId('quotes-destinations').textContent).toBe('France, Türkiye');
    expect(screen.getByTestId('quotes-dates').textContent).toBe('1 Jul 2030 – 10 Jul 2030');
    expect(list.map((element) => element.dataset.quoteId)).toEqual(SAMPLE_QUOTES.map((quote) => String(quote.id)));
    // The tab is named after the page (issue 21, WCAG 2.4.2).
    expect(document.title).toBe('Compare quotes · Safar');
  });

  it('gets the bot check ready as the page opens, while the plans are still asked for, once', async () => {
    quotes.fetchQuotes.mockReturnValue(new Promise(() => undefined));
    renderScreen();
    expect(screen.getByTestId('quotes-loading')).toBeTruthy();
    await waitFor(() => expect(bot.preloadBotCheck).toHaveBeenCalledWith('en'));
    expect(bot.preloadBotCheck).toHaveBeenCalledTimes(1);
  });

  it('a card shows the logo, plan, document link, total, traveller count, VAT note and section-1 highlights', async () => {
    renderScreen();
    await cards();
    const one = within(card(first.id));
    expect(one.getByRole('img', { name: first.provider.name }).getAttribute('src')).toBe(`/img/${first.provider.image}`);
    expect(one.getByRole('heading', { level: 3, name: first.wizard_plan_name })).toBeTruthy();
    const pdf = one.getByTestId('plan-document');
    expect([pdf.getAttribute('href'), pdf.getAttribute('target')]).toEqual([first.planDocuments.file_url, '_blank']);
    expect(totalOf(first.id)).toBe(dollars(first.premium));
    expect(one.getByText('for 2 travellers')).toBeTruthy();
    expect(one.getByText('VAT excluded')).toBeTruthy();
    expect(one.getByRole('button', { name: `Premium per traveller ${first.wizard_plan_name}` })).toBeTruthy();
    expect(one.getByTestId('quote-highlights').textContent).toContain('Medical expenses');
    expect(one.getByTestId('quote-highlights').textContent).not.toContain('Baggage loss');
    expect(one.getByText('Instant policy')).toBeTruthy();
    expect(one.getByText('Meets Schengen visa rules')).toBeTruthy();
  });

  it('show more reveals sections 2 and 3', async () => {
    renderScreen();
    await cards();
    const one = within(card(first.id));
    const toggle = one.getByRole('button', { name: `Show more ${first.wizard_plan_name}` });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    act(() => fireEvent.click(toggle));
    expect(one.getByRole('button', { name: `Show less ${first.wizard_plan_name}` }).getAttribute('aria-expanded')).toBe('true');
    expect(one.getByTestId('quote-more-highlights').textContent).toContain('Baggage loss');
  });

  it('says when some insurers did not answer', async () => {
    quotes.fetchQuotes.mockResolvedValue(quotesData(SAMPLE_QUOTES, { unavailable_providers: [{ id: 12, name: 'Slow insurer' }] }));
    renderScreen();
    expect(await screen.findByText('Some insurers did not answer in time; their plans are not shown.')).toBeTruthy();
  });
});

describe('add-ons', () => {
  it('ticking an add-on raises the total by its price, unticking lowers it', async () => {
    renderScreen();
    await cards();
    const addon = first.addon[1]!;
    const box = within(card(first.id)).getByRole('checkbox', { name: `${addon.label} (\u2066+${addon.value_to_display}\u2069) ${first.wizard_plan_name}` });
    act(() => fireEvent.click(box));
    expect(totalOf(first.id)).toBe(dollars(first.premium + addon.value));
    act(() => fireEvent.click(box));
    expect(totalOf(first.id)).toBe(dollars(first.premium));
  });

  it('winter sports shows its age rule', async () => {
    renderScreen();
    await cards();
    expect(within(card(first.id)).getByRole('checkbox', { name: /^Winter sports \(\u2066\+\$12\u2069\)/ })).toBeTruthy();
    expect(within(card(first.id)).getByText('Travellers aged 70 or under')).toBeTruthy();
  });

  it('row 13: a disabled add-on (nobody may take it) is disabled and says why instead of "(+$0)"', async () => {
    const quote = { ...first, addon: [{ ...first.addon[0]!, value: 0, value_to_display: '$0', disabled_addon: true }] };
    quotes.fetchQuotes.mockResolvedValue(quotesData([quote]));
    renderScreen();
    await cards();
    const box = screen.getByRole('checkbox', { name: /^Winter sports/ }) as HTMLInputElement;
    expect(box.disabled).toBe(true);
    expect(box.closest('.mantine-Checkbox-root')!.textContent).not.toContain('$');
    expect(screen.getByText('Not available: every traveller is over 70')).toBeTruthy();
  });
});

describe('sort, filter and drawer', () => {
  it('sorts by medical limit and filters by insurer', async () => {
    const reversed = [{ ...first, medical_limit_usd: 1 }, second, third];
    quotes.fetchQuotes.mockResolvedValue(quotesData(reversed));
    renderScreen();
    await cards();
    expect(labelled('Sort by').value).toBe('Price: low to high');
    pickOption('Sort by', 'Medical limit: high to low');
    await waitFor(() => expect(screen.getAllByTestId('quote-card').map((element) => element.dataset.quoteId)).toEqual([second.id, third.id, first.id].map(String)));
    pickOption('Insurers', third.provider.name);
    await waitFor(() => expect(screen.getAllByTestId('quote-card').map((element) => element.dataset.quoteId)).toEqual([String(third.id)]));
  });

  it('"All benefits" opens the drawer with every highlight and benefit', async () => {
    renderScreen();
    await cards();
    act(() => fireEvent.click(within(card(second.id)).getByRole('button', { name: `All benefits ${second.wizard_plan_name}` })));
    const drawer = await screen.findByRole('dialog', { name: second.wizard_plan_name });
    expect(drawer.textContent).toContain('COVID-19');
    expect(drawer.textContent).toContain('Emergency dental');
    act(() => fireEvent.click(within(drawer).getByRole('button', { name: 'Close' })));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('compare tray', () => {
  const compareBox = (quoteId: number) => within(card(quoteId)).getByRole('checkbox', { name: /^Add to compare / }) as HTMLInputElement;
  const tick = (quoteId: number) => act(() => fireEvent.click(compareBox(quoteId)));

  it('opens at 2 with the add-another prompt, refuses a 4th, and opens /compare-offers with compare_data', async () => {
    const { step, router } = renderScreen();
    await cards();
    tick(first.id);
    expect(screen.queryByTestId('compare-tray')).toBeNull();
    tick(second.id);
    const tray = screen.getByTestId('compare-tray');
    expect(within(tray).getAllByTestId('compare-tray-item')).toHaveLength(2);
    expect(within(tray).getByText('Add one more plan to compare')).toBeTruthy();
    tick(third.id);
    expect(screen.queryByText('Add one more plan to compare')).toBeNull();
    tick(fourth.id);
    expect(screen.getByTestId('compare-refused').textContent).toContain('You can compare up to 3 plans');
    expect(compareBox(fourth.id).checked).toBe(false);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Compare plans' })));
    await waitFor(() => expect(step()).toBe('compareOffers'));
    expect(router.state.location.pathname).toBe('/compare-offers');
    expect(JSON.parse(localStore.get('compare_data')!)).toEqual({
      uuid: QUOTES_LEAD_UUID,
      compareIds: [first.compare_id, second.compare_id, third.compare_id],
      addons: {},
    });
  });

  it('a plan leaves the tray by its remove button', async () => {
    renderScreen();
    await cards();
    tick(first.id);
    tick(second.id);
    act(() => fireEvent.click(screen.getByRole('button', { name: `Remove ${first.wizard_plan_name} from compare` })));
    expect(screen.queryByTestId('compare-tray')).toBeNull();
  });
});

describe('keyboard and screen reader (issue 21)', () => {
  const announced = () => screen.getByTestId('announcer').textContent;
  const announcedUrgently = () => screen.getByTestId('announcer-urgent').textContent;
  const compareBox = (quoteId: number) => within(card(quoteId)).getByRole('checkbox', { name: /^Add to compare / });
  const tick = (quoteId: number) => act(() => fireEvent.click(compareBox(quoteId)));

  it('names every control of a card by its plan, after the words it shows, so seven cards never repeat a name', async () => {
    renderScreen();
    await cards();
    const controls = [
      ['button', 'Show more'],
      ['button', 'All benefits'],
      ['link', 'Plan benefits (PDF)'],
      ['button', 'Premium per traveller'],
      ['button', 'Buy now'],
      ['checkbox', 'Add to compare'],
    ] as const;
    for (const quote of SAMPLE_QUOTES)
      for (const [role, shown] of controls) {
        // getByRole on the whole page: one control only has this name.
        const control = screen.getByRole(role, { name: `${shown} ${quote.wizard_plan_name}` });
        expect(card(quote.id).contains(control)).toBe(true);
      }
    const addon = first.addon[1]!;
    expect(screen.getByRole('checkbox', { name: `${addon.label} (\u2066+${addon.value_to_display}\u2069) ${first.wizard_plan_name}` })).toBeTruthy();
  });

  it('says the new total when an add-on is ticked or unticked', async () => {
    renderScreen();
    await cards();
    const addon = first.addon[1]!;
    const box = () => document.getElementById(`addon-${first.id}-${addon.id}`)!;
    act(() => fireEvent.click(box()));
    await waitFor(() => expect(announced()).toBe(`${first.wizard_plan_name}: ${dollars(first.premium + addon.value)} with ${addon.label}`));
    act(() => fireEvent.click(box()));
    await waitFor(() => expect(announced()).toBe(`${first.wizard_plan_name}: ${dollars(first.premium)} without ${addon.label}`));
  });

  it('says each plan added to or removed from compare with the count, and a 4th refused at once (shown, not said twice)', async () => {
    renderScreen();
    await cards();
    tick(first.id);
    await waitFor(() => expect(announced()).toBe(`Added ${first.wizard_plan_name} to compare: 1 of 3 chosen`));
    tick(second.id);
    await waitFor(() => expect(announced()).toBe(`Added ${second.wizard_plan_name} to compare: 2 of 3 chosen`));
    tick(third.id);
    tick(fourth.id);
    await waitFor(() => expect(announcedUrgently()).toBe('You can compare up to 3 plans'));
    expect(announced()).toBe('');
    // The tray shows the refusal too, but only the announcer speaks: it is no alert of its own.
    expect(screen.getByTestId('compare-refused').textContent).toContain('You can compare up to 3 plans');
    expect(screen.queryAllByRole('alert')).toEqual([]);
    tick(third.id);
    await waitFor(() => expect(announced()).toBe(`Removed ${third.wizard_plan_name} from compare: 2 of 3 chosen`));
  });

  it("the tray's remove button keeps focus in the tray while it shows, then gives it back to the plan's own box", async () => {
    renderScreen();
    await cards();
    tick(first.id);
    tick(second.id);
    tick(third.id);
    act(() => fireEvent.click(screen.getByRole('button', { name: `Remove ${first.wizard_plan_name} from compare` })));
    expect(document.activeElement).toBe(screen.getByTestId('compare-open'));
    await waitFor(() => expect(announced()).toBe(`Removed ${first.wizard_plan_name} from compare: 2 of 3 chosen`));
    act(() => fireEvent.click(screen.getByRole('button', { name: `Remove ${second.wizard_plan_name} from compare` })));
    expect(screen.queryByTestId('compare-tray')).toBeNull();
    expect(document.activeElement).toBe(compareBox(second.id));
  });

  it('says a new sort, and after a filter how many plans show, which the heading counts too', async () => {
    renderScreen();
    await cards();
    pickOption('Sort by', 'Medical limit: high to low');
    await waitFor(() => expect(announced()).toBe('Sorted by medical limit, highest first'));
    pickOption('Sort by', 'Price: low to high');
    await waitFor(() => expect(announced()).toBe('Sorted by price, lowest first'));
    pickOption('Insurers', third.provider.name);
    await waitFor(() => expect(announced()).toBe('1 plan shown'));
    expect(screen.getByTestId('quotes-count').textContent).toBe('1 plan for 2 travellers');
    // The insurers' list stays open for a second choice.
    act(() => fireEvent.click(within(screen.getByRole('listbox', { name: 'Insurers' })).getByRole('option', { name: first.provider.name })));
    await waitFor(() => expect(announced()).toBe('2 plans shown'));
    expect(screen.getByTestId('quotes-count').textContent).toBe('2 plans for 2 travellers');
  });

  it('while the compare bar shows, focus scrolls to stop above it and the page has room at its end; both go with it', async () => {
    renderScreen();
    await cards();
    const root = document.documentElement;
    expect(root.style.scrollPaddingBlockEnd).toBe('');
    tick(first.id);
    tick(second.id);
    expect(root.style.scrollPaddingBlockEnd).toMatch(/^\d+px$/);
    expect(document.body.style.paddingBlockEnd).toBe(root.style.scrollPaddingBlockEnd);
    tick(second.id);
    expect(screen.queryByTestId('compare-tray')).toBeNull();
    expect(root.style.scrollPaddingBlockEnd).toBe('');
    expect(document.body.style.paddingBlockEnd).toBe('');
  });
});

describe('buy now', () => {
  it('gets the bot token, proceeds with the displayed total, stores the plan and opens /review-details', async () => {
    const { step, router } = renderScreen();
    await cards();
    const addon = second.addon[1]!;
    act(() => fireEvent.click(within(card(second.id)).getByRole('checkbox', { name: `${addon.label} (\u2066+${addon.value_to_display}\u2069) ${second.wizard_plan_name}` })));
    act(() => fireEvent.click(within(card(second.id)).getByRole('button', { name: `Buy now ${second.wizard_plan_name}` })));
    await waitFor(() => expect(step()).toBe('reviewDetails'));
    expect(router.state.location.pathname).toBe('/review-details');
    expect(bot.getBotCheckToken).toHaveBeenCalledWith('en');
    expect(quotes.proceedReview).toHaveBeenCalledWith(
      expect.objectContaining({ uuid: QUOTES_LEAD_UUID, policy_id: second.id, addons: [addon.id], selected_premium: second.premium + addon.value, bot_token: BOT_TOKEN, agent_id: 0, session_id: QUOTES_SESSION_UUID }),
    );
    expect([localStore.get('traveller_index'), localStore.get('selected_premium')]).toEqual(['0', String(second.premium + addon.value)]);
    expect(JSON.parse(localStore.get('interested_policy')!)).toMatchObject({ id: second.id });
  });

  it('Buy now keeps the focus while the plan is bought: it is aria-disabled, not disabled, and a second press sends nothing (issue 21)', async () => {
    let answer = () => {};
    quotes.proceedReview.mockReturnValue(new Promise((resolve) => (answer = () => resolve({} as Awaited<ReturnType<typeof quoteService.proceedReview>>))));
    const { step } = renderScreen();
    await cards();
    const buy = within(card(first.id)).getByRole('button', { name: `Buy now ${first.wizard_plan_name}` }) as HTMLButtonElement;
    buy.focus();
    act(() => fireEvent.click(buy));
    await waitFor(() => expect(quotes.proceedReview).toHaveBeenCalledTimes(1));
    expect(buy.getAttribute('aria-disabled')).toBe('true');
    expect(buy.disabled).toBe(false);
    expect(document.activeElement).toBe(buy);
    act(() => fireEvent.click(buy));
    expect(quotes.proceedReview).toHaveBeenCalledTimes(1);
    answer();
    await waitFor(() => expect(step()).toBe('reviewDetails'));
  });

  it('a server failure opens the system error dialog and stays on the list', async () => {
    quotes.proceedReview.mockRejectedValue(new ApiError('server', '/x', 500, null));
    const { step } = renderScreen();
    await cards();
    act(() => fireEvent.click(within(card(first.id)).getByRole('button', { name: `Buy now ${first.wizard_plan_name}` })));
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
    expect(step()).toBe('compareQuotes');
  });

  it('an expired quote reloads the list and says why', async () => {
    quotes.proceedReview.mockRejectedValue(new ApiError('rejected', '/x', 409, { status: 409, message: 'gone', data: { errors: { policy_id: 'quote_expired' } } }));
    renderScreen();
    await cards();
    act(() => fireEvent.click(within(card(first.id)).getByRole('button', { name: `Buy now ${first.wizard_plan_name}` })));
    expect((await screen.findByTestId('quotes-notice')).textContent).toContain('Prices were updated');
    expect(quotes.fetchQuotes).toHaveBeenCalledTimes(2);
  });
});

describe('empty and failed', () => {
  it('shows "No Quotes Found !!" with a call-back offer that opens /request-call-back', async () => {
    quotes.fetchQuotes.mockResolvedValue(EMPTY_DATA);
    const { step } = renderScreen();
    expect(await screen.findByRole('heading', { level: 2, name: 'No Quotes Found !!' })).toBeTruthy();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Request a call back' })));
    await waitFor(() => expect(step()).toBe('requestCallBack'));
  });

  it('shows the error view when the call fails', async () => {
    quotes.fetchQuotes.mockRejectedValue(new ApiError('network', '/x', null, null));
    renderScreen();
    expect(await screen.findByText('An error occurred')).toBeTruthy();
  });

  it('opens the system error dialog when the server flags hasError', async () => {
    quotes.fetchQuotes.mockResolvedValue(ERROR_DATA);
    renderScreen();
    expect(await screen.findByText('Something went wrong')).toBeTruthy();
  });
});

describe('agent mode (RULINGS 15)', () => {
  it('has no share icons for a customer', async () => {
    renderScreen();
    await cards();
    expect(screen.queryByTestId('agent-share')).toBeNull();
  });

  it('reads agent 0 as a customer, as review and checkout do: no share icons', async () => {
    renderScreen({ agentId: '0' });
    await cards();
    expect(screen.queryByTestId('agent-share')).toBeNull();
  });

  it('shares on WhatsApp and by e-mail, with a toast', async () => {
    renderScreen({ agentId: '101' });
    await cards();
    const whatsapp = screen.getByRole('link', { name: 'Share on WhatsApp' });
    expect(whatsapp.getAttribute('href')).toBe(`https://wa.me/96171234567?text=${encodeURIComponent(SAMPLE_DATA.whatapp_template)}`);
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Send by e-mail' })));
    const toast = await screen.findByTestId('share-email-toast');
    expect(toast.textContent).toContain('Link sent to rania@example.com');
    expect(quotes.sendEmailByPage).toHaveBeenCalledWith(
      expect.objectContaining({ uuid: QUOTES_LEAD_UUID, pagename: 'compare-quotes', agentId: 101, lang: 'en' }),
    );
  });

  it('issue 38: Send by e-mail keeps the focus while it sends (aria-disabled, not disabled) and after; a second press sends nothing', async () => {
    let answer = () => {};
    quotes.sendEmailByPage.mockReturnValue(new Promise((resolve) => (answer = () => resolve({ sent: true }))));
    renderScreen({ agentId: '101' });
    await cards();
    const send = screen.getByRole('button', { name: 'Send by e-mail' }) as HTMLButtonElement;
    send.focus();
    act(() => fireEvent.click(send));
    await waitFor(() => expect(send.getAttribute('aria-disabled')).toBe('true'));
    expect(send.disabled).toBe(false);
    expect(document.activeElement).toBe(send);
    act(() => fireEvent.click(send));
    expect(quotes.sendEmailByPage).toHaveBeenCalledTimes(1);
    act(() => answer());
    await screen.findByTestId('share-email-toast');
    expect(document.activeElement).toBe(send);
    expect(send.getAttribute('aria-disabled')).toBeNull();
  });

  it('issue 38: the "link sent" toast is said through the announcer; the toast itself is no live region mounted with its words', async () => {
    renderScreen({ agentId: '101' });
    await cards();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Send by e-mail' })));
    const toast = await screen.findByTestId('share-email-toast');
    await waitFor(() => expect(screen.getByTestId('announcer').textContent).toBe('Link sent to rania@example.com'));
    expect(toast.getAttribute('role')).not.toBe('status');
    expect(toast.getAttribute('role')).not.toBe('alert');
    expect(toast.closest('[aria-live]')).toBeNull();
  });

  it('issue 38: the toast sits at the bottom edge, never over the header, and stacks above the compare bar', async () => {
    renderScreen({ agentId: '101' });
    await cards();
    act(() => fireEvent.click(compareBoxOf(first.id)));
    act(() => fireEvent.click(compareBoxOf(second.id)));
    const tray = screen.getByTestId('compare-tray');
    // jsdom lays nothing out: the bar is given a height, as a browser would measure it.
    tray.getBoundingClientRect = () => ({ height: 70 }) as DOMRect;
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Send by e-mail' })));
    const strip = (await screen.findByTestId('share-email-toast')).parentElement!;
    expect(strip.style.position).toBe('fixed');
    expect(strip.style.top).toBe('');
    expect(strip.style.insetBlockEnd).toBe('70px');
    expect(tray.style.insetBlockEnd).toBe('0px');
  });
});

const compareBoxOf = (quoteId: number) => within(card(quoteId)).getByRole('checkbox', { name: /^Add to compare / });

describe('issue 38: access barriers on the quotes', () => {
  it("a compared card offers the way to the compare bar as the next stop after its box; it moves the focus to the bar's Compare plans", async () => {
    renderScreen();
    await cards();
    act(() => fireEvent.click(compareBoxOf(first.id)));
    expect(within(card(first.id)).queryByTestId('go-to-compare')).toBeNull();
    act(() => fireEvent.click(compareBoxOf(second.id)));
    const go = within(card(second.id)).getByRole('button', { name: 'Go to the compare bar' });
    const focusable = [...card(second.id).querySelectorAll<HTMLElement>('button, input, a[href]')];
    expect(focusable[focusable.indexOf(compareBoxOf(second.id)) + 1]).toBe(go);
    expect(within(card(first.id)).getByRole('button', { name: 'Go to the compare bar' })).toBeTruthy();
    expect(within(card(third.id)).queryByRole('button', { name: 'Go to the compare bar' })).toBeNull();
    act(() => fireEvent.click(go));
    expect(document.activeElement).toBe(screen.getByTestId('compare-open'));
  });

  it("each Premium per traveller button is named by its words, then its plan's, from texts of their own (not a name that points at itself)", async () => {
    renderScreen();
    await cards();
    for (const quote of SAMPLE_QUOTES) {
      const button = within(card(quote.id)).getByRole('button', { name: `Premium per traveller ${quote.wizard_plan_name}` });
      const ids = (button.getAttribute('aria-labelledby') ?? '').split(' ');
      expect(ids).not.toContain(button.id);
      expect(ids.map((id) => document.getElementById(id)?.textContent)).toEqual(['Premium per traveller', quote.wizard_plan_name]);
    }
  });

  it("the add-on and compare boxes are 24 px targets (WCAG 2.5.8)", async () => {
    renderScreen();
    await cards();
    const boxes = [...within(card(first.id)).getAllByTestId('addon-checkbox'), within(card(first.id)).getByTestId('compare-checkbox')];
    for (const box of boxes) expect((box.closest('[style*="--checkbox-size"]') as HTMLElement | null)?.style.getPropertyValue('--checkbox-size')).toBe('calc(1.5rem * var(--mantine-scale))');
  });

  it('a long destination list is cut short behind a button that shows it whole (aria-expanded), not a focusable paragraph', async () => {
    const destinations = ['France', 'Türkiye', 'Italy', 'Spain', 'Germany', 'Greece'];
    quotes.fetchQuotes.mockResolvedValue(quotesData(SAMPLE_QUOTES, { lead: { ...SAMPLE_DATA.lead, destination_names: destinations } }));
    renderScreen();
    await cards();
    const places = screen.getByTestId('quotes-destinations');
    expect(places.tagName).toBe('BUTTON');
    expect(places.textContent).toBe(destinations.join(', '));
    expect(screen.getByRole('button', { name: destinations.join(', ') })).toBe(places);
    expect(places.getAttribute('aria-expanded')).toBe('false');
    expect(document.querySelectorAll('p[tabindex]')).toHaveLength(0);
    act(() => fireEvent.click(places));
    expect(places.getAttribute('aria-expanded')).toBe('true');
  });
});
