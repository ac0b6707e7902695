import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { adjacencyMapToArray, createTestModel, type TestParam, type TestPath } from 'xstate/graph';
import { journeyMachine, type ShowRouteParams } from './journey.machine';
import {
  JOURNEY_MODEL_LEAD,
  JOURNEY_MODEL_POLICY,
  JOURNEY_MODEL_UNKNOWN_PATH,
  journeyModelEvents,
  journeyModelInput,
  journeyModelReturnInput,
  journeyModelStateKey,
  serializeJourneyModelState,
} from './journey.model';
import { STEP_IDS, stepForPath, stepPath, type StepId } from './journey.routes';
import type { JourneyEvent, JourneyEventType, JourneyInput } from './journey.types';
import { paymentResultOutcomeEvent } from './payment-result/payment-result.selectors';
import { pathsCoveringTransitions, recordModelCoverage } from './model-tooling/model-coverage';
import { withPathIds } from './model-tooling/model-replay';

const inspect = recordModelCoverage(import.meta.url);

// The model comes from 'xstate/graph' (shipped with xstate 5.33), not @xstate/test 1.0.0-beta.5:
// that one traverses with a mock actor scope lacking `actionExecutor`, so on xstate 5.33 every
// transition that runs an action throws "originalExecutor is not a function". Both take the same
// `{ events }` samples and give paths with the same `test({ states, events })`.

type Snapshot = SnapshotFrom<typeof journeyMachine>;
type Path = TestPath<Snapshot, JourneyEvent>;

// The review's and checkout's own exits (no plan: back to quotes; DOB: back to travel details;
// thank-you flag: reset) open loops through review and checkout, so there are about 490 simple
// paths; the limit guards against an explosion, not against those.
const SIMPLE_PATH_LIMIT = 550;
// URL and header navigation can revisit pages in countless orders; simple paths follow page
// events only, and shortest paths already cover navigation. checkout.reviewMissing is left out of
// them too: it closes a loop review -> checkout -> review through which every loop of the review
// runs again (1,720 simple paths instead of 490) without a rule of its own; its move is checked
// on the adjacency map below and in journey.machine.test.ts. payment.retry likewise closes the loop
// checkout -> payment result -> checkout (4,414 simple paths instead of 490); the payment result's
// own journeys (paid, failed, retried, reloaded) are scripted below.
const NAVIGATION_EVENTS: readonly JourneyEventType[] = ['route.changed', 'wizard.jump'];
// lead.paid and policy.opened lead from nine pages to the policy page, whose own exits run every
// journey again from travel details (972 simple paths instead of 490): the shortest paths, the
// transition cover and the scripted paid-lead journeys below take them.
const SIMPLE_PATHS_SKIP: readonly JourneyEventType[] = [...NAVIGATION_EVENTS, 'checkout.reviewMissing', 'payment.retry', 'lead.paid', 'policy.opened'];

function labelOf(path: Path): string {
  const events = path.steps
    .map(({ event }) => event as JourneyEvent | { type: 'xstate.init' })
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      if (event.type === 'route.changed') return `route.changed(${event.path})`;
      if (event.type === 'wizard.jump') return `wizard.jump(${event.step})`;
      if (event.type === 'lead.resumed') return `lead.resumed(${event.stage})`;
      return event.type;
    });
  return `${journeyModelStateKey(path.state)} ⇐ ${events.join(' → ') || '(start)'}`;
}

/**
 * Replays one model path on a live actor, checking page, context and shown route after each
 * step; returns how many states were checked, so a path that silently skipped checks is caught.
 */
async function replayOnLiveActor(path: Path, input: JourneyInput = journeyModelInput): Promise<number> {
  let shown: ShowRouteParams | null = null;
  let checked = 0;
  const actor = createActor(
    journeyMachine.provide({
      actions: {
        showRoute: (_, params) => {
          shown = params;
        },
      },
    }),
    { input, inspect },
  ).start();

  const expectPage = (step: StepId) => (modelState: Snapshot) => {
    checked += 1;
    const live = actor.getSnapshot();
    expect(live.value).toBe(step);
    expect(live.context).toEqual(modelState.context);
    expect(shown).toEqual({
      step,
      path: stepPath(step, live.context.policyToken),
      uuid: live.context.uuid,
      sessionId: live.context.sessionId,
      replace: expect.any(Boolean),
    });
    expect(stepForPath(shown?.path ?? '')).toBe(step);
  };
  // Step events are typed `{ type }` only; the samples carry their payloads.
  const send = (step: { event: { type: string } }) => {
    actor.send(step.event as JourneyEvent);
  };
  const params: TestParam<Snapshot, JourneyEvent> = {
    states: {
      ...Object.fromEntries(STEP_IDS.map((step) => [step, expectPage(step)])),
      // Reached only if a model state matches no page, which booting never should.
      '*': (modelState) => {
        throw new Error(`no page check for ${JSON.stringify(modelState.value)}`);
      },
    },
    events: Object.fromEntries(journeyModelEvents.map(({ type }) => [type, send])),
  };
  try {
    await path.test(params);
  } finally {
    actor.stop();
  }
  return checked;
}

const modelOptions = {
  events: journeyModelEvents,
  input: journeyModelInput,
  serializeState: serializeJourneyModelState,
};
const model = createTestModel(journeyMachine, modelOptions);
const shortestPaths = model.getShortestPaths();
const simplePaths = createTestModel(journeyMachine, {
  ...modelOptions,
  filterEvents: (_snapshot, event) => !SIMPLE_PATHS_SKIP.includes(event.type),
}).getSimplePaths();

describe('journey model', () => {
  it('has a sample for every event type', () => {
    const everyType: Record<JourneyEventType, true> = {
      'route.changed': true,
      'wizard.jump': true,
      'details.submitted': true,
      'lead.resumed': true,
      'lead.noQuote': true,
      'journey.reset': true,
      'quote.chosen': true,
      'compare.opened': true,
      'compare.closed': true,
      'review.completed': true,
      'review.planMissing': true,
      'review.updateDetails': true,
      'checkout.paidInFull': true,
      'checkout.planMissing': true,
      'checkout.reviewMissing': true,
      'payment.returned': true,
      'payment.retry': true,
      'callBack.requested': true,
      'callBack.submitted': true,
      'lead.paid': true,
      'policy.opened': true,
      'policy.buyAgain': true,
    };
    expect(new Set(journeyModelEvents.map(({ type }) => type))).toEqual(new Set(Object.keys(everyType)));
  });

  it('reaches every page of the route table', () => {
    // Paths that are prefixes of longer ones are dropped, so a page may be passed rather than end a path.
    const reached = new Set(shortestPaths.flatMap((path) => path.steps.map((step) => step.state.value)));
    expect([...reached].sort()).toEqual([...STEP_IDS].sort());
  });

  it('moves the journey somewhere with every sample, except the two that are always refused', () => {
    const moved = new Set(
      adjacencyMapToArray(model.getAdjacencyMap())
        .filter(({ state, nextState }) => serializeJourneyModelState(state) !== serializeJourneyModelState(nextState))
        .map(({ event }) => JSON.stringify(event)),
    );
    const neverMoving = journeyModelEvents.filter((event) => !moved.has(JSON.stringify(event)));
    expect(neverMoving).toEqual([
      { type: 'route.changed', path: JOURNEY_MODEL_UNKNOWN_PATH },
      { type: 'wizard.jump', step: 'purchase' },
    ]);
  });

  it('leaves the review and checkout by each of their outcomes, and resets from both', () => {
    const moves = new Set(
      adjacencyMapToArray(model.getAdjacencyMap()).map(({ state, event, nextState }) => `${String(state.value)} -${event.type}-> ${String(nextState.value)}`),
    );
    expect([...moves]).toEqual(
      expect.arrayContaining([
        'reviewDetails -review.completed-> checkout',
        'reviewDetails -review.planMissing-> compareQuotes',
        'reviewDetails -review.updateDetails-> travellerDetails',
        'reviewDetails -journey.reset-> travellerDetails',
        'checkout -journey.reset-> travellerDetails',
        'checkout -checkout.paidInFull-> thankYouHundred',
        'checkout -checkout.planMissing-> compareQuotes',
        'checkout -checkout.reviewMissing-> reviewDetails',
      ]),
    );
    // The review's exits and checkout's lost plan run through simple paths too, not only through shortest ones.
    const taken = new Set(simplePaths.flatMap((path) => path.steps.map((step) => step.event.type)));
    for (const type of ['review.planMissing', 'review.updateDetails', 'checkout.planMissing'] as const) expect(taken).toContain(type);
  });

  it('keeps the simple paths under the limit while finishing a purchase both ways', () => {
    expect(simplePaths.length).toBeLessThanOrEqual(SIMPLE_PATH_LIMIT);
    // Every page but the call-back pages offers a call back, so simple paths run on to /call-back.
    const passed = new Set(simplePaths.flatMap((path) => path.steps.map((step) => step.state.value)));
    expect(passed).toContain('thankYouHundred');
    expect(passed).toContain('paymentResult');
    expect(new Set(simplePaths.map((path) => path.state.value))).toEqual(new Set(['callBack']));
  });
});

describe('journey model: shortest path to every state, replayed on a live actor', () => {
  it.each(withPathIds('journey shortest', shortestPaths, labelOf))('%s', async (_label, path) => {
    expect(await replayOnLiveActor(path)).toBe(path.steps.length);
  });
});

describe('journey model: a path for each transition the shortest paths do not take, replayed on a live actor', () => {
  it.each(withPathIds('journey transitions', pathsCoveringTransitions(journeyMachine, model, [...shortestPaths, ...simplePaths], serializeJourneyModelState), labelOf))(
    '%s',
    async (_label, path) => {
      expect(await replayOnLiveActor(path)).toBe(path.steps.length);
    },
  );
});

describe('journey model: deep links, the journey booting at the address of each page', () => {
  const deepLinks = STEP_IDS.map((step) => ({ step, input: { ...journeyModelInput, path: stepPath(step, JOURNEY_MODEL_POLICY), ...JOURNEY_MODEL_LEAD } }));

  it.each(deepLinks.map(({ step, input }) => [input.path, step, input] as const))('%s with a lead opens its own page', (_path, step, input) => {
    const actor = createActor(journeyMachine, { input, inspect }).start();
    expect(actor.getSnapshot().value).toBe(step);
    actor.stop();
  });
});

describe('journey model: simple paths over page events, replayed on a live actor', () => {
  it.each(withPathIds('journey simple', simplePaths, labelOf))('%s', async (_label, path) => {
    expect(await replayOnLiveActor(path)).toBe(path.steps.length);
  });
});

describe('journey model: the payment result (issue 11: paid, failed, retried, reloaded)', () => {
  // The step's outputs, as its selectors turn them into journey events: the link between the
  // payment-result step and the journey is the mapping the app uses, not a copy of it.
  const retry = paymentResultOutcomeEvent({ type: 'retry' });
  const newQuote = paymentResultOutcomeEvent({ type: 'newQuote' });
  const toCheckout: JourneyEvent[] = [
    { type: 'details.submitted', uuid: JOURNEY_MODEL_LEAD.uuid, sessionId: JOURNEY_MODEL_LEAD.sessionId },
    { type: 'quote.chosen' },
    { type: 'review.completed' },
  ];
  const JOURNEYS: Record<string, { events: JourneyEvent[]; pages: StepId[] }> = {
    // Paid: the page stays (the policy shows) until the customer starts a new quote.
    paid: { events: [...toCheckout, { type: 'payment.returned' }, newQuote], pages: ['paymentResult', 'travellerDetails'] },
    // Failed, "Try again", and the second attempt's return.
    'failed, retried, then paid': {
      events: [...toCheckout, { type: 'payment.returned' }, retry, { type: 'payment.returned' }, newQuote],
      pages: ['paymentResult', 'checkout', 'paymentResult', 'travellerDetails'],
    },
    // Back from the retried checkout shows the failure again; forward to checkout is allowed.
    'retried, then Back and Forward': {
      events: [...toCheckout, { type: 'payment.returned' }, retry, { type: 'route.changed', path: '/payment-result' }, { type: 'route.changed', path: '/checkout' }],
      pages: ['paymentResult', 'checkout', 'paymentResult', 'checkout'],
    },
  };
  const fromStart = model.getShortestPaths()[0]!.steps[0]!.state;
  const scripted = Object.entries(JOURNEYS).map(([name, { events, pages }]) => {
    const [path] = model.getPathsFromEvents(events, { fromState: fromStart, serializeState: serializeJourneyModelState });
    return { name, path: path!, pages };
  });

  it.each(scripted.map(({ name, path, pages }) => [name, path, pages] as const))('%s: the pages after the return, replayed on a live actor', async (_name, path, pages) => {
    const shown = path.steps.slice(toCheckout.length + 1).map((step) => step.state.value);
    expect(shown).toEqual(pages);
    expect(await replayOnLiveActor(path)).toBe(path.steps.length);
  });

  it('the model takes "Try again" from the payment result to checkout, and only there', () => {
    const moves = adjacencyMapToArray(model.getAdjacencyMap())
      .filter(({ event, state, nextState }) => event.type === 'payment.retry' && serializeJourneyModelState(state) !== serializeJourneyModelState(nextState))
      .map(({ state, nextState }) => `${String(state.value)} -> ${String(nextState.value)}`);
    expect(new Set(moves)).toEqual(new Set(['paymentResult -> checkout']));
  });

  // Reloaded: the gateway's return and every reload of it boot the journey at /payment-result.
  const returnModel = createTestModel(journeyMachine, { ...modelOptions, input: journeyModelReturnInput });
  const returnPaths = returnModel.getShortestPaths();

  it('reloaded: boots on the payment result with the lead of the address, every time', () => {
    const first = returnPaths[0]!.steps[0]!.state;
    expect(first.value).toBe('paymentResult');
    expect(first.context).toMatchObject({ uuid: JOURNEY_MODEL_LEAD.uuid, visited: ['paymentResult'] });
    // A reload after "Try again" and a second return lands on the same page with the same lead.
    const again = createActor(journeyMachine, { input: journeyModelReturnInput, inspect }).start();
    expect(again.getSnapshot().value).toBe('paymentResult');
    expect(again.getSnapshot().context).toEqual(first.context);
    again.send(retry);
    expect(again.getSnapshot().value).toBe('checkout');
    again.stop();
  });

  it('reloaded without a lead (a refused return: /payment-result?lang=…): the page shows, "Try again" goes nowhere', () => {
    const refused = createActor(journeyMachine, { input: { ...journeyModelReturnInput, uuid: null, sessionId: null }, inspect }).start();
    expect(refused.getSnapshot().value).toBe('paymentResult');
    expect(refused.getSnapshot().can(retry)).toBe(false);
    refused.send(newQuote);
    expect(refused.getSnapshot().value).toBe('travellerDetails');
    refused.stop();
  });

  it.each(withPathIds('journey reloaded', returnPaths, labelOf))('reloaded, shortest path: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, journeyModelReturnInput)).toBe(path.steps.length);
  });
});

describe('journey model: a paid trip leads to its policy (issue 37, RULINGS 28)', () => {
  const policyPath = stepPath('policy', JOURNEY_MODEL_POLICY);
  const lead = { uuid: JOURNEY_MODEL_LEAD.uuid, sessionId: JOURNEY_MODEL_LEAD.sessionId };
  const toCheckout: JourneyEvent[] = [{ type: 'details.submitted', ...lead }, { type: 'quote.chosen' }, { type: 'review.completed' }];
  const JOURNEYS: Record<string, { events: JourneyEvent[]; pages: StepId[] }> = {
    // Checkout of a lead paid meanwhile (another tab, the agent's customer): the policy, Back refused, then Buy again.
    'checkout finds the lead paid, Back is refused, Buy again': {
      events: [...toCheckout, { type: 'lead.paid', policyToken: JOURNEY_MODEL_POLICY }, { type: 'route.changed', path: '/checkout' }, { type: 'policy.buyAgain' }],
      pages: ['policy', 'policy', 'travellerDetails'],
    },
    // A 100 % coupon: the thank-you page opens the policy; a call back and Back return to it.
    'paid in full, the policy opened, a call back and Back': {
      events: [...toCheckout, { type: 'checkout.paidInFull' }, { type: 'policy.opened', policyToken: JOURNEY_MODEL_POLICY }, { type: 'callBack.requested' }, { type: 'route.changed', path: policyPath }, { type: 'journey.reset' }],
      pages: ['thankYouHundred', 'policy', 'requestCallBack', 'policy', 'travellerDetails'],
    },
    // The resume dialog opens a paid trip's policy; Back to travel details, Forward to the policy.
    'the resume dialog, Back and Forward': {
      events: [...toCheckout, { type: 'journey.reset' }, { type: 'policy.opened', policyToken: JOURNEY_MODEL_POLICY }, { type: 'route.changed', path: '/traveller-details' }, { type: 'route.changed', path: policyPath }],
      pages: ['travellerDetails', 'policy', 'travellerDetails', 'policy'],
    },
  };
  const fromStart = model.getShortestPaths()[0]!.steps[0]!.state;
  const scripted = Object.entries(JOURNEYS).map(([name, { events, pages }]) => {
    const [path] = model.getPathsFromEvents(events, { fromState: fromStart, serializeState: serializeJourneyModelState });
    return { name, path: path!, pages };
  });

  it.each(scripted.map(({ name, path, pages }) => [name, path, pages] as const))('%s: the pages, replayed on a live actor', async (_name, path, pages) => {
    expect(path.steps.slice(toCheckout.length + 1).map((step) => step.state.value)).toEqual(pages);
    expect(await replayOnLiveActor(path)).toBe(path.steps.length);
  });

  it('every page of a lead (and travel details with its uuid) takes lead.paid to the policy, and no other page does', () => {
    const moves = adjacencyMapToArray(model.getAdjacencyMap())
      .filter(({ event, state, nextState }) => event.type === 'lead.paid' && serializeJourneyModelState(state) !== serializeJourneyModelState(nextState))
      .map(({ state, nextState }) => `${String(state.value)} -> ${String(nextState.value)}`);
    expect(new Set(moves)).toEqual(new Set(['travellerDetails -> policy', 'compareQuotes -> policy', 'compareOffers -> policy', 'reviewDetails -> policy', 'checkout -> policy']));
  });
});
