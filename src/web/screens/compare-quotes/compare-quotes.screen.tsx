import { useCallback, useDeferredValue, useMemo } from 'react';
import { flushSync } from 'react-dom';
import { Alert, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import {
  selectAskForAnother,
  selectBuying,
  selectCanCompare,
  selectCompareRefused,
  selectCompared,
  selectDrawerQuote,
  selectInsurerFilter,
  selectInsurers,
  selectLead,
  selectNotice,
  selectSort,
  selectTrayOpen,
  selectUnavailableProviders,
  selectViewState,
  visibleQuotesSelector,
} from '../../../../machines/quotes/quotes.selectors';
import { selectLeadNotFound } from '../../../../machines/service-failure';
import { JourneyActorContext } from '../../journey/journey-context';
import { LoadFailureView } from '../load-failure-view';
import { useShownViewState } from '../use-shown-view-state';
import { PageHeading } from '../page-heading';
import { AgentShare } from '../quotes-shared/agent-share';
import { QuotesLoading } from '../quotes-shared/quotes-loading';
import { QuotesNoticeAlert } from '../quotes-shared/quotes-notice';
import { useQuoteAnnouncements } from '../quotes-shared/use-quote-announcements';
import { useQuotesStep } from '../quotes-shared/use-quotes-step';
import { BenefitsDrawer } from './benefits-drawer';
import { CompareTray } from './compare-tray';
import { QuoteCard, compareBoxId } from './quote-card';
import { QuoteListSkeleton } from './quote-list-skeleton';
import { QuotesEmpty } from './quotes-empty';
import { QuotesSummary } from './quotes-summary';
import { QuotesToolbar } from './quotes-toolbar';
import { useRevealedCount } from './use-revealed-count';

/** The list's outline while the plans load: one element, so the memoised QuotesLoading keeps it. */
const LIST_SKELETON = <QuoteListSkeleton />;

/** /compare-quotes: the quote list with add-ons and benefits, the drawer and the compare tray. */
export function CompareQuotesScreen() {
  const { t } = useLingui();
  const journey = JourneyActorContext.useActorRef();
  const { step, lang, isAgent } = useQuotesStep('quotes');

  const viewState = useShownViewState(useSelector(step, selectViewState));
  const selectQuotes = useMemo(() => visibleQuotesSelector(), []);
  const quotes = useSelector(step, selectQuotes);
  const lead = useSelector(step, selectLead);
  const unavailable = useSelector(step, selectUnavailableProviders);
  const insurers = useSelector(step, selectInsurers);
  const sort = useSelector(step, selectSort);
  const insurerFilter = useSelector(step, selectInsurerFilter);
  const compared = useSelector(step, selectCompared);
  const trayOpen = useSelector(step, selectTrayOpen);
  const askForAnother = useSelector(step, selectAskForAnother);
  const refused = useSelector(step, selectCompareRefused);
  const canCompare = useSelector(step, selectCanCompare);
  const drawer = useSelector(step, selectDrawerQuote);
  // Every card shows the buy under way (its buttons disabled), after the tap's own render: the
  // machine takes no second buy meanwhile, and the proceed-review request leaves at once.
  const busy = useDeferredValue(useSelector(step, selectBuying));
  const notice = useSelector(step, selectNotice);
  const leadNotFound = useSelector(step, selectLeadNotFound);

  const revealed = useRevealedCount(viewState === 'loading' ? 0 : quotes.length);

  // Sorting, filtering, add-ons and compare say what they changed (use-quote-announcements.ts).
  const { sort: onSort, filter: onFilter, toggleAddon: onToggleAddon, toggleCompare: onToggleCompare } = useQuoteAnnouncements(step, lang);
  const onBuy = useCallback((quoteId: number) => step.send({ type: 'quote.buy', quoteId }), [step]);
  const onOpenBenefits = useCallback((quoteId: number) => step.send({ type: 'drawer.open', quoteId }), [step]);
  // The tray's remove button goes with its plan, so focus moves on (WCAG 2.4.3): to the tray's
  // Compare plans button while the tray shows, else to the plan's own box on its card.
  const onRemoveFromTray = useCallback(
    (quoteId: number) => {
      flushSync(() => onToggleCompare(quoteId));
      const next = document.querySelector<HTMLElement>('[data-testid="compare-open"]') ?? document.getElementById(compareBoxId(quoteId));
      next?.focus();
    },
    [onToggleCompare],
  );

  // A compared card's shortcut to the bar (quote-card.tsx): its button, which opens the table.
  const onGoToCompare = useCallback(() => document.querySelector<HTMLElement>('[data-testid="compare-open"]')?.focus(), []);

  let body;
  if (viewState === 'failed') {
    body = <LoadFailureView leadNotFound={leadNotFound} />;
  } else if (viewState === 'empty') {
    body = <QuotesEmpty onCallBack={() => journey.send({ type: 'callBack.requested' })} />;
  } else if (viewState === 'loading' || !lead) {
    body = <QuotesLoading testId="quotes-loading" skeleton={LIST_SKELETON} />;
  } else {
    body = (
      <>
        <QuotesSummary
          // The plans shown: after a filter, the heading counts what the list holds (issue 21).
          count={quotes.length}
          lead={lead}
          lang={lang}
          actions={isAgent ? <AgentShare step={step} /> : undefined}
        />
        <QuotesNoticeAlert notice={notice} onClose={() => step.send({ type: 'notice.dismiss' })} />
        {unavailable.length > 0 && (
          <Alert color="gray" variant="light" mb="md" icon={<IconInfoCircle aria-hidden="true" />} data-testid="unavailable-providers">
            {t`Some insurers did not answer in time; their plans are not shown.`}
          </Alert>
        )}
        <QuotesToolbar sort={sort} insurers={insurers} insurerFilter={insurerFilter} lang={lang} onSort={onSort} onFilter={onFilter} />
        <Stack gap="md" mt="md" data-testid="quote-list" aria-busy={revealed < quotes.length}>
          {quotes.slice(0, revealed).map((view) => (
            <QuoteCard
              key={view.quote.id}
              view={view}
              lang={lang}
              travellers={lead.no_of_traveller}
              busy={busy}
              compareReady={trayOpen && canCompare}
              onBuy={onBuy}
              onToggleAddon={onToggleAddon}
              onToggleCompare={onToggleCompare}
              onOpenBenefits={onOpenBenefits}
              onGoToCompare={onGoToCompare}
            />
          ))}
        </Stack>
        <CompareTray
          compared={compared}
          open={trayOpen}
          askForAnother={askForAnother}
          refused={refused}
          canCompare={canCompare}
          lang={lang}
          onRemove={onRemoveFromTray}
          onCompare={() => step.send({ type: 'compare.open' })}
        />
        <BenefitsDrawer view={drawer} lang={lang} onClose={() => step.send({ type: 'drawer.close' })} />
      </>
    );
  }

  return (
    <>
      <PageHeading testId="screen-compare-quotes" title={t`Compare quotes`} intro={t`Plans from our insurers for your trip, cheapest first.`} />
      {body}
    </>
  );
}
