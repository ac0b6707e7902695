import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, type SnapshotFrom } from 'xstate';
import { TestModel, type TestPath } from 'xstate/graph';
import { tempCheckoutInput, validateCouponInput } from './checkout.helpers';
import { checkoutMachine } from './checkout.machine';
import {
  CHECKOUT_FAILURES,
  LOADER_EVENT,
  PAYMENT_URL,
  checkoutInput,
  checkoutModelEvents,
  checkoutModelJourneys,
  isPlausible,
  type CheckoutModelEvent,
  type CheckoutModelPart,
} from './checkout.model';
import { checkoutOutcomeEvent, selectCanPay, selectCoupon, selectOutcome, selectPaying } from './checkout.selectors';
import { CHECKOUT_LOADER_MS, type CheckoutInput } from './checkout.types';
import { deferredActors, replayStep, expectSameSnapshot, testPathOnActor, withPathIds } from './model-replay';
import { pathsCoveringTransitions, recordModelCoverage } from './model-coverage';

const inspect = recordModelCoverage(import.meta.url);

// Built like review.model.test.ts (see travel-details.model.test.ts for why TestModel and not
// createTestModel(), which refuses machines that invoke): call outcomes are sample events, which
// settle the pending promise actor of the live replay. The payment loader's 2.5 s is a sample
// event too (LOADER_EVENT); on the live actor it is a tick of a simulated clock, so the real
// `after` timer runs. Each part of the step is explored on its own: together they would multiply
// each other's states (coupon × terms × payment × notices) without a rule joining them.

type Snapshot = SnapshotFrom<typeof checkoutMachine>;
type Path = TestPath<Snapshot, CheckoutModelEvent>;
type ImplementationsOf = Parameters<typeof checkoutMachine.provide>[0];

const ACTOR_IDS = ['loadCheckout', 'validateCoupon', 'tempCheckout', 'sendEmail'] as const;
const STATES = ['noLead', 'loading', 'failed', 'ready', 'paidInFull', 'planMissing', 'reviewMissing', 'finished'] as const;

interface Case {
  part: CheckoutModelPart;
  input: CheckoutInput;
  /** Final states the part must reach. */
  ends: readonly string[];
  /** Events the part must take on some simple path. */
  taken: readonly string[];
}

const CASES: Record<string, Case> = {
  'loading: already in a deal, no plan, review incomplete, failed': {
    part: 'loading',
    input: checkoutInput(),
    ends: ['failed', 'finished', 'planMissing', 'reviewMissing', 'ready'],
    taken: [],
  },
  'coupon: apply, refused, rate-limited, failed, remove': {
    part: 'coupon',
    input: checkoutInput(),
    ends: [],
    taken: ['coupon.change', 'coupon.apply', 'coupon.remove', 'notice.dismiss'],
  },
  'payment: terms, proceed, totals changed, in a deal, review incomplete, failed': {
    part: 'payment',
    input: checkoutInput(),
    ends: ['finished', 'reviewMissing'],
    taken: ['terms.toggle', 'checkout.pay', LOADER_EVENT, 'notice.dismiss', 'payFailed.dismiss'],
  },
  'starts: a finished purchase': { part: 'loading', input: checkoutInput({ thankYou: true }), ends: ['finished'], taken: [] },
  'starts: no lead': { part: 'loading', input: checkoutInput({ uuid: null }), ends: ['noLead'], taken: [] },
  "the agent's share": { part: 'share', input: checkoutInput({ agentId: 101, link: 'https://safar.example/checkout?uuid=5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a' }), ends: [], taken: ['share.email', 'xstate.done.actor.sendEmail'] },
  'the 100 % branch: a stored coupon re-applied at load, then paid in full': {
    part: 'paidInFull',
    input: checkoutInput({ storedCoupon: 'FREE100' }),
    ends: ['paidInFull'],
    taken: ['coupon.apply', 'coupon.remove', 'checkout.pay'],
  },
};

const FAILURE_NAMES = new Map<unknown, string>(Object.entries(CHECKOUT_FAILURES).map(([name, failure]) => [failure, name]));

const serializeState = (snapshot: Snapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });

function describeEvent(event: CheckoutModelEvent | { type: 'xstate.init' }): string {
  if (event.type === LOADER_EVENT) return '2.5s';
  if ('error' in event) return `${event.type.replace('xstate.error.actor.', '')}✗${FAILURE_NAMES.get(event.error) ?? 'error'}`;
  if ('output' in event) {
    const output = event.output as { code?: string; redirect_to_thank_you?: boolean; details?: { get_invoice: unknown; isLeadAlreadyInDeal: boolean } };
    const note = output.code ?? (output.redirect_to_thank_you ? '(paid)' : output.details?.isLeadAlreadyInDeal ? '(in deal)' : output.details?.get_invoice === null ? '(no plan)' : '');
    return `${event.type.replace('xstate.done.actor.', '')}✓${note}`;
  }
  if (event.type === 'terms.toggle') return `terms.toggle(${event.agreed})`;
  return event.type;
}

function labelOf(path: Path): string {
  const events = path.steps.map(({ event }) => event).filter((event) => !(event.type as string).startsWith('xstate.init'));
  return `${JSON.stringify(path.state.value)} ⇐ ${events.map(describeEvent).join(' → ') || '(start)'}`;
}

function createModel({ part, input }: Case) {
  const samples = checkoutModelEvents(part);
  return new TestModel<Snapshot, CheckoutModelEvent, CheckoutInput>(checkoutMachine as never, {
    input,
    serializeState,
    stateMatcher: (state, key) => state.matches(key as never),
    events: (state) => samples.filter((event) => state.can(event as never) && isPlausible(state.context, event)),
  });
}

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
    const model = createModel({ part, input, ends: [], taken: [] });
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
