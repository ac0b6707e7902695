import { useCallback } from 'react';
import { useLingui } from '@lingui/react/macro';
import { plural } from '@lingui/core/macro';
import type { Language } from '../../../contract/endpoint';
import { MAX_COMPARED, type QuotesEvent, type QuotesSort } from '../../../../machines/quotes/quotes.types';
import { selectVisibleQuotes, type QuotesSnapshot } from '../../../../machines/quotes/quotes.selectors';
import { formatMoney } from '../../i18n/format';
import { useAnnounce } from '../../shell/announcer';
import { localized } from './quote-texts';

/** The quotes step as the plan pages hold it: events in, snapshots out. */
interface QuotesStep {
  send: (event: QuotesEvent) => void;
  getSnapshot: () => QuotesSnapshot;
}

/**
 * The plan pages' changes that happen away from where the customer is (a total on the card, the
 * tray at the bottom, the list below the toolbar), said to screen-reader users through the
 * shared announcer (WCAG 4.1.3, issue 21). Each handler sends its event, then says what the
 * machine made of it: the machine may take it or not (a 4th plan is refused), so the words
 * come from the snapshot after it, never from the click.
 */
export function useQuoteAnnouncements(step: QuotesStep, lang: Language) {
  const { t } = useLingui();
  const announce = useAnnounce();
  const send = useCallback((event: QuotesEvent) => step.send(event), [step]);

  const viewOf = useCallback((quoteId: number) => selectVisibleQuotes(step.getSnapshot()).find((view) => view.quote.id === quoteId), [step]);

  /** Ticks or unticks an add-on, and says the plan's new total: "Europe Flex: $58 with Winter sports". */
  const toggleAddon = useCallback(
    (quoteId: number, addonId: number) => {
      const wasTicked = viewOf(quoteId)?.checkedAddonIds.includes(addonId);
      send({ type: 'addon.toggle', quoteId, addonId });
      const view = viewOf(quoteId);
      const addon = view?.quote.addon.find((candidate) => candidate.id === addonId);
      if (!view || !addon) return;
      const ticked = view.checkedAddonIds.includes(addonId);
      if (ticked === wasTicked) return;
      const plan = view.quote.wizard_plan_name;
      const total = formatMoney(view.total, lang);
      const cover = localized(lang, addon.label, addon.label_ar);
      announce(ticked ? t`${plan}: ${total} with ${cover}` : t`${plan}: ${total} without ${cover}`);
    },
    [send, viewOf, lang, announce, t],
  );

  /** Adds a plan to compare or takes it out, and says so with the count; a 4th refused is said at once. */
  const toggleCompare = useCallback(
    (quoteId: number) => {
      const wasCompared = step.getSnapshot().context.compareSelection.includes(quoteId);
      send({ type: 'compare.toggle', quoteId });
      const { context } = step.getSnapshot();
      const quote = context.quotes.find((candidate) => candidate.id === quoteId);
      if (!quote) return;
      const plan = quote.wizard_plan_name;
      const count = context.compareSelection.length;
      const max = MAX_COMPARED;
      const compared = context.compareSelection.includes(quoteId);
      if (compared && !wasCompared) announce(t`Added ${plan} to compare: ${count} of ${max} chosen`);
      else if (!compared && wasCompared) announce(t`Removed ${plan} from compare: ${count} of ${max} chosen`);
      else if (context.compareRefused) announce(t`You can compare up to 3 plans`, { urgent: true });
    },
    [step, send, announce, t],
  );

  const sort = useCallback(
    (value: QuotesSort) => {
      send({ type: 'sort.change', sort: value });
      announce(value === 'medical' ? t`Sorted by medical limit, highest first` : t`Sorted by price, lowest first`);
    },
    [send, announce, t],
  );

  /** Filters by insurer, and says how many plans the list now shows. */
  const filter = useCallback(
    (providerIds: number[]) => {
      send({ type: 'filter.change', providerIds });
      const shown = selectVisibleQuotes(step.getSnapshot()).length;
      announce(t({ message: plural(shown, { one: `${shown} plan shown`, other: `${shown} plans shown` }) }));
    },
    [step, send, announce, t],
  );

  return { toggleAddon, toggleCompare, sort, filter };
}
