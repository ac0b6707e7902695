import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { callBackMachine } from './call-back.machine';
import { callBackPathLabel, createCallBackTestModel, serializeCallBackModelState, type CallBackModelPath, callBackInput, callBackModelEvents, type CallBackModelEvent } from './call-back.model';
import { toCallBackPayload } from './call-back.payload';
import type { CallBackInput } from './call-back.types';
import { pathsCoveringTransitions, recordModelCoverage } from '../model-tooling/model-coverage';
import { deferredActors, replayStep, expectSameSnapshot, testPathOnActor, withPathIds } from '../model-tooling/model-replay';

// Built like quotes.model.test.ts: call outcomes are sample events, which settle the pending
// promise actor of the live replay, so the machine's own invoke, input and onDone/onError run.

const inspect = recordModelCoverage(import.meta.url);

const serializeState = serializeCallBackModelState;
const labelOf = callBackPathLabel;
const createModel = createCallBackTestModel;

type Snapshot = SnapshotFrom<typeof callBackMachine>;
type Path = CallBackModelPath;
type ImplementationsOf = Parameters<typeof callBackMachine.provide>[0];

const ACTOR_IDS = ['loadForm', 'sendRequest'] as const;
const STATES = ['loading', 'editing', 'sending', 'failed', 'sent'] as const;

/** Opened without a lead or agent, and from a lead's page through an agent's link. */
const INPUTS: Record<string, CallBackInput> = {
  visitor: callBackInput({ leadUuid: null }),
  'agent, lead': callBackInput({ agentId: 101 }),
};

async function replayOnLiveActor(path: Path, input: CallBackInput): Promise<number> {
  const { actors: deferred, pending } = deferredActors(ACTOR_IDS);
  const actors = deferred as unknown as NonNullable<ImplementationsOf['actors']>;
  const stored: unknown[] = [];
  const actor = createActor(callBackMachine.provide({ actors, actions: { storeSent: (_, params) => stored.push(params) } }), { input, inspect }).start();
  let checked = 0;

  const check = (modelState: Snapshot) => {
    checked += 1;
    const live = actor.getSnapshot();
    expectSameSnapshot(live, modelState);
    if (live.matches('sending')) {
      // What is sent is what was typed, trimmed, with the reason, the lead and the agent still known.
      expect(pending.get('sendRequest')?.input).toEqual(toCallBackPayload(live.context.submitted!, live.context));
    }
    if (live.context.failure === 'agent_unknown') expect(live.context.agentId).toBeNull();
    if (live.status === 'done') {
      expect(live.output).toEqual({ callBackId: 12 });
      expect(stored).toEqual([{ callBackId: 12, values: live.context.submitted }]);
    } else {
      expect(stored).toEqual([]);
    }
  };

  const perform = replayStep(pending, (event) => actor.send(event as Exclude<CallBackModelEvent, { type: `xstate.${string}` }>));
  await testPathOnActor(path, actor, { states: STATES, check, samples: callBackModelEvents, perform });
  return checked;
}

describe.each(Object.entries(INPUTS))('call-back model: %s', (name, input) => {
  const model = createModel(input);
  const shortestPaths = model.getShortestPaths();

  it('reaches the request stored, the form that could not load, and each refusal back on the form', () => {
    // Every state a path passes through (a path that is the start of a longer one is left out).
    const visited = shortestPaths.flatMap((path) => [...path.steps.map((step) => step.state), path.state]);
    const values = new Set(visited.map((state) => JSON.stringify(state.value)));
    for (const state of ['"sent"', '"failed"', '"editing"']) expect(values).toContain(state);
    const failures = new Set(visited.map((state) => state.context.failure));
    for (const failure of ['load_failed', 'rate_limited', 'agent_unknown', 'send_failed'] as const) expect(failures).toContain(failure);
    expect(visited.some((state) => Object.keys(state.context.serverErrors).length > 0)).toBe(true);
  });

  it.each(withPathIds(`call back ${name} shortest`, shortestPaths, labelOf))('%s', async (_label, path) => {
    expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
  });

  it.each(withPathIds(`call back ${name} transitions`, pathsCoveringTransitions(callBackMachine, model, shortestPaths, serializeState), labelOf))(
    'transition: %s',
    async (_label, path) => {
      expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
    },
  );
});
