import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, type SnapshotFrom } from 'xstate';
import { deferredActors, replayStep, expectSameSnapshot, testPathOnActor, withPathIds } from '../model-tooling/model-replay';
import { paymentResultMachine } from './payment-result.machine';
import {
  POLL_EVENT,
  createPaymentResultTestModel,
  paymentResultModelEvents,
  paymentResultModelJourneys,
  paymentResultPathLabel,
  resultInput,
  serializePaymentResultModelState,
  type PaymentResultModelPath,
} from './payment-result.model';
import {
  paymentResultOutcomeEvent,
  selectCanRefresh,
  selectCanRetry,
  selectPayment,
  selectPaymentResultOutcome,
  selectPaymentResultView,
  selectRefund,
} from './payment-result.selectors';
import { PAYMENT_POLL_LIMIT, PAYMENT_POLL_MS, type PaymentResultInput } from './payment-result.types';
import { pathsCoveringTransitions, recordModelCoverage } from '../model-tooling/model-coverage';

const inspect = recordModelCoverage(import.meta.url);

const serializeState = serializePaymentResultModelState;
const labelOf = paymentResultPathLabel;
const createModel = createPaymentResultTestModel;

// Built like checkout.model.test.ts: call outcomes are sample events that settle the pending
// promise actor of the live replay, and the 2 s between polls is a sample event too (POLL_EVENT),
// a tick of a simulated clock on the live actor, so the real `after` timer runs.

type Snapshot = SnapshotFrom<typeof paymentResultMachine>;
type Path = PaymentResultModelPath;
type ImplementationsOf = Parameters<typeof paymentResultMachine.provide>[0];

const STATES = ['loading', 'pending', 'paid', 'failed', 'unconfirmed', 'notFound', 'error', 'retry', 'newQuote'] as const;
async function replayOnLiveActor(path: Path, input: PaymentResultInput): Promise<number> {
  const { actors: deferred, pending } = deferredActors(['loadStatus'] as const);
  const actors = deferred as unknown as NonNullable<ImplementationsOf['actors']>;
  let thankYouStored = 0;
  let paidEntries = 0;
  const clock = new SimulatedClock();
  const actor = createActor(paymentResultMachine.provide({ actors, actions: { storeThankYou: () => (thankYouStored += 1) } }), { input, clock, inspect });
  let wasPaid = false;
  actor.subscribe((snapshot) => {
    const paid = snapshot.matches('paid');
    if (paid && !wasPaid) paidEntries += 1;
    wasPaid = paid;
  });
  actor.start();
  let checked = 0;

  const check = (modelState: Snapshot) => {
    checked += 1;
    const live = actor.getSnapshot();
    expectSameSnapshot(live, modelState);
    const view = selectPaymentResultView(live);
    // The view follows the state, and only the answered states show the order.
    if (live.status === 'done') expect(view).toBe('done');
    else expect(view).toBe(typeof live.value === 'string' ? live.value : 'pending');
    if (view === 'paid' || view === 'failed') expect(selectPayment(live)?.status).toBe(view);
    if (view === 'paid') expect(selectPayment(live)?.policy).not.toBeNull();
    // A refund is told beside the policy (paid twice) or as the reason of a failure, never while waiting.
    const refund = selectRefund(live);
    if (view === 'paid') expect(refund).toEqual(selectPayment(live)?.refund);
    else if (view === 'failed') expect(refund !== null).toBe(selectPayment(live)?.reason === 'refund');
    else expect(refund).toBeNull();
    // The thank-you flag is stored on every arrival at the policy, and never otherwise.
    expect(thankYouStored).toBe(paidEntries);
    // "Try again" only after a failure; Refresh after a failed read or a late answer.
    expect(selectCanRetry(live)).toBe(view === 'failed');
    expect(selectCanRefresh(live)).toBe(view === 'error' || view === 'unconfirmed');
    expect(live.context.polls).toBeLessThanOrEqual(PAYMENT_POLL_LIMIT);
    const call = pending.get('loadStatus');
    if (call) expect(call.input).toEqual({ uuid: input.uuid, reference: input.reference, lang: input.lang });
    const output = selectPaymentResultOutcome(live);
    if (output) expect(paymentResultOutcomeEvent(output).type).toBe(output.type === 'retry' ? 'payment.retry' : 'journey.reset');
  };

  const settle = replayStep(pending, (event) => actor.send(event as never));
  const perform = async (step: { event: { type: string } }) => {
    if (step.event.type === POLL_EVENT) clock.increment(PAYMENT_POLL_MS);
    else await settle(step);
  };
  await testPathOnActor(path, actor, { states: STATES, check, samples: paymentResultModelEvents, perform });
  return checked;
}

const CASES: Record<string, PaymentResultInput> = {
  'with the lead and the reference of the return': resultInput(),
  'with the lead alone (/thank-you-p reads the paid order this way)': resultInput({ reference: null }),
  'in Arabic': resultInput({ lang: 'ar' }),
};

describe.each(Object.entries(CASES))('payment result model: %s', (_name, input) => {
  const model = createModel(input);
  const shortestPaths = model.getShortestPaths();
  const simplePaths = model.getSimplePaths();
  const fromState = shortestPaths[0]!.steps[0]!.state;
  const journeyPaths = paymentResultModelJourneys().flatMap((events) => model.getPathsFromEvents(events, { fromState, serializeState }));
  const paths = [...shortestPaths, ...simplePaths, ...journeyPaths];

  it('reaches every state: paid, failed (retried), pending and late, not found, failed read, new quote', () => {
    const passed = new Set(paths.flatMap((path) => path.steps.map((step) => (typeof step.state.value === 'string' ? step.state.value : 'pending'))));
    expect([...passed].sort()).toEqual([...STATES].sort());
    // Every event of the scripted journeys is one its state accepts (an ignored one would loop in place).
    const steps = journeyPaths.flatMap((path) => path.steps.slice(0, -1).map((step, index) => ({ state: step.state, event: path.steps[index + 1]!.event })));
    expect(steps.length).toBe(paymentResultModelJourneys().flat().length);
    for (const { state, event } of steps) expect({ event: event.type, accepted: state.can(event as never) }).toEqual({ event: event.type, accepted: true });
  });

  it('polls at most PAYMENT_POLL_LIMIT times, then says the answer is late', () => {
    const late = journeyPaths.find((path) => path.steps.some((step) => step.state.matches('unconfirmed')))!;
    const polls = late.steps.filter((step) => step.event.type === POLL_EVENT).length;
    expect(polls).toBe(PAYMENT_POLL_LIMIT);
    const before = late.steps.findIndex((step) => step.state.matches('unconfirmed'));
    expect(late.steps[before - 1]!.state.context.polls).toBe(PAYMENT_POLL_LIMIT - 1);
  });

  it('keeps the state space small', () => {
    expect(simplePaths.length).toBeLessThanOrEqual(300);
  });

  it.each(withPathIds(`payment result ${_name} shortest`, shortestPaths, labelOf))('shortest: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
  });

  it.each(withPathIds(`payment result ${_name} simple`, simplePaths, labelOf))('simple: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
  });

  it.each(withPathIds(`payment result ${_name} journey`, journeyPaths, labelOf))('journey: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
  });

  it.each(withPathIds(`payment result ${_name} transitions`, pathsCoveringTransitions(paymentResultMachine, model, [...shortestPaths, ...simplePaths, ...journeyPaths], serializeState), labelOf))(
    'transition: %s',
    async (_label, path) => {
      expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
    },
  );
});

describe('payment result model: without a lead in the address (a refused return)', () => {
  it('shows no such payment at once, reads nothing, and offers only a new quote', () => {
    const model = createModel(resultInput({ uuid: null, reference: null }));
    const paths = [...model.getShortestPaths(), ...model.getSimplePaths()];
    const states = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    expect(states).toEqual(new Set(['"notFound"', '"newQuote"']));
  });

  const model = createModel(resultInput({ uuid: null, reference: null }));
  it.each(withPathIds('payment result no lead shortest', model.getShortestPaths(), labelOf))('shortest: %s', async (_label, path) => {
    expect(await replayOnLiveActor(path, resultInput({ uuid: null, reference: null }))).toBe(path.steps.length);
  });
});
