import type { SnapshotFrom } from 'xstate';
import type { RecentSearch } from '../../src/contract/lead.endpoints';
import type { TravelDetailsErrors } from '../../src/contract/travel-details.rules';
import type { travelDetailsMachine } from './travel-details.machine';
import type {
  TravelDetailsContext,
  TravelDetailsFailure,
  TravelDetailsOutput,
  TravelDetailsReference,
  TravelDetailsValues,
} from './travel-details.types';

export type TravelDetailsSnapshot = SnapshotFrom<typeof travelDetailsMachine>;

/** What the screen shows: a loader, the leads chooser, the form, or the error view. */
export type TravelDetailsView = 'loading' | 'chooser' | 'form' | 'failed' | 'done';

export function selectView(snapshot: TravelDetailsSnapshot): TravelDetailsView {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('chooser')) return 'chooser';
  if (snapshot.matches('failed')) return 'failed';
  return 'form';
}

/** The form is being saved: its submit button shows progress and is not pressed again. */
export const selectSubmitting = (snapshot: TravelDetailsSnapshot): boolean => snapshot.matches('saving');

export const selectValues = (snapshot: TravelDetailsSnapshot): TravelDetailsValues => snapshot.context.values;

export const selectReference = (snapshot: TravelDetailsSnapshot): TravelDetailsReference | null => snapshot.context.reference;

export const selectRecentLeads = (snapshot: TravelDetailsSnapshot): RecentSearch[] => snapshot.context.recentLeads;

export const selectServerErrors = (snapshot: TravelDetailsSnapshot): TravelDetailsErrors => snapshot.context.serverErrors;

/** A save failed for a reason the form cannot fix: the system error dialog is shown. */
export const selectSaveFailed = (snapshot: TravelDetailsSnapshot): boolean => snapshot.context.saveFailed;

export const selectAgentError = (snapshot: TravelDetailsSnapshot): TravelDetailsContext['agentError'] => snapshot.context.agentError;

export const selectFailure = (snapshot: TravelDetailsSnapshot): TravelDetailsFailure | null => snapshot.context.failure;

/** How the step ended, once it has: the journey is told with details.submitted, lead.resumed or lead.noQuote. */
export const selectOutcome = (snapshot: TravelDetailsSnapshot): TravelDetailsOutput | null =>
  snapshot.status === 'done' ? (snapshot.output ?? null) : null;
