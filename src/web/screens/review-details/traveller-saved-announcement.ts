import { useEffect } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import {
  selectCurrentTraveller,
  selectFormOpen,
  selectOutcome,
  selectSaving,
  selectTravellerCount,
  selectViewState,
  type ReviewSnapshot,
} from '../../../../machines/review/review.selectors';
import { useAnnounce } from '../../shell/announcer';
import type { reviewLogic } from './review.actors';

/** A traveller the server has just saved: "Traveller 1 of 3 saved: Jane Doe". */
export interface SavedTraveller {
  number: number;
  count: number;
  /** As saved: first, middle and last name. */
  name: string;
}

/**
 * Pure: the traveller whose save has just succeeded between two snapshots, or null. The save
 * ends with the form closed before the next opens, or with the step completed after the last;
 * a refusal or the DOB dialog keeps the form open, and a plan gone ends the step otherwise.
 */
export function savedTraveller(before: ReviewSnapshot, after: ReviewSnapshot): SavedTraveller | null {
  if (!selectSaving(before) || selectFormOpen(after)) return null;
  if (selectViewState(after) !== 'ready' && selectOutcome(after)?.type !== 'completed') return null;
  const traveller = selectCurrentTraveller(before);
  if (!traveller) return null;
  const { first_name, middle_name, last_name } = traveller.values;
  return { number: traveller.number, count: selectTravellerCount(before), name: [first_name, middle_name, last_name].filter(Boolean).join(' ') };
}

/** Says each saved traveller out loud (WCAG 4.1.3, issue 21): the form closing says nothing by itself. */
export function useTravellerSavedAnnouncements(step: ActorRefFrom<typeof reviewLogic>): void {
  const { t } = useLingui();
  const announce = useAnnounce();
  useEffect(() => {
    let before = step.getSnapshot();
    const subscription = step.subscribe((after) => {
      const saved = savedTraveller(before, after);
      before = after;
      if (!saved) return;
      const { number, count, name } = saved;
      announce(t`Traveller ${number} of ${count} saved: ${name}`);
    });
    return () => subscription.unsubscribe();
  }, [step, announce, t]);
}
