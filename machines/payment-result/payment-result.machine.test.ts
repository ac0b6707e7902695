import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { paymentResultMachine } from './payment-result.machine';
import {
  CANCELLED,
  CHANGED,
  DECLINED,
  PAID,
  PAID_TWICE,
  PENDING,
  REFUNDED,
  RESULT_FAILURES,
  RESULT_LEAD_UUID,
  RESULT_REFERENCE,
  SECOND_REFERENCE,
  resultInput,
  statusSample,
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
import { PAYMENT_POLL_LIMIT, PAYMENT_POLL_MS, type LoadPaymentStatusInput, type PaymentResultInput, type PaymentStatusData } from './payment-result.types';
import { waitForSnapshot } from '../model-tooling/wait-for-snapshot';

/** Answers of payment-status in turn, the last one repeated; `{ reject }` makes that call fail with it. */
type Answer = PaymentStatusData | { reject: unknown };

function start(answers: Answer[], input: PaymentResultInput = resultInput()) {
  const clock = new SimulatedClock();
  const calls: LoadPaymentStatusInput[] = [];
  const effects = { thankYou: 0 };
  const machine = paymentResultMachine.provide({
    actors: {
      loadStatus: fromPromise(async ({ input: call }: { input: LoadPaymentStatusInput }) => {
        calls.push(call);
        const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
        if ('reject' in answer) throw answer.reject;
        return answer;
      }),
    },
    actions: { storeThankYou: () => (effects.thankYou += 1) },
  });
  const actor = createActor(machine, { input, clock }).start();
  const view = () => selectPaymentResultView(actor.getSnapshot());
  /** Lets the pending call settle (promise actors report on a later task). */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  /** The 2 s between two polls, then the poll's answer. */
  const poll = async () => {
    clock.increment(PAYMENT_POLL_MS);
    await settle();
  };
  return { actor, calls, effects, view, settle, poll };
}

describe('payment result: the first read', () => {
  it('reads the order of the return address (lead, reference, language) and shows the policy; the thank-you flag is stored once', async () => {
    const { actor, calls, effects, view } = start([PAID], resultInput({ lang: 'ar' }));
    expect(view()).toBe('loading');
    await waitForSnapshot(actor, (snapshot) => snapshot.matches('paid'));
    expect(calls).toEqual([{ uuid: RESULT_LEAD_UUID, reference: RESULT_REFERENCE, lang: 'ar' }]);
    expect(view()).toBe('paid');
    expect(selectPayment(actor.getSnapshot())).toEqual(PAID);
    expect(effects.thankYou).toBe(1);
    expect(selectCanRetry(actor.getSnapshot())).toBe(false);
    expect(selectCanRefresh(actor.getSnapshot())).toBe(false);
  });

  it('reloaded: a fresh page with the same address shows the same policy and stores the flag again', async () => {
    for (let load = 0; load < 2; load += 1) {
      const { actor, effects } = start([PAID]);
      await waitForSnapshot(actor, (snapshot) => snapshot.matches('paid'));
      expect(selectPayment(actor.getSnapshot())?.policy?.policy_number).toBe('SFR-26-7K3Q9M2T');
      expect(effects.thankYou).toBe(1);
      actor.stop();
    }
  });

  it('asks with the lead alone when the address has no reference (/thank-you-p)', async () => {
    const { actor, calls } = start([PAID], resultInput({ reference: null }));
    await waitForSnapshot(actor, (snapshot) => snapshot.matches('paid'));
    expect(calls).toEqual([{ uuid: RESULT_LEAD_UUID, reference: null, lang: 'en' }]);
  });

  it.each([
    ['declined', DECLINED],
    ['cancelled', CANCELLED],
    ['changed', CHANGED],
    ['refund', REFUNDED],
  ] as const)('a %s payment shows the failure with its reason, no flag; "Try again" ends the step with retry (journey: payment.retry)', async (reason, answer) => {
    const { actor, effects, view } = start([answer]);
    await waitForSnapshot(actor, (snapshot) => snapshot.matches('failed'));
    expect(view()).toBe('failed');
    expect(selectPayment(actor.getSnapshot())?.reason).toBe(reason);
    expect(effects.thankYou).toBe(0);
    expect(selectCanRetry(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'result.retry' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(view()).toBe('done');
    const output = selectPaymentResultOutcome(actor.getSnapshot());
    expect(output).toEqual({ type: 'retry' });
    expect(paymentResultOutcomeEvent(output!)).toEqual({ type: 'payment.retry' });
  });

  it('paid twice: the policy, the thank-you flag, and the second payment as the refund to tell', async () => {
    const { actor, effects, view } = start([PAID_TWICE]);
    await waitForSnapshot(actor, (snapshot) => snapshot.matches('paid'));
    expect(view()).toBe('paid');
    expect(effects.thankYou).toBe(1);
    expect(selectRefund(actor.getSnapshot())).toEqual({ merchant_reference: SECOND_REFERENCE, amount: 12_210, currency: 'USD' });
    expect(selectCanRetry(actor.getSnapshot())).toBe(false);
  });

  it('paid once, or failed for another reason than a refund: no refund to tell, even when the lead has one elsewhere', async () => {
    const elsewhere = { merchant_reference: SECOND_REFERENCE, amount: 12_210, currency: 'USD' };
    for (const answer of [PAID, DECLINED, CHANGED, statusSample({ status: 'failed', reason: 'declined', refund: elsewhere })]) {
      const { actor } = start([answer]);
      await waitForSnapshot(actor, (snapshot) => snapshot.matches('paid') || snapshot.matches('failed'));
      expect(selectRefund(actor.getSnapshot())).toBeNull();
      actor.stop();
    }
  });

  it('a payment taken for a voided order: the refund named by the server, else this attempt at the order\'s amount', async () => {
    const named = start([REFUNDED]);
    await waitForSnapshot(named.actor, (snapshot) => snapshot.matches('failed'));
    expect(selectRefund(named.actor.getSnapshot())).toEqual({ merchant_reference: RESULT_REFERENCE, amount: 12_210, currency: 'USD' });

    const unnamed = start([statusSample({ status: 'failed', reason: 'refund' })]);
    await waitForSnapshot(unnamed.actor, (snapshot) => snapshot.matches('failed'));
    expect(selectRefund(unnamed.actor.getSnapshot())).toEqual({ merchant_reference: RESULT_REFERENCE, amount: 13_320, currency: 'USD' });
  });

  it('nothing to tell before the answer, or while the gateway is awaited', async () => {
    const { actor, settle } = start([statusSample({ refund: { merchant_reference: SECOND_REFERENCE, amount: 12_210, currency: 'USD' } })]);
    expect(selectRefund(actor.getSnapshot())).toBeNull();
    await settle();
    expect(selectPaymentResultView(actor.getSnapshot())).toBe('pending');
    expect(selectRefund(actor.getSnapshot())).toBeNull();
  });

  it('without a lead in the address (a refused return) shows "not found" and reads nothing', () => {
    const { actor, calls, view } = start([PAID], resultInput({ uuid: null, reference: null }));
    expect(view()).toBe('notFound');
    expect(calls).toEqual([]);
    expect(actor.getSnapshot().can({ type: 'result.retry' })).toBe(false);
    actor.send({ type: 'result.newQuote' });
    expect(paymentResultOutcomeEvent(selectPaymentResultOutcome(actor.getSnapshot())!)).toEqual({ type: 'journey.reset' });
  });

  it.each([
    ['a lead id that is not a uuid', resultInput({ uuid: 'lead-1' })],
    ['a cut-off reference', resultInput({ reference: 'SAF-42/2026' })],
    ['a reference longer than APS allows', resultInput({ reference: 'A'.repeat(41) })],
  ])('%s names no order: "not found" without asking the server', (_label, input) => {
    const { calls, view } = start([PAID], input);
    expect(view()).toBe('notFound');
    expect(calls).toEqual([]);
  });

  it('a 404 (no such order of this lead) shows "not found"; a failed read the error view, whose Refresh reads again', async () => {
    const missing = start([{ reject: RESULT_FAILURES.notFound }]);
    await waitForSnapshot(missing.actor, (snapshot) => snapshot.matches('notFound'));
    expect(missing.view()).toBe('notFound');

    const { actor, calls, view } = start([{ reject: RESULT_FAILURES.network }, PAID]);
    await waitForSnapshot(actor, (snapshot) => snapshot.matches('error'));
    expect(view()).toBe('error');
    expect(selectCanRefresh(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'result.refresh' });
    expect(view()).toBe('loading');
    await waitForSnapshot(actor, (snapshot) => snapshot.matches('paid'));
    expect(calls).toHaveLength(2);
  });

  it('a server error (500) is a failed read, not "not found"', async () => {
    const { actor, view } = start([{ reject: RESULT_FAILURES.server }]);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitForSnapshot(actor, (snapshot) => !snapshot.hasTag('busy'));
    expect(view()).toBe('error');
  });

  it('a read that fails with no HTTP answer at all (not a service failure) is a failed read too', async () => {
    const { actor, view } = start([{ reject: new TypeError('Failed to fetch') }]);
    await waitForSnapshot(actor, (snapshot) => !snapshot.hasTag('busy'));
    expect(actor.getSnapshot().status).toBe('active');
    expect(view()).toBe('error');
  });

  it('run without the web\'s reader (loadStatus), a read fails as a failed read, not a crash', async () => {
    const actor = createActor(paymentResultMachine, { input: resultInput() }).start();
    await waitForSnapshot(actor, (snapshot) => !snapshot.hasTag('busy'));
    expect(actor.getSnapshot().status).toBe('active');
    expect(selectPaymentResultView(actor.getSnapshot())).toBe('error');
  });
});

describe('payment result: waiting for the gateway (the browser came back first)', () => {
  it('reads again every 2 s, not sooner, and shows the policy when the answer arrives', async () => {
    const { actor, calls, view, poll, settle, effects } = start([PENDING, PENDING, PENDING, PAID]);
    await settle();
    expect(view()).toBe('pending');
    expect(calls).toHaveLength(1);
    // Nothing before the 2 s are up.
    await settle();
    expect(calls).toHaveLength(1);
    await poll();
    expect(calls).toHaveLength(2);
    expect(view()).toBe('pending');
    await poll();
    await poll();
    expect(calls).toHaveLength(4);
    expect(view()).toBe('paid');
    expect(effects.thankYou).toBe(1);
    // Answered: no more reads.
    await poll();
    expect(calls).toHaveLength(4);
    expect(actor.getSnapshot().context.polls).toBe(3);
  });

  it(`gives up after ${PAYMENT_POLL_LIMIT} more reads ("we will e-mail you"), and Refresh starts again`, async () => {
    const { actor, calls, view, poll, settle } = start([PENDING]);
    await settle();
    for (let read = 1; read <= PAYMENT_POLL_LIMIT; read += 1) {
      expect(view()).toBe('pending');
      await poll();
    }
    expect(calls).toHaveLength(1 + PAYMENT_POLL_LIMIT);
    expect(view()).toBe('unconfirmed');
    expect(selectCanRefresh(actor.getSnapshot())).toBe(true);
    await poll();
    expect(calls).toHaveLength(1 + PAYMENT_POLL_LIMIT);

    actor.send({ type: 'result.refresh' });
    expect(view()).toBe('loading');
    expect(actor.getSnapshot().context.polls).toBe(0);
    await settle();
    expect(view()).toBe('pending');
    expect(calls).toHaveLength(2 + PAYMENT_POLL_LIMIT);
  });

  it('a failed read while waiting counts as a poll and waits for the next; a 404 while waiting shows "not found"', async () => {
    const { actor, view, poll, settle, calls } = start([PENDING, { reject: RESULT_FAILURES.network }, DECLINED]);
    await settle();
    await poll();
    expect(view()).toBe('pending');
    expect(actor.getSnapshot().context.polls).toBe(1);
    await poll();
    expect(calls).toHaveLength(3);
    expect(view()).toBe('failed');

    const gone = start([PENDING, { reject: RESULT_FAILURES.notFound }]);
    await gone.settle();
    await gone.poll();
    expect(gone.view()).toBe('notFound');
  });

  it('a new quote can be started from every resting view but the wait', async () => {
    for (const answers of [[PAID], [DECLINED], [{ reject: RESULT_FAILURES.notFound }], [{ reject: RESULT_FAILURES.network }]] as Answer[][]) {
      const { actor, settle } = start(answers);
      await settle();
      expect(actor.getSnapshot().can({ type: 'result.newQuote' })).toBe(true);
      actor.send({ type: 'result.newQuote' });
      expect(selectPaymentResultOutcome(actor.getSnapshot())).toEqual({ type: 'newQuote' });
    }
    const waiting = start([PENDING]);
    await waiting.settle();
    expect(waiting.actor.getSnapshot().can({ type: 'result.newQuote' })).toBe(false);
  });
});
