import type { InferOutput } from 'valibot';
import type { CheckoutTotals, CouponCode, couponValidateEndpoint, tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import type { Language } from '../../src/contract/endpoint';
import type { Invoice } from '../../src/contract/invoice.schema';
import type { LeadDetails } from '../../src/contract/lead.endpoints';
import type { PersonalDetails } from '../review/review.types';
import type { LoadFailure } from '../service-failure';
import type { ServiceFailure } from '../travel-details/travel-details.types';

export type { ServiceFailure };

/** How long the checkout loader stays after the payment call (spec §9: 2.5 s). */
export const CHECKOUT_LOADER_MS = 2500;

export interface CheckoutInput {
  lang: Language;
  /** The journey's lead; without one nothing is loaded (the journey sends the user to travel details). */
  uuid: string | null;
  sessionId: string | null;
  /** The agent's id (agent mode: no terms, no pay, share buttons), or null for a customer. */
  agentId: number | null;
  /** This page's address as the agent shares it, or null. */
  link: string | null;
  /** A thank-you flag is stored (spec §4): the journey is over, travel details starts a new one. */
  thankYou: boolean;
  /** The coupon stored by an earlier successful apply (spec §3 `coupon`), applied again at load. */
  storedCoupon: string | null;
}

/** What loadCheckout brings: get-personal-details, and the agent's WhatsApp text for this page. */
export interface CheckoutData {
  details: PersonalDetails;
  whatsappTemplate: string;
}

/** coupon/validate's answer, as the machine reads it. */
export type CouponResult = InferOutput<(typeof couponValidateEndpoint)['data']>;
/**
 * What the coupon check brings: coupon/validate's answer and, in agent mode, the WhatsApp text
 * for the link with that coupon (issue 17), so the customer opens the total the agent sees.
 */
export type CouponCheck = CouponResult & { whatsappTemplate?: string };
/** temp-checkout's answer. */
export type TempCheckoutResult = InferOutput<(typeof tempCheckoutEndpoint)['data']>;

/** Why the page cannot show checkout: the lead could not be read. */
export type CheckoutFailure = LoadFailure;

/**
 * A notice above the price summary: the server's figures changed since the page showed them
 * (temp-checkout answered 409 with fresh ones, now shown), or too many coupon attempts (429).
 */
export type CheckoutNotice = 'totals_changed' | 'coupon_rate_limited';

/**
 * Tags across the checkout's states, read by the selectors instead of state paths: `busy` while
 * the lead loads, a coupon is checked or the payment call runs (and its loader stays);
 * `applying` while a coupon is checked; `paying` while the payment call runs and for the 2.5 s
 * the loader stays after it (spec §4, §9).
 */
export type CheckoutTag = 'busy' | 'applying' | 'paying';

export interface CheckoutContext extends CheckoutInput {
  lead: LeadDetails | null;
  invoice: Invoice | null;
  customer: PersonalDetails['get_customer'] | null;
  /** The agent's WhatsApp text for the page as it is shown: with the applied coupon's link. */
  whatsappTemplate: string;
  /** The WhatsApp text without a coupon, to go back to when the coupon is removed or refused. */
  baseWhatsappTemplate: string;
  /** The totals shown: the plan's without a coupon, or the applied coupon's (always the server's). */
  totals: CheckoutTotals | null;
  /** The plan's totals without a coupon, to go back to on Remove. */
  baseTotals: CheckoutTotals | null;
  /** What is in the coupon box (whitespace already stripped). */
  couponText: string;
  /** The applied coupon, or null. */
  coupon: CouponResult | null;
  /** Why the last apply (or the payment call) refused the coupon; null when it was not refused. */
  couponError: CouponCode | null;
  /** The server's message of the last refusal, shown in red under the box (spec §8). */
  couponMessage: string | null;
  /**
   * The last coupon check failed for a reason that says nothing about the coupon (network,
   * server error): the system error dialog. The box keeps the code, so Apply tries again.
   */
  couponFailed: boolean;
  /** Terms agreed (spec §5: checked by default). */
  termsAgreed: boolean;
  notice: CheckoutNotice | null;
  /** The payment call failed for a reason the page cannot fix: the system error dialog. */
  payFailed: boolean;
  failure: CheckoutFailure | null;
  emailSent: boolean;
  outcome: CheckoutOutput | null;
}

export type CheckoutEvent =
  /** Typing in the coupon box; the machine keeps it without whitespace (spec §5). */
  | { type: 'coupon.change'; text: string }
  | { type: 'coupon.apply' }
  | { type: 'coupon.remove' }
  | { type: 'terms.toggle'; agreed: boolean }
  /** Proceed: temp-checkout, then the payments page or /thank-you-p. */
  | { type: 'checkout.pay' }
  | { type: 'notice.dismiss' }
  | { type: 'payFailed.dismiss' }
  /** Agent mode: e-mail this page to the customer. */
  | { type: 'share.email' };

export type CheckoutEventType = CheckoutEvent['type'];

/** How checkout ended; checkoutOutcomeEvent maps it to the journey's event. */
export type CheckoutOutput =
  /** Nothing left to pay (100 % coupon): the order is paid, /thank-you-p shows. */
  | { type: 'paidInFull' }
  /** No plan is chosen for this lead (any more): back to its quotes. */
  | { type: 'planMissing' }
  /** Not every traveller is reviewed yet: back to review details. */
  | { type: 'reviewMissing' }
  /** A thank-you flag is stored, or the lead is already in a deal: travel details starts anew. */
  | { type: 'finished' };

export interface LoadCheckoutInput {
  uuid: string;
  sessionId: string | null;
  lang: Language;
  link: string | null;
}

export interface ValidateCouponInput {
  uuid: string;
  code: string;
  lang: Language;
  /** Agent mode: the page's link with this coupon, for the WhatsApp text; null for a customer. */
  link: string | null;
}

export interface TempCheckoutInput {
  uuid: string;
  sessionId: string | null;
  agentId: number | null;
  lang: Language;
  coupon: string | null;
  /** The total the page shows, cents. */
  total: number;
}

export interface CheckoutSendEmailInput {
  uuid: string;
  lang: Language;
  agentId: number;
  link: string;
  pagename: 'checkout';
}
