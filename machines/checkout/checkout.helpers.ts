import { COUPON_CODE_MAX_LENGTH, checkoutTotalsSchema, isCouponCode, type CheckoutTotals, type CouponCode } from '../../src/contract/checkout.endpoints';
import type {
  CheckoutContext,
  CheckoutData,
  CheckoutInput,
  CouponCheck,
  TempCheckoutInput,
  ValidateCouponInput,
} from './checkout.types';
import { asFailure, errorsOf } from '../service-failure';

/**
 * Pure helpers of the checkout step machine (checkout.machine.ts): what a loaded lead becomes in
 * the machine's context, what the calls send, and how a refused call reads. No I/O here; the
 * machine calls these from its assigns, guards and inputs.
 */

/**
 * The coupon box as typed (spec §5): all whitespace stripped, the case kept as typed (the server
 * compares without case), at most as long as a coupon code can be, so what is sent is never
 * refused for its length.
 */
export function couponBoxText(text: string): string {
  // Stryker disable next-line Regex: /\s/g removes the same characters
  return text.replace(/\s+/g, '').slice(0, COUPON_CODE_MAX_LENGTH);
}

export function initialContext(input: CheckoutInput): CheckoutContext {
  return {
    ...input,
    lead: null,
    invoice: null,
    customer: null,
    whatsappTemplate: '',
    baseWhatsappTemplate: '',
    totals: null,
    baseTotals: null,
    couponText: '',
    coupon: null,
    couponError: null,
    couponMessage: null,
    couponFailed: false,
    termsAgreed: true,
    notice: null,
    payFailed: false,
    failure: null,
    emailSent: false,
    outcome: null,
  };
}

/** The order is paid already (get-personal-details' isLeadAlreadyInDeal): it cannot be bought again. */
export const isInDeal = (data: CheckoutData): boolean => data.details.isLeadAlreadyInDeal;
/** No plan is chosen for the lead (any more). */
export const hasNoPlan = (data: CheckoutData): boolean => data.details.get_invoice === null;
/** A traveller is not saved at review yet (the server's is_field). */
export const isReviewIncomplete = (data: CheckoutData): boolean => data.details.lead_details.travellers_info.some((traveller) => !traveller.is_field);
/**
 * A read the page cannot show: every lead has a traveller, and a chosen plan always comes with
 * its totals (the contract says both are null together).
 */
export const isBrokenRead = (data: CheckoutData): boolean =>
  data.details.lead_details.travellers_info.length === 0 || data.details.checkout_totals === null;

/** The context once get-personal-details answered a lead ready to pay. */
export function loadedCheckout(data: CheckoutData, storedCoupon: string | null): Partial<CheckoutContext> {
  const totals = data.details.checkout_totals;
  return {
    lead: data.details.lead_details,
    invoice: data.details.get_invoice,
    customer: data.details.get_customer,
    whatsappTemplate: data.whatsappTemplate,
    baseWhatsappTemplate: data.whatsappTemplate,
    totals,
    baseTotals: totals,
    couponText: couponBoxText(storedCoupon ?? ''),
  };
}

/** A coupon was stored by an earlier successful apply (spec §3 `coupon`): it is applied again at load. */
export const hasStoredCoupon = (context: CheckoutContext): boolean => couponBoxText(context.storedCoupon ?? '') !== '';

export function validateCouponInput(context: CheckoutContext): ValidateCouponInput {
  return { uuid: context.uuid!, code: context.couponText, lang: context.lang, link: context.link === null ? null : linkWithCoupon(context.link, context.couponText) };
}

/**
 * The page's link as the agent shares it, with `code` as its `coupon` (issue 17): the customer's
 * checkout applies it as if typed. Without a code, the link as it is.
 */
export function linkWithCoupon(link: string, code: string | null): string {
  if (!code) return link;
  const url = new URL(link);
  url.searchParams.set('coupon', code);
  return url.href;
}

/** The link the agent shares from checkout: with the applied coupon, so the customer sees the same total. */
export function sharedCheckoutLink(context: Pick<CheckoutContext, 'link' | 'coupon'>): string {
  return linkWithCoupon(context.link!, context.coupon?.code ?? null);
}

/** A coupon the server accepted: its totals, and in agent mode the WhatsApp text for its link. */
export function withAppliedCoupon(context: CheckoutContext, check: CouponCheck): Partial<CheckoutContext> {
  const { whatsappTemplate, ...coupon } = check;
  return { coupon, totals: coupon.totals, whatsappTemplate: whatsappTemplate ?? context.whatsappTemplate };
}

/** temp-checkout's input: the applied coupon and the total the page shows (the server compares it with its own). */
export function tempCheckoutInput(context: CheckoutContext): TempCheckoutInput {
  return {
    uuid: context.uuid!,
    sessionId: context.sessionId,
    agentId: context.agentId,
    lang: context.lang,
    coupon: context.coupon?.code ?? null,
    total: context.totals!.total,
  };
}

/** Too many attempts (429): coupon attempts are rate-limited per lead and per address. */
export const isRateLimited = (error: unknown): boolean => asFailure(error)?.status === 429;

/**
 * A 409 of temp-checkout naming `code` under any field (the server names the lead: `uuid:
 * lead_in_deal`, `uuid: plan_not_chosen`, `uuid: review_incomplete`).
 */
export function isConflict(error: unknown, code: 'lead_in_deal' | 'plan_not_chosen' | 'review_incomplete'): boolean {
  return Object.values(errorsOf(error, 409) ?? {}).includes(code);
}

/** A coupon the server refused: the code the page knows it by, and the server's message shown under the box. */
export interface CouponRefusal {
  code: CouponCode;
  message: string | null;
}

/**
 * A 422 naming the coupon (`errors.promo_code`), from coupon/validate or temp-checkout: the
 * coupon is refused, and the box shows the server's message. A code the page has no message of
 * (say a malformed code refused by the schema) reads as an unknown coupon: either way no coupon
 * of that name can be applied.
 */
export function couponRefusal(error: unknown): CouponRefusal | null {
  const code = errorsOf(error, 422)?.promo_code;
  if (code === undefined) return null;
  // Stryker disable next-line OptionalChaining: errorsOf found a 422 body, so the failure and its body are there
  const message = asFailure(error)?.body?.message;
  return { code: isCouponCode(code) ? code : 'coupon_unknown', message: message ? message : null };
}

const TOTALS_KEYS = Object.keys(checkoutTotalsSchema.entries) as (keyof CheckoutTotals)[];

/**
 * Totals from an error body, read defensively (the error envelope's data is not the endpoint's
 * schema): every line a finite number, the amounts whole non-negative cents; otherwise null.
 */
export function parseTotals(value: unknown): CheckoutTotals | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const valid = TOTALS_KEYS.every((key) => {
    const figure = record[key];
    if (typeof figure !== 'number' || !Number.isFinite(figure) || figure < 0) return false;
    return key === 'vat_percent' || Number.isInteger(figure);
  });
  return valid ? (Object.fromEntries(TOTALS_KEYS.map((key) => [key, record[key]])) as unknown as CheckoutTotals) : null;
}

/**
 * temp-checkout's 409 `total_price_vat: totals_changed`: the server's figures differ from the
 * page's (prices or the coupon changed meanwhile). Its fresh totals, or null when this is not
 * that refusal or its totals cannot be read (then the payment simply failed).
 */
export function changedTotals(error: unknown): CheckoutTotals | null {
  if (errorsOf(error, 409)?.total_price_vat !== 'totals_changed') return null;
  // Stryker disable next-line OptionalChaining: errorsOf found a 409 body, so the failure and its body are there
  return parseTotals(asFailure(error)?.body?.data.totals);
}

/**
 * The context once the server answered fresh totals. Without a coupon they are also the plan's
 * own (what Remove goes back to); with one, the plan's own are unknown until the next load, and
 * temp-checkout refuses (with fresh ones again) whatever stale figure the page would send.
 */
export function withChangedTotals(context: CheckoutContext, totals: CheckoutTotals): Partial<CheckoutContext> {
  return context.coupon === null ? { totals, baseTotals: totals, notice: 'totals_changed' } : { totals, notice: 'totals_changed' };
}

/** The context once the server refused the coupon: none applied, the plan's totals, the reason shown. */
export function withRefusedCoupon(context: CheckoutContext, refusal: CouponRefusal): Partial<CheckoutContext> {
  return {
    coupon: null,
    totals: context.baseTotals,
    whatsappTemplate: context.baseWhatsappTemplate,
    couponError: refusal.code,
    couponMessage: refusal.message,
  };
}
