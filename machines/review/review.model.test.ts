import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, type SnapshotFrom } from 'xstate';
import { deferredActors, replayStep, expectSameSnapshot, testPathOnActor, withPathIds } from '../model-tooling/model-replay';
import { reviewMachine } from './review.machine';
import {
  DOB_MESSAGE,
  NEXT_TRAVELLER_EVENT,
  REVIEW_MODEL_CASES,
  REVIEW_OTHER_MODEL_CASES,
  createReviewTestModel,
  reviewModelEvents,
  reviewPathLabel,
  serializeReviewModelState,
  travellerValues,
  type ReviewModelCase,
  type ReviewModelEvent,
  type ReviewModelPath,
} from './review.model';
import { selectCurrentTraveller, selectDobDialog, selectFormOpen, selectSaving } from './review.selectors';
import { saveTravellerInput } from './review.travellers';
import { NEXT_TRAVELLER_DELAY_MS } from './review.types';
import { pathsCoveringTransitions, recordModelCoverage } from '../model-tooling/model-coverage';

const inspect = recordModelCoverage(import.meta.url);

// Built like quotes.model.test.ts (see travel-details.model.test.ts for why TestModel and not
// createTestModel(), which refuses machines that invoke): call outcomes are sample events, which
// settle the pending promise actor of the live replay. The closing form's 0.5 s delay is a
// sample event too (NEXT_TRAVELLER_EVENT); on the live actor it is a tick of a simulated clock,
// so the real `after` timer runs. The cases and the model are review.model.ts's, shared with
// the run on the rendered screen (tests/model/review-screen.model.test.tsx).

type Snapshot = SnapshotFrom<typeof reviewMachine>;
type Path = ReviewModelPath;
type ImplementationsOf = Parameters<typeof reviewMachine.provide>[0];

const ACTOR_IDS = ['loadReview', 'saveTraveller', 'sendEmail'] as const;
const STATES = ['noLead', 'finished', 'loading', 'failed', 'reviewing', 'completed', 'planMissing', 'updateDetails'] as const;

type Case = ReviewModelCase;
const CASES = REVIEW_MODEL_CASES;
const OTHER_CASES = REVIEW_OTHER_MODEL_CASES;
const serializeState = serializeReviewModelState;
const labelOf = reviewPathLabel;
const createModel = createReviewTestModel;

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
