import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { definedCoverage, greedyCover, pathsCoveringTransitions, reachedCoverage, recordModelCoverage, transitionsTakenBy } from '../../machines/model-tooling/model-coverage';
import { expectSameSnapshot, testPathOnActor, withPathIds } from '../../machines/model-tooling/model-replay';
import { paymentResultMachine } from '../../machines/payment-result/payment-result.machine';
import {
  POLL_EVENT,
  RESULT_LEAD_UUID,
  RESULT_REFERENCE,
  createPaymentResultTestModel,
  paymentResultModelEvents,
  paymentResultModelJourneys,
  paymentResultPathLabel,
  resultInput,
  serializePaymentResultModelState,
  type PaymentResultModelEvent,
  type PaymentResultModelPath,
} from '../../machines/payment-result/payment-result.model';
import { selectPaymentResultView } from '../../machines/payment-result/payment-result.selectors';
import { PAYMENT_POLL_MS, type PaymentResultInput } from '../../machines/payment-result/payment-result.types';
import { paymentStatusEndpoint } from '../../src/contract/payment.endpoints';
import { activateLanguage } from '../../src/web/i18n/locale';
import { configureHttpClient } from '../../src/web/services/http-client';
import { localStore } from '../../src/web/storage/local-store';
import { renderApp } from '../support/render-app';
import { watchStepActor } from './screen-support';
import { deferredApi, type DeferredApi } from './deferred-api';

/**
 * The payment result step's model (machines/payment-result/payment-result.model.test.ts) run on the rendered
 * app at /payment-result (issue 20): each read's outcome is payment-status's answer at the ky
 * client (deferred-api.ts), each button is clicked on the screen (Try again, Refresh, Start a
 * new quote), and the 2 s between polls is the one thing stubbed: vi's fake setTimeout, advanced
 * by PAYMENT_POLL_MS where the model sends its POLL_EVENT. After every step the live step actor
 * must be where the model is, the screen must show that view, and an ended step must have taken
 * the journey on (checkout for "Try again", travel details for a new quote).
 */

const inspect = recordModelCoverage(import.meta.url);

const serializeState = serializePaymentResultModelState;
const labelOf = paymentResultPathLabel;
const createModel = createPaymentResultTestModel;

type Snapshot = SnapshotFrom<typeof paymentResultMachine>;
type Path = PaymentResultModelPath;

const STATES = ['loading', 'pending', 'paid', 'failed', 'unconfirmed', 'notFound', 'error', 'retry', 'newQuote'] as const;
const PAYMENT_STATUS = paymentStatusEndpoint.path;
/**
 * The bare-actor model test's cases the screen at /payment-result can start: the return's
 * address with the lead and the reference, with the lead alone (no `ref`), and with no lead at
 * all (a refused return). Its Arabic case is left out: renderApp renders the app in English.
 */
const CASES: { name: string; url: string; input: PaymentResultInput }[] = [
  { name: 'with the lead and the reference of the return', url: `/payment-result?uuid=${RESULT_LEAD_UUID}&ref=${RESULT_REFERENCE}&lang=en`, input: resultInput() },
  { name: 'with the lead alone', url: `/payment-result?uuid=${RESULT_LEAD_UUID}&lang=en`, input: resultInput({ reference: null }) },
  { name: 'without a lead in the address', url: '/payment-result?lang=en', input: resultInput({ uuid: null, reference: null }) },
];

/**
 * The paths generated for a case: the bare-actor model test's shortest paths, its scripted
 * journeys (a failed read while polling is only there) and the paths covering the transitions
 * those never take; its simple paths are left out (hundreds of ten-poll visits, each ~0.3 s on
 * the screen).
 */
function pathsOf(input: PaymentResultInput) {
  const model = createModel(input);
  const shortest = model.getShortestPaths();
  const fromState = shortest[0]!.steps[0]!.state;
  const journeys = input.uuid === null ? [] : paymentResultModelJourneys().flatMap((events) => model.getPathsFromEvents(events, { fromState, serializeState }));
  const covering = pathsCoveringTransitions(paymentResultMachine, model, [...shortest, ...journeys], serializeState);
  return { shortest, journeys, covering };
}

type Kind = 'shortest' | 'journey' | 'transitions';
interface Candidate {
  caseName: string;
  kind: Kind;
  path: Path;
  /** The transitions it takes, and the case it starts the screen in. */
  keys: Set<string>;
}

const ALL_CANDIDATES: Candidate[] = CASES.flatMap(({ name, input }) => {
  const { shortest, journeys, covering } = pathsOf(input);
  const candidate = (kind: Kind) => (path: Path): Candidate => ({
    caseName: name,
    kind,
    path,
    keys: new Set([...transitionsTakenBy(paymentResultMachine, input, ['loadStatus'], path), `starts in: ${name}`]),
  });
  return [...shortest.map(candidate('shortest')), ...journeys.map(candidate('journey')), ...covering.map(candidate('transitions'))];
});

/**
 * The paths run: every scripted journey, then a greedy cover (model-coverage.ts greedyCover) of
 * the other paths of every case, each round keeping the path that takes the most transitions no
 * kept path takes, or starts the screen in a case none starts in (ties: fewer steps). Until
 * 2026-12-03 all 120 ran (39 core-seconds alone, more in `npm test`, issue 35 item 2); the
 * bare-actor test runs every one. The last test below checks that the paths run took every state
 * and transition the machine defines. MODEL_SCREEN_ALL_PATHS=1 runs every path.
 */
const JOURNEYS = ALL_CANDIDATES.filter((candidate) => candidate.kind === 'journey');
const takenByJourneys = new Set(JOURNEYS.flatMap((candidate) => [...candidate.keys]));
const RUN =
  process.env.MODEL_SCREEN_ALL_PATHS === '1'
    ? ALL_CANDIDATES
    : [
        ...JOURNEYS,
        ...greedyCover(
          ALL_CANDIDATES.filter((candidate) => candidate.kind !== 'journey'),
          (candidate) => [...candidate.keys].filter((key) => !takenByJourneys.has(key)),
          (candidate) => candidate.path.steps.length,
        ),
      ];

let api: DeferredApi;
let pump: ReturnType<typeof setInterval> | undefined;

beforeAll(async () => {
  await activateLanguage('en');
});
beforeEach(() => {
  // The poll's clock: setTimeout only, so promises, the scheduler and waitFor's interval run.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  // Testing Library waits a setTimeout(0) after each waitFor (deferred-api.ts waits for requests
  // with it): a real interval runs the timers that are due now, never moving the fake clock.
  pump = setInterval(() => vi.advanceTimersByTime(0), 5);
  api = deferredApi();
  configureHttpClient({ baseUrl: 'http://x.model.test', signingKey: 'model-test', fetch: api.fetch });
});
afterEach(() => {
  clearInterval(pump);
  cleanup();
  localStorage.clear();
  vi.useRealTimers();
});

/** waitFor's own time limit is a setTimeout, which is fake here: this one counts real time. */
async function eventually(assertion: () => void, ms = 3000): Promise<void> {
  const until = performance.now() + ms;
  for (;;) {
    try {
      assertion();
      return;
    } catch (error) {
      if (performance.now() > until) throw error;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

async function runOnScreen(path: Path, url: string, input: PaymentResultInput): Promise<number> {
  const { watch, step } = watchStepActor(inspect, paymentResultMachine.id);
  const { router, actor: journey } = renderApp(url, { path: '/payment-result', uuid: input.uuid, sessionId: null, agentId: null }, { inspect: watch });
  const live = () => {
    return step().getSnapshot() as Snapshot;
  };
  const heading = () => screen.getByTestId('screen-payment-result').textContent;
  let checked = 0;
  let reads = 0;

  const expectShown = (model: Snapshot) => {
    const view = selectPaymentResultView(model);
    const payment = model.context.payment;
    if (model.matches('retry')) {
      expect(journey.getSnapshot().value).toBe('checkout');
      expect(router.state.location.pathname).toBe('/checkout');
      expect(new URLSearchParams(router.state.location.search).get('uuid')).toBe(input.uuid);
      expect(screen.getByTestId('screen-checkout')).toBeTruthy();
      return;
    }
    if (model.matches('newQuote')) {
      expect(journey.getSnapshot().value).toBe('travellerDetails');
      expect(router.state.location.pathname).toBe('/traveller-details');
      expect(new URLSearchParams(router.state.location.search).get('uuid')).toBeNull();
      expect(screen.getByTestId('screen-traveller-details')).toBeTruthy();
      return;
    }
    expect(router.state.location.pathname).toBe('/payment-result');
    // The thank-you flag is stored once the policy shows, and only then.
    expect(localStore.get('thankyou')).toBe(view === 'paid' ? '1' : null);
    const tryAgain = screen.queryByRole('button', { name: 'Try again' });
    const refresh = screen.queryByRole('button', { name: 'Refresh' });
    expect(tryAgain !== null).toBe(view === 'failed');
    expect(refresh !== null).toBe(view === 'error' || view === 'unconfirmed');
    switch (view) {
      case 'loading':
        expect(within(screen.getByTestId('payment-waiting')).getByText('Checking your payment…')).toBeTruthy();
        expect(heading()).toBe('Checking your payment');
        break;
      case 'pending':
        expect(screen.getByTestId('payment-waiting').textContent).toContain("We are waiting for your bank's answer.");
        expect(heading()).toBe('Checking your payment');
        break;
      case 'paid':
        expect(heading()).toBe('Your policy is ready');
        expect(screen.getByTestId('policy-number').textContent).toBe(payment!.policy!.policy_number);
        expect(screen.getByRole('link', { name: 'Download certificate (PDF)' }).getAttribute('href')).toBe(payment!.policy!.certificate_url);
        expect(screen.queryByTestId('payment-paid-twice') !== null).toBe(payment!.refund !== null);
        if (payment!.refund) expect(screen.getByTestId('payment-paid-twice').textContent).toContain(payment!.refund.merchant_reference);
        break;
      case 'failed':
        expect(heading()).toBe(payment!.reason === 'refund' ? 'No policy was issued for this payment' : 'Your payment did not go through');
        expect(screen.getByTestId('payment-failed').textContent).toContain(payment!.merchant_reference);
        expect((tryAgain as HTMLButtonElement).disabled).toBe(false);
        expect(screen.queryByTestId('policy-card')).toBeNull();
        break;
      case 'unconfirmed':
        expect(heading()).toBe('We are still waiting for your bank');
        expect(screen.getByTestId('payment-unconfirmed')).toBeTruthy();
        break;
      case 'notFound':
        expect(heading()).toBe('We could not find this payment');
        expect(screen.getByTestId('payment-not-found')).toBeTruthy();
        break;
      case 'error':
        expect(screen.getByTestId('payment-read-failed').textContent).toContain('We could not check your payment just now.');
        break;
      default:
        throw new Error(`no view for ${JSON.stringify(model.value)}`);
    }
  };

  const check = async (model: Snapshot) => {
    checked += 1;
    await eventually(() => {
      expectSameSnapshot(live(), model);
      expectShown(model);
    });
    // A read in flight asks payment-status for the address's lead and reference; none otherwise.
    const reading = model.matches('loading') || model.matches({ pending: 'checking' });
    await eventually(() => expect(api.heldPaths()).toEqual(reading ? [PAYMENT_STATUS] : []));
    if (reading) expect(api.requests.at(-1)!.body).toEqual({ uuid: input.uuid, merchant_reference: input.reference, language: 'en' });
    expect(api.requests.filter((request) => request.path === PAYMENT_STATUS).length).toBe(reads + (reading ? 1 : 0));
  };

  const click = (name: string) => fireEvent.click(screen.getByRole('button', { name }));

  const perform = async ({ event }: { event: PaymentResultModelEvent }) => {
    if (event.type === POLL_EVENT) {
      // The clock at the edge of the world: the 2 s wait between reads.
      await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);
    } else if (event.type === 'xstate.done.actor.loadStatus') {
      reads += 1;
      await api.answer(PAYMENT_STATUS, event.output);
    } else if (event.type === 'xstate.error.actor.loadStatus') {
      reads += 1;
      await api.failWith(PAYMENT_STATUS, event.error);
    } else if (event.type === 'result.retry') click('Try again');
    else if (event.type === 'result.refresh') click('Refresh');
    else if (event.type === 'result.newQuote') {
      // The read-failed view (`error`) offers Refresh only, though the machine also accepts a new
      // quote there: with no control for it on the screen, that one is sent to the step actor.
      if (live().matches('error')) {
        expect(screen.queryByRole('button', { name: 'Start a new quote' })).toBeNull();
        step().send(event);
      } else click('Start a new quote');
    }
    else throw new Error(`no way to perform ${event.type} on the screen`);
  };

  await testPathOnActor(path, { stop: () => undefined }, { states: STATES, check, samples: paymentResultModelEvents, perform });
  return checked;
}

describe.each(CASES)('payment result model on the rendered /payment-result (API at the ky client, fake poll clock): $name', ({ name, url, input }) => {
  for (const kind of ['shortest', 'journey', 'transitions'] as const) {
    const paths = RUN.filter((candidate) => candidate.caseName === name && candidate.kind === kind).map((candidate) => candidate.path);
    if (paths.length === 0) continue;
    it.each(withPathIds(`payment result screen ${name} ${kind}`, paths, labelOf))(`${kind === 'transitions' ? 'transition' : kind}: %s`, async (_label, path) => {
      expect(await runOnScreen(path, url, input)).toBe(path.steps.length);
    });
  }
});

describe('payment result model on the rendered /payment-result: the paths run', () => {
  it('take every transition some generated path takes, and start the screen in every case', () => {
    const takenBy = (candidates: readonly Candidate[]) => new Set(candidates.flatMap((candidate) => [...candidate.keys]));
    const run = takenBy(RUN);
    expect([...takenBy(ALL_CANDIDATES)].filter((key) => !run.has(key))).toEqual([]);
  });

  it('took every state and transition the machine defines', () => {
    const reached = reachedCoverage()[paymentResultMachine.id];
    const defined = definedCoverage(paymentResultMachine);
    expect(defined.transitions.map((transition) => transition.name).filter((name) => !reached?.transitions.includes(name))).toEqual([]);
    expect(defined.states.filter((state) => !reached?.states.includes(state))).toEqual([]);
  });
});
