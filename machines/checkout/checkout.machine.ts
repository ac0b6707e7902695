import { and, assign, fromPromise, not, setup, stateIn } from 'xstate';
import { notProvided } from '../not-provided';
import { agentShareRegion } from '../agent-share';
import {
  changedTotals,
  couponBoxText,
  couponRefusal,
  hasNoPlan,
  hasStoredCoupon,
  initialContext,
  isBrokenRead,
  isConflict,
  isInDeal,
  isRateLimited,
  isReviewIncomplete,
  loadedCheckout,
  tempCheckoutInput,
  validateCouponInput,
  withChangedTotals,
  withAppliedCoupon,
  withRefusedCoupon,
  sharedCheckoutLink,
} from './checkout.helpers';
import { loadFailureOf } from '../service-failure';
import {
  CHECKOUT_LOADER_MS,
  type CheckoutContext,
  type CheckoutData,
  type CheckoutEvent,
  type CheckoutInput,
  type CheckoutOutput,
  type CheckoutSendEmailInput,
  type CheckoutTag,
  type CouponCheck,
  type LoadCheckoutInput,
  type TempCheckoutInput,
  type TempCheckoutResult,
  type ValidateCouponInput,
} from './checkout.types';

const PAYMENT_IDLE = '#checkout.ready.payment.idle';
const COUPON_APPLYING = '#checkout.ready.coupon.applying';

const machineSetup = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
    output: {} as CheckoutOutput,
    tags: {} as CheckoutTag,
  },
  actors: {
    loadCheckout: fromPromise<CheckoutData, LoadCheckoutInput>(notProvided('checkout', 'loadCheckout')),
    validateCoupon: fromPromise<CouponCheck, ValidateCouponInput>(notProvided('checkout', 'validateCoupon')),
    tempCheckout: fromPromise<TempCheckoutResult, TempCheckoutInput>(notProvided('checkout', 'tempCheckout')),
    sendEmail: fromPromise<unknown, CheckoutSendEmailInput>(notProvided('checkout', 'sendEmail')),
  },
  actions: {
    // The agent's share region (agentShareRegion) names these.
    markEmailSent: assign({ emailSent: true }),
    clearEmailSent: assign({ emailSent: false }),
    // Injected by the web: local storage of spec §3 (`coupon`, `thankyou`), and the way out to
    // the payments page (outside the SPA) with the stored source parameters.
    storeCoupon: (_, _params: { code: string }) => {},
    removeStoredCoupon: () => {},
    storeThankYou: () => {},
    leaveForPayment: (_, _params: { url: string }) => {},
    end: assign((_, params: { outcome: CheckoutOutput }) => ({ outcome: params.outcome })),
    // The server refused the coupon: none applied, the plan's totals, its reason under the box.
    refuseCoupon: assign(({ context }, params: { error: unknown }) => withRefusedCoupon(context, couponRefusal(params.error)!)),
    // Remove: the box empties and the plan's totals show again.
    clearCoupon: assign(({ context }) => ({
      couponText: '',
      coupon: null,
      couponError: null,
      couponMessage: null,
      totals: context.baseTotals,
      whatsappTemplate: context.baseWhatsappTemplate,
    })),
  },
  guards: {
    isFinished: ({ context }) => context.thankYou,
    hasLead: ({ context }) => context.uuid !== null,
    inDeal: (_, params: { data: CheckoutData }) => isInDeal(params.data),
    noPlan: (_, params: { data: CheckoutData }) => hasNoPlan(params.data),
    reviewIncomplete: (_, params: { data: CheckoutData }) => isReviewIncomplete(params.data),
    brokenRead: (_, params: { data: CheckoutData }) => isBrokenRead(params.data),
    hasStoredCoupon: ({ context }) => hasStoredCoupon(context),
    // The coupon box and Proceed wait while the payment call runs and its loader stays.
    paymentIdle: stateIn(PAYMENT_IDLE),
    canApply: and([({ context }) => context.couponText !== '', stateIn(PAYMENT_IDLE)]),
    couponGone: ({ context }) => context.coupon === null,
    couponRefused: (_, params: { error: unknown }) => couponRefusal(params.error) !== null,
    rateLimited: (_, params: { error: unknown }) => isRateLimited(params.error),
    // Spec §5, §6: agents never pay; terms agreed; not while a coupon is being checked.
    canPay: and([({ context }) => context.agentId === null && context.termsAgreed, 'hasTotals', not(stateIn(COUPON_APPLYING))]),
    // Stryker disable next-line ConditionalExpression: totals are there in every state under ready, the only one that pays (brokenRead refuses a read without)
    hasTotals: ({ context }) => context.totals !== null,
    paidInFull: (_, params: { result: TempCheckoutResult }) => params.result.redirect_to_thank_you,
    hasPaymentUrl: (_, params: { result: TempCheckoutResult }) => params.result.payment_url !== null,
    leadInDeal: (_, params: { error: unknown }) => isConflict(params.error, 'lead_in_deal'),
    planNotChosen: (_, params: { error: unknown }) => isConflict(params.error, 'plan_not_chosen'),
    reviewNotComplete: (_, params: { error: unknown }) => isConflict(params.error, 'review_incomplete'),
    totalsChanged: (_, params: { error: unknown }) => changedTotals(params.error) !== null,
    canShare: ({ context }) => context.agentId !== null && context.link !== null,
  },
});

/** Ends the step in the final state named after its outcome. */
function endWith(type: CheckoutOutput['type']) {
  return { target: `#checkout.${type}`, actions: { type: 'end', params: { outcome: { type } } } } as const;
}

export const checkoutMachine = machineSetup.createMachine({
  id: 'checkout',
  context: ({ input }) => initialContext(input),
  initial: 'starting',
  output: ({ context }) => context.outcome!,
  states: {
    starting: {
      description: 'A stored thank-you flag ends the journey; without a lead there is nothing to load.',
      always: [
        { guard: 'isFinished', ...endWith('finished') },
        { guard: 'hasLead', target: 'loading' },
        { target: 'noLead' },
      ],
    },
    noLead: {
      description: 'No lead: the journey has already refused the page and sends the user to travel details.',
    },
    loading: {
      description: 'get-personal-details: the lead, its travellers, the chosen plan and its totals; the page shows its wait message.',
      tags: ['busy'],
      invoke: {
        id: 'loadCheckout',
        src: 'loadCheckout',
        input: ({ context }) => ({ uuid: context.uuid!, sessionId: context.sessionId, lang: context.lang, link: context.link }),
        onDone: [
          // Spec §4: a lead already in a deal cannot be bought again.
          { guard: { type: 'inDeal', params: ({ event }) => ({ data: event.output }) }, ...endWith('finished') },
          { guard: { type: 'noPlan', params: ({ event }) => ({ data: event.output }) }, ...endWith('planMissing') },
          { guard: { type: 'reviewIncomplete', params: ({ event }) => ({ data: event.output }) }, ...endWith('reviewMissing') },
          {
            guard: { type: 'brokenRead', params: ({ event }) => ({ data: event.output }) },
            target: 'failed',
            actions: assign({ failure: 'load_failed' }),
          },
          // Spec §3 `coupon`: the coupon applied before a reload is applied again (the server re-checks it).
          {
            guard: 'hasStoredCoupon',
            target: 'ready.coupon.applying',
            actions: assign(({ context, event }) => loadedCheckout(event.output, context.storedCoupon)),
          },
          { target: 'ready', actions: assign(({ event }) => loadedCheckout(event.output, null)) },
        ],
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => loadFailureOf(event.error) }) },
      },
    },
    failed: {
      description: 'The lead could not be read: the error view.',
    },
    ready: {
      description: 'The plan, its travellers and the totals; a coupon, terms and payment run side by side, and an agent can share the page.',
      type: 'parallel',
      on: {
        'notice.dismiss': { actions: assign({ notice: null }) },
        'payFailed.dismiss': { actions: assign({ payFailed: false }) },
      },
      states: {
        coupon: {
          description: 'The coupon box (spec §4): the server checks a code and answers the totals with it.',
          initial: 'idle',
          states: {
            idle: {
              description: 'No coupon applied; the box holds what was typed, and the last refusal if any.',
              on: {
                'coupon.change': { guard: 'paymentIdle', actions: assign({ couponText: ({ event }) => couponBoxText(event.text) }) },
                // Applying clears the previous success and error (spec §4).
                'coupon.apply': {
                  guard: 'canApply',
                  target: 'applying',
                  actions: assign(({ context }) => ({
                    coupon: null,
                    totals: context.baseTotals,
                    couponError: null,
                    couponMessage: null,
                    couponFailed: false,
                    notice: context.notice === 'coupon_rate_limited' ? null : context.notice,
                  })),
                },
                'coupon.remove': { guard: 'paymentIdle', actions: ['clearCoupon', 'removeStoredCoupon'] },
              },
            },
            applying: {
              description: 'coupon/validate: Proceed waits; the box shows its loader.',
              tags: ['busy', 'applying'],
              invoke: {
                id: 'validateCoupon',
                src: 'validateCoupon',
                input: ({ context }) => validateCouponInput(context),
                onDone: {
                  target: 'applied',
                  actions: [
                    assign(({ context, event }) => withAppliedCoupon(context, event.output)),
                    { type: 'storeCoupon', params: ({ event }) => ({ code: event.output.code }) },
                  ],
                },
                onError: [
                  // Refused (unknown, expired, used up, other provider): the message in red, the stored coupon removed.
                  {
                    guard: { type: 'couponRefused', params: ({ event }) => ({ error: event.error }) },
                    target: 'idle',
                    actions: [{ type: 'refuseCoupon', params: ({ event }) => ({ error: event.error }) }, 'removeStoredCoupon'],
                  },
                  // A transient failure says nothing about the coupon: the stored one stays, the box keeps the code.
                  {
                    guard: { type: 'rateLimited', params: ({ event }) => ({ error: event.error }) },
                    target: 'idle',
                    actions: assign({ notice: 'coupon_rate_limited' }),
                  },
                  { target: 'idle', actions: assign({ couponFailed: true }) },
                ],
              },
            },
            applied: {
              description: '"Coupon Applied" with Remove; the totals are the coupon\'s. The payment call may refuse the coupon after all.',
              // temp-checkout refused the coupon (expired meanwhile): the payment region took it away.
              always: { guard: 'couponGone', target: 'idle' },
              on: {
                'coupon.remove': { guard: 'paymentIdle', target: 'idle', actions: ['clearCoupon', 'removeStoredCoupon'] },
              },
            },
          },
        },
        terms: {
          description: 'The terms checkbox, checked by default (spec §5); agents do not see it.',
          on: { 'terms.toggle': { actions: assign({ termsAgreed: ({ event }) => event.agreed }) } },
        },
        payment: {
          description: 'Proceed: temp-checkout places the order with the total shown; then the payments page, or /thank-you-p when nothing is left to pay.',
          initial: 'idle',
          states: {
            idle: {
              on: { 'checkout.pay': { guard: 'canPay', target: 'paying', actions: assign({ payFailed: false, notice: null }) } },
            },
            paying: {
              description: 'temp-checkout: the server recomputes the totals, refuses a figure that is not its own, and places the order.',
              tags: ['busy', 'paying'],
              invoke: {
                id: 'tempCheckout',
                src: 'tempCheckout',
                input: ({ context }) => tempCheckoutInput(context),
                onDone: [
                  {
                    guard: { type: 'paidInFull', params: ({ event }) => ({ result: event.output }) },
                    target: '#checkout.paidInFull',
                    actions: ['storeThankYou', { type: 'end', params: { outcome: { type: 'paidInFull' } } }],
                  },
                  {
                    guard: { type: 'hasPaymentUrl', params: ({ event }) => ({ result: event.output }) },
                    target: 'leaving',
                    actions: { type: 'leaveForPayment', params: ({ event }) => ({ url: event.output.payment_url! }) },
                  },
                  // Neither paid nor payable: an answer the page cannot act on.
                  { target: 'idle', actions: assign({ payFailed: true }) },
                ],
                onError: [
                  { guard: { type: 'leadInDeal', params: ({ event }) => ({ error: event.error }) }, ...endWith('finished') },
                  { guard: { type: 'planNotChosen', params: ({ event }) => ({ error: event.error }) }, ...endWith('planMissing') },
                  { guard: { type: 'reviewNotComplete', params: ({ event }) => ({ error: event.error }) }, ...endWith('reviewMissing') },
                  // The server's figures differ from the page's: show its fresh totals; Proceed pays those.
                  {
                    guard: { type: 'totalsChanged', params: ({ event }) => ({ error: event.error }) },
                    target: 'idle',
                    actions: assign(({ context, event }) => withChangedTotals(context, changedTotals(event.error)!)),
                  },
                  // The coupon expired or was used up meanwhile: the coupon region goes back to its box.
                  {
                    guard: { type: 'couponRefused', params: ({ event }) => ({ error: event.error }) },
                    target: 'idle',
                    actions: [{ type: 'refuseCoupon', params: ({ event }) => ({ error: event.error }) }, 'removeStoredCoupon'],
                  },
                  { target: 'idle', actions: assign({ payFailed: true }) },
                ],
              },
            },
            leaving: {
              description: 'The browser leaves for the payments page; the loader hides 2.5 s after the call (spec §4, §9).',
              tags: ['busy', 'paying'],
              after: { [CHECKOUT_LOADER_MS]: 'idle' },
            },
          },
        },
        // The agent shares the page with the applied coupon, so the customer sees the same total (issue 17).
        share: agentShareRegion<CheckoutContext, 'checkout'>(() => 'checkout', sharedCheckoutLink),
      },
    },
    paidInFull: {
      description: 'Nothing was left to pay (a 100 % coupon): the order is paid, the thank-you flag stored; the journey shows /thank-you-p.',
      type: 'final',
    },
    planMissing: {
      description: 'No plan is chosen for this lead (any more): the journey returns to its quotes.',
      type: 'final',
    },
    reviewMissing: {
      description: 'A traveller is not reviewed yet: the journey returns to review details.',
      type: 'final',
    },
    finished: {
      description: 'A thank-you flag is stored, or the lead is already in a deal: the journey starts over at travel details.',
      type: 'final',
    },
  },
});
