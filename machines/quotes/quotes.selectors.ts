import type { SnapshotFrom } from 'xstate';
import type { Quote } from '../../src/contract/quote.endpoints';
import type { JourneyEvent } from '../journey.types';
import type { quotesMachine } from './quotes.machine';
import { checkedAddonIds, displayedTotal, sortQuotes } from './quotes.pricing';
import { MAX_COMPARED, type QuotesContext, type QuotesFailure, type QuotesNotice, type QuotesOutput, type QuotesSort } from './quotes.types';

export type QuotesSnapshot = SnapshotFrom<typeof quotesMachine>;

/** What the page shows: the "Searching" loader, the list, the empty state or the error view. */
export type QuotesViewState = 'loading' | 'ready' | 'empty' | 'failed' | 'done';

export function selectViewState(snapshot: QuotesSnapshot): QuotesViewState {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('ready')) return 'ready';
  if (snapshot.matches('empty')) return 'empty';
  if (snapshot.matches('failed')) return 'failed';
  return 'loading';
}

/** A quote as a card or a table column shows it: the quote, its ticked add-ons and its total. */
export interface QuoteView {
  quote: Quote;
  /** Plan premium plus the ticked add-ons, cents (spec §4). */
  total: number;
  checkedAddonIds: number[];
  compared: boolean;
  buying: boolean;
}

function viewOf(context: QuotesContext, quote: Quote): QuoteView {
  return {
    quote,
    total: displayedTotal(context, quote),
    checkedAddonIds: checkedAddonIds(context, quote),
    compared: context.compareSelection.includes(quote.id),
    buying: context.buyingQuoteId === quote.id,
  };
}

/**
 * The quotes to show: on the list, the insurer filter then the sort; on the compare table, the
 * compared plans in the order they were chosen.
 */
export function selectVisibleQuotes(snapshot: QuotesSnapshot): QuoteView[] {
  const { context } = snapshot;
  if (context.view === 'offers') {
    return context.compareIds
      .map((compareId) => context.quotes.find((quote) => quote.compare_id === compareId))
      .filter((quote): quote is Quote => quote !== undefined)
      .map((quote) => viewOf(context, quote));
  }
  const filtered = context.insurerFilter.length === 0 ? context.quotes : context.quotes.filter((quote) => context.insurerFilter.includes(quote.provider.id));
  return sortQuotes(filtered, context.sort).map((quote) => viewOf(context, quote));
}

/** The same view: the same quote, total, ticked add-ons and compare and buying marks. */
function sameView(a: QuoteView, b: QuoteView): boolean {
  return (
    a.quote === b.quote &&
    a.total === b.total &&
    a.compared === b.compared &&
    a.buying === b.buying &&
    a.checkedAddonIds.length === b.checkedAddonIds.length &&
    a.checkedAddonIds.every((id, index) => b.checkedAddonIds[index] === id)
  );
}

/**
 * `next` with each view that equals one of `previous` replaced by that earlier object, and
 * `previous` itself when every view is the same, in the same order: what a memoised card needs to
 * skip its render when a change is not its own (issue 19: Buy now redrew all seven cards, about
 * 70 ms at desktop speed, before its request could leave).
 */
export function keepEqualViews(previous: QuoteView[], next: QuoteView[]): QuoteView[] {
  const kept = next.map((view) => previous.find((old) => sameView(old, view)) ?? view);
  return kept.length === previous.length && kept.every((view, index) => view === previous[index]) ? previous : kept;
}

/**
 * selectVisibleQuotes for one screen: it answers the views it answered before wherever they are
 * unchanged (keepEqualViews), and the same array when nothing changed.
 */
export function visibleQuotesSelector(): (snapshot: QuotesSnapshot) => QuoteView[] {
  let last: QuoteView[] = [];
  return (snapshot) => (last = keepEqualViews(last, selectVisibleQuotes(snapshot)));
}

/** Every quote, for counts that ignore the filter. */
export const selectQuoteCount = (snapshot: QuotesSnapshot): number => snapshot.context.quotes.length;

/** Insurers present in the quotes, once each, in first-quoted order: the filter's options. */
export function selectInsurers(snapshot: QuotesSnapshot): Quote['provider'][] {
  const seen = new Map<number, Quote['provider']>();
  for (const quote of snapshot.context.quotes) if (!seen.has(quote.provider.id)) seen.set(quote.provider.id, quote.provider);
  return [...seen.values()];
}

export const selectSort = (snapshot: QuotesSnapshot): QuotesSort => snapshot.context.sort;
export const selectInsurerFilter = (snapshot: QuotesSnapshot): number[] => snapshot.context.insurerFilter;
export const selectLead = (snapshot: QuotesSnapshot) => snapshot.context.lead;
export const selectCustomer = (snapshot: QuotesSnapshot) => snapshot.context.customer;
export const selectWhatsappTemplate = (snapshot: QuotesSnapshot): string => snapshot.context.whatsappTemplate;
export const selectUnavailableProviders = (snapshot: QuotesSnapshot) => snapshot.context.unavailableProviders;

/** The plans in the compare tray, in the order chosen. */
export function selectCompared(snapshot: QuotesSnapshot): Quote[] {
  const { context } = snapshot;
  return context.compareSelection
    .map((id) => context.quotes.find((quote) => quote.id === id))
    .filter((quote): quote is Quote => quote !== undefined);
}

/** The tray opens from two plans (spec: "more than one"); at exactly two it asks for a third. */
export const selectTrayOpen = (snapshot: QuotesSnapshot): boolean => snapshot.context.compareSelection.length >= 2;
export const selectAskForAnother = (snapshot: QuotesSnapshot): boolean => snapshot.context.compareSelection.length === 2;
export const selectCompareFull = (snapshot: QuotesSnapshot): boolean => snapshot.context.compareSelection.length >= MAX_COMPARED;
/** A 4th plan was refused: the page says at most 3 can be compared. */
export const selectCompareRefused = (snapshot: QuotesSnapshot): boolean => snapshot.context.compareRefused;
export const selectCanCompare = (snapshot: QuotesSnapshot): boolean => snapshot.can({ type: 'compare.open' });

export function selectDrawerQuote(snapshot: QuotesSnapshot): QuoteView | null {
  const quote = snapshot.context.quotes.find((candidate) => candidate.id === snapshot.context.drawerQuoteId);
  return quote ? viewOf(snapshot.context, quote) : null;
}

/** A buy is under way (or done, while the journey opens review): every buy button waits. */
export const selectBuying = (snapshot: QuotesSnapshot): boolean =>
  snapshot.matches({ ready: { list: 'buying' } }) || (snapshot.status === 'done' && snapshot.output?.type === 'chosen');

export const selectNotice = (snapshot: QuotesSnapshot): QuotesNotice | null => snapshot.context.notice;
export const selectFailure = (snapshot: QuotesSnapshot): QuotesFailure | null => snapshot.context.failure;
export const selectBuyFailed = (snapshot: QuotesSnapshot): boolean => snapshot.context.buyFailed;

export const selectSharing = (snapshot: QuotesSnapshot): boolean => snapshot.matches({ ready: { share: 'sending' } });
export const selectEmailSent = (snapshot: QuotesSnapshot): boolean => snapshot.context.emailSent;

/** How the step ended, once it has: the journey is told quote.chosen, compare.opened or compare.closed. */
export const selectOutcome = (snapshot: QuotesSnapshot): QuotesOutput | null => (snapshot.status === 'done' ? (snapshot.output ?? null) : null);

/**
 * The journey event that follows the quotes step's output (a plan chosen, plans compared, the
 * table left); the journey hook applies it, so no screen decides where the journey goes.
 */
export function quotesOutcomeEvent(output: QuotesOutput): JourneyEvent {
  switch (output.type) {
    case 'chosen':
      return { type: 'quote.chosen' };
    case 'compared':
      return { type: 'compare.opened' };
    case 'closed':
      return { type: 'compare.closed' };
  }
}
