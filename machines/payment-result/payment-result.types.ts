import type { Language } from '../../src/contract/endpoint';
import type { PaymentStatusData } from '../../src/contract/payment.endpoints';
import type { ServiceFailure } from '../travel-details/travel-details.types';

export type { ServiceFailure };
export type { PaymentStatusData };

/** How often /payment-result asks again while the gateway's answer has not arrived (issue 11). */
export const PAYMENT_POLL_MS = 2000;
/** How many times it asks again (about 20 s) before it says the answer is late. */
export const PAYMENT_POLL_LIMIT = 10;

export interface PaymentResultInput {
  lang: Language;
  /** The lead of the return address (`uuid`); without one there is nothing to look up. */
  uuid: string | null;
  /** The attempt the gateway answered (`ref`); without one the lead's paid, else latest, order. */
  reference: string | null;
}

export interface LoadPaymentStatusInput {
  uuid: string;
  reference: string | null;
  lang: Language;
}

/**
 * Tags across the states, read by the selectors: `busy` while the page has nothing to show yet
 * (the first read), `waiting` while the gateway's answer is awaited (polling).
 */
export type PaymentResultTag = 'busy' | 'waiting';

export interface PaymentResultContext extends PaymentResultInput {
  /** The order as payment-status last answered it. */
  payment: PaymentStatusData | null;
  /** Reads made while the order was pending, up to PAYMENT_POLL_LIMIT. */
  polls: number;
  outcome: PaymentResultOutput | null;
}

export type PaymentResultEvent =
  /** "Try again" after a failed payment: back to checkout, which makes a new attempt. */
  | { type: 'result.retry' }
  /** Refresh: read the order again (after a failed read, or when the answer was late). */
  | { type: 'result.refresh' }
  /** "Start a new quote". */
  | { type: 'result.newQuote' };

export type PaymentResultEventType = PaymentResultEvent['type'];

/** How the step ended; paymentResultOutcomeEvent maps it to the journey's event. */
export type PaymentResultOutput =
  /** The payment failed and the customer tries again: checkout, a new merchant reference. */
  | { type: 'retry' }
  /** The customer starts a new quote at travel details. */
  | { type: 'newQuote' };
