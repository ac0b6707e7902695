import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AddCustomerLeadRequest, LeadDetails, RecentSearch } from '../../src/contract/lead.endpoints';
import { travelDetailsMachine } from './travel-details.machine';
import {
  DEVICE_UUID,
  FAILURES,
  LEAD_UUID,
  SAMPLE_LEAD,
  SAMPLE_RECENT_LEADS,
  SAMPLE_REFERENCE,
  SAMPLE_SAVED,
  SAMPLE_SAVED_NO_QUOTE,
  SAMPLE_VALUES,
  SESSION_UUID,
  modelInput,
} from './travel-details.model';
import { blankValues, toLeadPayload, valuesFromLead } from './travel-details.payload';
import {
  selectAgentError,
  selectFailure,
  selectOutcome,
  selectRecentLeads,
  selectReference,
  selectSaveFailed,
  selectServerErrors,
  selectSubmitting,
  selectValues,
  selectView,
} from './travel-details.selectors';
import type { SavedLead, TravelDetailsInput, TravelDetailsReference } from './travel-details.types';
import { waitForSnapshot } from '../model-tooling/wait-for-snapshot';

/** A stubbed call: resolves with a value, or rejects with a failure. */
type Answer<T> = { ok: T } | { fail: unknown };
const ok = <T,>(value: T): Answer<T> => ({ ok: value });
const fail = (error: unknown): Answer<never> => ({ fail: error });
const settle = async <T,>(answer: Answer<T>): Promise<T> => {
  if ('fail' in answer) throw answer.fail;
  return answer.ok;
};

interface Answers {
  reference: Answer<TravelDetailsReference>;
  lead: Answer<LeadDetails>;
  recent: Answer<RecentSearch[]>;
  agent: Answer<unknown>;
  /** One answer per save, in order; the last one repeats. */
  saves: Answer<SavedLead>[];
}

function start(input: Partial<TravelDetailsInput> = {}, answers: Partial<Answers> = {}) {
  const all: Answers = {
    reference: ok(SAMPLE_REFERENCE),
    lead: ok(SAMPLE_LEAD),
    recent: ok([]),
    agent: ok({ id: 101, name: 'Demo Agent' }),
    saves: [ok(SAMPLE_SAVED)],
    ...answers,
  };
  const calls = {
    loadReference: vi.fn(),
    loadLead: vi.fn(),
    loadRecentLeads: vi.fn(),
    checkAgent: vi.fn(),
    saveLead: vi.fn<(payload: AddCustomerLeadRequest) => void>(),
    storeSubmitted: vi.fn(),
    storeResumed: vi.fn(),
  };
  const machine = travelDetailsMachine.provide({
    actors: {
      loadReference: fromPromise(async ({ input }) => (calls.loadReference(input), settle(all.reference))),
      loadLead: fromPromise(async ({ input }) => (calls.loadLead(input), settle(all.lead))),
      loadRecentLeads: fromPromise(async ({ input }) => (calls.loadRecentLeads(input), settle(all.recent))),
      checkAgent: fromPromise(async ({ input }) => (calls.checkAgent(input), settle(all.agent))),
      saveLead: fromPromise(async ({ input }) => {
        calls.saveLead(input);
        const answer = all.saves[Math.min(calls.saveLead.mock.calls.length, all.saves.length) - 1]!;
        return settle(answer);
      }),
    },
    actions: {
      storeSubmitted: (_, params) => calls.storeSubmitted(params),
      storeResumed: (_, params) => calls.storeResumed(params),
    },
  });
  const actor = createActor(machine, { input: modelInput(input) }).start();
  const settled = () => waitForSnapshot(actor, (snapshot) => selectView(snapshot) !== 'loading' && !selectSubmitting(snapshot));
  return { actor, calls, settled, snapshot: () => actor.getSnapshot() };
}

async function submit(step: ReturnType<typeof start>, values = SAMPLE_VALUES) {
  step.actor.send({ type: 'details.submit', values });
  expect(selectSubmitting(step.snapshot())).toBe(true);
  return step.settled();
}

describe('loading', () => {
  it('loads the reference lists and opens the form with blank values', async () => {
    const step = start();
    expect(selectView(step.snapshot())).toBe('loading');
    await step.settled();
    expect(selectView(step.snapshot())).toBe('form');
    expect(selectReference(step.snapshot())).toEqual(SAMPLE_REFERENCE);
    expect(selectValues(step.snapshot())).toEqual(blankValues(modelInput().prefill));
    expect(step.calls.loadReference).toHaveBeenCalledWith({ lang: 'en' });
    expect(step.calls.loadLead).not.toHaveBeenCalled();
    expect(step.calls.loadRecentLeads).not.toHaveBeenCalled();
    expect(step.calls.checkAgent).not.toHaveBeenCalled();
  });

  it('starts with no agent error, no save failure and no server codes when the link names no agent', async () => {
    const step = start();
    await step.settled();
    expect(selectAgentError(step.snapshot())).toBeNull();
    expect(selectSaveFailed(step.snapshot())).toBe(false);
    expect(selectServerErrors(step.snapshot())).toEqual({});
  });

  it("run without the web's calls (loadReference), the reading fails into the refresh view, not a crash", async () => {
    const actor = createActor(travelDetailsMachine, { input: modelInput() }).start();
    await waitForSnapshot(actor, (snapshot) => selectView(snapshot) !== 'loading');
    expect(actor.getSnapshot().status).toBe('active');
    expect(selectView(actor.getSnapshot())).toBe('failed');
    expect(selectFailure(actor.getSnapshot())).toBe('reference_failed');
  });

  it('replaces a calling code from the link that no country has by +961 (issue 8 row 7)', async () => {
    const prefill = { name: 'Rania Haddad', email: null, phoneNumber: '71 234 567', phoneCountryCode: '+9999' };
    const step = start({ prefill });
    await step.settled();
    expect(selectValues(step.snapshot())).toMatchObject({ phone_country_code: '+961', phone_number: '71234567' });
    expect(step.snapshot().context.prefill).toMatchObject({ phoneCountryCode: '+961', phoneNumber: '71234567' });
  });

  it('prefills name, e-mail and phone from the link', async () => {
    const prefill = { name: 'Rania Haddad', email: 'r@x.com', phoneNumber: '71234567', phoneCountryCode: '+961' };
    const step = start({ prefill });
    await step.settled();
    expect(selectValues(step.snapshot())).toMatchObject({ name: 'Rania Haddad', email: 'r@x.com', phone_number: '71234567' });
  });

  it('stops at failed (reference_failed) when the reference lists cannot be read', async () => {
    const step = start({}, { reference: fail(FAILURES.network) });
    await step.settled();
    expect(selectView(step.snapshot())).toBe('failed');
    expect(selectFailure(step.snapshot())).toBe('reference_failed');
    expect(step.snapshot().can({ type: 'details.submit', values: SAMPLE_VALUES })).toBe(false);
  });

  it('accepts no submit or chooser event while loading', () => {
    const step = start({ deviceUuid: DEVICE_UUID });
    expect(step.snapshot().can({ type: 'details.submit', values: SAMPLE_VALUES })).toBe(false);
    expect(step.snapshot().can({ type: 'leads.new' })).toBe(false);
  });
});

describe('restoring the lead named by ?uuid=', () => {
  it('loads it into the form, and does not list the device’s leads', async () => {
    const step = start({ leadUuid: LEAD_UUID, deviceUuid: DEVICE_UUID, lang: 'ar' });
    await step.settled();
    expect(step.calls.loadLead).toHaveBeenCalledWith({ uuid: LEAD_UUID, lang: 'ar' });
    expect(step.calls.loadRecentLeads).not.toHaveBeenCalled();
    expect(selectView(step.snapshot())).toBe('form');
    expect(selectValues(step.snapshot())).toEqual(valuesFromLead(SAMPLE_LEAD));
  });

  it('saves changes to the same lead (its uuid is sent)', async () => {
    const step = start({ leadUuid: LEAD_UUID });
    await step.settled();
    await submit(step, { ...selectValues(step.snapshot()), email: 'new@example.com' });
    expect(step.calls.saveLead.mock.calls[0]![0]).toMatchObject({ uuid: LEAD_UUID, email: 'new@example.com' });
  });

  it('starts blank, and saves a new lead, when the lead does not exist', async () => {
    const step = start({ leadUuid: LEAD_UUID }, { lead: fail(FAILURES.notFound) });
    await step.settled();
    expect(selectView(step.snapshot())).toBe('form');
    expect(selectValues(step.snapshot())).toEqual(blankValues(modelInput().prefill));
    await submit(step);
    expect(step.calls.saveLead.mock.calls[0]![0].uuid).toBeNull();
  });

  it('does not look up a uuid or device id that is not a UUID, and saves a new lead', async () => {
    const step = start({ leadUuid: 'abc', deviceUuid: 'old', sessionId: 's1' });
    await step.settled();
    expect(step.calls.loadLead).not.toHaveBeenCalled();
    expect(step.calls.loadRecentLeads).not.toHaveBeenCalled();
    expect(selectView(step.snapshot())).toBe('form');
    await submit(step);
    expect(step.calls.saveLead.mock.calls[0]![0]).toMatchObject({ uuid: null, device_uuid: null, session_id: null });
  });

  it('stops at failed (lead_failed) when the lead cannot be read for another reason', async () => {
    const step = start({ leadUuid: LEAD_UUID }, { lead: fail(FAILURES.server) });
    await step.settled();
    expect(selectView(step.snapshot())).toBe('failed');
    expect(selectFailure(step.snapshot())).toBe('lead_failed');
  });
});

describe('the leads chooser', () => {
  it('opens when the device has recent leads', async () => {
    const step = start({ deviceUuid: DEVICE_UUID }, { recent: ok(SAMPLE_RECENT_LEADS) });
    await step.settled();
    expect(step.calls.loadRecentLeads).toHaveBeenCalledWith({ deviceUuid: DEVICE_UUID, lang: 'en' });
    expect(selectView(step.snapshot())).toBe('chooser');
    expect(selectRecentLeads(step.snapshot())).toEqual(SAMPLE_RECENT_LEADS);
    expect(step.snapshot().can({ type: 'details.submit', values: SAMPLE_VALUES })).toBe(false);
  });

  it.each([
    ['no recent leads', ok([])],
    ['the list cannot be read', fail(FAILURES.network)],
  ])('is skipped when there are %s', async (_case, recent) => {
    const step = start({ deviceUuid: DEVICE_UUID }, { recent });
    await step.settled();
    expect(selectView(step.snapshot())).toBe('form');
  });

  it.each([1, 2, 3] as const)('picking a lead at stage %i ends the step as resumed, with the session id', async (stage) => {
    const step = start({ deviceUuid: DEVICE_UUID, sessionId: SESSION_UUID }, { recent: ok(SAMPLE_RECENT_LEADS) });
    await step.settled();
    step.actor.send({ type: 'leads.pick', uuid: LEAD_UUID, stage });
    expect(step.snapshot().status).toBe('done');
    expect(selectOutcome(step.snapshot())).toEqual({ type: 'resumed', uuid: LEAD_UUID, stage, sessionId: SESSION_UUID });
    expect(step.calls.storeResumed).toHaveBeenCalledWith({ uuid: LEAD_UUID, stage });
    expect(step.calls.storeSubmitted).not.toHaveBeenCalled();
  });

  it('"enter new details" opens the form with fresh blank values, keeping the agent', async () => {
    const prefill = { name: 'Rania Haddad', email: null, phoneNumber: null, phoneCountryCode: null };
    const step = start({ deviceUuid: DEVICE_UUID, agentId: 101, prefill }, { recent: ok(SAMPLE_RECENT_LEADS) });
    await step.settled();
    const before = selectValues(step.snapshot());
    step.actor.send({ type: 'leads.new' });
    expect(selectView(step.snapshot())).toBe('form');
    const after = selectValues(step.snapshot());
    expect(after).toEqual(blankValues(prefill));
    // A new object, so the form resets even if it had been shown before.
    expect(after).not.toBe(before);
    await submit(step);
    expect(step.calls.saveLead.mock.calls[0]![0]).toMatchObject({ agent_id: 101, uuid: null });
  });
});

describe('agent check (RULINGS 14)', () => {
  it('keeps a known agent and attaches it to the lead', async () => {
    const step = start({ agentId: 101 });
    await step.settled();
    expect(step.calls.checkAgent).toHaveBeenCalledWith({ agentId: 101, lang: 'en' });
    expect(selectAgentError(step.snapshot())).toBeNull();
    await submit(step);
    expect(step.calls.saveLead.mock.calls[0]![0].agent_id).toBe(101);
  });

  it('shows agent_unknown and drops an unknown agent', async () => {
    const step = start({ agentId: 99999 }, { agent: fail(FAILURES.agentUnknown) });
    await step.settled();
    expect(selectView(step.snapshot())).toBe('form');
    expect(selectAgentError(step.snapshot())).toBe('agent_unknown');
    expect(step.snapshot().context.agentId).toBeNull();
    await submit(step);
    expect(step.calls.saveLead.mock.calls[0]![0].agent_id).toBe(0);
  });

  it('keeps the agent when the check fails for another reason (the save checks again)', async () => {
    const step = start({ agentId: 101 }, { agent: fail(FAILURES.network) });
    await step.settled();
    expect(selectAgentError(step.snapshot())).toBeNull();
    expect(step.snapshot().context.agentId).toBe(101);
  });

  it.each([Number.NaN, 0, -3])('reports agent id %s as unknown without asking the server', async (agentId) => {
    const step = start({ agentId });
    await step.settled();
    expect(step.calls.checkAgent).not.toHaveBeenCalled();
    expect(selectAgentError(step.snapshot())).toBe('agent_unknown');
    expect(step.snapshot().context.agentId).toBeNull();
  });
});

describe('saving', () => {
  it('saves the payload built by toLeadPayload and ends as submitted', async () => {
    const step = start({ deviceUuid: DEVICE_UUID, sessionId: SESSION_UUID, agentId: 101 });
    await step.settled();
    await submit(step);
    const ctx = { lang: 'en' as const, leadUuid: null, deviceUuid: DEVICE_UUID, sessionId: SESSION_UUID, agentId: 101, utm: modelInput().utm };
    expect(step.calls.saveLead).toHaveBeenCalledWith(toLeadPayload(SAMPLE_VALUES, ctx));
    expect(selectView(step.snapshot())).toBe('done');
    expect(selectOutcome(step.snapshot())).toEqual({ type: 'submitted', ...SAMPLE_SAVED });
    expect(step.calls.storeSubmitted).toHaveBeenCalledWith({ saved: SAMPLE_SAVED, values: SAMPLE_VALUES });
  });

  it('ends as noQuote, storing the saved lead, when no plan can quote the trip online', async () => {
    const step = start({}, { saves: [ok(SAMPLE_SAVED_NO_QUOTE)] });
    await step.settled();
    await submit(step);
    expect(selectView(step.snapshot())).toBe('done');
    expect(step.snapshot().value).toBe('noQuote');
    expect(selectOutcome(step.snapshot())).toEqual({ type: 'noQuote', ...SAMPLE_SAVED_NO_QUOTE });
    expect(step.calls.storeSubmitted).toHaveBeenCalledWith({ saved: SAMPLE_SAVED_NO_QUOTE, values: SAMPLE_VALUES });
  });

  it.each([
    ['409 email_taken', FAILURES.emailTaken, { email: 'email_taken' }],
    ['409 phone_taken', FAILURES.phoneTaken, { phone_number: 'phone_taken' }],
    ['422 field codes', FAILURES.invalidFields, { start_date: 'date_invalid', 'travellers_info.1.dob': 'dob_invalid' }],
  ])('a %s refusal returns to the form with the codes, the values kept', async (_case, error, codes) => {
    const step = start({}, { saves: [fail(error), ok(SAMPLE_SAVED)] });
    await step.settled();
    const initial = selectValues(step.snapshot());
    await submit(step);
    expect(selectView(step.snapshot())).toBe('form');
    expect(selectServerErrors(step.snapshot())).toEqual(codes);
    expect(selectSaveFailed(step.snapshot())).toBe(false);
    expect(step.snapshot().context.submitted).toEqual(SAMPLE_VALUES);
    // The form is not reset: what the customer typed stays on screen.
    expect(selectValues(step.snapshot())).toBe(initial);
    // A new submit clears the codes and can succeed.
    step.actor.send({ type: 'details.submit', values: SAMPLE_VALUES });
    expect(selectServerErrors(step.snapshot())).toEqual({});
    await step.settled();
    expect(selectOutcome(step.snapshot())?.type).toBe('submitted');
  });

  it('a refusal that names no agent keeps the agent for the next save', async () => {
    const step = start({ agentId: 101 }, { saves: [fail(FAILURES.emailTaken), ok(SAMPLE_SAVED)] });
    await step.settled();
    await submit(step);
    expect(selectServerErrors(step.snapshot())).toEqual({ email: 'email_taken' });
    expect(selectAgentError(step.snapshot())).toBeNull();
    expect(step.snapshot().context.agentId).toBe(101);
    await submit(step);
    expect(step.calls.saveLead.mock.calls[1]![0].agent_id).toBe(101);
  });

  it('a 422 agent_unknown on save shows the agent error and drops the agent', async () => {
    const step = start({ agentId: 101 }, { saves: [fail(FAILURES.agentUnknown), ok(SAMPLE_SAVED)] });
    await step.settled();
    await submit(step);
    expect(selectView(step.snapshot())).toBe('form');
    expect(selectAgentError(step.snapshot())).toBe('agent_unknown');
    expect(selectServerErrors(step.snapshot())).toEqual({});
    await submit(step);
    expect(step.calls.saveLead.mock.calls[1]![0].agent_id).toBe(0);
  });

  it.each([
    ['network', FAILURES.network],
    ['server', FAILURES.server],
    ['unexpected', new Error('bug')],
  ])('a %s failure returns to the form with saveFailed, the values kept', async (_case, error) => {
    const step = start({}, { saves: [fail(error), ok(SAMPLE_SAVED)] });
    await step.settled();
    await submit(step);
    expect(selectView(step.snapshot())).toBe('form');
    expect(selectSaveFailed(step.snapshot())).toBe(true);
    expect(selectServerErrors(step.snapshot())).toEqual({});
    expect(step.snapshot().context.submitted).toEqual(SAMPLE_VALUES);
    step.actor.send({ type: 'details.submit', values: SAMPLE_VALUES });
    expect(selectSaveFailed(step.snapshot())).toBe(false);
    await step.settled();
    expect(selectOutcome(step.snapshot())?.type).toBe('submitted');
  });

  it('ignores a second submit while saving', async () => {
    const step = start();
    await step.settled();
    step.actor.send({ type: 'details.submit', values: SAMPLE_VALUES });
    expect(step.snapshot().can({ type: 'details.submit', values: SAMPLE_VALUES })).toBe(false);
    await step.settled();
    expect(step.calls.saveLead).toHaveBeenCalledTimes(1);
  });
});

describe('selectors', () => {
  it('give no outcome before the step is over', async () => {
    const step = start();
    expect(selectOutcome(step.snapshot())).toBeNull();
    await step.settled();
    expect(selectOutcome(step.snapshot())).toBeNull();
  });
});
