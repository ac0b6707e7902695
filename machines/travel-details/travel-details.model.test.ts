import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { deferredActors, replayStep, expectSameSnapshot, testPathOnActor, withPathIds } from '../model-tooling/model-replay';
import { travelDetailsMachine } from './travel-details.machine';
import {
  DEVICE_UUID,
  createTravelDetailsTestModel,
  serializeTravelDetailsModelState,
  travelDetailsPathLabel,
  type TravelDetailsModelPath,
  LEAD_UUID,
  SESSION_UUID,
  modelInput,
  travelDetailsModelEvents,
  type TravelDetailsModelEvent,
} from './travel-details.model';
import { toLeadPayload } from './travel-details.payload';
import type { TravelDetailsInput } from './travel-details.types';
import { pathsCoveringTransitions, recordModelCoverage } from '../model-tooling/model-coverage';

const inspect = recordModelCoverage(import.meta.url);

const serializeState = serializeTravelDetailsModelState;
const labelOf = travelDetailsPathLabel;
const createModel = createTravelDetailsTestModel;

// Built with 'xstate/graph' (see journey.model.test.ts for why not @xstate/test). Calls are
// invoked promise actors: the model sends their outcomes as `xstate.done.actor.<id>` and
// `xstate.error.actor.<id>` events, so it explores every order in which they settle. On the
// live actor the same outcome settles the pending promise of that actor instead, so the real
// invoke plumbing runs.
//
// createTestModel() refuses any machine with an `invoke` ("Invocations on test machines are not
// supported"), because a traversal cannot wait for a call. Here no traversal waits: outcomes are
// sample events. So the model is the TestModel that createTestModel() would build, with the same
// state matcher, and with events limited to those the state accepts (a settled call cannot
// settle twice, so the live replay always has a pending call to settle).

type Snapshot = SnapshotFrom<typeof travelDetailsMachine>;
type Path = TravelDetailsModelPath;
type ImplementationsOf = Parameters<typeof travelDetailsMachine.provide>[0];

const ACTOR_IDS = ['loadReference', 'loadLead', 'loadRecentLeads', 'checkAgent', 'saveLead'] as const;
const STATES = ['loading', 'chooser', 'editing', 'saving', 'failed', 'submitted', 'resumed', 'noQuote'] as const;

/** The step opened three ways: a fresh device, a device with earlier leads, and a lead link. */
const INPUTS: Record<string, TravelDetailsInput> = {
  'fresh visit': modelInput(),
  'device with leads, agent link': modelInput({ deviceUuid: DEVICE_UUID, sessionId: SESSION_UUID, agentId: 101 }),
  'lead link': modelInput({ leadUuid: LEAD_UUID, deviceUuid: DEVICE_UUID, agentId: 101 }),
};

async function replayOnLiveActor(path: Path, input: TravelDetailsInput): Promise<number> {
  const { actors: deferred, pending } = deferredActors(ACTOR_IDS);
  const actors = deferred as unknown as NonNullable<ImplementationsOf['actors']>;
  const stored: unknown[] = [];
  const actor = createActor(
    travelDetailsMachine.provide({
      actors,
      actions: {
        storeSubmitted: (_, params) => stored.push({ submitted: params }),
        storeResumed: (_, params) => stored.push({ resumed: params }),
      },
    }),
    { input, inspect },
  ).start();
  let checked = 0;

  const check = (modelState: Snapshot) => {
    checked += 1;
    const live = actor.getSnapshot();
    expectSameSnapshot(live, modelState);
    if (live.status === 'done') {
      expect(live.output).toEqual(modelState.context.outcome);
      expect(stored).toEqual([
        live.output?.type === 'submitted' || live.output?.type === 'noQuote'
          ? { submitted: { saved: expect.objectContaining({ uuid: live.output.uuid }), values: live.context.submitted } }
          : { resumed: { uuid: live.output?.uuid, stage: live.output?.type === 'resumed' ? live.output.stage : null } },
      ]);
    } else {
      expect(stored).toEqual([]);
    }
    // While saving, the call carries exactly the payload of the submitted values.
    if (live.matches('saving')) expect(pending.get('saveLead')?.input).toEqual(toLeadPayload(live.context.submitted!, live.context));
  };

  const perform = replayStep(pending, (event) => actor.send(event as Exclude<TravelDetailsModelEvent, { type: `xstate.${string}` }>));

  await testPathOnActor(path, actor, { states: STATES, check, samples: travelDetailsModelEvents, perform });
  return checked;
}

describe.each(Object.entries(INPUTS))('travel details model: %s', (_name, input) => {
  const model = createModel(input);
  const shortestPaths = model.getShortestPaths();

  it('ends where the step can end from this start', () => {
    // `loading` is the one parallel state, so its value is an object.
    const reached = new Set(shortestPaths.map((path) => (typeof path.state.value === 'string' ? path.state.value : 'loading')));
    expect(reached).toContain('editing');
    expect(reached).toContain('submitted');
    expect(reached).toContain('noQuote');
    expect(reached).toContain('failed');
    // Only a device with earlier leads, and no lead named by the link, gets the chooser.
    expect(reached.has('resumed')).toBe(Boolean(input.deviceUuid && !input.leadUuid));
  });

  it.each(withPathIds(`travel details ${_name} shortest`, shortestPaths, labelOf))('%s', async (_label, path) => {
    expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
  });

  it.each(withPathIds(`travel details ${_name} transitions`, pathsCoveringTransitions(travelDetailsMachine, model, shortestPaths, serializeState), labelOf))(
    'transition: %s',
    async (_label, path) => {
      expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
    },
  );
});
