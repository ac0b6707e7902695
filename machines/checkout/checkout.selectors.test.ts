import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { waitForSnapshot } from '../model-tooling/wait-for-snapshot';
import {
  changedTotals,
  couponBoxText,
  couponRefusal,
  isConflict,
  isRateLimited,
  parseTotals,
  tempCheckoutInput,
  withChangedTotals,
} from './checkout.helpers';
import { checkoutMachine } from './checkout.machine';
import {
  CHECKOUT_FAILURES,
  CHECKOUT_LEAD_UUID,
  CHECKOUT_LINK,
  EXPIRED_MESSAGE,
  FRESH_TOTALS,
  PLAN_TOTALS,
  SAVE10,
  checkoutData,
  checkoutInput,
  type CheckoutDataOptions,
} from './checkout.model';
import {
  checkoutOutcomeEvent,
  selectCanPay,
  selectCoupon,
  selectCouponFailed,
  selectCustomer,
  selectEmailSent,
  selectInvoice,
  selectIsAgent,
  selectLead,
  selectNotice,
  selectOutcome,
  selectPayFailed,
  selectPaying,
  selectSharing,
  selectTermsAgreed,
  selectNothingToPay,
  selectTotals,
  selectTravellers,
  selectViewState,
  selectWhatsappTemplate,
} from './checkout.selectors';
import type { CheckoutData, CheckoutInput, CheckoutOutput, CouponResult, TempCheckoutResult } from './checkout.types';
import type { JourneyEvent } from '../journey.types';

/** A running step over checkoutData(options) whose coupon checks, payments and shares never settle, so each can be observed. */
async function readyActor(options: CheckoutDataOptions = {}, input: CheckoutInput = checkoutInput()) {
  const actor = createActor(
    checkoutMachine.provide({
      actors: {
        loadCheckout: fromPromise(async () => checkoutData(options)),
        validateCoupon: fromPromise(() => new Promise<CouponResult>(() => {})),
        tempCheckout: fromPromise(() => new Promise<TempCheckoutResult>(() => {})),
        sendEmail: fromPromise(() => new Promise<unknown>(() => {})),
      },
    }),
    { input, clock: new SimulatedClock() },
  ).start();
  await waitForSnapshot(actor, (snapshot) => selectViewState(snapshot) !== 'loading');
  return actor;
}

describe('checkoutOutcomeEvent', () => {
  it.each<[CheckoutOutput, JourneyEvent]>([
    [{ type: 'paidInFull' }, { type: 'checkout.paidInFull' }],
    [{ type: 'planMissing' }, { type: 'checkout.planMissing' }],
    [{ type: 'reviewMissing' }, { type: 'checkout.reviewMissing' }],
    [{ type: 'finished' }, { type: 'journey.reset' }],
  ])('%j -> %j', (output, event) => {
    expect(checkoutOutcomeEvent(output)).toEqual(event);
  });
});

describe('view state', () => {
  it('loading, then ready, and no outcome while the step runs', async () => {
    const pending = createActor(checkoutMachine.provide({ actors: { loadCheckout: fromPromise(() => new Promise<CheckoutData>(() => {})) } }), {
      input: checkoutInput(),
    }).start();
    expect(selectViewState(pending.getSnapshot())).toBe('loading');
    expect(selectCanPay(pending.getSnapshot())).toBe(false);
    expect(selectTravellers(pending.getSnapshot())).toEqual([]);
    expect(selectTotals(pending.getSnapshot())).toBeNull();
    expect(selectNothingToPay(pending.getSnapshot())).toBe(false);
    const actor = await readyActor();
    expect(selectViewState(actor.getSnapshot())).toBe('ready');
    expect(selectOutcome(actor.getSnapshot())).toBeNull();
  });

  it('loading without a lead (the journey moves on)', () => {
    const actor = createActor(checkoutMachine, { input: checkoutInput({ uuid: null }) }).start();
    expect(selectViewState(actor.getSnapshot())).toBe('loading');
  });

  it('failed when the lead cannot be read; done once the step has ended', async () => {
    const failed = createActor(
      checkoutMachine.provide({ actors: { loadCheckout: fromPromise((): Promise<CheckoutData> => Promise.reject(CHECKOUT_FAILURES.network)) } }),
      { input: checkoutInput() },
    ).start();
    await waitForSnapshot(failed, (snapshot) => snapshot.matches('failed'));
    expect(selectViewState(failed.getSnapshot())).toBe('failed');
    const done = createActor(checkoutMachine, { input: checkoutInput({ thankYou: true }) }).start();
    expect(selectViewState(done.getSnapshot())).toBe('done');
    expect(selectOutcome(done.getSnapshot())).toEqual({ type: 'finished' });
  });
});

describe('page data', () => {
  it('reads the invoice, lead, travellers, customer, totals and share text as loaded', async () => {
    const snapshot = (await readyActor({}, checkoutInput({ agentId: 101, link: CHECKOUT_LINK }))).getSnapshot();
    const data = checkoutData();
    expect(selectInvoice(snapshot)).toEqual(data.details.get_invoice);
    expect(selectLead(snapshot)).toEqual(data.details.lead_details);
    expect(selectTravellers(snapshot)).toEqual(data.details.lead_details.travellers_info);
    expect(selectCustomer(snapshot)).toEqual(data.details.get_customer);
    expect(selectTotals(snapshot)).toEqual(PLAN_TOTALS);
    expect(selectWhatsappTemplate(snapshot)).toContain(CHECKOUT_LINK);
    expect(selectIsAgent(snapshot)).toBe(true);
    expect(selectNotice(snapshot)).toBeNull();
    expect(selectPayFailed(snapshot)).toBe(false);
    expect(selectCouponFailed(snapshot)).toBe(false);
    expect(selectNothingToPay(snapshot)).toBe(false);
  });

  it('a customer is no agent', async () => {
    expect(selectIsAgent((await readyActor()).getSnapshot())).toBe(false);
  });
});

describe('coupon, terms and payment', () => {
  it('the coupon box: text, applying, then nothing applied', async () => {
    const actor = await readyActor();
    expect(selectCoupon(actor.getSnapshot())).toEqual({ text: '', applied: null, error: null, message: null, applying: false });
    actor.send({ type: 'coupon.change', text: 'save 10' });
    actor.send({ type: 'coupon.apply' });
    expect(selectCoupon(actor.getSnapshot())).toEqual({ text: 'save10', applied: null, error: null, message: null, applying: true });
    // Applying is not paying.
    expect(selectPaying(actor.getSnapshot())).toBe(false);
    expect(selectCanPay(actor.getSnapshot())).toBe(false);
  });

  it('terms agreed by default; Proceed follows them', async () => {
    const actor = await readyActor();
    expect(selectTermsAgreed(actor.getSnapshot())).toBe(true);
    expect(selectCanPay(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'terms.toggle', agreed: false });
    expect(selectTermsAgreed(actor.getSnapshot())).toBe(false);
    expect(selectCanPay(actor.getSnapshot())).toBe(false);
  });

  it('paying while the payment call runs', async () => {
    const actor = await readyActor();
    expect(selectPaying(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'checkout.pay' });
    expect(selectPaying(actor.getSnapshot())).toBe(true);
    expect(selectCanPay(actor.getSnapshot())).toBe(false);
  });

  it('sharing while the e-mail goes out; not sent yet', async () => {
    const actor = await readyActor({}, checkoutInput({ agentId: 101, link: CHECKOUT_LINK }));
    expect(selectSharing(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'share.email' });
    expect(selectSharing(actor.getSnapshot())).toBe(true);
    expect(selectEmailSent(actor.getSnapshot())).toBe(false);
  });
});

describe('pure helpers', () => {
  it('couponBoxText strips every whitespace, keeps the case and caps the length', () => {
    expect(couponBoxText(' Sa\tve 1\n0 ')).toBe('Save10');
    expect(couponBoxText('\u00a0X\u2003')).toBe('X');
    expect(couponBoxText('A'.repeat(33))).toBe('A'.repeat(32));
  });

  it('couponRefusal: a 422 naming promo_code, with the server message; other codes read as unknown', () => {
    expect(couponRefusal(CHECKOUT_FAILURES.couponExpired)).toEqual({ code: 'coupon_expired', message: EXPIRED_MESSAGE });
    expect(couponRefusal(CHECKOUT_FAILURES.couponMalformed)).toEqual({ code: 'coupon_unknown', message: 'The coupon code is too long.' });
    expect(couponRefusal({ kind: 'invalid', status: 422, body: { status: 422, message: '', data: { errors: { promo_code: 'coupon_used_up' } } } })).toEqual({
      code: 'coupon_used_up',
      message: null,
    });
    expect(couponRefusal(CHECKOUT_FAILURES.invalidLead)).toBeNull();
    expect(couponRefusal({ ...CHECKOUT_FAILURES.couponExpired, status: 409 })).toBeNull();
    expect(couponRefusal(CHECKOUT_FAILURES.network)).toBeNull();
    expect(couponRefusal(new Error('boom'))).toBeNull();
  });

  it('isRateLimited: only 429', () => {
    expect(isRateLimited(CHECKOUT_FAILURES.rateLimited)).toBe(true);
    expect(isRateLimited(CHECKOUT_FAILURES.server)).toBe(false);
    expect(isRateLimited(undefined)).toBe(false);
  });

  it('isConflict: a 409 naming the code', () => {
    expect(isConflict(CHECKOUT_FAILURES.leadInDeal, 'lead_in_deal')).toBe(true);
    expect(isConflict(CHECKOUT_FAILURES.leadInDeal, 'plan_not_chosen')).toBe(false);
    expect(isConflict(CHECKOUT_FAILURES.planNotChosen, 'plan_not_chosen')).toBe(true);
    expect(isConflict(CHECKOUT_FAILURES.reviewIncomplete, 'review_incomplete')).toBe(true);
    expect(isConflict({ ...CHECKOUT_FAILURES.leadInDeal, status: 422 }, 'lead_in_deal')).toBe(false);
  });

  it('changedTotals: the fresh totals of a 409 totals_changed, read defensively', () => {
    expect(changedTotals(CHECKOUT_FAILURES.totalsChanged)).toEqual(FRESH_TOTALS);
    expect(changedTotals(CHECKOUT_FAILURES.totalsChangedUnreadable)).toBeNull();
    expect(changedTotals(CHECKOUT_FAILURES.leadInDeal)).toBeNull();
    expect(changedTotals({ ...CHECKOUT_FAILURES.totalsChanged, status: 422 })).toBeNull();
  });

  it('parseTotals: every line a finite number, amounts whole non-negative cents; extra keys dropped', () => {
    expect(parseTotals({ ...FRESH_TOTALS, extra: 1 })).toEqual(FRESH_TOTALS);
    expect(parseTotals({ ...FRESH_TOTALS, vat_percent: 11.5 })).toEqual({ ...FRESH_TOTALS, vat_percent: 11.5 });
    expect(parseTotals({ ...FRESH_TOTALS, total: 121.77 })).toBeNull();
    expect(parseTotals({ ...FRESH_TOTALS, discount: -1 })).toBeNull();
    expect(parseTotals({ ...FRESH_TOTALS, vat_amount: Number.NaN })).toBeNull();
    const { stamp_fee: _dropped, ...missing } = FRESH_TOTALS;
    expect(parseTotals(missing)).toBeNull();
    expect(parseTotals(null)).toBeNull();
    expect(parseTotals('12177')).toBeNull();
  });

  it('withChangedTotals: without a coupon the fresh totals are the plan\'s own too', async () => {
    const { context } = (await readyActor()).getSnapshot();
    expect(withChangedTotals(context, FRESH_TOTALS)).toEqual({ totals: FRESH_TOTALS, baseTotals: FRESH_TOTALS, notice: 'totals_changed' });
    expect(withChangedTotals({ ...context, coupon: SAVE10 }, FRESH_TOTALS)).toEqual({ totals: FRESH_TOTALS, notice: 'totals_changed' });
  });

  it('tempCheckoutInput: the lead, the applied coupon\'s code and the total shown', async () => {
    const { context } = (await readyActor({}, checkoutInput({ agentId: 7 }))).getSnapshot();
    expect(tempCheckoutInput({ ...context, coupon: SAVE10, totals: SAVE10.totals })).toEqual({
      uuid: CHECKOUT_LEAD_UUID,
      sessionId: context.sessionId,
      agentId: 7,
      lang: 'en',
      coupon: 'SAVE10',
      total: 10623,
    });
  });
});
