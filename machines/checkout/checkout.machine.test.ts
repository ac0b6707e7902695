import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { waitForSnapshot } from '../model-tooling/wait-for-snapshot';
import { EMAIL_TOAST_MS } from '../agent-share';
import { checkoutMachine } from './checkout.machine';
import {
  CHECKOUT_FAILURES,
  CHECKOUT_LEAD_UUID,
  CHECKOUT_LINK,
  CHECKOUT_SESSION_UUID,
  EXPIRED_MESSAGE,
  FREE100,
  FREE_PLAN_INVOICE,
  FREE_PLAN_TOTALS,
  FRESH_TOTALS,
  PAID_RESULT,
  PAYABLE_RESULT,
  PAYMENT_URL,
  PLAN_INVOICE,
  PLAN_TOTALS,
  SAVE10,
  USED_UP_MESSAGE,
  checkoutData,
  checkoutInput,
} from './checkout.model';
import {
  checkoutOutcomeEvent,
  selectCanPay,
  selectCoupon,
  selectCouponFailed,
  selectNotice,
  selectOutcome,
  selectPayFailed,
  selectPaying,
  selectNothingToPay,
  selectTotals,
  selectViewState,
} from './checkout.selectors';
import {
  CHECKOUT_LOADER_MS,
  type CheckoutData,
  type CheckoutInput,
  type CheckoutSendEmailInput,
  type CouponCheck,
  type CouponResult,
  type LoadCheckoutInput,
  type TempCheckoutInput,
  type TempCheckoutResult,
  type ValidateCouponInput,
} from './checkout.types';

interface Stubs {
  load?: () => Promise<CheckoutData>;
  validate?: (input: ValidateCouponInput) => Promise<CouponCheck>;
  pay?: (input: TempCheckoutInput) => Promise<TempCheckoutResult>;
  email?: (input: CheckoutSendEmailInput) => Promise<unknown>;
}

function start(input: CheckoutInput = checkoutInput(), stubs: Stubs = {}) {
  const clock = new SimulatedClock();
  const calls = { load: [] as LoadCheckoutInput[], validate: [] as ValidateCouponInput[], pay: [] as TempCheckoutInput[], email: [] as CheckoutSendEmailInput[] };
  // Local storage and the way out, as the web provides them.
  const effects = { coupon: input.storedCoupon, couponWrites: [] as (string | null)[], thankYou: 0, left: [] as string[] };
  const actor = createActor(
    checkoutMachine.provide({
      actors: {
        loadCheckout: fromPromise(async ({ input }) => {
          calls.load.push(input);
          return (stubs.load ?? (async () => checkoutData()))();
        }),
        validateCoupon: fromPromise(async ({ input }) => {
          calls.validate.push(input);
          return (stubs.validate ?? (async () => SAVE10))(input);
        }),
        tempCheckout: fromPromise(async ({ input }) => {
          calls.pay.push(input);
          return (stubs.pay ?? (async () => PAYABLE_RESULT))(input);
        }),
        sendEmail: fromPromise(async ({ input }) => {
          calls.email.push(input);
          return (stubs.email ?? (async () => ({ sent: true })))(input);
        }),
      },
      actions: {
        storeCoupon: (_, { code }) => {
          effects.coupon = code;
          effects.couponWrites.push(code);
        },
        removeStoredCoupon: () => {
          effects.coupon = null;
          effects.couponWrites.push(null);
        },
        storeThankYou: () => {
          effects.thankYou += 1;
        },
        leaveForPayment: (_, { url }) => {
          effects.left.push(url);
        },
      },
    }),
    { input, clock },
  ).start();
  return { actor, calls, effects, clock };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function ready(input?: CheckoutInput, stubs?: Stubs) {
  const started = start(input, stubs);
  await waitForSnapshot(started.actor, (snapshot) => selectViewState(snapshot) !== 'loading' && !snapshot.hasTag('busy'));
  return started;
}

type Started = Awaited<ReturnType<typeof ready>>;

/** Types a code and applies it, then waits for the server's answer. */
async function apply({ actor }: Started, text = 'SAVE10') {
  actor.send({ type: 'coupon.change', text });
  actor.send({ type: 'coupon.apply' });
  await waitForSnapshot(actor, (snapshot) => !snapshot.hasTag('applying'));
}

/** Proceed, then wait for temp-checkout's answer. */
async function pay({ actor }: Started) {
  actor.send({ type: 'checkout.pay' });
  await waitForSnapshot(actor, (snapshot) => snapshot.status === 'done' || !snapshot.matches({ ready: { payment: 'paying' } }));
}

describe('starting and loading', () => {
  it('a stored thank-you flag ends the step at once, without loading', async () => {
    const { actor, calls } = start(checkoutInput({ thankYou: true }));
    await settle();
    const output = selectOutcome(actor.getSnapshot())!;
    expect(output).toEqual({ type: 'finished' });
    expect(checkoutOutcomeEvent(output)).toEqual({ type: 'journey.reset' });
    expect(calls.load).toEqual([]);
  });

  it("run without the web's calls (loadCheckout), the read fails into the error view, not a crash", async () => {
    const actor = createActor(checkoutMachine, { input: checkoutInput() }).start();
    await waitForSnapshot(actor, (snapshot) => selectViewState(snapshot) !== 'loading');
    expect(actor.getSnapshot().status).toBe('active');
    expect(selectViewState(actor.getSnapshot())).toBe('failed');
  });

  it('loads nothing without a lead, and waits for the journey', async () => {
    const { actor, calls } = start(checkoutInput({ uuid: null }));
    await settle();
    expect(actor.getSnapshot().value).toBe('noLead');
    expect(actor.getSnapshot().status).toBe('active');
    expect(calls.load).toEqual([]);
  });

  it('shows the wait message while loading, and reads the lead with its session id, language and page link', async () => {
    const { actor, calls } = start(checkoutInput({ lang: 'ar', link: CHECKOUT_LINK }), { load: () => new Promise(() => {}) });
    expect(selectViewState(actor.getSnapshot())).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await settle();
    expect(calls.load).toEqual([{ uuid: CHECKOUT_LEAD_UUID, sessionId: CHECKOUT_SESSION_UUID, lang: 'ar', link: CHECKOUT_LINK }]);
  });

  it('shows the plan, the lead, the customer and the plan\'s own totals; terms are agreed by default', async () => {
    const { actor, effects } = await ready();
    const snapshot = actor.getSnapshot();
    expect(selectViewState(snapshot)).toBe('ready');
    expect(snapshot.context.invoice).toEqual(PLAN_INVOICE);
    expect(snapshot.context.lead?.travellers_info).toHaveLength(3);
    expect(snapshot.context.customer?.name).toBe('Rania Haddad');
    expect(selectTotals(snapshot)).toEqual(PLAN_TOTALS);
    expect(snapshot.context.termsAgreed).toBe(true);
    expect(selectCanPay(snapshot)).toBe(true);
    expect(effects.couponWrites).toEqual([]);
  });

  it('a lead already in a deal ends the step for travel details', async () => {
    const { actor } = await ready(undefined, { load: async () => checkoutData({ inDeal: true }) });
    const output = selectOutcome(actor.getSnapshot())!;
    expect(output).toEqual({ type: 'finished' });
    expect(checkoutOutcomeEvent(output)).toEqual({ type: 'journey.reset' });
  });

  it('no chosen plan (get_invoice null) ends the step for the quotes', async () => {
    const { actor } = await ready(undefined, { load: async () => checkoutData({ invoice: null }) });
    const output = selectOutcome(actor.getSnapshot())!;
    expect(output).toEqual({ type: 'planMissing' });
    expect(checkoutOutcomeEvent(output)).toEqual({ type: 'checkout.planMissing' });
  });

  it('a traveller not reviewed yet ends the step for review details', async () => {
    const { actor } = await ready(undefined, { load: async () => checkoutData({ saved: [0, 2] }) });
    const output = selectOutcome(actor.getSnapshot())!;
    expect(output).toEqual({ type: 'reviewMissing' });
    expect(checkoutOutcomeEvent(output)).toEqual({ type: 'checkout.reviewMissing' });
  });

  it('fails with load_failed when the lead cannot be read', async () => {
    const { actor } = await ready(undefined, { load: () => Promise.reject(CHECKOUT_FAILURES.network) });
    expect(selectViewState(actor.getSnapshot())).toBe('failed');
    expect(actor.getSnapshot().context.failure).toBe('load_failed');
  });

  it.each([
    ['no travellers', (data: CheckoutData) => (data.details.lead_details.travellers_info = [])],
    ['a plan without its totals', (data: CheckoutData) => (data.details.checkout_totals = null)],
  ])('%s is a failed read', async (_name, spoil) => {
    const data = checkoutData();
    spoil(data);
    const { actor } = await ready(undefined, { load: async () => data });
    expect(actor.getSnapshot().context.failure).toBe('load_failed');
  });
});

describe('the coupon', () => {
  it('strips all whitespace as typed, and keeps the case', async () => {
    const { actor } = await ready();
    actor.send({ type: 'coupon.change', text: ' sa ve\t10\n' });
    expect(selectCoupon(actor.getSnapshot()).text).toBe('save10');
  });

  it('Apply needs a code', async () => {
    const { actor, calls } = await ready();
    expect(actor.getSnapshot().can({ type: 'coupon.apply' })).toBe(false);
    actor.send({ type: 'coupon.change', text: '   ' });
    expect(actor.getSnapshot().can({ type: 'coupon.apply' })).toBe(false);
    actor.send({ type: 'coupon.apply' });
    await settle();
    expect(calls.validate).toEqual([]);
  });

  it('success: the server\'s totals show, "Coupon Applied" with Remove, and the coupon is stored', async () => {
    const started = await ready(checkoutInput({ lang: 'ar' }));
    await apply(started, ' save10 ');
    const snapshot = started.actor.getSnapshot();
    expect(started.calls.validate).toEqual([{ uuid: CHECKOUT_LEAD_UUID, code: 'save10', lang: 'ar', link: null }]);
    expect(selectCoupon(snapshot)).toEqual({ text: 'save10', applied: 'SAVE10', error: null, message: null, applying: false });
    expect(selectTotals(snapshot)).toEqual(SAVE10.totals);
    expect(started.effects.coupon).toBe('SAVE10');
    // The box is read-only while a coupon is applied: Remove, not Apply.
    expect(snapshot.can({ type: 'coupon.apply' })).toBe(false);
    expect(snapshot.can({ type: 'coupon.change', text: 'OTHER' })).toBe(false);
    expect(snapshot.can({ type: 'coupon.remove' })).toBe(true);
  });

  it('while the server checks the code, the box shows its loader and Proceed waits', async () => {
    let answer: (result: CouponResult) => void = () => {};
    const { actor } = await ready(undefined, { validate: () => new Promise((resolve) => (answer = resolve)) });
    actor.send({ type: 'coupon.change', text: 'SAVE10' });
    actor.send({ type: 'coupon.apply' });
    expect(selectCoupon(actor.getSnapshot()).applying).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(selectCanPay(actor.getSnapshot())).toBe(false);
    expect(selectPaying(actor.getSnapshot())).toBe(false);
    answer(SAVE10);
    await waitForSnapshot(actor, (snapshot) => !snapshot.hasTag('applying'));
    expect(selectCanPay(actor.getSnapshot())).toBe(true);
  });

  it('failure: the server\'s message under the box, nothing applied or stored, and a stored coupon is removed', async () => {
    const started = await ready(checkoutInput(), { validate: () => Promise.reject(CHECKOUT_FAILURES.couponExpired) });
    await apply(started, 'OLD5');
    const snapshot = started.actor.getSnapshot();
    expect(selectCoupon(snapshot)).toEqual({ text: 'OLD5', applied: null, error: 'coupon_expired', message: EXPIRED_MESSAGE, applying: false });
    expect(selectTotals(snapshot)).toEqual(PLAN_TOTALS);
    expect(started.effects.couponWrites).toEqual([null]);
    expect(selectCouponFailed(snapshot)).toBe(false);
  });

  it('a code refused for its form reads as an unknown coupon, with the server\'s message', async () => {
    const started = await ready(checkoutInput(), { validate: () => Promise.reject(CHECKOUT_FAILURES.couponMalformed) });
    await apply(started, 'X');
    expect(selectCoupon(started.actor.getSnapshot())).toMatchObject({ error: 'coupon_unknown', message: 'The coupon code is too long.' });
  });

  it('the box keeps at most a coupon code\'s length', async () => {
    const { actor } = await ready();
    actor.send({ type: 'coupon.change', text: 'A'.repeat(40) });
    expect(selectCoupon(actor.getSnapshot()).text).toHaveLength(32);
  });

  it('applying clears the previous success and error', async () => {
    const answers: (() => Promise<CouponResult>)[] = [
      async () => SAVE10,
      () => Promise.reject(CHECKOUT_FAILURES.couponExpired),
      () => new Promise(() => {}),
    ];
    const started = await ready(checkoutInput(), { validate: () => answers.shift()!() });
    const { actor } = started;
    await apply(started, 'SAVE10');
    actor.send({ type: 'coupon.remove' });
    await apply(started, 'OLD5');
    expect(selectCoupon(actor.getSnapshot()).error).toBe('coupon_expired');

    actor.send({ type: 'coupon.change', text: 'SAVE10' });
    actor.send({ type: 'coupon.apply' });
    const snapshot = actor.getSnapshot();
    expect(selectCoupon(snapshot)).toEqual({ text: 'SAVE10', applied: null, error: null, message: null, applying: true });
    expect(selectTotals(snapshot)).toEqual(PLAN_TOTALS);
  });

  it('Remove clears the code, the coupon and the stored coupon; the plan\'s totals show again', async () => {
    const started = await ready();
    await apply(started);
    started.actor.send({ type: 'coupon.remove' });
    const snapshot = started.actor.getSnapshot();
    expect(selectCoupon(snapshot)).toEqual({ text: '', applied: null, error: null, message: null, applying: false });
    expect(selectTotals(snapshot)).toEqual(PLAN_TOTALS);
    expect(started.effects.couponWrites).toEqual(['SAVE10', null]);
    expect(started.effects.coupon).toBeNull();
  });

  it('Remove after a refusal clears the code and its message', async () => {
    const started = await ready(checkoutInput(), { validate: () => Promise.reject(CHECKOUT_FAILURES.couponExpired) });
    await apply(started, 'OLD5');
    started.actor.send({ type: 'coupon.remove' });
    expect(selectCoupon(started.actor.getSnapshot())).toEqual({ text: '', applied: null, error: null, message: null, applying: false });
  });

  it('429: a notice says to wait; the code stays in the box, nothing is removed, and dismissing hides it', async () => {
    const started = await ready(checkoutInput({ storedCoupon: null }), { validate: () => Promise.reject(CHECKOUT_FAILURES.rateLimited) });
    await apply(started, 'SAVE10');
    const snapshot = started.actor.getSnapshot();
    expect(selectNotice(snapshot)).toBe('coupon_rate_limited');
    expect(selectCoupon(snapshot)).toEqual({ text: 'SAVE10', applied: null, error: null, message: null, applying: false });
    expect(started.effects.couponWrites).toEqual([]);
    started.actor.send({ type: 'notice.dismiss' });
    expect(selectNotice(started.actor.getSnapshot())).toBeNull();
  });

  it('the next apply clears the rate-limit notice', async () => {
    const answers: (() => Promise<CouponResult>)[] = [() => Promise.reject(CHECKOUT_FAILURES.rateLimited), async () => SAVE10];
    const started = await ready(checkoutInput(), { validate: () => answers.shift()!() });
    await apply(started);
    await apply(started);
    expect(selectNotice(started.actor.getSnapshot())).toBeNull();
    expect(selectCoupon(started.actor.getSnapshot()).applied).toBe('SAVE10');
  });

  it.each(['network', 'server', 'invalidLead'] as const)('a %s failure opens the system error dialog; the code stays, and Apply tries again', async (name) => {
    const answers: (() => Promise<CouponResult>)[] = [() => Promise.reject(CHECKOUT_FAILURES[name]), async () => SAVE10];
    const started = await ready(checkoutInput(), { validate: () => answers.shift()!() });
    await apply(started);
    expect(selectCouponFailed(started.actor.getSnapshot())).toBe(true);
    expect(selectCoupon(started.actor.getSnapshot())).toMatchObject({ text: 'SAVE10', applied: null, error: null });
    expect(started.effects.couponWrites).toEqual([]);
    started.actor.send({ type: 'coupon.apply' });
    expect(selectCouponFailed(started.actor.getSnapshot())).toBe(false);
    await waitForSnapshot(started.actor, (snapshot) => !snapshot.hasTag('applying'));
    expect(selectCoupon(started.actor.getSnapshot()).applied).toBe('SAVE10');
  });
});

describe('the stored coupon', () => {
  it('is applied again at load: the page opens with it applied and its totals', async () => {
    const started = await ready(checkoutInput({ storedCoupon: 'SAVE10' }));
    const snapshot = started.actor.getSnapshot();
    expect(started.calls.validate).toEqual([{ uuid: CHECKOUT_LEAD_UUID, code: 'SAVE10', lang: 'en', link: null }]);
    expect(selectCoupon(snapshot)).toEqual({ text: 'SAVE10', applied: 'SAVE10', error: null, message: null, applying: false });
    expect(selectTotals(snapshot)).toEqual(SAVE10.totals);
    expect(started.effects.coupon).toBe('SAVE10');
  });

  it('is checked before Proceed can be used', async () => {
    const started = start(checkoutInput({ storedCoupon: 'SAVE10' }), { validate: () => new Promise(() => {}) });
    await waitForSnapshot(started.actor, (snapshot) => selectViewState(snapshot) === 'ready');
    expect(selectCoupon(started.actor.getSnapshot()).applying).toBe(true);
    expect(selectCanPay(started.actor.getSnapshot())).toBe(false);
  });

  it('refused since (used up): its message shows and it is removed', async () => {
    const started = await ready(checkoutInput({ storedCoupon: 'FREE100' }), { validate: () => Promise.reject(CHECKOUT_FAILURES.couponUsedUp) });
    expect(selectCoupon(started.actor.getSnapshot())).toEqual({ text: 'FREE100', applied: null, error: 'coupon_used_up', message: USED_UP_MESSAGE, applying: false });
    expect(started.effects.coupon).toBeNull();
  });

  it('is not applied when the page does not open (a lead in a deal)', async () => {
    const started = await ready(checkoutInput({ storedCoupon: 'SAVE10' }), { load: async () => checkoutData({ inDeal: true }) });
    expect(selectOutcome(started.actor.getSnapshot())).toEqual({ type: 'finished' });
    expect(started.calls.validate).toEqual([]);
  });
});

describe('terms and who may pay', () => {
  it('unticking the terms disables Proceed; ticking them enables it again', async () => {
    const { actor, calls } = await ready();
    actor.send({ type: 'terms.toggle', agreed: false });
    expect(actor.getSnapshot().context.termsAgreed).toBe(false);
    expect(selectCanPay(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'checkout.pay' });
    await settle();
    expect(calls.pay).toEqual([]);
    actor.send({ type: 'terms.toggle', agreed: true });
    expect(selectCanPay(actor.getSnapshot())).toBe(true);
  });

  it('an agent cannot pay', async () => {
    const { actor, calls } = await ready(checkoutInput({ agentId: 101, link: CHECKOUT_LINK }));
    expect(selectCanPay(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'checkout.pay' });
    await settle();
    expect(calls.pay).toEqual([]);
  });
});

describe('paying', () => {
  it('sends the lead, the applied coupon and the total shown', async () => {
    const started = await ready(checkoutInput({ lang: 'ar' }));
    await apply(started);
    await pay(started);
    expect(started.calls.pay).toEqual([
      { uuid: CHECKOUT_LEAD_UUID, sessionId: CHECKOUT_SESSION_UUID, agentId: null, lang: 'ar', coupon: 'SAVE10', total: SAVE10.totals.total },
    ]);
  });

  it('while paying, Proceed shows its loader and the coupon box waits', async () => {
    const started = await ready(checkoutInput(), { pay: () => new Promise(() => {}) });
    await apply(started);
    started.actor.send({ type: 'checkout.pay' });
    const snapshot = started.actor.getSnapshot();
    expect(selectPaying(snapshot)).toBe(true);
    expect(selectCanPay(snapshot)).toBe(false);
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.can({ type: 'coupon.remove' })).toBe(false);
    started.actor.send({ type: 'coupon.remove' });
    started.actor.send({ type: 'coupon.change', text: 'OTHER' });
    expect(started.actor.getSnapshot().status).toBe('active');
    expect(selectCoupon(started.actor.getSnapshot()).applied).toBe('SAVE10');
    expect(started.actor.getSnapshot().context.couponText).toBe('SAVE10');
    expect(started.effects.couponWrites).toEqual(['SAVE10']);
  });

  it('while paying without a coupon, the box keeps what was typed and Remove changes nothing', async () => {
    const started = await ready(checkoutInput(), { pay: () => new Promise(() => {}) });
    started.actor.send({ type: 'coupon.change', text: 'SAVE' });
    started.actor.send({ type: 'checkout.pay' });
    expect(started.actor.getSnapshot().can({ type: 'coupon.remove' })).toBe(false);
    expect(started.actor.getSnapshot().can({ type: 'coupon.change', text: 'SAVE10' })).toBe(false);
    started.actor.send({ type: 'coupon.change', text: 'SAVE10' });
    started.actor.send({ type: 'coupon.remove' });
    expect(started.actor.getSnapshot().status).toBe('active');
    expect(started.actor.getSnapshot().context.couponText).toBe('SAVE');
    expect(started.effects.couponWrites).toEqual([]);
  });

  it('Remove with no coupon applied (after a refusal) also forgets the stored one', async () => {
    const started = await ready(checkoutInput());
    started.actor.send({ type: 'coupon.remove' });
    expect(started.actor.getSnapshot().status).toBe('active');
    expect(started.effects.couponWrites).toEqual([null]);
  });

  it('nothing left to pay (100 %): the thank-you flag is stored and the step ends paid in full', async () => {
    const started = await ready(checkoutInput(), {
      load: async () => checkoutData({ invoice: FREE_PLAN_INVOICE }),
      validate: async () => FREE100,
      pay: async () => PAID_RESULT,
    });
    expect(selectTotals(started.actor.getSnapshot())).toEqual(FREE_PLAN_TOTALS);
    expect(selectNothingToPay(started.actor.getSnapshot())).toBe(false);
    await apply(started, 'FREE100');
    expect(selectTotals(started.actor.getSnapshot())?.total).toBe(0);
    expect(selectNothingToPay(started.actor.getSnapshot())).toBe(true);
    await pay(started);
    const output = selectOutcome(started.actor.getSnapshot())!;
    expect(output).toEqual({ type: 'paidInFull' });
    expect(checkoutOutcomeEvent(output)).toEqual({ type: 'checkout.paidInFull' });
    expect(started.calls.pay[0]).toMatchObject({ coupon: 'FREE100', total: 0 });
    expect(started.effects.thankYou).toBe(1);
    expect(started.effects.left).toEqual([]);
  });

  it('a payment url: the browser leaves for it, and the loader hides 2.5 s after the call', async () => {
    const started = await ready();
    await pay(started);
    expect(started.effects.left).toEqual([PAYMENT_URL]);
    expect(started.effects.thankYou).toBe(0);
    expect(selectPaying(started.actor.getSnapshot())).toBe(true);
    expect(started.actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(selectCanPay(started.actor.getSnapshot())).toBe(false);
    started.clock.increment(CHECKOUT_LOADER_MS - 1);
    expect(selectPaying(started.actor.getSnapshot())).toBe(true);
    started.clock.increment(1);
    expect(selectPaying(started.actor.getSnapshot())).toBe(false);
    expect(selectCanPay(started.actor.getSnapshot())).toBe(true);
    expect(started.actor.getSnapshot().status).toBe('active');
  });

  it('409 totals_changed: the fresh totals show with a notice, and Proceed pays those', async () => {
    const answers: (() => Promise<TempCheckoutResult>)[] = [() => Promise.reject(CHECKOUT_FAILURES.totalsChanged), () => new Promise(() => {})];
    const started = await ready(checkoutInput(), { pay: () => answers.shift()!() });
    await pay(started);
    const snapshot = started.actor.getSnapshot();
    expect(selectTotals(snapshot)).toEqual(FRESH_TOTALS);
    expect(selectNotice(snapshot)).toBe('totals_changed');
    expect(selectPayFailed(snapshot)).toBe(false);
    expect(selectCanPay(snapshot)).toBe(true);
    started.actor.send({ type: 'checkout.pay' });
    expect(started.calls.pay[1]).toMatchObject({ total: FRESH_TOTALS.total });
    // Paying again hides the notice.
    expect(selectNotice(started.actor.getSnapshot())).toBeNull();
  });

  it('409 totals_changed: applying a coupon afterwards keeps the notice (only a rate-limit notice goes)', async () => {
    const started = await ready(checkoutInput(), { pay: () => Promise.reject(CHECKOUT_FAILURES.totalsChanged) });
    await pay(started);
    expect(selectNotice(started.actor.getSnapshot())).toBe('totals_changed');
    await apply(started);
    expect(selectCoupon(started.actor.getSnapshot()).applied).toBe('SAVE10');
    expect(selectNotice(started.actor.getSnapshot())).toBe('totals_changed');
  });

  it('409 totals_changed with an applied coupon keeps the coupon and shows the fresh totals', async () => {
    const started = await ready(checkoutInput(), { pay: () => Promise.reject(CHECKOUT_FAILURES.totalsChanged) });
    await apply(started);
    await pay(started);
    const snapshot = started.actor.getSnapshot();
    expect(selectCoupon(snapshot).applied).toBe('SAVE10');
    expect(selectTotals(snapshot)).toEqual(FRESH_TOTALS);
    expect(snapshot.context.baseTotals).toEqual(PLAN_TOTALS);
  });

  it('409 totals_changed with totals the page cannot read is a failed payment', async () => {
    const started = await ready(checkoutInput(), { pay: () => Promise.reject(CHECKOUT_FAILURES.totalsChangedUnreadable) });
    await pay(started);
    expect(selectPayFailed(started.actor.getSnapshot())).toBe(true);
    expect(selectTotals(started.actor.getSnapshot())).toEqual(PLAN_TOTALS);
  });

  it.each([
    ['leadInDeal', { type: 'finished' }, { type: 'journey.reset' }],
    ['planNotChosen', { type: 'planMissing' }, { type: 'checkout.planMissing' }],
    ['reviewIncomplete', { type: 'reviewMissing' }, { type: 'checkout.reviewMissing' }],
  ] as const)('409 %s ends the step', async (name, output, event) => {
    const started = await ready(checkoutInput(), { pay: () => Promise.reject(CHECKOUT_FAILURES[name]) });
    await pay(started);
    expect(selectOutcome(started.actor.getSnapshot())).toEqual(output);
    expect(checkoutOutcomeEvent(output)).toEqual(event);
    expect(started.effects.thankYou).toBe(0);
  });

  it('422 on the coupon (used up meanwhile): back to the box with its message, the plan\'s totals, the stored coupon removed', async () => {
    const started = await ready(checkoutInput(), { pay: () => Promise.reject(CHECKOUT_FAILURES.couponUsedUp) });
    await apply(started);
    await pay(started);
    const snapshot = started.actor.getSnapshot();
    expect(snapshot.matches({ ready: { coupon: 'idle', payment: 'idle' } })).toBe(true);
    expect(selectCoupon(snapshot)).toEqual({ text: 'SAVE10', applied: null, error: 'coupon_used_up', message: USED_UP_MESSAGE, applying: false });
    expect(selectTotals(snapshot)).toEqual(PLAN_TOTALS);
    expect(started.effects.coupon).toBeNull();
    expect(selectPayFailed(snapshot)).toBe(false);
  });

  it.each(['network', 'server', 'rateLimited'] as const)('a %s failure opens the system error dialog; dismiss hides it, and Proceed tries again', async (name) => {
    const answers: (() => Promise<TempCheckoutResult>)[] = [() => Promise.reject(CHECKOUT_FAILURES[name]), async () => PAYABLE_RESULT];
    const started = await ready(checkoutInput(), { pay: () => answers.shift()!() });
    await pay(started);
    expect(selectPayFailed(started.actor.getSnapshot())).toBe(true);
    started.actor.send({ type: 'payFailed.dismiss' });
    expect(selectPayFailed(started.actor.getSnapshot())).toBe(false);
    await pay(started);
    expect(started.effects.left).toEqual([PAYMENT_URL]);
  });

  it('an answer neither paid nor payable is a failed payment', async () => {
    const started = await ready(checkoutInput(), { pay: async () => ({ ...PAYABLE_RESULT, payment_url: null }) });
    await pay(started);
    expect(selectPayFailed(started.actor.getSnapshot())).toBe(true);
    expect(started.effects.left).toEqual([]);
  });
});

describe('agent e-mail share', () => {
  it('is refused without an agent', async () => {
    const { actor, calls } = await ready();
    expect(actor.getSnapshot().can({ type: 'share.email' })).toBe(false);
    actor.send({ type: 'share.email' });
    await settle();
    expect(calls.email).toEqual([]);
  });

  it('needs both an agent and the page link: either alone is refused', async () => {
    for (const input of [checkoutInput({ agentId: 101, link: null }), checkoutInput({ agentId: null, link: CHECKOUT_LINK })]) {
      const { actor, calls } = await ready(input);
      expect(actor.getSnapshot().can({ type: 'share.email' })).toBe(false);
      actor.send({ type: 'share.email' });
      await settle();
      expect(calls.email).toEqual([]);
    }
  });

  it('sends the page link as checkout and shows the toast for 5 s', async () => {
    const { actor, calls, clock } = await ready(checkoutInput({ agentId: 101, link: CHECKOUT_LINK }));
    actor.send({ type: 'share.email' });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.emailSent);
    expect(calls.email).toEqual([{ uuid: CHECKOUT_LEAD_UUID, lang: 'en', agentId: 101, link: CHECKOUT_LINK, pagename: 'checkout' }]);
    clock.increment(EMAIL_TOAST_MS - 1);
    expect(actor.getSnapshot().context.emailSent).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().context.emailSent).toBe(false);
  });

  it('a failed share is silent and stops loading', async () => {
    const { actor } = await ready(checkoutInput({ agentId: 101, link: CHECKOUT_LINK }), { email: () => Promise.reject(CHECKOUT_FAILURES.server) });
    actor.send({ type: 'share.email' });
    expect(actor.getSnapshot().matches({ ready: { share: 'sending' } })).toBe(true);
    await waitForSnapshot(actor, (snapshot) => snapshot.matches({ ready: { share: 'idle' } }));
    expect(actor.getSnapshot().context.emailSent).toBe(false);
  });
});

describe("agent links carry the agent's coupon (issue 17)", () => {
  const withCoupon = (code: string) => `${CHECKOUT_LINK}&coupon=${code}`;
  const textFor = (link: string) => `Your travel insurance checkout: ${link}`;
  const agentStubs: Stubs = { validate: async (input) => ({ ...SAVE10, whatsappTemplate: textFor(input.link!) }) };

  it('an applied coupon goes into the WhatsApp text and the e-mailed link; Remove takes both back', async () => {
    const started = await ready(checkoutInput({ agentId: 101, link: CHECKOUT_LINK }), agentStubs);
    const { actor, calls } = started;
    await apply(started, 'SAVE10');
    expect(calls.validate).toEqual([{ uuid: CHECKOUT_LEAD_UUID, code: 'SAVE10', lang: 'en', link: withCoupon('SAVE10') }]);
    expect(actor.getSnapshot().context.whatsappTemplate).toBe(textFor(withCoupon('SAVE10')));
    expect(selectCoupon(actor.getSnapshot()).applied).toBe('SAVE10');
    actor.send({ type: 'share.email' });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.emailSent);
    expect(calls.email.at(-1)).toMatchObject({ link: withCoupon('SAVE10'), pagename: 'checkout' });

    actor.send({ type: 'coupon.remove' });
    expect(actor.getSnapshot().context.whatsappTemplate).toBe(textFor(CHECKOUT_LINK));
    actor.send({ type: 'share.email' });
    await waitForSnapshot(actor, (snapshot) => snapshot.matches({ ready: { share: 'sending' } }));
    await waitForSnapshot(actor, (snapshot) => !snapshot.matches({ ready: { share: 'sending' } }));
    expect(calls.email.at(-1)).toMatchObject({ link: CHECKOUT_LINK });
  });

  it('a refused coupon leaves the WhatsApp text without it', async () => {
    const started = await ready(checkoutInput({ agentId: 101, link: CHECKOUT_LINK }), { validate: () => Promise.reject(CHECKOUT_FAILURES.couponExpired) });
    await apply(started, 'OLD10');
    expect(started.actor.getSnapshot().context.whatsappTemplate).toBe(textFor(CHECKOUT_LINK));
  });

  it("the customer's checkout applies the link's coupon as if typed: the box filled, Coupon Applied, the agent's total", async () => {
    // The web hook passes the link's `coupon` as the coupon to apply at load (use-checkout-step.ts).
    const started = await ready(checkoutInput({ storedCoupon: 'SAVE10' }));
    const snapshot = started.actor.getSnapshot();
    expect(started.calls.validate).toEqual([{ uuid: CHECKOUT_LEAD_UUID, code: 'SAVE10', lang: 'en', link: null }]);
    expect(selectCoupon(snapshot)).toEqual({ text: 'SAVE10', applied: 'SAVE10', error: null, message: null, applying: false });
    expect(selectTotals(snapshot)).toEqual(SAVE10.totals);
  });

  it("an unusable coupon from the link shows its error as usual, the box keeping the code", async () => {
    const started = await ready(checkoutInput({ storedCoupon: 'OLD10' }), { validate: () => Promise.reject(CHECKOUT_FAILURES.couponExpired) });
    expect(selectCoupon(started.actor.getSnapshot())).toEqual({ text: 'OLD10', applied: null, error: 'coupon_expired', message: EXPIRED_MESSAGE, applying: false });
    expect(selectTotals(started.actor.getSnapshot())).toEqual(PLAN_TOTALS);
  });
});
