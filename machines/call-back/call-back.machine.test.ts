import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { callBackMachine } from './call-back.machine';
import { blankCallBackValues, isRateLimited, toCallBackPayload } from './call-back.payload';
import {
  selectCallBackFailure,
  selectCallBackOutcome,
  selectCallBackPhoneCodes,
  selectCallBackSending,
  selectCallBackServerErrors,
  selectCallBackValues,
  selectCallBackView,
} from './call-back.selectors';
import type { CallBackForm, CallBackInput, CallBackPayload, CallBackValues } from './call-back.types';
import { FAILURES, LEAD_UUID, SAMPLE_REFERENCE } from '../travel-details/travel-details.model';
import { waitForSnapshot } from '../model-tooling/wait-for-snapshot';

const VALUES: CallBackValues = { name: ' Rania  Haddad ', email: ' rania@example.com ', phone_country_code: '+961', phone_number: '71234567' };
const FORM: CallBackForm = { phoneCodes: SAMPLE_REFERENCE.phoneCodes, values: VALUES };
const INPUT: CallBackInput = { lang: 'en', reason: 'no_online_quote', leadUuid: LEAD_UUID, agentId: null };

type Answer<T> = { ok: T } | { fail: unknown };
const settle = async <T,>(answer: Answer<T>): Promise<T> => {
  if ('fail' in answer) throw answer.fail;
  return answer.ok;
};
const rateLimited = { kind: 'rejected', status: 429, body: { status: 429, message: 'Too many requests', data: {} } };
const refusedName = { kind: 'invalid', status: 422, body: { status: 422, message: 'refused', data: { errors: { name: 'name_chars', uuid: 'not_found' } } } };

function start(input: Partial<CallBackInput> = {}, answers: { form?: Answer<CallBackForm>; sends?: Answer<{ call_back_id: number }>[] } = {}) {
  const form = answers.form ?? { ok: FORM };
  const sends = answers.sends ?? [{ ok: { call_back_id: 12 } }];
  const calls = { loadForm: vi.fn(), sendRequest: vi.fn<(payload: CallBackPayload) => void>(), storeSent: vi.fn() };
  const machine = callBackMachine.provide({
    actors: {
      loadForm: fromPromise(async ({ input }) => (calls.loadForm(input), settle(form))),
      sendRequest: fromPromise(async ({ input }) => {
        calls.sendRequest(input);
        return settle(sends[Math.min(calls.sendRequest.mock.calls.length, sends.length) - 1]!);
      }),
    },
    actions: { storeSent: (_, params) => calls.storeSent(params) },
  });
  const actor = createActor(machine, { input: { ...INPUT, ...input } }).start();
  const settled = () => waitForSnapshot(actor, (snapshot) => selectCallBackView(snapshot) !== 'loading' && !selectCallBackSending(snapshot));
  const submit = async (values = VALUES) => {
    actor.send({ type: 'callBack.submit', values });
    expect(selectCallBackSending(actor.getSnapshot())).toBe(true);
    await settled();
  };
  return { actor, calls, settled, submit, snapshot: () => actor.getSnapshot() };
}

describe('call-back request machine', () => {
  it('loads the calling codes and the values to start from, for the lead', async () => {
    const step = start();
    expect(selectCallBackView(step.snapshot())).toBe('loading');
    await step.settled();
    expect(step.calls.loadForm).toHaveBeenCalledWith({ lang: 'en', leadUuid: LEAD_UUID });
    expect(selectCallBackView(step.snapshot())).toBe('form');
    expect(selectCallBackValues(step.snapshot())).toBe(VALUES);
    expect(selectCallBackPhoneCodes(step.snapshot())).toEqual(SAMPLE_REFERENCE.phoneCodes);
  });

  it('shows the error view when the form cannot load', async () => {
    const step = start({}, { form: { fail: FAILURES.network } });
    await step.settled();
    expect(selectCallBackView(step.snapshot())).toBe('failed');
    expect(selectCallBackFailure(step.snapshot())).toBe('load_failed');
  });

  it('sends trimmed values with the reason, lead and agent, stores the flag and ends with the id', async () => {
    const step = start({ agentId: 101 });
    await step.settled();
    await step.submit();
    expect(step.calls.sendRequest).toHaveBeenCalledWith({
      name: 'Rania Haddad',
      email: 'rania@example.com',
      phone_country_code: '+961',
      phone_number: '71234567',
      uuid: LEAD_UUID,
      reason: 'no_online_quote',
      agent_id: 101,
      lang: 'en',
    });
    expect(step.calls.storeSent).toHaveBeenCalledWith({ callBackId: 12, values: VALUES });
    expect(selectCallBackView(step.snapshot())).toBe('done');
    expect(selectCallBackOutcome(step.snapshot())).toEqual({ callBackId: 12 });
  });

  it('sends no lead and agent 0 when neither is known', () => {
    expect(toCallBackPayload(blankCallBackValues(), { lang: 'ar', reason: 'header', leadUuid: null, agentId: Number.NaN })).toEqual({
      name: '',
      email: '',
      phone_country_code: '+961',
      phone_number: '',
      uuid: null,
      reason: 'header',
      agent_id: 0,
      lang: 'ar',
    });
  });

  it('puts the server’s field codes on the fields (others dropped), keeping the submitted values', async () => {
    const step = start({}, { sends: [{ fail: refusedName }, { ok: { call_back_id: 3 } }] });
    await step.settled();
    await step.submit();
    expect(selectCallBackView(step.snapshot())).toBe('form');
    expect(selectCallBackServerErrors(step.snapshot())).toEqual({ name: 'name_chars' });
    expect(step.snapshot().context.submitted).toEqual(VALUES);
    expect(step.calls.storeSent).not.toHaveBeenCalled();
    step.actor.send({ type: 'callBack.submit', values: VALUES });
    expect(selectCallBackServerErrors(step.snapshot())).toEqual({});
    await step.settled();
    expect(selectCallBackOutcome(step.snapshot())).toEqual({ callBackId: 3 });
  });

  it.each([
    ['a 429', rateLimited, 'rate_limited'],
    ['an unknown agent', FAILURES.agentUnknown, 'agent_unknown'],
    ['a network failure', FAILURES.network, 'send_failed'],
    ['a server failure', FAILURES.server, 'send_failed'],
  ] as const)('after %s stays on the form with failure %s', async (_case, error, failure) => {
    const step = start({ agentId: 101 }, { sends: [{ fail: error }, { ok: { call_back_id: 4 } }] });
    await step.settled();
    await step.submit();
    expect(selectCallBackView(step.snapshot())).toBe('form');
    expect(selectCallBackFailure(step.snapshot())).toBe(failure);
    expect(selectCallBackServerErrors(step.snapshot())).toEqual({});
    // A new submit clears the failure (the unknown agent is no longer sent).
    await step.submit();
    expect(step.calls.sendRequest.mock.calls[1]![0].agent_id).toBe(failure === 'agent_unknown' ? 0 : 101);
    expect(selectCallBackFailure(step.snapshot())).toBeNull();
    expect(selectCallBackOutcome(step.snapshot())).toEqual({ callBackId: 4 });
  });

  it('ignores a second submit while sending', async () => {
    const step = start();
    await step.settled();
    step.actor.send({ type: 'callBack.submit', values: VALUES });
    expect(step.snapshot().can({ type: 'callBack.submit', values: VALUES })).toBe(false);
    await step.settled();
    expect(step.calls.sendRequest).toHaveBeenCalledTimes(1);
  });

  it('starts with no calling codes and blank values until the form is loaded', () => {
    const { snapshot } = start({}, { form: { fail: FAILURES.network } });
    expect(selectCallBackPhoneCodes(snapshot())).toEqual([]);
    expect(selectCallBackValues(snapshot())).toEqual(blankCallBackValues());
  });

  it('without the web’s actors (DESIGN convention 1) the form fails to load, as when its call fails', async () => {
    const actor = createActor(callBackMachine, { input: INPUT }).start();
    await waitForSnapshot(actor, (snapshot) => selectCallBackView(snapshot) !== 'loading');
    expect(actor.getSnapshot().status).toBe('active');
    expect(selectCallBackView(actor.getSnapshot())).toBe('failed');
    expect(selectCallBackFailure(actor.getSnapshot())).toBe('load_failed');
  });

  it.each([
    ['no error', undefined],
    ['null', null],
    ['a string', '429'],
    ['an error without a status', new Error('offline')],
    ['a status that is not a number', { status: '429' }],
    ['another status', { status: 422 }],
  ] as const)('takes %s for no rate limit', (_case, error) => {
    expect(isRateLimited(error)).toBe(false);
  });

  it('takes a 429 for the rate limit', () => {
    expect(isRateLimited({ status: 429 })).toBe(true);
  });
});
