import type { SnapshotFrom } from 'xstate';
import { TestModel, type TestPath } from 'xstate/graph';
import { callBackMachine } from './call-back.machine';
import type { ActorOutcomeEvent } from '../quotes/quotes.model';
import { FAILURES, LEAD_UUID, SAMPLE_REFERENCE } from '../travel-details/travel-details.model';
import type { CallBackEvent, CallBackForm, CallBackInput, CallBackValues } from './call-back.types';

/**
 * Samples of the call-back step (the short wizard's form), shared by its model test
 * (call-back.model.test.ts): the form as loaded, what each call can answer, and the submit.
 */

export const CALL_BACK_VALUES: CallBackValues = { name: ' Rania  Haddad ', email: ' rania@example.com ', phone_country_code: '+961', phone_number: '71234567' };
export const CALL_BACK_FORM: CallBackForm = { phoneCodes: SAMPLE_REFERENCE.phoneCodes, values: CALL_BACK_VALUES };

export function callBackInput(overrides: Partial<CallBackInput> = {}): CallBackInput {
  return { lang: 'en', reason: 'no_online_quote', leadUuid: LEAD_UUID, agentId: null, ...overrides };
}

const refusal = (status: number, errors: Record<string, string>) => ({ kind: status === 429 ? 'rejected' : 'invalid', status, body: { status, message: 'refused', data: { errors } } });

/** What the web's ApiError looks like for each refusal of request-call-back the step tells apart. */
export const CALL_BACK_FAILURES = {
  network: FAILURES.network,
  fieldRefused: refusal(422, { name: 'name_chars', uuid: 'not_found' }),
  rateLimited: { kind: 'rejected', status: 429, body: { status: 429, message: 'Too many requests', data: {} } },
  agentUnknown: refusal(422, { agent_id: 'agent_unknown' }),
} as const;

export type CallBackModelEvent = CallBackEvent | ActorOutcomeEvent;

/** The call outcomes and user events the model explores: every answer of both calls, and a submit. */
export const callBackModelEvents: readonly CallBackModelEvent[] = [
  { type: 'xstate.done.actor.loadForm', output: CALL_BACK_FORM },
  { type: 'xstate.error.actor.loadForm', error: CALL_BACK_FAILURES.network },
  { type: 'callBack.submit', values: CALL_BACK_VALUES },
  { type: 'xstate.done.actor.sendRequest', output: { call_back_id: 12 } },
  { type: 'xstate.error.actor.sendRequest', error: CALL_BACK_FAILURES.fieldRefused },
  { type: 'xstate.error.actor.sendRequest', error: CALL_BACK_FAILURES.rateLimited },
  { type: 'xstate.error.actor.sendRequest', error: CALL_BACK_FAILURES.agentUnknown },
  { type: 'xstate.error.actor.sendRequest', error: CALL_BACK_FAILURES.network },
];

/**
 * The call-back model (issue 20), shared by the run of its paths on a live actor
 * (call-back.model.test.ts) and on the rendered screen (tests/model/call-back-screen.model.test.tsx).
 */
export type CallBackModelSnapshot = SnapshotFrom<typeof callBackMachine>;
export type CallBackModelPath = TestPath<CallBackModelSnapshot, CallBackModelEvent>;

export const serializeCallBackModelState = (snapshot: CallBackModelSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });

export function createCallBackTestModel(input: CallBackInput) {
  return new TestModel<CallBackModelSnapshot, CallBackModelEvent, CallBackInput>(callBackMachine as never, {
    input,
    serializeState: serializeCallBackModelState,
    stateMatcher: (state, key) => state.matches(key as never),
    events: (state) => callBackModelEvents.filter((event) => state.can(event as never)),
  });
}

const CALL_BACK_FAILURE_NAMES = new Map<unknown, string>(Object.entries(CALL_BACK_FAILURES).map(([name, failure]) => [failure, name]));

function describeCallBackEvent(event: CallBackModelEvent | { type: 'xstate.init' }): string {
  if ('error' in event) return `${event.type.replace('xstate.error.actor.', '')}✗${CALL_BACK_FAILURE_NAMES.get(event.error) ?? 'error'}`;
  if ('output' in event) return `${event.type.replace('xstate.done.actor.', '')}✓`;
  return event.type;
}

/** A path's label in its test's name. */
export function callBackPathLabel(path: CallBackModelPath): string {
  const events = path.steps.map(({ event }) => event).filter((event) => !(event.type as string).startsWith('xstate.init'));
  return `${JSON.stringify(path.state.value)} ⇐ ${events.map(describeCallBackEvent).join(' → ') || '(start)'}`;
}
