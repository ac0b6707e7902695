import { Button, Group, useDirection } from '@mantine/core';
import { IconArrowLeft, IconArrowRight } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import {
  selectBuying,
  selectNotice,
  selectViewState,
  selectVisibleQuotes,
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
import { OffersTable } from './offers-table';

/** /compare-offers: the side-by-side table of up to 3 plans stored by the quote list (compare_data). */
export function CompareOffersScreen() {
  const { t } = useLingui();
  const { dir } = useDirection();
  const journey = JourneyActorContext.useActorRef();
  const { step, lang, isAgent } = useQuotesStep('offers');
  const liveState = useSelector(step, selectViewState);
  const viewState = useShownViewState(liveState);
  const views = useSelector(step, selectVisibleQuotes);
  const busy = useSelector(step, selectBuying);
  const notice = useSelector(step, selectNotice);
  const leadNotFound = useSelector(step, selectLeadNotFound);
  const { toggleAddon } = useQuoteAnnouncements(step, lang);
  const BackIcon = dir === 'rtl' ? IconArrowRight : IconArrowLeft;

  let body;
  if (viewState === 'failed') {
    body = <LoadFailureView leadNotFound={leadNotFound} />;
  } else if (viewState === 'ready') {
    body = (
      <>
        <QuotesNoticeAlert notice={notice} onClose={() => step.send({ type: 'notice.dismiss' })} />
        <OffersTable
          views={views}
          lang={lang}
          busy={busy}
          onProceed={(quoteId) => step.send({ type: 'quote.buy', quoteId })}
          onToggleAddon={toggleAddon}
        />
      </>
    );
  } else {
    // Loading, or leaving (nothing to compare, or a plan was chosen).
    body = <QuotesLoading testId="offers-loading" />;
  }

  return (
    <>
      <PageHeading testId="screen-compare-offers" title={t`Compare plans`} intro={t`Up to three plans side by side.`} />
      <Group justify="space-between" mb="md">
        <Button
          variant="default"
          leftSection={<BackIcon size={18} aria-hidden="true" />}
          // Failed to load: the table machine cannot close itself, so the journey is told directly.
          onClick={() => (liveState === 'ready' ? step.send({ type: 'compare.back' }) : journey.send({ type: 'compare.closed' }))}
          disabled={liveState === 'loading' || liveState === 'done' || busy}
          data-testid="offers-back"
        >
          {t`Back`}
        </Button>
        {isAgent && viewState === 'ready' && <AgentShare step={step} />}
      </Group>
      {body}
    </>
  );
}
