import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, type SnapshotFrom } from 'xstate';
import { TestModel, type TestPath } from 'xstate/graph';
import { deferredActors, replayStep, expectSameSnapshot, testPathOnActor, withPathIds } from './model-replay';
import { reviewMachine } from './review.machine';
import {
  DOB_MESSAGE,
  NEXT_TRAVELLER_EVENT,
  REVIEW_FAILURES,
  reviewInput,
  reviewModelEvents,
  travellerValues,
  type ReviewModelEvent,
} from './review.model';
import { selectCurrentTraveller, selectDobDialog, selectFormOpen, selectSaving } from './review.selectors';
import { saveTravellerInput } from './review.travellers';
import { NEXT_TRAVELLER_DELAY_MS, type ReviewInput } from './review.types';
import { shareModelEvents } from './agent-share.model';
import { pathsCoveringTransitions, recordModelCoverage } from './model-coverage';

const inspect = recordModelCoverage(import.meta.url);

// Built like quotes.model.test.ts (see travel-details.model.test.ts for why TestModel and not
// createTestModel(), which refuses machines that invoke): call outcomes are sample events, which
// settle the pending promise actor of the live replay. The closing form's 0.5 s delay is a
// sample event too (NEXT_TRAVELLER_EVENT); on the live actor it is a tick of a simulated clock,
// so the real `after` timer runs.

type Snapshot = SnapshotFrom<typeof reviewMachine>;
type Path = TestPath<Snapshot, ReviewModelEvent>;
type ImplementationsOf = Parameters<typeof reviewMachine.provide>[0];

const ACTOR_IDS = ['loadReview', 'saveTraveller', 'sendEmail'] as const;
const STATES = ['noLead', 'finished', 'loading', 'failed', 'reviewing', 'completed', 'planMissing', 'updateDetails'] as const;

interface Case {
  count: number;
  input: ReviewInput;
  /** Travellers saved before the page opened (a reload in the middle). */
  saved: number[];
  /** The samples, when not the step's usual ones (reviewModelEvents). */
  samples?: readonly ReviewModelEvent[];
}

const CASES: Record<string, Case> = {
  '1 traveller': { count: 1, input: reviewInput(), saved: [] },
  '2 travellers': { count: 2, input: reviewInput(), saved: [] },
  '3 travellers': { count: 3, input: reviewInput(), saved: [] },
  '3 travellers, reload at the 2nd': { count: 3, input: reviewInput({ storedIndex: 1 }), saved: [0] },
};

/**
 * The step's other starts (the thank-you flag of a finished purchase, no lead) and the agent's
 * share, with the share's samples alone beside the loaded form: with the traveller events too,
 * every form state would double.
 */
const OTHER_CASES: Record<string, Case & { reaches: string }> = {
  'a finished purchase': { count: 1, input: reviewInput({ thankYou: true }), saved: [], reaches: '"finished"' },
  'no lead': { count: 1, input: reviewInput({ uuid: null }), saved: [], reaches: '"noLead"' },
  "the agent's share": {
    count: 1,
    input: reviewInput({ agentId: 101 }),
    saved: [],
    samples: [reviewModelEvents(1)[0]!, ...shareModelEvents('review.reviewing.share.sent')],
    reaches: '{"reviewing":{"form":"editing","share":"sent"}}',
  },
};

const FAILURE_NAMES = new Map<unknown, string>(Object.entries(REVIEW_FAILURES).map(([name, failure]) => [failure, name]));

const serializeState = (snapshot: Snapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });

function describeEvent(event: ReviewModelEvent | { type: 'xstate.init' }): string {
  if (event.type === NEXT_TRAVELLER_EVENT) return '0.5s';
  if ('error' in event) return `${event.type.replace('xstate.error.actor.', '')}✗${FAILURE_NAMES.get(event.error) ?? 'error'}`;
  if ('output' in event) {
    const output = event.output as { error?: unknown; details?: { get_invoice: unknown } };
    const note = output.error === 'dob' ? '(dob)' : output.details?.get_invoice === null ? '(no plan)' : '';
    return `${event.type.replace('xstate.done.actor.', '')}✓${note}`;
  }
  return event.type;
}

function labelOf(path: Path): string {
  const events = path.steps.map(({ event }) => event).filter((event) => !(event.type as string).startsWith('xstate.init'));
  const { index } = path.state.context;
  return `${JSON.stringify(path.state.value)} #${index + 1} ⇐ ${events.map(describeEvent).join(' → ') || '(start)'}`;
}

function createModel({ count, input, saved, samples = reviewModelEvents(count, saved) }: Case) {
  return new TestModel<Snapshot, ReviewModelEvent, ReviewInput>(reviewMachine as never, {
    input,
    serializeState,
    stateMatcher: (state, key) => state.matches(key as never),
    // The samples this state accepts; the save carries the open traveller's own complete values.
    events: (state) =>
      samples
        .map((event) => (event.type === 'traveller.save' ? { ...event, values: travellerValues(state.context.index) } : event))
        .filter((event) => state.can(event as never)),
  });
}

async function replayOnLiveActor(path: Path, { count, input, samples = reviewModelEvents(count) }: Case): Promise<number> {
  const { actors: deferred, pending } = deferredActors(ACTOR_IDS);
  const actors = deferred as unknown as NonNullable<ImplementationsOf['actors']>;
  const storedIndexes: number[] = [];
  const storedLengths: number[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(
    reviewMachine.provide({
      actors,
      actions: {
        storeTravellerIndex: (_, { index }) => storedIndexes.push(index),
        storeTravellerLength: (_, { length }) => storedLengths.push(length),
      },
    }),
    { input, clock, inspect },
  ).start();
  let checked = 0;

  const check = (modelState: Snapshot) => {
    checked += 1;
    const live = actor.getSnapshot();
    expectSameSnapshot(live, modelState);
    const { context } = live;
    if (context.travellers.length > 0) {
      expect(storedLengths).toEqual([count]);
      // The index stays within the travellers, and never passes one that is not saved yet.
      expect(context.index).toBeGreaterThanOrEqual(0);
      expect(context.index).toBeLessThan(count);
      expect(context.travellers.slice(0, context.index).every((traveller) => traveller.saved)).toBe(true);
    }
    if (live.matches('reviewing')) {
      // The stored traveller index follows the open form, so a reload resumes there.
      expect(storedIndexes.at(-1)).toBe(context.index);
      const current = selectCurrentTraveller(live)!;
      expect(current.id).toBe(context.travellers[context.index]!.id);
      // What was typed stays until saved (issue 17): the save in flight or refused, else the traveller's draft, else the saved values.
      const { id } = context.travellers[context.index]!;
      expect(current.values).toEqual(context.submitted ?? context.drafts[id] ?? context.travellers[context.index]!.values);
      // The form is open except while the saved one closes.
      expect(selectFormOpen(live)).toBe(!live.matches({ reviewing: { form: 'closing' } }));
      expect(live.can({ type: 'traveller.previous' })).toBe(live.matches({ reviewing: { form: 'editing' } }) && context.index > 0);
    }
    if (live.matches({ reviewing: { form: 'saving' } })) {
      expect(selectSaving(live)).toBe(true);
      // The save names the open traveller, the lead and the plan's insurer, with what was typed.
      const payload = pending.get('saveTraveller')?.input;
      expect(payload).toEqual(saveTravellerInput(context));
      expect(payload).toMatchObject({ traveller: { id: context.travellers[context.index]!.id, ...travellerValues(context.index) }, insuranceId: 3 });
    }
    if (live.matches({ reviewing: { form: 'dobError' } })) {
      expect(selectDobDialog(live)).toEqual({ open: true, message: DOB_MESSAGE });
      // The form keeps what was typed behind the dialog.
      expect(selectCurrentTraveller(live)!.values).toEqual(travellerValues(context.index));
    }
    if (live.status === 'done' && live.output?.type === 'completed') {
      expect(context.travellers.every((traveller) => traveller.saved)).toBe(true);
      expect(context.index).toBe(count - 1);
    }
  };

  const settle = replayStep(pending, (event) => actor.send(event as Exclude<ReviewModelEvent, { type: `xstate.${string}` }>));
  const perform = async (step: { event: { type: string } }) => {
    if (step.event.type === NEXT_TRAVELLER_EVENT) clock.increment(NEXT_TRAVELLER_DELAY_MS);
    else await settle(step);
  };

  await testPathOnActor(path, actor, { states: STATES, check, samples: samples, perform });
  return checked;
}

describe.each(Object.entries(CASES))('review model: %s', (_name, testCase) => {
  const model = createModel(testCase);
  const shortestPaths = model.getShortestPaths();
  const simplePaths = model.getSimplePaths();
  const paths = [...shortestPaths, ...simplePaths];

  it('reaches every outcome and every dialog of the step', () => {
    const ends = new Set(paths.map((path) => (typeof path.state.value === 'string' ? path.state.value : 'reviewing')));
    for (const state of ['failed', 'completed', 'planMissing', 'updateDetails'] as const) expect(ends).toContain(state);
    const passed = paths.flatMap((path) => path.steps.map((step) => step.state));
    // The DOB dialog, a failed save, server field codes, and Previous on every later traveller.
    expect(passed.some((state) => state.matches({ reviewing: { form: 'dobError' } }))).toBe(true);
    expect(passed.some((state) => state.context.saveFailed)).toBe(true);
    expect(passed.some((state) => Object.keys(state.context.serverErrors).length > 0)).toBe(true);
    const taken = paths.flatMap((path) => path.steps.map((step) => step.event.type));
    for (const type of ['dob.update', 'dob.dismiss', 'saveFailed.dismiss']) expect(taken).toContain(type);
    // Previous exists only where there is a traveller before, and the pause before the next form
    // only where a next traveller follows (the last one saved completes the step at once).
    expect(taken.includes('traveller.previous')).toBe(testCase.count > 1);
    expect(taken.includes(NEXT_TRAVELLER_EVENT)).toBe(testCase.count > 1);
  });

  it('keeps the state space small (context canonical)', () => {
    expect(simplePaths.length).toBeLessThanOrEqual(300);
  });

  it.each(withPathIds(`review ${_name} shortest`, shortestPaths, labelOf))('shortest: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, testCase)).toBe(path.steps.length);
  });

  it.each(withPathIds(`review ${_name} simple`, simplePaths, labelOf))('simple: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, testCase)).toBe(path.steps.length);
  });

  it.each(withPathIds(`review ${_name} transitions`, pathsCoveringTransitions(reviewMachine, model, [...shortestPaths, ...simplePaths], serializeState), labelOf))(
    'transition: %s',
    async (_label, path) => {
      expect(await replayOnLiveActor(path, testCase)).toBe(path.steps.length);
    },
  );
});

describe.each(Object.entries(OTHER_CASES))('review model: %s', (name, testCase) => {
  const model = createModel(testCase);
  const shortestPaths = model.getShortestPaths();

  it(`reaches ${testCase.reaches}`, () => {
    const values = new Set(shortestPaths.flatMap((path) => [...path.steps.map((step) => step.state), path.state]).map((state) => JSON.stringify(state.value)));
    expect(values).toContain(testCase.reaches);
  });

  it.each(withPathIds(`review ${name} shortest`, shortestPaths, labelOf))('shortest: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, testCase)).toBe(path.steps.length);
  });

  it.each(withPathIds(`review ${name} transitions`, pathsCoveringTransitions(reviewMachine, model, shortestPaths, serializeState), labelOf))(
    'transition: %s',
    async (_label, path) => {
      expect(await replayOnLiveActor(path, testCase)).toBe(path.steps.length);
    },
  );
});
