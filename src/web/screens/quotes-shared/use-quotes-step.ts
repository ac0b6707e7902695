import { useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useStepActor } from '../../journey/step-actor';
import { selectIsAgent, selectLead } from '../../../../machines/journey.selectors';
import { quotesOutcomeEvent, selectBuyFailed, selectFailure, selectOutcome } from '../../../../machines/quotes/quotes.selectors';
import type { QuotesInput, QuotesView } from '../../../../machines/quotes/quotes.types';
import { JourneyActorContext } from '../../journey/journey-context';
import { quotesShareLink, stepAgentId } from '../../journey/step-lead';
import { useStepOutcome } from '../../journey/use-step-outcome';
import { preloadBotCheck } from '../../services/bot-check.service';
import { useApp } from '../../shell/app-context';
import { quotesLogic, readCompareData } from './quotes.actors';

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
    // Both pages start from compare_data: the table's plans, the list's selection, and each plan's ticks.
    const compared = readCompareData(lead.uuid);
    return {
      lang,
      uuid: lead.uuid,
      sessionId: lead.sessionId,
      agentId: stepAgentId(lead.agentId),
      link: quotesShareLink(view, lead.uuid),
      view,
      compareIds: compared.compareIds,
      addonsByPlan: compared.addons,
    };
  });
  const step = useStepActor(quotesLogic, input);
  const outcome = useSelector(step, selectOutcome);
  const failure = useSelector(step, selectFailure);
  const buyFailed = useSelector(step, selectBuyFailed);

  // The bot check is made ready as a plan page opens, before a plan is chosen: an ALTCHA token
  // fetched and solved in a worker in the first idle moment (while the plans are asked for, as a
  // rule), or with reCAPTCHA, Google's script (loaded on these pages only). Solved once the plans
  // were shown, a Buy now tapped at once waited for the worker to start and search (issue 19).
  useEffect(() => preloadBotCheck(lang), [lang]);

  useEffect(() => {
    if (failure === 'quotes_error' || buyFailed) showSystemError();
  }, [failure, buyFailed, showSystemError]);

  useStepOutcome(outcome, quotesOutcomeEvent);

  return { step, lang, isAgent: isAgent && input.agentId !== null };
}
