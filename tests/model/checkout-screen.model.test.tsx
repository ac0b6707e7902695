// @vitest-environment-options {"url": "https://safar.example/"}
import { act, cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { couponValidateEndpoint, tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { personalDetailsEndpoint } from '../../src/contract/lead.endpoints';
import { latestLeadByUuidEndpoint, sendEmailByPageEndpoint } from '../../src/contract/quote.endpoints';
import { EMAIL_TOAST_MS } from '../../machines/agent-share';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';
import {
  CHECKOUT_MODEL_CASES,
  LOADER_EVENT,
  checkoutPathLabel,
  createCheckoutTestModel,
  serializeCheckoutModelState,
  type CheckoutModelCase,
  type CheckoutModelEvent,
  type CheckoutModelPath,
} from '../../machines/checkout/checkout.model';
import { selectCanPay, selectPaying } from '../../machines/checkout/checkout.selectors';
import { CHECKOUT_LOADER_MS, type CheckoutData, type CouponResult, type TempCheckoutResult } from '../../machines/checkout/checkout.types';
import { STEP_PATHS } from '../../machines/journey.routes';
import { definedCoverage, greedyCover, pathsCoveringTransitions, recordModelCoverage, transitionsTakenBy } from '../../machines/model-tooling/model-coverage';
import { expectSameSnapshot, withPathIds } from '../../machines/model-tooling/model-replay';
import { formatMoney } from '../../src/web/i18n/format';
import { activateLanguage } from '../../src/web/i18n/locale';
import { paymentAddress } from '../../src/web/screens/checkout/checkout.actors';
import { configureHttpClient } from '../../src/web/services/http-client';
import { localStore } from '../../src/web/storage/local-store';
import { renderApp } from '../support/render-app';
import { holdDelays, press, watchStepActor } from './screen-support';
import { deferredApi, type DeferredApi } from './deferred-api';

/**
 * The checkout machine's generated paths (the same TestModels as machines/checkout/checkout.model.test.ts)
 * run on the rendered app at /checkout instead of on a bare actor: the step actor is the one the
 * screen starts, every call goes through the screen's services to the ky client, where
 * deferredApi holds it until the path's outcome answers it, and every user event is a click or
 * typing on the screen where the screen offers a control for it (the few it does not offer go to
 * the step actor, each with its reason: see perform). After each step the live step
 * actor must be where the model is, the screen must show it (the coupon box, the totals, the
 * notice, the pay panel, the loader, the failure views), and where the step ended, the journey
 * must have gone on (router path).
 *
 * The page runs at https://safar.example (the docblock above), so an agent's share link is the
 * model's own and the step's input equals the model's: the journey input gives the lead and the
 * agent, local storage the thank-you flag and the stored coupon.
 *
 * The machine's delayed events (the payment loader's 2.5 s, the share toast's 5 s) are held, as
 * the bare-actor test's simulated clock holds them, until the path takes their event.
 */

const inspect = recordModelCoverage(import.meta.url);

type Snapshot = SnapshotFrom<typeof checkoutMachine>;
type Path = CheckoutModelPath;

const ENDPOINTS = {
  details: personalDetailsEndpoint.path,
  whatsapp: latestLeadByUuidEndpoint.path,
  coupon: couponValidateEndpoint.path,
  pay: tempCheckoutEndpoint.path,
  email: sendEmailByPageEndpoint.path,
} as const;

const SHARE_TOAST_EVENT = `xstate.after.${EMAIL_TOAST_MS}.checkout.ready.share.sent`;
/** The step's delayed events and the delay of each: held until the path takes them. */
const DELAYS: Record<string, number> = { [LOADER_EVENT]: CHECKOUT_LOADER_MS, [SHARE_TOAST_EVENT]: EMAIL_TOAST_MS };

// ——— which paths run ———————————————————————————————————————————————————————————————————————

/**
 * The cases the screen can start in. "starts: no lead" is left out: without a lead the journey
 * refuses /checkout and shows travel details, so the checkout screen never starts its step (the
 * bare-actor test covers that start).
 */
const SCREEN_CASES: Record<string, CheckoutModelCase> = Object.fromEntries(Object.entries(CHECKOUT_MODEL_CASES).filter(([name]) => name !== 'starts: no lead'));

interface Candidate {
  caseName: string;
  kind: 'shortest' | 'transitions';
  path: Path;
  transitions: Set<string>;
}

/** The transitions a path takes (its step's calls never settle but by the path's own outcomes). */
const transitionsOf = (path: Path, testCase: CheckoutModelCase) => transitionsTakenBy(checkoutMachine, testCase.input, ['loadCheckout', 'validateCoupon', 'tempCheckout', 'sendEmail'], path);

function candidatesOf(caseName: string, testCase: CheckoutModelCase): Candidate[] {
  const model = createCheckoutTestModel(testCase);
  const shortest = model.getShortestPaths();
  const covering = pathsCoveringTransitions(checkoutMachine, model, shortest, serializeCheckoutModelState);
  return [
    ...shortest.map((path) => ({ caseName, kind: 'shortest' as const, path, transitions: transitionsOf(path, testCase) })),
    ...covering.map((path) => ({ caseName, kind: 'transitions' as const, path, transitions: transitionsOf(path, testCase) })),
  ];
}

const ALL_CANDIDATES = Object.entries(SCREEN_CASES).flatMap(([name, testCase]) => candidatesOf(name, testCase));

/**
 * The paths run: a greedy cover (model-coverage.ts greedyCover) of every case's shortest and
 * transition-covering paths, each round keeping the path that takes the most transitions no kept
 * path takes, or starts the screen in a case none starts in (ties: fewer steps, then the model's
 * order). Until 2026-12-03 all 49 paths (225 steps) ran, 30 core-seconds alone and more in
 * `npm test` (issue 35 item 2); the bare-actor test (machines/checkout/checkout.model.test.ts)
 * runs every one. MODEL_SCREEN_ALL_PATHS=1 runs every path here too.
 */
const RUN =
  process.env.MODEL_SCREEN_ALL_PATHS === '1'
    ? ALL_CANDIDATES
    : greedyCover(ALL_CANDIDATES, (candidate) => [...candidate.transitions, `starts in: ${candidate.caseName}`], (candidate) => candidate.path.steps.length);

// ——— the app's edges: the API, the payments page and the step's clock —————————————————————

/** loadCheckout's output X, as the calls the screen's loadCheckout makes answer it. */
async function answerLoad(api: DeferredApi, data: CheckoutData, agent: boolean) {
  await api.answer(ENDPOINTS.details, { customer: data.details });
  if (agent) {
    await api.answer(ENDPOINTS.whatsapp, {
      customer: { get_customer: data.details.get_customer, lead_details: data.details.lead_details },
      whatapp_template: data.whatsappTemplate,
      isLeadAlreadyInDeal: data.details.isLeadAlreadyInDeal,
    });
  }
}

/** What the screen sent to coupon/validate: the code in the box, for the lead. */
function expectCouponSent(body: unknown, before: Snapshot) {
  expect(body).toMatchObject({ uuid: before.context.uuid, promo_code: before.context.couponText, language: 'en' });
}

/** What the screen sent to temp-checkout: the total it showed and the coupon applied, nothing else. */
function expectPaymentSent(body: unknown, before: Snapshot) {
  const { context } = before;
  expect(body).toEqual({ uuid: context.uuid, session_id: context.sessionId, agent_id: context.agentId, language: 'en', coupon: context.coupon?.code ?? null, total_price_vat: context.totals!.total });
}

/**
 * The edge of the world: the browser leaving for the hosted payments page. The test page cannot
 * navigate away, so its location's assign is replaced for the test and records the address
 * instead. Nothing else is stubbed.
 */
function stubPaymentsPageRedirect() {
  const addresses: string[] = [];
  const assign = vi.spyOn(window.location, 'assign').mockImplementation((url: string | URL) => void addresses.push(String(url)));
  return { addresses, restore: () => assign.mockRestore() };
}

// ——— the screen ——————————————————————————————————————————————————————————————————————————————

const money = (cents: number, options: { minus?: boolean } = {}) => formatMoney(cents, 'en', { cents: true, ...options });

/**
 * A snapshot as the screen's and the model's can be compared. A customer's page asks for no
 * WhatsApp text, where the model's samples carry one (checkout.model.ts): for a customer the two
 * texts are left out here, and runOnScreen checks that the screen's are empty. An agent's page
 * has the model's own.
 */
function comparable(snapshot: Snapshot, agent: boolean) {
  const { whatsappTemplate, baseWhatsappTemplate, ...context } = snapshot.context;
  return { value: snapshot.value, status: snapshot.status, context: { ...context, ...(agent ? { whatsappTemplate, baseWhatsappTemplate } : {}) } };
}

// ——— one path ————————————————————————————————————————————————————————————————————————————————

const OUTCOME_PATHS: Record<string, string> = {
  paidInFull: STEP_PATHS.thankYouHundred,
  planMissing: STEP_PATHS.compareQuotes,
  reviewMissing: STEP_PATHS.reviewDetails,
  finished: STEP_PATHS.travellerDetails,
};
const OUTCOME_SCREENS: Record<string, string> = {
  paidInFull: 'screen-thank-you-hundred',
  planMissing: 'screen-compare-quotes',
  reviewMissing: 'screen-review-details',
  finished: 'screen-traveller-details',
};

async function runOnScreen(path: Path, testCase: CheckoutModelCase): Promise<number> {
  const { input } = testCase;
  const agent = input.agentId !== null;
  if (input.thankYou) {
    localStore.set('thankyou', '1');
    if (input.uuid) localStore.set('thankyou_lead', input.uuid);
  }
  if (input.storedCoupon) localStore.set('coupon', input.storedCoupon);
  const api = deferredApi();
  configureHttpClient({ baseUrl: 'http://review.model.test', signingKey: 'model-test', fetch: api.fetch });
  const redirect = stubPaymentsPageRedirect();

  let clock: ReturnType<typeof holdDelays> | null = null;
  const { watch, step } = watchStepActor(inspect, 'checkout', (actor) => {
    clock = holdDelays(actor, Object.values(DELAYS));
  });
  const query = `?uuid=${input.uuid}&sid=${input.sessionId}`;
  const { router } = renderApp(`${STEP_PATHS.checkout}${query}`, { path: STEP_PATHS.checkout, uuid: input.uuid, sessionId: input.sessionId, agentId: agent ? String(input.agentId) : null }, { inspect: watch });
  const live = () => {
    return step().getSnapshot() as Snapshot;
  };

  let previousEvent = '';

  const expectScreen = (model: Snapshot) => {
    const { context } = model;
    const outcome = typeof model.value === 'string' ? OUTCOME_PATHS[model.value] : undefined;
    if (outcome) {
      // The step ended: the journey went on, and the checkout screen is gone.
      expect(router.state.location.pathname).toBe(outcome);
      expect(screen.getByTestId(OUTCOME_SCREENS[model.value as string]!)).toBeTruthy();
      expect(screen.queryByTestId('screen-checkout')).toBeNull();
      // Paid in full: the thank-you flag is stored and the coupon is spent.
      if (model.value === 'paidInFull') expect({ thankyou: localStore.get('thankyou'), coupon: localStore.get('coupon') }).toEqual({ thankyou: '1', coupon: null });
      else expect(localStore.get('thankyou')).toBe(input.thankYou ? '1' : null);
      return;
    }
    expect(router.state.location.pathname).toBe(STEP_PATHS.checkout);
    expect(screen.getByTestId('screen-checkout')).toBeTruthy();
    if (model.matches('loading')) {
      expect(screen.getByTestId('checkout-loading')).toBeTruthy();
      return;
    }
    if (model.matches('failed')) {
      expect(screen.getByRole('alert').textContent).toContain('An error occurred');
      expect(screen.queryByTestId('checkout-loading')).toBeNull();
      return;
    }
    // Ready: the plan, the coupon box, the totals, and the pay panel or the share buttons.
    expect(screen.queryByTestId('checkout-loading')).toBeNull();
    expect(screen.getByTestId('checkout-summary')).toBeTruthy();
    const box = screen.getByTestId('coupon-box');
    expect((within(box).getByTestId('coupon-input') as HTMLInputElement).value).toBe(context.couponText);
    expect(within(box).queryByTestId('coupon-applied') !== null).toBe(context.coupon !== null);
    expect(within(box).queryByTestId('coupon-remove') !== null).toBe(context.coupon !== null);
    if (!context.coupon) expect(within(box).getByTestId('coupon-apply').hasAttribute('data-loading')).toBe(model.matches({ ready: { coupon: 'applying' } }));
    // A refused coupon: the server's message under the box, and no coupon kept for a reload.
    if (context.couponMessage) expect(box.textContent).toContain(context.couponMessage);
    if (context.couponError) expect(localStore.get('coupon')).toBeNull();
    // An applied one is kept, so a reload applies it again.
    if (context.coupon) expect(localStore.get('coupon')).toBe(context.coupon.code);
    // The totals shown are the step's: the coupon's discount and the total to pay.
    const totals = context.totals!;
    expect(screen.getByTestId('price-total').textContent).toBe(money(totals.total));
    expect(screen.getByTestId('price-plan').textContent).toBe(money(totals.plan_price));
    expect(screen.queryByTestId('price-discount')?.textContent ?? null).toBe(totals.discount > 0 ? money(totals.discount, { minus: true }) : null);
    const notice = screen.queryByTestId('checkout-notice');
    expect(notice !== null).toBe(context.notice !== null);
    if (context.notice === 'totals_changed') expect(notice!.textContent).toContain('The price was updated');
    if (context.notice === 'coupon_rate_limited') expect(notice!.textContent).toContain('Too many coupon attempts');
    // A call that failed for a reason the page cannot show opens the system error dialog.
    if ((context.payFailed && previousEvent.startsWith('xstate.error.actor.tempCheckout')) || (context.couponFailed && previousEvent.startsWith('xstate.error.actor.validateCoupon'))) {
      expect(screen.getByTestId('system-error-dialog')).toBeTruthy();
    }
    if (previousEvent === 'payFailed.dismiss') expect(screen.queryByTestId('system-error-dialog')).toBeNull();
    if (agent) {
      // Agents never pay (spec §6): no pay panel, the share buttons instead.
      expect(screen.queryByTestId('pay-panel')).toBeNull();
      expect(screen.getByTestId('share-email').hasAttribute('data-loading')).toBe(model.matches({ ready: { share: 'sending' } }));
      const toast = screen.queryByTestId('share-email-toast');
      expect(toast?.textContent ?? null).toBe(context.emailSent ? `Link sent to ${context.customer!.email}` : null);
      return;
    }
    expect(screen.queryByTestId('agent-share')).toBeNull();
    expect((screen.getByTestId('terms-checkbox') as HTMLInputElement).checked).toBe(context.termsAgreed);
    const pay = screen.getByTestId('checkout-pay') as HTMLButtonElement;
    expect(pay.disabled).toBe(!selectCanPay(model));
    // The payment loader: over the page while temp-checkout runs and the 2.5 s after it.
    expect(screen.getByTestId('checkout-paying-status').textContent !== '').toBe(selectPaying(model));
    if (model.matches({ ready: { payment: 'leaving' } })) {
      // The browser left for this attempt's payments page, with the lead's source parameters.
      const paid = path.steps.map((s) => s.event).findLast((event) => event.type === 'xstate.done.actor.tempCheckout') as { output: TempCheckoutResult };
      expect(redirect.addresses.at(-1)).toBe(paymentAddress(paid.output.payment_url!, context));
    }
  };

  const check = async (model: Snapshot) => {
    await waitFor(() => {
      expectSameSnapshot(comparable(live(), agent), comparable(model, agent));
      if (!agent) expect({ whatsappTemplate: live().context.whatsappTemplate, base: live().context.baseWhatsappTemplate }).toEqual({ whatsappTemplate: '', base: '' });
      expectScreen(model);
    });
  };

  /** The user closes the system error dialog before doing anything else on the page: it covers the page. */
  const closeSystemError = () => {
    const dialog = screen.queryByTestId('system-error-dialog');
    if (dialog) press(within(dialog).getByRole('button', { name: 'Close' }));
  };

  const toActor = (event: CheckoutModelEvent) => act(() => step().send(event as never));

  const perform = async (event: CheckoutModelEvent, before: Snapshot) => {
    const type = event.type as string;
    const output = (event as { output?: unknown }).output;
    const error = (event as { error?: unknown }).error;
    if (type in DELAYS) {
      // Time passes: the step's clock runs the held timer of this delayed event.
      act(() => clock!.release(DELAYS[type]!));
    } else if (type === 'xstate.done.actor.loadCheckout') {
      await answerLoad(api, output as CheckoutData, agent);
    } else if (type === 'xstate.error.actor.loadCheckout') {
      await api.failWith(ENDPOINTS.details, error);
    } else if (type === 'xstate.done.actor.validateCoupon') {
      expectCouponSent(await api.answer(ENDPOINTS.coupon, output as CouponResult), before);
    } else if (type === 'xstate.error.actor.validateCoupon') {
      expectCouponSent(await api.failWith(ENDPOINTS.coupon, error), before);
    } else if (type === 'xstate.done.actor.tempCheckout') {
      expectPaymentSent(await api.answer(ENDPOINTS.pay, output as TempCheckoutResult), before);
    } else if (type === 'xstate.error.actor.tempCheckout') {
      expectPaymentSent(await api.failWith(ENDPOINTS.pay, error), before);
    } else if (type === 'xstate.done.actor.sendEmail') {
      await api.answer(ENDPOINTS.email, { sent: true });
    } else if (type === 'xstate.error.actor.sendEmail') {
      await api.failWith(ENDPOINTS.email, error);
    } else if (event.type === 'coupon.change') {
      closeSystemError();
      fireEvent.change(screen.getByTestId('coupon-input'), { target: { value: event.text } });
    } else if (event.type === 'coupon.apply') {
      closeSystemError();
      press(screen.getByTestId('coupon-apply'));
    } else if (event.type === 'coupon.remove') {
      closeSystemError();
      const remove = screen.queryByTestId('coupon-remove');
      // Remove shows only beside an applied coupon; the machine also takes it with none applied
      // (it empties the box), which no control of the screen does: that one goes to the actor.
      if (remove) press(remove);
      else toActor(event);
    } else if (event.type === 'notice.dismiss') {
      const notice = screen.queryByTestId('checkout-notice');
      // The notice's close button; with no notice shown there is nothing to close on the screen,
      // and the machine takes the event anyway: that one goes to the actor.
      if (notice) press(within(notice).getByRole('button', { name: 'Close' }));
      else toActor(event);
    } else if (event.type === 'payFailed.dismiss') {
      // The user closes the system error dialog; no control of the screen tells the step (the
      // dialog belongs to the app shell and only closes), so the event goes to the step actor.
      closeSystemError();
      toActor(event);
    } else if (event.type === 'terms.toggle') {
      closeSystemError();
      const terms = screen.getByTestId('terms-checkbox') as HTMLInputElement;
      // A checkbox can only flip: "agreed" when it is ticked already has no control.
      if (terms.checked !== event.agreed) fireEvent.click(terms);
      else toActor(event);
    } else if (event.type === 'checkout.pay') {
      closeSystemError();
      press(screen.getByTestId('checkout-pay'));
    } else if (event.type === 'share.email') {
      press(screen.getByTestId('share-email'));
    } else {
      throw new Error(`no way to perform ${type} on the screen`);
    }
    previousEvent = type;
  };

  let checked = 0;
  try {
    for (const [index, { event, state }] of path.steps.entries()) {
      try {
        if (index > 0) await perform(event, path.steps[index - 1]!.state);
        await check(state);
        checked += 1;
      } catch (error) {
        throw new Error(`step ${index} (${event.type}): ${(error as Error).message}`, { cause: error });
      }
    }
  } finally {
    (clock as ReturnType<typeof holdDelays> | null)?.restore();
    redirect.restore();
  }
  return checked;
}

// ——— the tests ———————————————————————————————————————————————————————————————————————————————

beforeAll(async () => {
  // A failed query says what it missed, without the whole page's markup.
  configure({ getElementError: (message) => new Error(message ?? 'element not found') });
  await activateLanguage('en');
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

describe('checkout model on the rendered screen (/checkout; API at the ky client; the hosted payments page redirect stubbed)', () => {
  it('runs paths that take every transition the screen can take, and start the screen in every case', () => {
    const all = new Set(RUN.flatMap((candidate) => [...candidate.transitions]));
    expect(Object.keys(SCREEN_CASES).filter((caseName) => !RUN.some((candidate) => candidate.caseName === caseName))).toEqual([]);
    // Only the start without a lead is out of the screen's reach.
    expect(definedCoverage(checkoutMachine).transitions.map(({ name }) => name).filter((name) => !all.has(name))).toEqual(['checkout.starting always #2']);
  });

  for (const [caseName, testCase] of Object.entries(SCREEN_CASES)) {
    for (const kind of ['shortest', 'transitions'] as const) {
      const paths = RUN.filter((candidate) => candidate.caseName === caseName && candidate.kind === kind).map((candidate) => candidate.path);
      if (paths.length === 0) continue;
      describe(`checkout screen: ${caseName} (${kind})`, () => {
        it.each(withPathIds(`checkout screen ${caseName} ${kind}`, paths, checkoutPathLabel))('%s', async (_label, path) => {
          expect(await runOnScreen(path, testCase)).toBe(path.steps.length);
        });
      });
    }
  }
});
