import type { SnapshotFrom } from 'xstate';
import type { PaymentRefund, PaymentStatusData } from '../../src/contract/payment.endpoints';
import type { JourneyEvent } from '../journey.types';
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

/**
 * The payment the page says will be refunded: beside the policy, the customer's second payment
 * for it ("you paid twice"); after a failure with reason `refund`, the payment taken for a voided
 * order (this attempt itself when the server names none). Null otherwise: a refund of another
 * attempt is not what a declined, cancelled or changed payment's page is about.
 */
export function selectRefund(snapshot: PaymentResultSnapshot): PaymentRefund | null {
  const payment = snapshot.context.payment;
  if (!payment) return null;
  if (snapshot.matches('paid')) return payment.refund;
  if (snapshot.matches('failed') && payment.reason === 'refund') {
    return payment.refund ?? { merchant_reference: payment.merchant_reference, amount: payment.amount, currency: payment.currency };
  }
  return null;
}

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
