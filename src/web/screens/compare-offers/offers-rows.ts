import type { Language } from '../../../contract/endpoint';
import type { Quote, QuoteAddon } from '../../../contract/quote.endpoints';
import { localized } from '../quotes-shared/quote-texts';

/** The highlights first shown in the table; the rest follow below them (spec §2 /compare-offers). */
export const TOP_HIGHLIGHTS = 7;

export interface OffersRow {
  key: string;
  label: string;
  /** One cell per plan, in column order; "-" when the plan lacks it. */
  cells: string[];
  /** Oldest age an add-on covers, for the winter sports rule. */
  maxAge: number | null;
  kind: 'highlight' | 'addon';
  /** For an add-on row: each plan's add-on (null when it lacks it), so its cell can be ticked. */
  addons: (QuoteAddon | null)[];
}

/**
 * The table's rows for the compared plans: highlights in highlight order (the first plan's,
 * then keys only later plans have), split into the top 7 and the rest, then one row per add-on.
 */
export function offersRows(quotes: Quote[], lang: Language): { top: OffersRow[]; rest: OffersRow[]; addons: OffersRow[] } {
  const highlightKeys: string[] = [];
  for (const quote of quotes) for (const highlight of quote.highlight) if (!highlightKeys.includes(highlight.key)) highlightKeys.push(highlight.key);
  const highlightRows = highlightKeys.map((key): OffersRow => {
    const first = quotes.flatMap((quote) => quote.highlight).find((highlight) => highlight.key === key)!;
    return {
      key,
      label: localized(lang, first.label, first.label_ar),
      cells: quotes.map((quote) => {
        const found = quote.highlight.find((highlight) => highlight.key === key);
        return (found && localized(lang, found.value, found.value_ar)) || '-';
      }),
      maxAge: null,
      kind: 'highlight',
      addons: [],
    };
  });
  const addonCodes: string[] = [];
  for (const quote of quotes) for (const addon of quote.addon) if (!addonCodes.includes(addon.code)) addonCodes.push(addon.code);
  const addons = addonCodes.map((code): OffersRow => {
    const first = quotes.flatMap((quote) => quote.addon).find((addon) => addon.code === code)!;
    return {
      key: `addon-${code}`,
      label: localized(lang, first.label, first.label_ar),
      // A plan without the add-on reads "-"; the others show a checkbox with the price (offers-table).
      cells: quotes.map((quote) => quote.addon.find((addon) => addon.code === code)?.value_to_display || '-'),
      maxAge: first.max_age,
      kind: 'addon',
      addons: quotes.map((quote) => quote.addon.find((addon) => addon.code === code) ?? null),
    };
  });
  return { top: highlightRows.slice(0, TOP_HIGHLIGHTS), rest: highlightRows.slice(TOP_HIGHLIGHTS), addons };
}
