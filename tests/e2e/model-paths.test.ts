import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { createTestModel, type TestPath } from 'xstate/graph';
import { todayIso } from '../../src/contract/dates';
import { journeyMachine } from '../../machines/journey.machine';
import { JOURNEY_MODEL_LEAD, JOURNEY_MODEL_POLICY, journeyModelEvents, journeyModelInput, journeyModelStateKey, serializeJourneyModelState } from '../../machines/journey.model';
import { STEP_IDS, STEP_PATHS, needsLead, type StepId } from '../../machines/journey.routes';
import type { JourneyEvent, JourneyInput } from '../../machines/journey.types';
import { greedyCover, pathsCoveringTransitions } from '../../machines/model-tooling/model-coverage';
import { withPathIds } from '../../machines/model-tooling/model-replay';
import { DESKTOP, browserForThisFile, openPage, visit, waitForApp, type Lang } from './harness';
import { fields, fillTrip, finishAllowing, newTrip, saveLeadThroughApi, textIn, typeInto } from './journey-steps';
import { MRS, PLAN, choose, reviewFields, travellerOpened } from './review-steps';
import { payWithCard, resultShown } from './sandbox-steps';

/**
 * Generated journey paths in Chromium against the real server (issue 20 item 6). The journey
 * model's paths (shortest, and one per transition the shortest never take) are run in happy-dom by
 * `npm run test:model`; here a sample of them is run as a customer takes them: each event is
 * what a person does for it (fills the form, taps Buy now, pays on the sandbox gateway, taps a
 * header step, presses the browser's Back or Forward, opens a link), and after every step the
 * address bar must show the page of the model's state, with the lead in it when the model holds one.
 *
 * The sample is chosen, not hand-written: among the generated paths whose every event a person
 * can do here, a greedy pick until every page has been shown, each of the four ends reached
 * (a paid policy, /thank-you-p, /thank-you, /call-back), and a header step, Back, Forward and a
 * deep link taken.
 */

const browser = browserForThisFile();

type Snapshot = SnapshotFrom<typeof journeyMachine>;
type Path = TestPath<Snapshot, JourneyEvent>;

const modelOptions = { events: journeyModelEvents, serializeState: serializeJourneyModelState };

/** The model from a fresh visit to the site root, and from a shared link to a lead's quotes. */
const DEEP_LINK_INPUT: JourneyInput = { ...journeyModelInput, path: STEP_PATHS.compareQuotes, ...JOURNEY_MODEL_LEAD };
const STARTS = [journeyModelInput, DEEP_LINK_INPUT] as const;

function generatedPaths(input: JourneyInput): Path[] {
  const model = createTestModel(journeyMachine, { ...modelOptions, input });
  const shortest = model.getShortestPaths();
  return [...shortest, ...pathsCoveringTransitions(journeyMachine, model, shortest, serializeJourneyModelState), ...policyPaths(model, input)];
}

/**
 * The generated ways to the policy page start from the resume dialog (a lead stored on the
 * device), which this file cannot do; the model's own path through a purchase to it is added:
 * paid in full, "Open your policy page", then "Buy again" (issue 37).
 */
function policyPaths(model: ReturnType<typeof createTestModel<typeof journeyMachine>>, input: JourneyInput): Path[] {
  if (input.uuid !== null) return [];
  const lead = { uuid: JOURNEY_MODEL_LEAD.uuid, sessionId: JOURNEY_MODEL_LEAD.sessionId };
  return model.getPathsFromEvents(
    [{ type: 'details.submitted', ...lead }, { type: 'quote.chosen' }, { type: 'review.completed' }, { type: 'checkout.paidInFull' }, { type: 'policy.opened', policyToken: JOURNEY_MODEL_POLICY }, { type: 'policy.buyAgain' }],
    { serializeState: serializeJourneyModelState },
  );
}

/** What a person does for an event, as far as this file can tell before running it. */
type Move = 'back' | 'forward' | 'action';

/**
 * The browser moves of a path, or null when some event has no browser action here (a lead picked
 * from the chooser needs leads stored on the device, a failed payment a declined card, the
 * review's and checkout's own exits a lead changed on the server meanwhile). Back and Forward are
 * tracked on a simulated history: every page move pushes an entry, and a URL change is taken only
 * to the entry just before or after the current one. After the gateway (a page load of its own)
 * the history is the gateway's, so no URL change follows it. Once the order is paid, the lead's
 * pages are not entered again: the server holds the lead in a deal, and their steps send the
 * customer on (checkout.machine.ts `inDeal`), which the journey model alone does not know.
 */
function browserMoves(path: Path): Move[] | null {
  const [start, ...steps] = path.steps;
  if (!start) return null;
  const history: string[] = [STEP_PATHS[start.state.value as StepId]];
  let at = 0;
  let leftSpa = false;
  let paid = false;
  const moves: Move[] = [];
  let from = start.state;
  for (const { event, state } of steps) {
    const page = STEP_PATHS[state.value as StepId];
    const moved = state.value !== from.value;
    if (paid && needsLead(state.value as StepId)) return null;
    if (event.type === 'route.changed') {
      // Only accepted moves: a refused address is corrected in place, which the simulation does not follow.
      if (leftSpa || !moved || page !== event.path) return null;
      if (history[at - 1] === event.path) {
        at -= 1;
        moves.push('back');
      } else if (history[at + 1] === event.path) {
        at += 1;
        moves.push('forward');
      } else return null;
    } else {
      if (!canAct(from, event)) return null;
      moves.push('action');
      if (moved) {
        history.splice(at + 1, Infinity, page);
        at += 1;
      }
      if (event.type === 'payment.returned') leftSpa = true;
      if (event.type === 'payment.returned' || event.type === 'checkout.paidInFull') paid = true;
    }
    from = state;
  }
  return moves;
}

/** Whether this file can do `event` on the page of `state` through the screen. */
function canAct(state: Snapshot, event: JourneyEvent): boolean {
  const page = state.value as StepId;
  const hasLead = state.context.uuid !== null;
  switch (event.type) {
    case 'details.submitted':
      return page === 'travellerDetails';
    case 'lead.noQuote':
      return page === 'travellerDetails' && !hasLead;
    case 'quote.chosen':
      return page === 'compareQuotes' || page === 'compareOffers';
    case 'compare.opened':
      return page === 'compareQuotes';
    case 'compare.closed':
      return page === 'compareOffers';
    case 'review.completed':
      return page === 'reviewDetails';
    case 'checkout.paidInFull':
    case 'payment.returned':
      return page === 'checkout';
    case 'callBack.requested':
      // The header's offer (shown from md up), and the thank-you page's own.
      return event.reason === 'header' || page === 'thankYou';
    case 'callBack.submitted':
      return page === 'requestCallBack';
    case 'wizard.jump':
      return true;
    // The paid order's "Open your policy page", and the policy page's "Buy again" (issue 37).
    case 'policy.opened':
      return page === 'thankYouHundred' || page === 'paymentResult';
    case 'policy.buyAgain':
      return page === 'policy';
    default:
      return false;
  }
}

const ENDS = { paidPolicy: 'a paid policy', thankYouHundred: '/thank-you-p', thankYou: '/thank-you', callBack: '/call-back' } as const;

/** What a path gives the sample: pages shown, ends reached, Back, Forward, a deep link. */
function goalsOf(path: Path, moves: Move[]): Set<string> {
  const goals = new Set<string>();
  for (const step of path.steps) goals.add(`page ${String(step.state.value)}`);
  for (const [index, step] of path.steps.entries()) {
    if (step.event.type === 'payment.returned') goals.add(`end ${ENDS.paidPolicy}`);
    if (index > 0 && (step.state.value === 'thankYouHundred' || step.state.value === 'thankYou' || step.state.value === 'callBack')) goals.add(`end ${ENDS[step.state.value]}`);
  }
  if (path.steps.some((step) => step.event.type === 'wizard.jump')) goals.add('header step');
  if (moves.includes('back')) goals.add('back');
  if (moves.includes('forward')) goals.add('forward');
  if (path.steps[0]?.state.context.uuid !== null) goals.add('deep link');
  return goals;
}

const ALL_GOALS = [...STEP_IDS.map((step) => `page ${step}`), ...Object.values(ENDS).map((end) => `end ${end}`), 'header step', 'back', 'forward', 'deep link'];

interface Candidate {
  path: Path;
  moves: Move[];
  goals: Set<string>;
}

const candidates: Candidate[] = STARTS.flatMap((input) =>
  generatedPaths(input).flatMap((path) => {
    const moves = browserMoves(path);
    return moves ? [{ path, moves, goals: goalsOf(path, moves) }] : [];
  }),
);
const sample = greedyCover(candidates, (candidate) => candidate.goals, (candidate) => candidate.path.steps.length);

/** The APS test card (RULINGS 20). */
const GOOD_CARD = '4005 5500 0000 0001';

/** Runs one generated path in the page, checking the address bar against the model after each step. */
async function runInChromium(page: Page, lang: Lang, { path, moves }: Candidate): Promise<void> {
  const [start, ...steps] = path.steps;
  if (start!.state.context.uuid !== null) {
    // The deep link: a lead saved on the server, opened from its link in a fresh browser.
    const lead = await saveLeadThroughApi();
    await visit(page, `${STEP_PATHS[start!.state.value as StepId]}?uuid=${lead.uuid}&sid=${lead.sessionId}&lang=${lang}`);
  } else {
    await visit(page, `/?lang=${lang}`);
  }
  await expectPage(page, start!.state);
  let from = start!.state;
  for (const [index, { event, state }] of steps.entries()) {
    const move = moves[index]!;
    if (move === 'back') await page.goBack();
    else if (move === 'forward') await page.goForward();
    else await act(page, lang, from, event);
    await expectPage(page, state);
    from = state;
  }
}

/**
 * The address bar shows the model state's page, with the lead's uuid exactly when the model
 * holds one (after Back, the app writes it into the entry it returned to), and the page its screen.
 */
async function expectPage(page: Page, state: Snapshot): Promise<void> {
  const step = state.value as StepId;
  // A policy's page is /policy/<its token>, which the server drew (the model's token is a stand-in).
  const onPage = (url: URL) => (step === 'policy' ? /^\/policy\/[0-9a-f]{64}$/.test(url.pathname) : url.pathname === STEP_PATHS[step]);
  const shows = (url: URL) => onPage(url) && url.searchParams.has('uuid') === (state.context.uuid !== null);
  await page.waitForURL(shows).catch(() => {
    throw new Error(`the address is ${page.url()}, not ${STEP_PATHS[step]} ${state.context.uuid === null ? 'without' : 'with'} a lead`);
  });
  const screenId = step === 'thankYouHundred' ? 'screen-thank-you-hundred' : `screen-${STEP_PATHS[step].slice(1)}`;
  await page.getByTestId(screenId).waitFor();
}

/** Does `event` through the screen, as a person would, on the page of `state`. */
async function act(page: Page, lang: Lang, state: Snapshot, event: JourneyEvent): Promise<void> {
  const year = Number(todayIso().slice(0, 4));
  const hasLead = state.context.uuid !== null;
  switch (event.type) {
    case 'details.submitted':
      // With a lead the form comes back filled in; Proceed asks for its quotes again.
      if (!hasLead) await fillTrip(page, lang, newTrip({ dobs: [`${year - 36}-04-12`] }));
      else await fields(page, lang).form.waitFor({ state: 'visible' });
      await fields(page, lang).proceed.click();
      return;
    case 'lead.noQuote':
      // Older than every plan allows: no online quote (RULINGS 12).
      await fillTrip(page, lang, newTrip({ dobs: ['1932-05-01'] }));
      await fields(page, lang).proceed.click();
      return;
    case 'quote.chosen':
      if (state.value === 'compareOffers') {
        await page.getByTestId('offers-plan').filter({ hasText: PLAN.provider1000[lang] }).getByTestId('offers-proceed').click();
      } else {
        await page.getByTestId('quote-card').filter({ has: page.getByText(PLAN.provider1000[lang], { exact: true }) }).getByTestId('buy-now').click();
      }
      return;
    case 'compare.opened': {
      const cards = page.getByTestId('quote-card');
      const flex = page.getByText(PLAN.provider1000[lang], { exact: true });
      for (const card of [cards.filter({ has: flex }).first(), cards.filter({ hasNot: flex }).first()]) {
        const box = card.getByTestId('compare-checkbox');
        if (!(await box.isChecked())) await box.check();
      }
      await page.getByTestId('compare-open').click();
      return;
    }
    case 'compare.closed':
      await page.getByTestId('offers-back').click();
      return;
    case 'review.completed': {
      // Europe Flex asks only for the title and the passport; both stay filled on a second visit.
      const f = reviewFields(page, lang);
      await travellerOpened(page, lang, 1);
      if (!(await f.passport.inputValue())) {
        await choose(page, f.title, MRS[lang]);
        await typeInto(f.passport, 'P0123456');
      }
      await f.proceed.click();
      return;
    }
    case 'checkout.paidInFull':
      await page.getByTestId('price-summary').waitFor();
      await page.getByTestId('coupon-input').pressSequentially('FREE100');
      await page.getByTestId('coupon-apply').click();
      await page.getByTestId('coupon-applied').waitFor();
      await page.getByTestId('checkout-pay').click();
      return;
    case 'payment.returned':
      // Proceed → the payments page → the sandbox gateway's card form → back to /payment-result, paid.
      await page.getByTestId('price-summary').waitFor();
      await page.getByTestId('checkout-pay').click();
      await page.waitForURL((url) => url.pathname.startsWith('/pay/'));
      await page.locator('form button[type="submit"]').first().click();
      await page.waitForURL((url) => url.pathname.startsWith('/sandbox/aps/'));
      await payWithCard(page, GOOD_CARD);
      await resultShown(page, 'paid');
      await expect(page.getByTestId('policy-number').innerText()).resolves.toMatch(/^SFR-/);
      return;
    case 'callBack.requested':
      if (event.reason === 'header') await page.getByTestId('header-call-back').click();
      // The page's own offer: "Request a call back", or on /thank-you (whose team calls anyway) the call to another number.
      else await page.locator('main').getByRole('button', { name: textIn(lang, 'Request a call back') }).or(page.getByTestId('thank-you-call-back')).click();
      return;
    case 'callBack.submitted': {
      const form = page.getByTestId('call-back-form');
      await form.waitFor({ state: 'visible' });
      // Without a lead the form asks for the contact details; with one they come filled in.
      if (!hasLead) {
        const trip = newTrip();
        const f = fields(page, lang);
        await typeInto(f.name, trip.name);
        await typeInto(f.phone, trip.phone);
        await typeInto(f.email, trip.email);
      }
      await form.getByRole('button', { name: textIn(lang, 'Call me back') }).click();
      return;
    }
    case 'wizard.jump':
      await page.getByTestId(`wizard-step-${event.step}`).click();
      await waitForApp(page);
      return;
    case 'policy.opened':
      await page.getByTestId('open-policy-page').click();
      return;
    case 'policy.buyAgain':
      await page.getByTestId('policy-buy-again').click();
      return;
    default:
      throw new Error(`no browser action for ${event.type}`);
  }
}

function labelOf({ path }: Candidate): string {
  const events = path.steps
    .slice(1)
    .map(({ event }) => ('path' in event ? `${event.type}(${event.path})` : 'step' in event ? `${event.type}(${event.step})` : 'reason' in event ? `${event.type}(${event.reason})` : event.type));
  const start = path.steps[0]!.state.context.uuid === null ? '/' : `deep link ${STEP_PATHS[path.steps[0]!.state.value as StepId]}`;
  return `${journeyModelStateKey(path.state)} ⇐ ${start} → ${events.join(' → ')}`;
}

describe('generated journey paths in Chromium against the real server', () => {
  it('the sample shows every page, reaches the four ends, and takes a header step, Back, Forward and a deep link', () => {
    const met = new Set(sample.flatMap((candidate) => [...candidate.goals]));
    expect([...met].sort()).toEqual([...ALL_GOALS].sort());
  });

  const named = withPathIds('journey chromium', sample.map(({ path }) => path), (path) => labelOf(sample.find((candidate) => candidate.path === path)!));
  // Each path by its index into the sample: vitest formats a test's arguments, and a path's states are large.
  it.each(named.map(([name], index) => [name, index % 2 === 0 ? 'en' : 'ar', index] as const))(
    '%s (%s)',
    async (_name, lang, index) => {
      const opened = await openPage(browser(), DESKTOP, 'full');
      await runInChromium(opened.page, lang, sample[index]!);
      await finishAllowing(opened);
    },
    180_000,
  );
});
