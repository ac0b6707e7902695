import type { SnapshotFrom } from 'xstate';
import type { Option } from '../../src/contract/endpoint';
import type { TravelDetailsErrors } from '../../src/contract/travel-details.rules';
import type { callBackMachine } from './call-back.machine';
import type { CallBackFailure, CallBackOutput, CallBackValues } from './call-back.types';

export type CallBackSnapshot = SnapshotFrom<typeof callBackMachine>;

/** What the screen shows: a loader, the form, or the error view. */
export type CallBackView = 'loading' | 'form' | 'failed' | 'done';

export function selectCallBackView(snapshot: CallBackSnapshot): CallBackView {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('failed')) return 'failed';
  return 'form';
}

export const selectCallBackSending = (snapshot: CallBackSnapshot): boolean => snapshot.matches('sending');

export const selectCallBackValues = (snapshot: CallBackSnapshot): CallBackValues => snapshot.context.values;

export const selectCallBackPhoneCodes = (snapshot: CallBackSnapshot): Option[] => snapshot.context.phoneCodes;

export const selectCallBackServerErrors = (snapshot: CallBackSnapshot): TravelDetailsErrors => snapshot.context.serverErrors;

/** Why the last request failed, when it is not a field's fault (rate limit, agent, network). */
export const selectCallBackFailure = (snapshot: CallBackSnapshot): CallBackFailure | null => snapshot.context.failure;

/** The stored request, once the step is over: the journey is told callBack.submitted. */
export const selectCallBackOutcome = (snapshot: CallBackSnapshot): CallBackOutput | null =>
  snapshot.status === 'done' ? (snapshot.output ?? null) : null;
