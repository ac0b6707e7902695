import { useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useStepActor } from '../../journey/step-actor';
import { reviewOutcomeEvent, selectOutcome, selectSaveFailed } from '../../../../machines/review/review.selectors';
import type { ReviewInput } from '../../../../machines/review/review.types';
import { JourneyActorContext } from '../../journey/journey-context';
import { stepLead } from '../../journey/step-lead';
import { useStepOutcome } from '../../journey/use-step-outcome';
import { useApp } from '../../shell/app-context';
import { storedTravellerIndex, thankYouStored } from '../../storage/journey-flags';
import { takeReloadDraft } from '../../storage/reload-draft';
import { reviewLogic } from './review.actors';
import { isReviewDrafts } from './review-reload-draft';

/**
 * Runs the review machine for the page: input read once from the journey and storage, the
 * step's end told to the journey, and a failed save shown in the system error dialog (spec §8).
 */
export function useReviewStep() {
  const { lang, showSystemError } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const [input] = useState<ReviewInput>(() => ({
    lang,
    ...stepLead(journey.getSnapshot(), '/review-details'),
    storedIndex: storedTravellerIndex(),
    thankYou: thankYouStored(journey.getSnapshot().context.uuid),
    // What was typed before the language switch's reload (issue 17).
    drafts: takeReloadDraft(isReviewDrafts) ?? {},
  }));
  const step = useStepActor(reviewLogic, input);
  const outcome = useSelector(step, selectOutcome);
  const saveFailed = useSelector(step, selectSaveFailed);
  useStepOutcome(outcome, reviewOutcomeEvent);

  useEffect(() => {
    if (saveFailed) showSystemError();
  }, [saveFailed, showSystemError]);

  return { step, lang, isAgent: input.agentId !== null };
}
