import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, type SnapshotFrom } from 'xstate';
import { tempCheckoutInput, validateCouponInput } from './checkout.helpers';
import { checkoutMachine } from './checkout.machine';
import {
  CHECKOUT_MODEL_CASES,
  LOADER_EVENT,
  PAYMENT_URL,
  checkoutInput,
  checkoutModelEvents,
  checkoutModelJourneys,
  checkoutPathLabel,
  createCheckoutTestModel,
  serializeCheckoutModelState,
  type CheckoutModelCase,
  type CheckoutModelEvent,
  type CheckoutModelPart,
  type CheckoutModelPath,
} from './checkout.model';
import { checkoutOutcomeEvent, selectCanPay, selectCoupon, selectOutcome, selectPaying } from './checkout.selectors';
import { CHECKOUT_LOADER_MS } from './checkout.types';
import { deferredActors, replayStep, expectSameSnapshot, testPathOnActor, withPathIds } from '../model-tooling/model-replay';
import { pathsCoveringTransitions, recordModelCoverage } from '../model-tooling/model-coverage';

const inspect = recordModelCoverage(import.meta.url);

// Built like review.model.test.ts (see travel-details.model.test.ts for why TestModel and not
// createTestModel(), which refuses machines that invoke): call outcomes are sample events, which
// settle the pending promise actor of the live replay. The payment loader's 2.5 s is a sample
// event too (LOADER_EVENT); on the live actor it is a tick of a simulated clock, so the real
// `after` timer runs. Each part of the step is explored on its own: together they would multiply
// each other's states (coupon × terms × payment × notices) without a rule joining them. The
// cases and the model are checkout.model.ts's, shared with the run on the rendered screen
// (tests/model/checkout-screen.model.test.tsx).

type Snapshot = SnapshotFrom<typeof checkoutMachine>;
type Path = CheckoutModelPath;
type ImplementationsOf = Parameters<typeof checkoutMachine.provide>[0];

const ACTOR_IDS = ['loadCheckout', 'validateCoupon', 'tempCheckout', 'sendEmail'] as const;
const STATES = ['noLead', 'loading', 'failed', 'ready', 'paidInFull', 'planMissing', 'reviewMissing', 'finished'] as const;

type Case = CheckoutModelCase;
const CASES = CHECKOUT_MODEL_CASES;
const serializeState = serializeCheckoutModelState;
const labelOf = checkoutPathLabel;
const createModel = createCheckoutTestModel;

/**
 * The scripted journeys of a part as model paths. getPathsFromEvents builds its first state
 * without the model's input (xstate 5.33), so it starts from the model's own first state.
 */
function journeyPathsOf(model: ReturnType<typeof createModel>, part: CheckoutModelPart): Path[] {
  const fromState = model.getShortestPaths()[0]!.steps[0]!.state;
  return checkoutModelJourneys(part).flatMap((events) => model.getPathsFromEvents(events, { fromState, serializeState }));
}

async function replayOnLiveActor(path: Path, { part, input }: Case): Promise<number> {
  const { actors: deferred, pending } = deferredActors(ACTOR_IDS);
  const actors = deferred as unknown as NonNullable<ImplementationsOf['actors']>;
  // Local storage as the web keeps it: the coupon, and whether the thank-you flag was stored.
  let storedCoupon = input.storedCoupon;
  const thankYou: true[] = [];
  const left: string[] = [];
  const clock = new SimulatedClock();
  const actor = createActor(
    checkoutMachine.provide({
      actors,
      actions: {
        storeCoupon: (_, { code }) => (storedCoupon = code),
        removeStoredCoupon: () => (storedCoupon = null),
        storeThankYou: () => thankYou.push(true),
        leaveForPayment: (_, { url }) => left.push(url),
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
    if (live.matches('ready')) {
      const coupon = selectCoupon(live);
      // The box never holds whitespace.
      expect(coupon.text).not.toMatch(/\s/);
      if (live.matches({ ready: { coupon: 'applied' } })) {
        // Applied: stored, shown, and its totals are the page's (until the server says they changed).
        expect(coupon.applied).toBe(context.coupon!.code);
        expect(storedCoupon).toBe(context.coupon!.code);
        if (context.notice !== 'totals_changed') expect(context.totals).toEqual(context.coupon!.totals);
        expect(context.couponError).toBeNull();
      } else {
        // No coupon applied: the plan's own totals.
        expect(context.coupon).toBeNull();
        expect(coupon.applied).toBeNull();
        expect(context.totals).toEqual(context.baseTotals);
      }
      // A refused coupon is not kept; its message shows with its code.
      if (context.couponError !== null) {
        expect(storedCoupon).toBeNull();
        expect(coupon.message).toEqual(expect.any(String));
      }
      if (live.matches({ ready: { coupon: 'applying' } })) {
        expect(coupon.applying).toBe(true);
        expect(pending.get('validateCoupon')?.input).toEqual(validateCouponInput(context));
        expect(pending.get('validateCoupon')?.input).toMatchObject({ code: context.couponText });
      }
      // Proceed: a customer (never an agent) who agreed to the terms, while no coupon is checked and no payment runs.
      const payable = context.agentId === null && live.matches({ ready: { payment: 'idle' } }) && context.termsAgreed && !live.matches({ ready: { coupon: 'applying' } });
      expect(selectCanPay(live)).toBe(payable);
      expect(selectPaying(live)).toBe(!live.matches({ ready: { payment: 'idle' } }));
      if (live.matches({ ready: { payment: 'paying' } })) {
        // The total shown and the applied coupon, nothing else.
        expect(pending.get('tempCheckout')?.input).toEqual(tempCheckoutInput(context));
        expect(pending.get('tempCheckout')?.input).toMatchObject({ total: context.totals!.total, coupon: context.coupon?.code ?? null });
      }
      if (live.matches({ ready: { payment: 'leaving' } })) expect(left.at(-1)).toBe(PAYMENT_URL);
    }
    // The thank-you flag is stored exactly when the order was paid in full.
    expect(thankYou.length).toBe(live.matches('paidInFull') ? 1 : 0);
    const output = selectOutcome(live);
    if (output) expect(checkoutOutcomeEvent(output).type).toMatch(/^(checkout\.|journey\.reset$)/);
  };

  const settle = replayStep(pending, (event) => actor.send(event as Exclude<CheckoutModelEvent, { type: `xstate.${string}` }>));
  const perform = async (step: { event: { type: string } }) => {
    if (step.event.type === LOADER_EVENT) clock.increment(CHECKOUT_LOADER_MS);
    else await settle(step);
  };

  await testPathOnActor(path, actor, { states: STATES, check, samples: checkoutModelEvents(part), perform });
  return checked;
}

describe.each(Object.entries(CASES))('checkout model: %s', (_name, testCase) => {
  const model = createModel(testCase);
  const shortestPaths = model.getShortestPaths();
  const simplePaths = model.getSimplePaths();
  const journeyPaths = journeyPathsOf(model, testCase.part);
  const paths = [...shortestPaths, ...simplePaths, ...journeyPaths];

  it('reaches the outcomes of this part and takes its events', () => {
    const ends = new Set(paths.map((path) => (typeof path.state.value === 'string' ? path.state.value : 'ready')));
    for (const state of testCase.ends) expect(ends).toContain(state);
    const taken = new Set([...simplePaths, ...journeyPaths].flatMap((path) => path.steps.map((step) => step.event.type)));
    for (const type of testCase.taken) expect(taken).toContain(type);
    // Every event of the scripted journeys is one its state accepts (an ignored one would loop in place).
    const steps = journeyPaths.flatMap((path) => path.steps.slice(0, -1).map((step, index) => ({ state: step.state, event: path.steps[index + 1]!.event })));
    expect(steps.length).toBe(checkoutModelJourneys(testCase.part).flat().length);
    for (const { state, event } of steps) expect({ event: event.type, accepted: state.can(event as never) }).toEqual({ event: event.type, accepted: true });
  });

  it('keeps the state space small (context canonical)', () => {
    expect(simplePaths.length).toBeLessThanOrEqual(300);
  });

  it.each(withPathIds(`checkout ${_name} shortest`, shortestPaths, labelOf))('shortest: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, testCase)).toBe(path.steps.length);
  });

  it.each(withPathIds(`checkout ${_name} simple`, simplePaths, labelOf))('simple: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, testCase)).toBe(path.steps.length);
  });

  it.each(withPathIds(`checkout ${_name} journey`, journeyPaths, labelOf))('journey: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, testCase)).toBe(path.steps.length);
  });

  it.each(withPathIds(`checkout ${_name} transitions`, pathsCoveringTransitions(checkoutMachine, model, [...shortestPaths, ...simplePaths, ...journeyPaths], serializeState), labelOf))(
    'transition: %s',
    async (_label, path) => {
      expect(await replayOnLiveActor(path, testCase)).toBe(path.steps.length);
    },
  );
});

describe('checkout model: what each part passes through', () => {
  const passed = (part: CheckoutModelPart, input = checkoutInput()) => {
    const model = createModel({ part, input });
    return [...model.getShortestPaths(), ...model.getSimplePaths(), ...journeyPathsOf(model, part)].flatMap((path) => path.steps.map((step) => step.state));
  };

  it('coupon: applied, refused with its message, rate-limited, failed', () => {
    const states = passed('coupon');
    expect(states.some((state) => state.matches({ ready: { coupon: 'applied' } }))).toBe(true);
    expect(states.some((state) => state.context.couponError === 'coupon_expired')).toBe(true);
    expect(states.some((state) => state.context.notice === 'coupon_rate_limited')).toBe(true);
    expect(states.some((state) => state.context.couponFailed)).toBe(true);
  });

  it('payment: terms unticked, leaving for the payments page, fresh totals, failed', () => {
    const states = passed('payment');
    expect(states.some((state) => !state.context.termsAgreed)).toBe(true);
    expect(states.some((state) => state.matches({ ready: { payment: 'leaving' } }))).toBe(true);
    expect(states.some((state) => state.context.notice === 'totals_changed' && state.context.totals?.total === 12177)).toBe(true);
    expect(states.some((state) => state.context.payFailed)).toBe(true);
  });

  it('the 100 % branch: the coupon refused at payment goes back to the box', () => {
    const states = passed('paidInFull', checkoutInput({ storedCoupon: 'FREE100' }));
    expect(states.some((state) => state.matches({ ready: { coupon: 'idle' } }) && state.context.couponError === 'coupon_used_up')).toBe(true);
  });
});
