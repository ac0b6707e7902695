import { useEffect, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { selectIsAgent, selectLead } from '../../../../machines/journey.selectors';
import { quotesOutcomeEvent, selectBuyFailed, selectFailure, selectOutcome } from '../../../../machines/quotes.selectors';
import type { QuotesInput, QuotesView } from '../../../../machines/quotes.types';
import { JourneyActorContext } from '../../journey/journey-context';
import { useStepOutcome } from '../../journey/use-step-outcome';
import { preloadBotCheck } from '../../services/bot-check.service';
import { useApp } from '../../shell/app-context';
import { quotesLogic, readCompareData } from './quotes.actors';

/** The address of this page as the agent shares it: the lead's page, without the agent. */
function shareLink(view: QuotesView, uuid: string | null): string | null {
  if (!uuid || !globalThis.location?.origin?.startsWith('http')) return null;
  const path = view === 'offers' ? '/compare-offers' : '/compare-quotes';
  return `${globalThis.location.origin}${path}?uuid=${encodeURIComponent(uuid)}`;
}

/**
 * Runs the quotes machine for a page: input read once from the journey and storage, and the
 * step's end told to the journey (quote.chosen, compare.opened, compare.closed). A quotes error
 * flag or a failed buy opens the system error dialog (spec §4, §8).
 */
export function useQuotesStep(view: QuotesView) {
  const { lang, showSystemError } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const isAgent = JourneyActorContext.useSelector(selectIsAgent);
  const [input] = useState<QuotesInput>(() => {
    const lead = selectLead(journey.getSnapshot());
    const agentId = lead.agentId === null ? null : Number(lead.agentId);
    // Both pages start from compare_data: the table's plans, the list's selection, and each plan's ticks.
    const compared = readCompareData(lead.uuid);
    return {
      lang,
      uuid: lead.uuid,
      sessionId: lead.sessionId,
      agentId: agentId !== null && Number.isInteger(agentId) && agentId >= 0 ? agentId : null,
      link: shareLink(view, lead.uuid),
      view,
      compareIds: compared.compareIds,
      addonsByPlan: compared.addons,
    };
  });
  const step = useActorRef(quotesLogic, { input });
  const outcome = useSelector(step, selectOutcome);
  const failure = useSelector(step, selectFailure);
  const buyFailed = useSelector(step, selectBuyFailed);

  // With reCAPTCHA, Google's script loads on the plan pages only, before a plan is chosen.
  useEffect(() => preloadBotCheck(), []);

  useEffect(() => {
    if (failure === 'quotes_error' || buyFailed) showSystemError();
  }, [failure, buyFailed, showSystemError]);

  useStepOutcome(outcome, quotesOutcomeEvent);

  return { step, lang, isAgent: isAgent && input.agentId !== null };
}
