import { useEffect, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { selectLead as selectJourneyLead } from '../../../../machines/journey.selectors';
import { reviewOutcomeEvent, selectOutcome, selectSaveFailed } from '../../../../machines/review.selectors';
import type { ReviewInput } from '../../../../machines/review.types';
import { JourneyActorContext } from '../../journey/journey-context';
import { useStepOutcome } from '../../journey/use-step-outcome';
import { useApp } from '../../shell/app-context';
import { reviewLogic, storedTravellerIndex, thankYouStored } from './review.actors';

/** The address of this page as the agent shares it: the lead's page, without the agent. */
function shareLink(uuid: string | null): string | null {
  if (!uuid || !globalThis.location?.origin?.startsWith('http')) return null;
  return `${globalThis.location.origin}/review-details?uuid=${encodeURIComponent(uuid)}`;
}

/**
 * Runs the review machine for the page: input read once from the journey and storage, the
 * step's end told to the journey, and a failed save shown in the system error dialog (spec §8).
 */
export function useReviewStep() {
  const { lang, showSystemError } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const [input] = useState<ReviewInput>(() => {
    const lead = selectJourneyLead(journey.getSnapshot());
    const agentId = lead.agentId === null ? null : Number(lead.agentId);
    const validAgent = agentId !== null && Number.isInteger(agentId) && agentId > 0 ? agentId : null;
    return {
      lang,
      uuid: lead.uuid,
      sessionId: lead.sessionId,
      agentId: validAgent,
      link: validAgent === null ? null : shareLink(lead.uuid),
      storedIndex: storedTravellerIndex(),
      thankYou: thankYouStored(),
    };
  });
  const step = useActorRef(reviewLogic, { input });
  const outcome = useSelector(step, selectOutcome);
  const saveFailed = useSelector(step, selectSaveFailed);
  useStepOutcome(outcome, reviewOutcomeEvent);

  useEffect(() => {
    if (saveFailed) showSystemError();
  }, [saveFailed, showSystemError]);

  return { step, lang, isAgent: input.agentId !== null };
}
