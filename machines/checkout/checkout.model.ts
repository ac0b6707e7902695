import { DISCOUNT_TYPE, type CheckoutTotals } from '../../src/contract/checkout.endpoints';
import type { ErrorEnvelope } from '../../src/contract/envelope';
import type { Invoice } from '../../src/contract/invoice.schema';
import { CHECKOUT_LOADER_MS, type CheckoutContext, type CheckoutData, type CheckoutEvent, type CheckoutInput, type CouponResult, type ServiceFailure, type TempCheckoutResult } from './checkout.types';
import { shareModelEvents, type ShareModelEvent } from '../agent-share.model';
import type { ActorOutcomeEvent } from '../quotes/quotes.model';
import type { SnapshotFrom } from 'xstate';
import { TestModel, type TestPath } from 'xstate/graph';
import { checkoutMachine } from './checkout.machine';
import { REVIEW_LEAD_UUID, REVIEW_SESSION_UUID, invoiceTotals, reviewData, sampleInvoice } from '../review/review.model';

/**
 * Samples of the checkout step, shared by its unit tests, its model test (checkout.model.test.ts)
 * and the screens' tests: the review's provider-3 family with every traveller reviewed, as
 * get-personal-details answers it, a plan without add-ons or stamp fee for the 100 % coupon, what
 * coupon/validate and temp-checkout can answer, and the user's events. Every figure is worked out
 * by hand (RULINGS 17–18: a percentage coupon discounts the plan premium; VAT on the discounted
 * amount; the stamp fee on top).
 */

export const CHECKOUT_LEAD_UUID = REVIEW_LEAD_UUID;
export const CHECKOUT_SESSION_UUID = REVIEW_SESSION_UUID;
export const CHECKOUT_LINK = `https://safar.example/checkout?uuid=${CHECKOUT_LEAD_UUID}`;
export const MERCHANT_REFERENCE = 'SAF-70-20300101-0001';
export const PAYMENT_URL = `/pay/${MERCHANT_REFERENCE}`;

/** The payment loader's delayed event (CHECKOUT_LOADER_MS) as the model sends it; a clock tick on a live actor. */
export const LOADER_EVENT = `xstate.after.${CHECKOUT_LOADER_MS}.checkout.ready.payment.leaving`;

export function checkoutInput(overrides: Partial<CheckoutInput> = {}): CheckoutInput {
  return {
    lang: 'en',
    uuid: CHECKOUT_LEAD_UUID,
    sessionId: CHECKOUT_SESSION_UUID,
    agentId: null,
    link: null,
    thankYou: false,
    storedCoupon: null,
    ...overrides,
  };
}

/** Provider 3, $90 plan + $12 add-on, VAT 11 % on $102 = $11.22, stamp fee $3: $116.22 (the review's invoice). */
export const PLAN_INVOICE: Invoice = sampleInvoice();
/** Provider 7, $90 plan, no add-ons, VAT 11 % = $9.90, no stamp fee: $99.90. */
export const FREE_PLAN_INVOICE: Invoice = sampleInvoice({
  insurance_provider_id: 7,
  get_provider_detail: { id: 7, name: 'Insurer 7', image: 'insurer-7.svg' },
  policy_addons: [],
  total_price_without_vat: 9000,
  vat_amount: 990,
  stamp_fee: 0,
  total_price_vat: 9990,
});

export const PLAN_TOTALS: CheckoutTotals = invoiceTotals(PLAN_INVOICE);
export const FREE_PLAN_TOTALS: CheckoutTotals = invoiceTotals(FREE_PLAN_INVOICE);

export interface CheckoutDataOptions {
  invoice?: Invoice | null;
  /** Travellers reviewed (is_field); every one by default. */
  saved?: number[];
  inDeal?: boolean;
}

/** get-personal-details for the family of three, every traveller reviewed, and the agent's WhatsApp text. */
export function checkoutData({ invoice = PLAN_INVOICE, saved = [0, 1, 2], inDeal = false }: CheckoutDataOptions = {}): CheckoutData {
  const { details } = reviewData({ count: 3, saved, invoice, inDeal });
  return { details, whatsappTemplate: `Your travel insurance checkout: ${CHECKOUT_LINK}` };
}

/** SAVE10, 10 % of the $90 plan = $9: $90 + $12 − $9 = $93, VAT 11 % = $10.23, stamp fee $3: $106.23. */
export const SAVE10: CouponResult = {
  code: 'SAVE10',
  discount_amount: 900,
  discount_type_id: DISCOUNT_TYPE.percentage,
  discount_value: 10,
  totals: { plan_price: 9000, addons_price: 1200, discount: 900, subtotal: 9300, vat_percent: 11, vat_amount: 1023, stamp_fee: 300, total: 10623 },
};

/** FREE100 on the plan without add-ons: the whole $90 premium; nothing is left to pay. */
export const FREE100: CouponResult = {
  code: 'FREE100',
  discount_amount: 9000,
  discount_type_id: DISCOUNT_TYPE.percentage,
  discount_value: 100,
  totals: { plan_price: 9000, addons_price: 0, discount: 9000, subtotal: 0, vat_percent: 11, vat_amount: 0, stamp_fee: 0, total: 0 },
};

/** The plan's price went up to $95 meanwhile: $95 + $12 = $107, VAT 11 % = $11.77, stamp fee $3: $121.77. */
export const FRESH_TOTALS: CheckoutTotals = { plan_price: 9500, addons_price: 1200, discount: 0, subtotal: 10700, vat_percent: 11, vat_amount: 1177, stamp_fee: 300, total: 12177 };

/** temp-checkout's answer for a payable order: the payments page of this attempt. */
export const PAYABLE_RESULT: TempCheckoutResult = { redirect_to_thank_you: false, merchant_reference: MERCHANT_REFERENCE, payment_url: PAYMENT_URL, totals: PLAN_TOTALS };
/** temp-checkout's answer when nothing is left to pay: the order is paid. */
export const PAID_RESULT: TempCheckoutResult = { redirect_to_thank_you: true, merchant_reference: MERCHANT_REFERENCE, payment_url: null, totals: FREE100.totals };

export const EXPIRED_MESSAGE = 'This coupon has expired.';
export const USED_UP_MESSAGE = 'This coupon has been used up.';

function failure(status: number | null, kind: string, data: ErrorEnvelope['data'] = {}, message = 'refused'): ServiceFailure {
  return { kind, status, body: status === null ? null : { status, message, data } };
}

/** What the web's ApiError looks like for each failure the step tells apart. */
export const CHECKOUT_FAILURES = {
  network: failure(null, 'network'),
  server: failure(500, 'server'),
  couponExpired: failure(422, 'invalid', { errors: { promo_code: 'coupon_expired' } }, EXPIRED_MESSAGE),
  couponUsedUp: failure(422, 'invalid', { errors: { promo_code: 'coupon_used_up' } }, USED_UP_MESSAGE),
  /** A code the schema refused: no coupon has that name. */
  couponMalformed: failure(422, 'invalid', { errors: { promo_code: 'too_long' } }, 'The coupon code is too long.'),
  /** A 422 that is not about the coupon. */
  invalidLead: failure(422, 'invalid', { errors: { uuid: 'invalid_value' } }),
  rateLimited: failure(429, 'rate_limited', { errors: { request: 'rate_limited' } }, 'Too many attempts.'),
  totalsChanged: failure(409, 'rejected', { errors: { total_price_vat: 'totals_changed' }, totals: FRESH_TOTALS }),
  /** Fresh totals the page cannot read: the payment failed. */
  totalsChangedUnreadable: failure(409, 'rejected', { errors: { total_price_vat: 'totals_changed' }, totals: { total: '121.77' } }),
  leadInDeal: failure(409, 'rejected', { errors: { uuid: 'lead_in_deal' } }),
  planNotChosen: failure(409, 'rejected', { errors: { uuid: 'plan_not_chosen' } }),
  reviewIncomplete: failure(409, 'rejected', { errors: { uuid: 'review_incomplete' } }),
} as const satisfies Record<string, ServiceFailure>;

export type CheckoutModelEvent = CheckoutEvent | ActorOutcomeEvent | { type: typeof LOADER_EVENT } | ShareModelEvent;

/** The parts of the step the model explores, one at a time: every part multiplies the others' states. */
export type CheckoutModelPart = 'loading' | 'coupon' | 'payment' | 'paidInFull' | 'share';

/**
 * The call outcomes and user events the model explores for one part of the step. The agent's
 * share is a part of its own, beside the loaded page: with the other parts it would double
 * every state.
 */
export function checkoutModelEvents(part: CheckoutModelPart): readonly CheckoutModelEvent[] {
  switch (part) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadCheckout', output: checkoutData() },
        { type: 'xstate.done.actor.loadCheckout', output: checkoutData({ inDeal: true }) },
        { type: 'xstate.done.actor.loadCheckout', output: checkoutData({ invoice: null }) },
        { type: 'xstate.done.actor.loadCheckout', output: checkoutData({ saved: [0, 1] }) },
        // A broken read: a chosen plan without its totals.
        { type: 'xstate.done.actor.loadCheckout', output: { ...checkoutData(), details: { ...checkoutData().details, checkout_totals: null } } },
        { type: 'xstate.error.actor.loadCheckout', error: CHECKOUT_FAILURES.network },
      ];
    case 'coupon':
      return [
        { type: 'xstate.done.actor.loadCheckout', output: checkoutData() },
        // Typed with spaces; the box keeps it without.
        { type: 'coupon.change', text: ' save 10 ' },
        { type: 'coupon.apply' },
        { type: 'xstate.done.actor.validateCoupon', output: SAVE10 },
        { type: 'xstate.error.actor.validateCoupon', error: CHECKOUT_FAILURES.couponExpired },
        { type: 'xstate.error.actor.validateCoupon', error: CHECKOUT_FAILURES.rateLimited },
        { type: 'xstate.error.actor.validateCoupon', error: CHECKOUT_FAILURES.network },
        { type: 'coupon.remove' },
        { type: 'notice.dismiss' },
      ];
    case 'payment':
      return [
        { type: 'xstate.done.actor.loadCheckout', output: checkoutData() },
        { type: 'terms.toggle', agreed: false },
        { type: 'terms.toggle', agreed: true },
        { type: 'checkout.pay' },
        { type: 'xstate.done.actor.tempCheckout', output: PAYABLE_RESULT },
        { type: 'xstate.error.actor.tempCheckout', error: CHECKOUT_FAILURES.totalsChanged },
        { type: 'xstate.error.actor.tempCheckout', error: CHECKOUT_FAILURES.leadInDeal },
        { type: 'xstate.error.actor.tempCheckout', error: CHECKOUT_FAILURES.reviewIncomplete },
        { type: 'xstate.error.actor.tempCheckout', error: CHECKOUT_FAILURES.planNotChosen },
        // An order placed with no payments page to go to: the payment failed.
        { type: 'xstate.done.actor.tempCheckout', output: { ...PAYABLE_RESULT, payment_url: null } },
        { type: 'xstate.error.actor.tempCheckout', error: CHECKOUT_FAILURES.network },
        { type: LOADER_EVENT },
        { type: 'notice.dismiss' },
        { type: 'payFailed.dismiss' },
      ];
    case 'share':
      return [{ type: 'xstate.done.actor.loadCheckout', output: checkoutData() }, ...shareModelEvents('checkout.ready.share.sent')];
    case 'paidInFull':
      // A FREE100 stored by an earlier visit, re-applied at load, on the plan without add-ons.
      return [
        { type: 'xstate.done.actor.loadCheckout', output: checkoutData({ invoice: FREE_PLAN_INVOICE }) },
        { type: 'xstate.done.actor.validateCoupon', output: FREE100 },
        { type: 'xstate.error.actor.validateCoupon', error: CHECKOUT_FAILURES.couponUsedUp },
        { type: 'coupon.apply' },
        { type: 'coupon.remove' },
        { type: 'checkout.pay' },
        { type: 'xstate.done.actor.tempCheckout', output: PAID_RESULT },
        { type: 'xstate.error.actor.tempCheckout', error: CHECKOUT_FAILURES.couponUsedUp },
      ];
  }
}

const COUPON_REFUSALS: readonly unknown[] = [CHECKOUT_FAILURES.couponExpired, CHECKOUT_FAILURES.couponUsedUp];

/**
 * Whether the server could answer this sample in a state with this context: temp-checkout says
 * the order is paid only when the page shows nothing to pay, and refuses a coupon only when one
 * was sent. The model skips the others, so its paths read like real visits.
 */
export function isPlausible(context: CheckoutContext, event: CheckoutModelEvent): boolean {
  if (event.type === 'xstate.done.actor.tempCheckout' && 'output' in event) {
    return (event.output as TempCheckoutResult).redirect_to_thank_you === (context.totals?.total === 0);
  }
  if (event.type === 'xstate.error.actor.tempCheckout' && 'error' in event && COUPON_REFUSALS.includes(event.error)) return context.coupon !== null;
  return true;
}

/**
 * Visits that loop back to a state seen before, so neither shortest nor simple paths take them:
 * dismissing a notice or the error dialog, trying a coupon again, paying again after the loader.
 */
export function checkoutModelJourneys(part: CheckoutModelPart): CheckoutModelEvent[][] {
  const [loaded] = checkoutModelEvents(part) as CheckoutModelEvent[];
  switch (part) {
    case 'loading':
    case 'share':
      return [];
    case 'coupon':
      return [
        [
          loaded!,
          { type: 'coupon.change', text: ' save 10 ' },
          { type: 'coupon.apply' },
          { type: 'xstate.error.actor.validateCoupon', error: CHECKOUT_FAILURES.rateLimited },
          { type: 'notice.dismiss' },
          { type: 'coupon.apply' },
          { type: 'xstate.error.actor.validateCoupon', error: CHECKOUT_FAILURES.couponExpired },
          { type: 'coupon.apply' },
          { type: 'xstate.done.actor.validateCoupon', output: SAVE10 },
          { type: 'coupon.remove' },
          { type: 'coupon.change', text: ' save 10 ' },
          { type: 'coupon.apply' },
          { type: 'xstate.done.actor.validateCoupon', output: SAVE10 },
        ],
      ];
    case 'payment':
      return [
        [
          loaded!,
          { type: 'checkout.pay' },
          { type: 'xstate.error.actor.tempCheckout', error: CHECKOUT_FAILURES.totalsChanged },
          { type: 'notice.dismiss' },
          { type: 'checkout.pay' },
          { type: 'xstate.error.actor.tempCheckout', error: CHECKOUT_FAILURES.network },
          { type: 'payFailed.dismiss' },
          { type: 'checkout.pay' },
          { type: 'xstate.done.actor.tempCheckout', output: PAYABLE_RESULT },
          { type: LOADER_EVENT },
          { type: 'checkout.pay' },
          { type: 'xstate.done.actor.tempCheckout', output: PAYABLE_RESULT },
        ],
      ];
    case 'paidInFull':
      return [
        [
          loaded!,
          { type: 'xstate.error.actor.validateCoupon', error: CHECKOUT_FAILURES.couponUsedUp },
          { type: 'coupon.apply' },
          { type: 'xstate.done.actor.validateCoupon', output: FREE100 },
          { type: 'checkout.pay' },
          { type: 'xstate.done.actor.tempCheckout', output: PAID_RESULT },
        ],
      ];
  }
}

/**
 * The checkout model tests' cases and their TestModel (issue 20), shared by the model test on a
 * live actor (checkout.model.test.ts) and the one on the rendered screen
 * (tests/model/checkout-screen.model.test.tsx).
 */
export interface CheckoutModelCase {
  part: CheckoutModelPart;
  input: CheckoutInput;
  /** Final states the part must reach. */
  ends: readonly string[];
  /** Events the part must take on some simple path. */
  taken: readonly string[];
}

export const CHECKOUT_MODEL_CASES: Record<string, CheckoutModelCase> = {
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

type CheckoutModelSnapshot = SnapshotFrom<typeof checkoutMachine>;
export type CheckoutModelPath = TestPath<CheckoutModelSnapshot, CheckoutModelEvent>;

export const serializeCheckoutModelState = (snapshot: CheckoutModelSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });

/** The checkout model of a case (one part of the step). */
export function createCheckoutTestModel({ part, input }: Pick<CheckoutModelCase, 'part' | 'input'>) {
  const samples = checkoutModelEvents(part);
  return new TestModel<CheckoutModelSnapshot, CheckoutModelEvent, CheckoutInput>(checkoutMachine as never, {
    input,
    serializeState: serializeCheckoutModelState,
    stateMatcher: (state, key) => state.matches(key as never),
    events: (state) => samples.filter((event) => state.can(event as never) && isPlausible(state.context, event)),
  });
}

const CHECKOUT_FAILURE_NAMES = new Map<unknown, string>(Object.entries(CHECKOUT_FAILURES).map(([name, failure]) => [failure, name]));

function describeCheckoutEvent(event: CheckoutModelEvent | { type: 'xstate.init' }): string {
  if (event.type === LOADER_EVENT) return '2.5s';
  if ('error' in event) return `${event.type.replace('xstate.error.actor.', '')}✗${CHECKOUT_FAILURE_NAMES.get(event.error) ?? 'error'}`;
  if ('output' in event) {
    const output = event.output as { code?: string; redirect_to_thank_you?: boolean; details?: { get_invoice: unknown; isLeadAlreadyInDeal: boolean } };
    const note = output.code ?? (output.redirect_to_thank_you ? '(paid)' : output.details?.isLeadAlreadyInDeal ? '(in deal)' : output.details?.get_invoice === null ? '(no plan)' : '');
    return `${event.type.replace('xstate.done.actor.', '')}✓${note}`;
  }
  if (event.type === 'terms.toggle') return `terms.toggle(${event.agreed})`;
  return event.type;
}

/** A path's label in its test's name. */
export function checkoutPathLabel(path: CheckoutModelPath): string {
  const events = path.steps.map(({ event }) => event).filter((event) => !(event.type as string).startsWith('xstate.init'));
  return `${JSON.stringify(path.state.value)} ⇐ ${events.map(describeCheckoutEvent).join(' → ') || '(start)'}`;
}
