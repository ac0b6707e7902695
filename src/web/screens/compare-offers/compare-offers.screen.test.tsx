import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Highlight } from '../../../contract/invoice.schema';
import { BOT_TOKEN, QUOTES_LEAD_UUID, QUOTES_SESSION_UUID, SAMPLE_DATA, SAMPLE_QUOTES, quotesData } from '../../../../machines/quotes/quotes.model';
import { formatMoney } from '../../i18n/format';
import { activateLanguage } from '../../i18n/locale';
import * as botCheck from '../../services/bot-check.service';
import * as quoteService from '../../services/quote.service';
import { localStore } from '../../storage/local-store';
import { renderApp } from '../../../../tests/support/render-app';

/** The compare table in the whole app, services and bot check stubbed: rows, Proceed and Back. */

vi.mock('../../services/quote.service', () => ({ fetchQuotes: vi.fn(), proceedReview: vi.fn(), sendEmailByPage: vi.fn() }));
vi.mock('../../services/bot-check.service', () => ({ getBotCheckToken: vi.fn(), preloadBotCheck: vi.fn() }));

const quotes = vi.mocked(quoteService);
const bot = vi.mocked(botCheck);
const [first, second, third] = SAMPLE_QUOTES as [(typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0]];

beforeAll(async () => {
  await activateLanguage('en');
});
beforeEach(() => {
  vi.resetAllMocks();
  quotes.fetchQuotes.mockResolvedValue(SAMPLE_DATA);
  quotes.proceedReview.mockResolvedValue({} as Awaited<ReturnType<typeof quoteService.proceedReview>>);
  bot.getBotCheckToken.mockResolvedValue(BOT_TOKEN);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

function renderScreen(compareIds: string[] | null) {
  if (compareIds) localStore.setJson('compare_data', compareIds);
  const { router, actor } = renderApp(`/compare-offers?uuid=${QUOTES_LEAD_UUID}`, {
    path: '/compare-offers',
    uuid: QUOTES_LEAD_UUID,
    sessionId: QUOTES_SESSION_UUID,
    agentId: null,
  });
  return { router, step: () => actor.getSnapshot().value };
}

const table = () => screen.findByTestId('offers-table', {});

/** A plan with 9 highlights, so the table splits them into the top 7 and the rest. */
const nine: Highlight[] = Array.from({ length: 9 }, (_, index) => ({
  key: `h${index + 1}`,
  label: `Highlight ${index + 1}`,
  label_ar: `ميزة ${index + 1}`,
  value: `Value ${index + 1}`,
  value_ar: `قيمة ${index + 1}`,
  section: 1 as const,
}));

describe('/compare-offers', () => {
  it('shows the compared plans in their order, top 7 highlights, the rest, then add-ons with "-" for a missing one', async () => {
    const withNine = { ...third, highlight: nine, addon: [third.addon[0]!] };
    quotes.fetchQuotes.mockResolvedValue(quotesData([first, second, withNine]));
    renderScreen([withNine.compare_id, first.compare_id]);
    const element = await table();
    const heads = within(element).getAllByTestId('offers-plan');
    expect(heads.map((head) => head.textContent)).toEqual([expect.stringContaining(withNine.wizard_plan_name), expect.stringContaining(first.wizard_plan_name)]);
    const rows = within(element).getAllByRole('row').map((row) => row.textContent ?? '');
    const at = (text: string) => rows.findIndex((row) => row.startsWith(text));
    expect(at('Main benefits')).toBeLessThan(at('Highlight 1'));
    expect(at('Highlight 7')).toBeLessThan(at('More benefits'));
    expect(at('More benefits')).toBeLessThan(at('Highlight 8'));
    expect(at('Optional covers')).toBeGreaterThan(at('Highlight 9'));
    expect(rows[at('Trip cancellation')]).toBe(`Trip cancellation-${formatMoney(first.addon[1]!.value, 'en')}`);
    expect(rows[at('Winter sports')]).toContain('(travellers aged 70 or under)');
  });

  it('issue 38: the table sits in a region named for what it holds, with its plan heads sticky', async () => {
    renderScreen([second.compare_id, first.compare_id, third.compare_id]);
    const element = await table();
    const region = screen.getByRole('region', { name: 'Plans side by side' });
    expect(region.contains(element)).toBe(true);
    expect(region.getAttribute('data-testid')).toBe('offers-scroll');
    // Mantine's stickyHeader: the head row (names, prices, Proceed) is marked sticky.
    expect(within(element).getByTestId('offers-head').hasAttribute('data-sticky')).toBe(true);
    expect(within(screen.getByTestId('offers-head')).getAllByTestId('offers-proceed')).toHaveLength(3);
  });

  it('Proceed runs the buy flow and opens /review-details', async () => {
    const { step } = renderScreen([second.compare_id, first.compare_id]);
    await table();
    act(() => fireEvent.click(screen.getAllByRole('button', { name: /^Proceed / })[0]!));
    await waitFor(() => expect(step()).toBe('reviewDetails'));
    expect(quotes.proceedReview).toHaveBeenCalledWith(expect.objectContaining({ policy_id: second.id, selected_premium: second.premium, bot_token: BOT_TOKEN }));
  });

  it('Proceed keeps the focus while the plan is bought: it is aria-disabled, not disabled, and a second press sends nothing (issue 21)', async () => {
    let answer = () => {};
    quotes.proceedReview.mockReturnValue(new Promise((resolve) => (answer = () => resolve({} as Awaited<ReturnType<typeof quoteService.proceedReview>>))));
    const { step } = renderScreen([second.compare_id, first.compare_id]);
    await table();
    const proceed = screen.getByRole('button', { name: `Proceed ${second.wizard_plan_name}` }) as HTMLButtonElement;
    proceed.focus();
    act(() => fireEvent.click(proceed));
    await waitFor(() => expect(quotes.proceedReview).toHaveBeenCalledTimes(1));
    expect(proceed.getAttribute('aria-disabled')).toBe('true');
    expect(proceed.disabled).toBe(false);
    expect(document.activeElement).toBe(proceed);
    act(() => fireEvent.click(proceed));
    expect(quotes.proceedReview).toHaveBeenCalledTimes(1);
    answer();
    await waitFor(() => expect(step()).toBe('reviewDetails'));
  });

  it('row 3: each plan keeps the add-ons ticked on its card; toggling one moves its total, is stored, and Proceed sends it', async () => {
    const cancellation = first.addon[1]!;
    const winter = first.addon[0]!;
    localStore.setJson('compare_data', { uuid: QUOTES_LEAD_UUID, compareIds: [first.compare_id, second.compare_id], addons: { [first.compare_id]: [cancellation.id] } });
    const { step } = renderScreen(null);
    const element = await table();
    const totals = () => within(element).getAllByTestId('quote-total').map((total) => total.textContent);
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const box = (addon: string, quote: typeof first) =>
      within(element).getByRole('checkbox', { name: new RegExp(`^${addon}, ${escape(`${quote.provider.name} ${quote.wizard_plan_name}`)}:`) }) as HTMLInputElement;
    expect(totals()[0]).toBe(formatMoney(first.premium + cancellation.value, 'en'));
    expect(box('Trip cancellation', first).checked).toBe(true);
    expect(box('Trip cancellation', second).checked).toBe(false);
    act(() => fireEvent.click(box('Winter sports', first)));
    expect(totals()[0]).toBe(formatMoney(first.premium + winter.value + cancellation.value, 'en'));
    expect(JSON.parse(localStore.get('compare_data')!).addons).toEqual({ [first.compare_id]: [winter.id, cancellation.id] });
    act(() => fireEvent.click(screen.getAllByRole('button', { name: /^Proceed / })[0]!));
    await waitFor(() => expect(step()).toBe('reviewDetails'));
    expect(quotes.proceedReview).toHaveBeenCalledWith(
      expect.objectContaining({ policy_id: first.id, addons: [winter.id, cancellation.id], selected_premium: first.premium + winter.value + cancellation.value }),
    );
  });

  it('names each Proceed and total button by its plan, and says a plan\'s new total when an add-on is ticked or unticked (issue 21)', async () => {
    renderScreen([second.compare_id, first.compare_id]);
    await table();
    for (const quote of [second, first]) {
      expect(screen.getByRole('button', { name: `Proceed ${quote.wizard_plan_name}` })).toBeTruthy();
      expect(screen.getByRole('button', { name: `Premium per traveller ${quote.wizard_plan_name}` })).toBeTruthy();
    }
    const winter = first.addon[0]!;
    const box = () => screen.getByRole('checkbox', { name: new RegExp(`^${winter.label}, ${first.provider.name} ${first.wizard_plan_name}:`) });
    const announced = () => screen.getByTestId('announcer').textContent;
    act(() => fireEvent.click(box()));
    await waitFor(() => expect(announced()).toBe(`${first.wizard_plan_name}: ${formatMoney(first.premium + winter.value, 'en')} with ${winter.label}`));
    act(() => fireEvent.click(box()));
    await waitFor(() => expect(announced()).toBe(`${first.wizard_plan_name}: ${formatMoney(first.premium, 'en')} without ${winter.label}`));
  });

  it("row 3: compare_data stored for another lead is not this lead's table", async () => {
    localStore.setJson('compare_data', { uuid: 'another-lead', compareIds: [first.compare_id, second.compare_id], addons: {} });
    const { step } = renderScreen(null);
    await waitFor(() => expect(step()).toBe('compareQuotes'));
  });

  it('Back returns to /compare-quotes', async () => {
    const { step, router } = renderScreen([second.compare_id, first.compare_id]);
    await table();
    act(() => fireEvent.click(screen.getByRole('button', { name: 'Back' })));
    await waitFor(() => expect(step()).toBe('compareQuotes'));
    expect(router.state.location.pathname).toBe('/compare-quotes');
  });

  it('without compare_data it goes back to the quote list without loading', async () => {
    const { step } = renderScreen(null);
    await waitFor(() => expect(step()).toBe('compareQuotes'));
    // The quote list then loads its own quotes; the table never asked.
    expect(screen.queryByTestId('offers-table')).toBeNull();
  });
});
