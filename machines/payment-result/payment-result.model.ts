import type { ErrorEnvelope } from '../../src/contract/envelope';
import type { PaymentStatusData } from '../../src/contract/payment.endpoints';
import type { SnapshotFrom } from 'xstate';
import { TestModel, type TestPath } from 'xstate/graph';
import { paymentResultMachine } from './payment-result.machine';
import type { ActorOutcomeEvent } from '../quotes/quotes.model';
import { PAYMENT_POLL_MS, type PaymentResultEvent, type PaymentResultInput, type ServiceFailure } from './payment-result.types';

/**
 * Samples of the payment result step, shared by its unit tests, its model test
 * (payment-result.model.test.ts) and the screens' tests: payment-status's answers for one order
 * in each state, the failures the step tells apart, and the user's events.
 */

export const RESULT_LEAD_UUID = '0b6f6c1e-2f4a-4d4b-9a55-3e0c6f1d2a77';
export const RESULT_REFERENCE = 'SAF-42-20260315-0001';
export const CERTIFICATE_URL = 'http://safar.test/policies/q9Xk3LrT_certificate-token/certificate.pdf';

export function resultInput(overrides: Partial<PaymentResultInput> = {}): PaymentResultInput {
  return { lang: 'en', uuid: RESULT_LEAD_UUID, reference: RESULT_REFERENCE, ...overrides };
}

/** The order as payment-status answers it: $133.20 (a $120 plan, VAT 11 %), not answered yet. */
export function statusSample(overrides: Partial<PaymentStatusData> = {}): PaymentStatusData {
  return {
    merchant_reference: RESULT_REFERENCE,
    status: 'pending',
    amount: 13_320,
    currency: 'USD',
    reason: null,
    policy: null,
    paid_at: null,
    refund: null,
    ...overrides,
  };
}

export const PENDING = statusSample();
export const PAID = statusSample({
  status: 'paid',
  policy: { policy_number: 'SFR-26-7K3Q9M2T', certificate_url: CERTIFICATE_URL, policy_page: `/policy/${'5e'.repeat(32)}` },
  paid_at: '2026-03-15T10:01:00.000Z',
});
export const DECLINED = statusSample({ status: 'failed', reason: 'declined' });
export const CANCELLED = statusSample({ status: 'failed', reason: 'cancelled' });
export const FAILED_OTHER = statusSample({ status: 'failed', reason: 'other' });
/** The order changed (or timed out) before this payment was made: voided, no money taken. */
export const CHANGED = statusSample({ status: 'failed', reason: 'changed' });
/** The reference of a second payment of the lead, to be refunded. */
export const SECOND_REFERENCE = 'SAF-42-20260315-0002';
/**
 * The policy, and a second payment for it that will be refunded ("you paid twice"): $122.10, the
 * price before a coupon, so the page is seen to show the refund's amount, not the order's.
 */
export const PAID_TWICE = statusSample({
  ...PAID,
  refund: { merchant_reference: SECOND_REFERENCE, amount: 12_210, currency: 'USD' },
});
/** The gateway took $122.10 for an order voided meanwhile: no policy, refunded in full. */
export const REFUNDED = statusSample({
  status: 'failed',
  reason: 'refund',
  refund: { merchant_reference: RESULT_REFERENCE, amount: 12_210, currency: 'USD' },
});

function failure(status: number | null, kind: string, data: ErrorEnvelope['data'] = {}): ServiceFailure {
  return { kind, status, body: status === null ? null : { status, message: 'refused', data } };
}

/** What the web's ApiError looks like for each failure the step tells apart. */
export const RESULT_FAILURES = {
  network: failure(null, 'network'),
  server: failure(500, 'server'),
  notFound: failure(404, 'rejected', { errors: { merchant_reference: 'not_found' } }),
} as const satisfies Record<string, ServiceFailure>;

/** The poll's delayed event (PAYMENT_POLL_MS) as the model sends it; a clock tick on a live actor. */
export const POLL_EVENT = `xstate.after.${PAYMENT_POLL_MS}.paymentResult.pending.waiting`;

export type PaymentResultModelEvent = PaymentResultEvent | ActorOutcomeEvent | { type: typeof POLL_EVENT };

/**
 * The call outcomes and user events the model explores: every answer payment-status can give
 * (each state of the order, not found, a failed read), the poll's tick, and every button.
 */
export const paymentResultModelEvents: readonly PaymentResultModelEvent[] = [
  { type: 'xstate.done.actor.loadStatus', output: PAID },
  { type: 'xstate.done.actor.loadStatus', output: DECLINED },
  { type: 'xstate.done.actor.loadStatus', output: CANCELLED },
  { type: 'xstate.done.actor.loadStatus', output: CHANGED },
  { type: 'xstate.done.actor.loadStatus', output: REFUNDED },
  { type: 'xstate.done.actor.loadStatus', output: PAID_TWICE },
  { type: 'xstate.done.actor.loadStatus', output: PENDING },
  { type: 'xstate.error.actor.loadStatus', error: RESULT_FAILURES.notFound },
  { type: 'xstate.error.actor.loadStatus', error: RESULT_FAILURES.network },
  { type: POLL_EVENT },
  { type: 'result.retry' },
  { type: 'result.refresh' },
  { type: 'result.newQuote' },
];

/**
 * Scripted visits the shortest and simple paths would not all take: the answer arriving on the
 * third poll, the last poll unanswered (the page says it is late, Refresh finds it paid), a
 * failed read while polling, and a reload of a paid result.
 */
export function paymentResultModelJourneys(): PaymentResultModelEvent[][] {
  const poll = (output: PaymentStatusData): PaymentResultModelEvent[] => [{ type: POLL_EVENT }, { type: 'xstate.done.actor.loadStatus', output }];
  return [
    [{ type: 'xstate.done.actor.loadStatus', output: PENDING }, ...poll(PENDING), ...poll(PENDING), ...poll(PAID), { type: 'result.newQuote' }],
    [
      { type: 'xstate.done.actor.loadStatus', output: PENDING },
      ...Array.from({ length: 10 }, () => poll(PENDING)).flat(),
      { type: 'result.refresh' },
      { type: 'xstate.done.actor.loadStatus', output: PAID },
    ],
    [
      { type: 'xstate.done.actor.loadStatus', output: PENDING },
      { type: POLL_EVENT },
      { type: 'xstate.error.actor.loadStatus', error: RESULT_FAILURES.network },
      ...poll(DECLINED),
      { type: 'result.retry' },
    ],
  ];
}

/**
 * The payment result model (issue 20), shared by the run of its paths on a live actor
 * (payment-result.model.test.ts) and on the rendered screen
 * (tests/model/payment-result-screen.model.test.tsx).
 */
export type PaymentResultModelSnapshot = SnapshotFrom<typeof paymentResultMachine>;
export type PaymentResultModelPath = TestPath<PaymentResultModelSnapshot, PaymentResultModelEvent>;

export const serializePaymentResultModelState = (snapshot: PaymentResultModelSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });

/**
 * While polling, a failed read leads where a pending answer does (the next wait), so with both
 * explored every one of the ten polls doubles the paths to what follows (2^10); and a cancelled,
 * changed or refunded payment reads like a declined one, a paid-twice one like a paid one. All are
 * explored on the first read, and a failed read while polling runs in a scripted journey.
 */
const FIRST_READ_ONLY = new Set<unknown>([CANCELLED, CHANGED, REFUNDED, PAID_TWICE]);

function isExplored(state: PaymentResultModelSnapshot, event: PaymentResultModelEvent): boolean {
  if (state.matches('loading')) return true;
  if ('error' in event) return event.error !== RESULT_FAILURES.network;
  if ('output' in event) return !FIRST_READ_ONLY.has(event.output);
  return true;
}

export function createPaymentResultTestModel(input: PaymentResultInput) {
  return new TestModel<PaymentResultModelSnapshot, PaymentResultModelEvent, PaymentResultInput>(paymentResultMachine as never, {
    input,
    serializeState: serializePaymentResultModelState,
    stateMatcher: (state, key) => state.matches(key as never),
    events: (state) => paymentResultModelEvents.filter((event) => state.can(event as never) && isExplored(state, event)),
  });
}

const RESULT_FAILURE_NAMES = new Map<unknown, string>(Object.entries(RESULT_FAILURES).map(([name, failure]) => [failure, name]));

function describePaymentResultEvent(event: PaymentResultModelEvent | { type: 'xstate.init' }): string {
  if (event.type === POLL_EVENT) return '2s';
  if ('error' in event) return `loadStatus✗${RESULT_FAILURE_NAMES.get(event.error) ?? 'error'}`;
  if ('output' in event) {
    const output = event.output as PaymentStatusData;
    return `loadStatus✓${output.status}${output.reason ? `(${output.reason})` : ''}${output.refund ? '+refund' : ''}`;
  }
  return event.type;
}

/** A path's label in its test's name. */
export function paymentResultPathLabel(path: PaymentResultModelPath): string {
  const events = path.steps.map(({ event }) => event).filter((event) => !(event.type as string).startsWith('xstate.init'));
  return `${JSON.stringify(path.state.value)} ⇐ ${events.map(describePaymentResultEvent).join(' → ') || '(start)'}`;
}
