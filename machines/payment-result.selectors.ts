import type { SnapshotFrom } from 'xstate';
import type { PaymentStatusData } from '../src/contract/payment.endpoints';
import type { JourneyEvent } from './journey.types';
import type { paymentResultMachine } from './payment-result.machine';
import type { PaymentResultOutput } from './payment-result.types';

export type PaymentResultSnapshot = SnapshotFrom<typeof paymentResultMachine>;

/**
 * What the page shows: the wait message (`loading`, and `pending` while the gateway's answer is
 * awaited), the policy, the failure, "the answer is late", no such payment, the error view, or
 * nothing (the journey moves on).
 */
export type PaymentResultView = 'loading' | 'pending' | 'paid' | 'failed' | 'unconfirmed' | 'notFound' | 'error' | 'done';

const VIEWS = ['paid', 'failed', 'unconfirmed', 'notFound', 'error'] as const;

export function selectPaymentResultView(snapshot: PaymentResultSnapshot): PaymentResultView {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.hasTag('waiting')) return 'pending';
  return VIEWS.find((view) => snapshot.matches(view)) ?? 'loading';
}

/** The order as payment-status last answered it (amount, reason, policy), or null before the first answer. */
export const selectPayment = (snapshot: PaymentResultSnapshot): PaymentStatusData | null => snapshot.context.payment;

/** "Try again" is offered: the payment failed. */
export const selectCanRetry = (snapshot: PaymentResultSnapshot): boolean => snapshot.can({ type: 'result.retry' });

/** Refresh is offered: the read failed, or the gateway's answer was late. */
export const selectCanRefresh = (snapshot: PaymentResultSnapshot): boolean => snapshot.can({ type: 'result.refresh' });

/** How the step ended, once it has; paymentResultOutcomeEvent tells the journey. */
export const selectPaymentResultOutcome = (snapshot: PaymentResultSnapshot): PaymentResultOutput | null =>
  snapshot.status === 'done' ? (snapshot.output ?? null) : null;

/**
 * The journey event that follows the step's output; the journey hook applies it, so no screen
 * decides where the journey goes.
 */
export function paymentResultOutcomeEvent(output: PaymentResultOutput): JourneyEvent {
  switch (output.type) {
    case 'retry':
      return { type: 'payment.retry' };
    case 'newQuote':
      return { type: 'journey.reset' };
  }
}
