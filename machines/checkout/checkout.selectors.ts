import type { SnapshotFrom } from 'xstate';
import type { CheckoutTotals, CouponCode } from '../../src/contract/checkout.endpoints';
import type { LeadDetails } from '../../src/contract/lead.endpoints';
import type { checkoutMachine } from './checkout.machine';
import type { CheckoutContext, CheckoutNotice, CheckoutOutput } from './checkout.types';
import type { JourneyEvent } from '../journey.types';

export type CheckoutSnapshot = SnapshotFrom<typeof checkoutMachine>;

/** What the page shows: the wait message, checkout, the error view, or nothing (the journey moves on). */
export type CheckoutViewState = 'loading' | 'ready' | 'failed' | 'done';

export function selectViewState(snapshot: CheckoutSnapshot): CheckoutViewState {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('ready')) return 'ready';
  if (snapshot.matches('failed')) return 'failed';
  return 'loading';
}

export const selectInvoice = (snapshot: CheckoutSnapshot): CheckoutContext['invoice'] => snapshot.context.invoice;
export const selectLead = (snapshot: CheckoutSnapshot): CheckoutContext['lead'] => snapshot.context.lead;
export const selectCustomer = (snapshot: CheckoutSnapshot): CheckoutContext['customer'] => snapshot.context.customer;

const NO_TRAVELLERS: LeadDetails['travellers_info'] = [];
/** The lead's travellers, read-only (spec §2). */
export const selectTravellers = (snapshot: CheckoutSnapshot): LeadDetails['travellers_info'] => snapshot.context.lead?.travellers_info ?? NO_TRAVELLERS;

/** The price summary: the server's totals, with the applied coupon's discount when there is one. */
export const selectTotals = (snapshot: CheckoutSnapshot): CheckoutTotals | null => snapshot.context.totals;

/** The server's total is 0 (a 100 % coupon): no payments page follows, the policy is issued at once (RULINGS 18). */
export const selectNothingToPay = (snapshot: CheckoutSnapshot): boolean => snapshot.context.totals?.total === 0;

/** The coupon box as it shows. */
export interface CouponView {
  /** What is in the box (whitespace stripped). */
  text: string;
  /** The applied coupon's code (as the server stores it), or null: "Coupon applied" and Remove. */
  applied: string | null;
  /** Why the last coupon was refused, or null. */
  error: CouponCode | null;
  /** The server's message for that refusal, shown in red under the box (spec §8). */
  message: string | null;
  /** The server is checking the code: the Apply button's loader. */
  applying: boolean;
}

export function selectCoupon(snapshot: CheckoutSnapshot): CouponView {
  const { context } = snapshot;
  return {
    text: context.couponText,
    applied: context.coupon?.code ?? null,
    error: context.couponError,
    message: context.couponMessage,
    applying: snapshot.hasTag('applying'),
  };
}

export const selectTermsAgreed = (snapshot: CheckoutSnapshot): boolean => snapshot.context.termsAgreed;
/** Proceed is enabled: a customer, terms agreed, no coupon being checked, no payment under way (spec §5). */
export const selectCanPay = (snapshot: CheckoutSnapshot): boolean => snapshot.can({ type: 'checkout.pay' });
/** The payment call runs, or its loader stays the 2.5 s after it (spec §4). */
export const selectPaying = (snapshot: CheckoutSnapshot): boolean => snapshot.hasTag('paying');

export const selectNotice = (snapshot: CheckoutSnapshot): CheckoutNotice | null => snapshot.context.notice;
/** The payment call failed for a reason the page cannot fix: the system error dialog. */
export const selectPayFailed = (snapshot: CheckoutSnapshot): boolean => snapshot.context.payFailed;
/** A coupon check failed for a reason that says nothing about the coupon: the system error dialog. */
export const selectCouponFailed = (snapshot: CheckoutSnapshot): boolean => snapshot.context.couponFailed;

/** Agent mode (spec §6): no terms, no pay, the share buttons. */
export const selectIsAgent = (snapshot: CheckoutSnapshot): boolean => snapshot.context.agentId !== null;
export const selectWhatsappTemplate = (snapshot: CheckoutSnapshot): string => snapshot.context.whatsappTemplate;
export const selectSharing = (snapshot: CheckoutSnapshot): boolean => snapshot.matches({ ready: { share: 'sending' } });
export const selectEmailSent = (snapshot: CheckoutSnapshot): boolean => snapshot.context.emailSent;

/** How the step ended, once it has; checkoutOutcomeEvent tells the journey. */
export const selectOutcome = (snapshot: CheckoutSnapshot): CheckoutOutput | null => (snapshot.status === 'done' ? (snapshot.output ?? null) : null);

/**
 * The journey event that follows the checkout's output; the journey hook applies it, so no
 * screen decides where the journey goes.
 */
export function checkoutOutcomeEvent(output: CheckoutOutput): JourneyEvent {
  switch (output.type) {
    case 'paidInFull':
      return { type: 'checkout.paidInFull' };
    case 'planMissing':
      return { type: 'checkout.planMissing' };
    case 'reviewMissing':
      return { type: 'checkout.reviewMissing' };
    case 'finished':
      return { type: 'journey.reset' };
  }
}
