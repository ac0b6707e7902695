import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { waitForSnapshot } from '../model-tooling/wait-for-snapshot';
import type { JourneyEvent } from '../journey.types';
import { quotesMachine } from './quotes.machine';
import type { QuotesInput, QuotesOutput } from './quotes.types';
import { QUOTES_FAILURES, SAMPLE_DATA, SAMPLE_QUOTES, quotesInput } from './quotes.model';
import { displayedTotal, isBotCheckRefused, isQuoteExpired, sortQuotes } from './quotes.pricing';
import {
  quotesOutcomeEvent,
  selectAskForAnother,
  selectBuying,
  selectCanCompare,
  selectCompareFull,
  selectCompared,
  selectDrawerQuote,
  selectInsurers,
  selectTrayOpen,
  selectViewState,
  keepEqualViews,
  selectVisibleQuotes,
  visibleQuotesSelector,
} from './quotes.selectors';

const [first, second, third, fourth] = SAMPLE_QUOTES as [(typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0]];

/** A running step over SAMPLE_DATA whose buy never settles, so "buying" can be observed. */
async function readyActor(input: QuotesInput = quotesInput(), quotes = SAMPLE_QUOTES) {
  const actor = createActor(
    quotesMachine.provide({
      actors: {
        loadQuotes: fromPromise(async () => ({ ...SAMPLE_DATA, quotes })),
        getBotToken: fromPromise(() => new Promise<string>(() => {})),
      },
    }),
    { input },
  ).start();
  await waitForSnapshot(actor, (snapshot) => snapshot.matches('ready'));
  return actor;
}

describe('pricing helpers', () => {
  it('the displayed total is the premium plus the ticked add-ons only', () => {
    const [winter, cancellation] = first.addon as [(typeof first.addon)[0], (typeof first.addon)[0]];
    expect(displayedTotal({ checkedAddons: {} }, first)).toBe(first.premium);
    expect(displayedTotal({ checkedAddons: { [first.id]: [cancellation.id] } }, first)).toBe(first.premium + cancellation.value);
    expect(displayedTotal({ checkedAddons: { [first.id]: [winter.id, cancellation.id] } }, first)).toBe(first.premium + winter.value + cancellation.value);
    // Ticks of another quote, or ids the quote does not offer, do not count.
    expect(displayedTotal({ checkedAddons: { [second.id]: [second.addon[0]!.id], [first.id]: [9999] } }, first)).toBe(first.premium);
  });

  it('sorts by price ascending, or by medical limit descending with price breaking ties', () => {
    const tie = { ...fourth, medical_limit_usd: first.medical_limit_usd, premium: first.premium + 1 };
    expect(sortQuotes([third, first, second], 'price').map((quote) => quote.id)).toEqual([first.id, second.id, third.id]);
    expect(sortQuotes([tie, third, first], 'medical').map((quote) => quote.id)).toEqual([first.id, tie.id, third.id]);
  });

  it('tells an expired quote and a refused bot token from other failures', () => {
    expect(isQuoteExpired(QUOTES_FAILURES.quoteExpired)).toBe(true);
    expect(isQuoteExpired(QUOTES_FAILURES.server)).toBe(false);
    expect(isQuoteExpired(new Error('x'))).toBe(false);
    expect(isBotCheckRefused(QUOTES_FAILURES.botRefused)).toBe(true);
    expect(isBotCheckRefused(QUOTES_FAILURES.network)).toBe(false);
  });
});

describe('selectors', () => {
  it('lists each insurer once, in first-quoted order', async () => {
    const actor = await readyActor(quotesInput(), [first, second, { ...third, provider: first.provider }]);
    expect(selectInsurers(actor.getSnapshot()).map((insurer) => insurer.id)).toEqual([first.provider.id, second.provider.id]);
  });

  it('the tray opens at 2, asks for another at exactly 2, and is full at 3', async () => {
    const actor = await readyActor();
    const read = () => [selectTrayOpen, selectAskForAnother, selectCompareFull, selectCanCompare].map((select) => select(actor.getSnapshot()));
    actor.send({ type: 'compare.toggle', quoteId: first.id });
    expect(read()).toEqual([false, false, false, false]);
    actor.send({ type: 'compare.toggle', quoteId: second.id });
    expect(read()).toEqual([true, true, false, true]);
    actor.send({ type: 'compare.toggle', quoteId: third.id });
    expect(read()).toEqual([true, false, true, true]);
    expect(selectCompared(actor.getSnapshot()).map((quote) => quote.id)).toEqual([first.id, second.id, third.id]);
    expect(selectVisibleQuotes(actor.getSnapshot()).filter((view) => view.compared).map((view) => view.quote.id)).toEqual([first.id, second.id, third.id]);
  });

  it('the drawer quote carries its displayed total', async () => {
    const actor = await readyActor();
    actor.send({ type: 'addon.toggle', quoteId: second.id, addonId: second.addon[1]!.id });
    actor.send({ type: 'drawer.open', quoteId: second.id });
    expect(selectDrawerQuote(actor.getSnapshot())).toMatchObject({ quote: { id: second.id }, total: second.premium + second.addon[1]!.value });
  });

  it('while buying, every button waits and only the chosen card shows progress', async () => {
    const actor = await readyActor();
    expect(selectBuying(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'quote.buy', quoteId: third.id });
    expect(selectBuying(actor.getSnapshot())).toBe(true);
    expect(selectVisibleQuotes(actor.getSnapshot()).filter((view) => view.buying).map((view) => view.quote.id)).toEqual([third.id]);
    expect(selectViewState(actor.getSnapshot())).toBe('ready');
  });
});

describe("a screen's quote views keep their identity while they do not change (memoised cards, issue 19)", () => {
  it('answers the same array for a change that touches no view, and a new one with only the changed view new', async () => {
    const actor = await readyActor();
    const select = visibleQuotesSelector();
    const before = select(actor.getSnapshot());
    // Opening the drawer changes the snapshot, not a card.
    actor.send({ type: 'drawer.open', quoteId: second.id });
    expect(select(actor.getSnapshot())).toBe(before);
    // Ticking an add-on changes that card's total and ticks only.
    actor.send({ type: 'addon.toggle', quoteId: second.id, addonId: second.addon[1]!.id });
    const after = select(actor.getSnapshot());
    expect(after).not.toBe(before);
    const changed = after.filter((view, index) => view !== before[index]).map((view) => view.quote.id);
    expect(changed).toEqual([second.id]);
    expect(after.find((view) => view.quote.id === second.id)!.total).toBe(second.premium + second.addon[1]!.value);
    // Buy now marks one card as buying: only that view is new.
    actor.send({ type: 'drawer.close' });
    actor.send({ type: 'quote.buy', quoteId: third.id });
    const buying = select(actor.getSnapshot());
    expect(buying.filter((view, index) => view !== after[index]).map((view) => view.quote.id)).toEqual([third.id]);
  });

  it('keeps the views an insurer filter leaves, in the filtered list', async () => {
    const actor = await readyActor();
    const select = visibleQuotesSelector();
    const before = select(actor.getSnapshot());
    actor.send({ type: 'filter.change', providerIds: [second.provider.id] });
    const after = select(actor.getSnapshot());
    expect(after.map((view) => view.quote.id)).toEqual(selectVisibleQuotes(actor.getSnapshot()).map((view) => view.quote.id));
    expect(after.length).toBeGreaterThan(0);
    expect(after.length).toBeLessThan(before.length);
    for (const view of after) expect(before).toContain(view);
  });

  it('keepEqualViews never keeps a view whose ticks differ, even with the same total', () => {
    const view = { quote: first, total: 100, checkedAddonIds: [1], compared: false, buying: false };
    const other = { ...view, checkedAddonIds: [2] };
    expect(keepEqualViews([view], [other])[0]).toBe(other);
    expect(keepEqualViews([view], [{ ...view }])).toEqual([view]);
    expect(keepEqualViews([view], [{ ...view }])[0]).toBe(view);
  });
});

describe('quotesOutcomeEvent: how the quotes step ends decides the journey event', () => {
  it.each<[QuotesOutput, JourneyEvent]>([
    [{ type: 'chosen', quoteId: 7 }, { type: 'quote.chosen' }],
    [{ type: 'compared', compareIds: ['101-schengen'] }, { type: 'compare.opened' }],
    [{ type: 'closed' }, { type: 'compare.closed' }],
  ])('%o -> %o', (output, event) => {
    expect(quotesOutcomeEvent(output)).toEqual(event);
  });
});
