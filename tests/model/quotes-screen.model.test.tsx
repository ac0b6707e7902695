import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMAIL_TOAST_MS } from '../../machines/agent-share';
import type { ActorRefFrom } from 'xstate';
import type { Quote } from '../../src/contract/quote.endpoints';
import { definedCoverage, greedyCover, pathsCoveringTransitions, recordModelCoverage, transitionName } from '../../machines/model-tooling/model-coverage';
import { expectSameSnapshot, withPathIds } from '../../machines/model-tooling/model-replay';
import { quotesMachine } from '../../machines/quotes/quotes.machine';
import {
  QUOTES_LEAD_UUID,
  QUOTES_SESSION_UUID,
  SAMPLE_QUOTES,
  createQuotesModel,
  quotesInput,
  quotesModelPathLabel,
  serializeQuotesModelState,
  type QuotesModelEvent,
  type QuotesModelPath,
  type QuotesModelSnapshot,
} from '../../machines/quotes/quotes.model';
import { compareDataOf, displayedTotal, proceedPayload } from '../../machines/quotes/quotes.pricing';
import { selectVisibleQuotes } from '../../machines/quotes/quotes.selectors';
import { sampleInvoice } from '../../machines/review/review.model';
import type { CompareData, QuotesInput, QuotesView } from '../../machines/quotes/quotes.types';
import { compareQuotesEndpoint, proceedReviewEndpoint, sendEmailByPageEndpoint } from '../../src/contract/quote.endpoints';
import { formatMoney } from '../../src/web/i18n/format';
import { activateLanguage } from '../../src/web/i18n/locale';
import { quotesShareLink } from '../../src/web/journey/step-lead';
import type { quotesLogic } from '../../src/web/screens/quotes-shared/quotes.actors';
import * as botCheck from '../../src/web/services/bot-check.service';
import { configureHttpClient } from '../../src/web/services/http-client';
import { localStore } from '../../src/web/storage/local-store';
import { renderApp } from '../support/render-app';
import { holdDelays, watchStepActor } from './screen-support';
import { deferredApi } from './deferred-api';

/**
 * The quotes model (machines/quotes/quotes.model.test.ts) run on the rendered app instead of a bare
 * actor (issue 20): /compare-quotes and /compare-offers are rendered with renderApp, the API
 * is answered at the ky client (deferred-api.ts), and each user event of a path is done through
 * the screen: a card's compare box or the tray's remove button, an add-on box, Buy now or the
 * table's Proceed, the sort and insurer selects, All benefits and the drawer's Close, the
 * notice's Close, the tray's Compare plans, the table's Back, the agent's e-mail button. After
 * every step the screen's own quotes actor must be where the model is (value, context, status)
 * and the page must show it (cards and their totals, tray, notice, drawer, table, empty or
 * failed views), and at the end the journey must be on the page the outcome leads to.
 *
 * The bot check is the edge of the world: its token is solved by ALTCHA in a Web Worker (or
 * comes from Google's reCAPTCHA), which the test DOM does not run, so getBotCheckToken is stubbed and a
 * path's getBotToken outcome settles it.
 */

vi.mock('../../src/web/services/bot-check.service', () => ({ getBotCheckToken: vi.fn(), preloadBotCheck: vi.fn() }));

const inspect = recordModelCoverage(import.meta.url);
const bot = vi.mocked(botCheck);

type Snapshot = QuotesModelSnapshot;
type Path = QuotesModelPath;
type StepActor = ActorRefFrom<typeof quotesLogic>;

const COMPARE_QUOTES = compareQuotesEndpoint.path;
const PROCEED_REVIEW = proceedReviewEndpoint.path;
const SEND_EMAIL = sendEmailByPageEndpoint.path;
/** The end of the agent's e-mail toast: its 5 s timer is held (holdDelays) and released when the path takes it. */
const SHARE_TOAST_EVENT = `xstate.after.${EMAIL_TOAST_MS}.quotes.ready.share.sent`;

const [firstQuote, secondQuote] = SAMPLE_QUOTES as [Quote, Quote];

/** A start of the step as the app opens it: the page, the journey's lead and what compare_data holds. */
interface Start {
  page: '/compare-quotes' | '/compare-offers';
  uuid: string | null;
  agentId: string | null;
  compareData: CompareData | null;
  /** The step's input as the screen builds it (use-quotes-step.ts), so the model's snapshots are the live ones. */
  input: QuotesInput;
}

function start(view: QuotesView, { uuid = QUOTES_LEAD_UUID, agentId = null, compareIds = null }: { uuid?: string | null; agentId?: string | null; compareIds?: string[] | null } = {}): Start {
  return {
    page: view === 'offers' ? '/compare-offers' : '/compare-quotes',
    uuid,
    agentId,
    compareData: compareIds === null ? null : { uuid, compareIds, addons: {} },
    // The same inputs as quotes.model.test.ts but for the link, which the screen makes from the
    // page's own address (the test DOM's origin, not https://safar.example).
    input: quotesInput({ uuid, view, agentId: agentId === null ? null : Number(agentId), compareIds: compareIds ?? [], link: quotesShareLink(view, uuid) }),
  };
}

/**
 * The starts of quotes.model.test.ts that the screens can start: customer and agent on the list
 * (agent: the journey's agentId), and the compare table without plans named (no compare_data),
 * with plans that are gone, and with two plans. Without a lead the journey does not open the list
 * (a page that needs a lead is not shown without one), so no quotes actor starts and the "no
 * lead" start has no screen to run on; the bare-actor test covers it.
 */
const STARTS: Record<string, Start> = {
  customer: start('quotes'),
  agent: start('quotes', { agentId: '101' }),
  'compare table without plans named': start('offers'),
  'compare table whose plans are gone': start('offers', { compareIds: ['999-gone'] }),
  'compare table': start('offers', { compareIds: [firstQuote.compare_id, secondQuote.compare_id] }),
};

// --- Which control of the page does an event ----------------------------------------------

const isOutcome = (event: { type: string }) => /^xstate\.(done|error)\.actor\./.test(event.type);

/**
 * Whether the page offers a control for `event` in `state` (or, for a call's outcome, makes the
 * request it answers). The rest are sent to the step actor, each for the reason given here.
 */
function offeredByScreen(state: Snapshot, event: QuotesModelEvent): boolean {
  const { context } = state;
  const list = context.view === 'quotes';
  // Calls are answered at the API (the bot check at its stub): always the page's own request.
  if (isOutcome(event)) return true;
  switch (event.type) {
    case 'compare.toggle':
    case 'compare.open':
    case 'sort.change':
    case 'filter.change':
    case 'drawer.open':
      // The compare table has no compare boxes, tray, sort, filter or benefits drawer; the
      // machine takes these events there all the same.
      return list;
    case 'drawer.close':
      // No drawer open: no Close to click.
      return list && context.drawerQuoteId !== null;
    case 'notice.dismiss':
      // No notice shown: nothing to close.
      return context.notice !== null;
    case 'compare.back':
      // The table's Back is disabled while a buy is under way; the machine still takes it.
      return !list && !state.matches({ ready: { list: 'buying' } });
    case 'addon.toggle':
    case 'quote.buy':
    case 'share.email':
      return true;
    default:
      // The end of the e-mail toast is the 5 s timer's own event: no control sends it (runOnScreen
      // releases the held timer).
      return false;
  }
}

// --- The paths run ---------------------------------------------------------------------------

interface Candidate {
  name: string;
  kind: 'shortest' | 'transitions' | 'controls';
  path: Path;
  keys: string[];
}

/**
 * What one step takes, for choosing the paths to run: each transition by name, and one taken
 * through a control (or an API answer) of the list or of the table also as `<view> <name>`, so
 * the list's and the table's own controls each take every transition they can.
 */
function stepKeys(previous: Snapshot, event: QuotesModelEvent): string[] {
  const taken = (quotesMachine.getTransitionData(previous as never, event as never) ?? []).map(transitionName);
  return taken.flatMap((transition) => (offeredByScreen(previous, event) ? [transition, `${previous.context.view} ${transition}`] : [transition]));
}

function keysOf(name: string, path: Path): string[] {
  const keys = [`start ${name}`];
  path.steps.slice(1).forEach(({ event }, index) => keys.push(...stepKeys(path.steps[index]!.state, event)));
  return keys;
}

/**
 * Shortest paths and pathsCoveringTransitions take each transition once, by whatever event
 * reaches it first: "drawer.close" with no drawer open, "notice.dismiss" with no notice, which
 * the page offers no control for. These paths take the rest through the page's controls: for
 * each step of the model's graph that takes a transition through a control no generated path
 * takes it through, the events of the first shortest path to its state, then that event.
 */
function pathsThroughControls(model: ReturnType<typeof createQuotesModel>, shortest: readonly Path[], taken: Set<string>): Path[] {
  const prefixes = new Map<string, QuotesModelEvent[]>();
  for (const path of shortest) {
    let events: QuotesModelEvent[] = [];
    path.steps.forEach(({ event, state }, index) => {
      if (index > 0) events = [...events, event];
      const key = serializeQuotesModelState(state);
      if (!prefixes.has(key)) prefixes.set(key, events);
    });
  }
  type Adjacency = Record<string, { state: Snapshot; transitions: Record<string, { event: QuotesModelEvent; state: Snapshot }> }>;
  const adjacency = model.getAdjacencyMap() as unknown as Adjacency;
  // A path as the model's own are (as pathsCoveringTransitions builds them): its start, then each event with the state it leads to.
  const pathOf = (events: QuotesModelEvent[]): Path => {
    const steps = [shortest[0]!.steps[0]!];
    for (const event of events) {
      const next = Object.values(adjacency[serializeQuotesModelState(steps.at(-1)!.state)]!.transitions).find((edge) => edge.event === event)!;
      steps.push({ event, state: next.state });
    }
    const statePath = { state: steps.at(-1)!.state, steps, weight: steps.length };
    return { ...statePath, test: (params) => model.testPath(statePath, params), description: '' };
  };
  const extra: Path[] = [];
  for (const [key, { state, transitions }] of Object.entries(adjacency)) {
    const prefix = prefixes.get(key);
    if (!prefix) continue;
    for (const { event } of Object.values(transitions)) {
      const fresh = stepKeys(state, event).filter((name) => !taken.has(name));
      if (fresh.length === 0) continue;
      fresh.forEach((name) => taken.add(name));
      extra.push(pathOf([...prefix, event]));
    }
  }
  return extra;
}

const candidates: Candidate[] = Object.entries(STARTS).flatMap(([name, { input }]) => {
  const model = createQuotesModel(input);
  const shortest = model.getShortestPaths();
  const transitions = pathsCoveringTransitions(quotesMachine, model, shortest, serializeQuotesModelState);
  const generated = [...shortest.map((path) => ({ name, kind: 'shortest' as const, path, keys: keysOf(name, path) })), ...transitions.map((path) => ({ name, kind: 'transitions' as const, path, keys: keysOf(name, path) }))];
  const controls = pathsThroughControls(model, shortest, new Set(generated.flatMap((candidate) => candidate.keys)));
  return [...generated, ...controls.map((path) => ({ name, kind: 'controls' as const, path, keys: keysOf(name, path) }))];
});

/**
 * The generated paths are about 470 (customer 130, agent 165, compare table 165, a few more)
 * with some 3,700 steps; rendered, a path takes one to five seconds on a slow 2-core machine, so
 * all of them would take well over ten minutes. These are a greedy cover instead: again and
 * again the path that takes the most of what no chosen path takes yet (every transition of the
 * machine, and every one the list's and the table's controls can take through them; the shorter
 * path on a tie), until none adds anything: about 20 paths, half a minute. The bare-actor test
 * (machines/quotes/quotes.model.test.ts) runs every path.
 */

const chosen = greedyCover(candidates, (candidate) => candidate.keys, (candidate) => candidate.path.steps.length);

// --- Running a path on the rendered app -------------------------------------------------------

/** The bot check's stub: each call waits until the path settles it. */
function deferredBotCheck() {
  const calls: { resolve: (token: string) => void; reject: (error: unknown) => void }[] = [];
  bot.getBotCheckToken.mockImplementation(() => new Promise<string>((resolve, reject) => calls.push({ resolve, reject })));
  return {
    async settle(event: { output?: unknown; error?: unknown }) {
      await waitFor(() => expect(calls.length).toBe(1));
      const call = calls.shift()!;
      if ('error' in event) call.reject(event.error);
      else call.resolve(event.output as string);
    },
  };
}

/** What proceed-review answers once the plan is chosen: the lead at review and its invoice. */
const PROCEED_ANSWER = { leads: { uuid: QUOTES_LEAD_UUID, stage: 2 }, device_uuid: null, session_id: QUOTES_SESSION_UUID, invoice: sampleInvoice() };

const click = (element: HTMLElement) => act(() => fireEvent.click(element));

/** Clicks what `find` answers once it is there and enabled (buttons wait a render after a buy). */
async function clickWhenEnabled(find: () => HTMLElement): Promise<void> {
  let element: HTMLElement | undefined;
  await waitFor(() => {
    element = find();
    expect((element as HTMLButtonElement).disabled).toBe(false);
  });
  click(element!);
}

/** The input a select's visible label names (the label also names its list box). */
function labelled(label: string): HTMLInputElement {
  const inputs = screen.getAllByLabelText(label).filter((element) => element.tagName === 'INPUT');
  if (inputs.length !== 1) throw new Error(`${inputs.length} inputs labelled ${label}`);
  return inputs[0] as HTMLInputElement;
}

/** Opens a Mantine select by its label and clicks an option of its own list. */
async function pickOption(label: string, option: string) {
  click(labelled(label));
  const list = await screen.findByRole('listbox', { name: label });
  click(within(list).getByRole('option', { name: option }));
}

const card = (quoteId: number) => {
  const found = screen.getAllByTestId('quote-card').find((element) => element.dataset.quoteId === String(quoteId));
  if (!found) throw new Error(`no card for quote ${quoteId}`);
  return found;
};
const planName = (quote: Quote) => `${quote.provider.name} ${quote.wizard_plan_name}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function runOnScreen({ page, uuid, agentId, compareData }: Start, path: Path): Promise<number> {
  if (compareData) localStore.setJson('compare_data', compareData);
  const api = deferredApi();
  configureHttpClient({ baseUrl: 'http://quotes.model.test', signingKey: 'model-test', fetch: api.fetch });
  const botCheckCall = deferredBotCheck();

  // The toast's timer is held until the path ends the toast: a busy machine cannot end it between two steps.
  let clock: ReturnType<typeof holdDelays> | null = null;
  const watcher = watchStepActor(inspect, quotesMachine.id, (actor) => {
    clock = holdDelays(actor, [EMAIL_TOAST_MS]);
  });
  const watch = watcher.watch;
  const { router } = renderApp(`${page}${uuid ? `?uuid=${uuid}` : ''}`, { path: page, uuid, sessionId: QUOTES_SESSION_UUID, agentId }, { inspect: watch });
  const step = () => watcher.step() as unknown as StepActor;

  const perform = async (before: Snapshot, event: QuotesModelEvent) => {
    const { context } = before;
    const outcome = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
    if (outcome) {
      const settled = event as { output?: unknown; error?: unknown };
      const endpoint = { loadQuotes: COMPARE_QUOTES, proceed: PROCEED_REVIEW, sendEmail: SEND_EMAIL }[outcome[2]!];
      if (outcome[2] === 'getBotToken') await botCheckCall.settle(settled);
      else if (!endpoint) throw new Error(`no endpoint for ${event.type}`);
      else if ('error' in settled) await api.failWith(endpoint, settled.error);
      else if (outcome[2] === 'loadQuotes') await api.answer(endpoint, settled.output);
      else if (outcome[2] === 'proceed') await api.answer(endpoint, PROCEED_ANSWER);
      else await api.answer(endpoint, { sent: true });
      return;
    }
    if (event.type === SHARE_TOAST_EVENT) {
      // Time passes: the step's clock runs the held timer of the toast.
      act(() => clock!.release(EMAIL_TOAST_MS));
      return;
    }
    if (!offeredByScreen(before, event)) {
      // offeredByScreen says why the page has no control for it.
      act(() => step().send(event as never));
      return;
    }
    const list = context.view === 'quotes';
    switch (event.type) {
      case 'compare.toggle': {
        // A compared plan leaves by the tray's remove button while the tray shows, else by its card's box.
        const quote = context.quotes.find((candidate) => candidate.id === event.quoteId)!;
        const inTray = context.compareSelection.includes(event.quoteId) && context.compareSelection.length >= 2;
        if (inTray) await clickWhenEnabled(() => within(screen.getByTestId('compare-tray')).getByRole('button', { name: `Remove ${quote.wizard_plan_name} from compare` }));
        else await clickWhenEnabled(() => within(card(event.quoteId)).getByRole('checkbox', { name: /^Add to compare / }));
        return;
      }
      case 'compare.open':
        return clickWhenEnabled(() => screen.getByTestId('compare-open'));
      case 'addon.toggle': {
        const quote = context.quotes.find((candidate) => candidate.id === event.quoteId)!;
        const addon = quote.addon.find((candidate) => candidate.id === event.addonId)!;
        if (list) return clickWhenEnabled(() => document.getElementById(`addon-${event.quoteId}-${event.addonId}`)!);
        return clickWhenEnabled(() => within(screen.getByTestId('offers-table')).getByRole('checkbox', { name: new RegExp(`^${escape(addon.label)}, ${escape(planName(quote))}:`) }));
      }
      case 'quote.buy': {
        if (list) return clickWhenEnabled(() => within(card(event.quoteId)).getByTestId('buy-now'));
        const column = selectVisibleQuotes(before).findIndex((view) => view.quote.id === event.quoteId);
        return clickWhenEnabled(() => screen.getAllByTestId('offers-proceed')[column]!);
      }
      case 'sort.change':
        return pickOption('Sort by', event.sort === 'medical' ? 'Medical limit: high to low' : 'Price: low to high');
      case 'filter.change': {
        expect(event.providerIds).toHaveLength(1);
        const provider = context.quotes.find((quote) => quote.provider.id === event.providerIds[0])!.provider;
        return pickOption('Insurers', provider.name);
      }
      case 'drawer.open':
        return clickWhenEnabled(() => within(card(event.quoteId)).getByTestId('open-benefits'));
      case 'drawer.close':
        return clickWhenEnabled(() => within(screen.getByRole('dialog', { name: context.quotes.find((quote) => quote.id === context.drawerQuoteId)!.wizard_plan_name })).getByRole('button', { name: 'Close' }));
      case 'notice.dismiss':
        return clickWhenEnabled(() => within(screen.getByTestId('quotes-notice')).getByRole('button', { name: 'Close' }));
      case 'compare.back':
        return clickWhenEnabled(() => screen.getByTestId('offers-back'));
      case 'share.email':
        return clickWhenEnabled(() => screen.getByTestId('share-email'));
      default:
        throw new Error(`no control for ${event.type}`);
    }
  };

  /** What the page must show for the model's state (checked once the actor is there). */
  const expectShown = (model: Snapshot) => {
    const { context } = model;
    const list = context.view === 'quotes';
    if (model.status === 'done') {
      const outcome = model.output!;
      if (outcome.type === 'chosen') {
        const quote = context.quotes.find((candidate) => candidate.id === outcome.quoteId)!;
        expect(router.state.location.pathname).toBe('/review-details');
        expect(localStore.get('traveller_index')).toBe('0');
        expect(localStore.get('selected_premium')).toBe(String(displayedTotal(context, quote)));
        expect(JSON.parse(localStore.get('interested_policy')!)).toMatchObject({ id: quote.id });
      } else if (outcome.type === 'compared') {
        expect(router.state.location.pathname).toBe('/compare-offers');
        expect(JSON.parse(localStore.get('compare_data')!)).toEqual(compareDataOf(context));
        expect(screen.getByTestId('screen-compare-offers')).toBeTruthy();
      } else {
        expect(router.state.location.pathname).toBe('/compare-quotes');
        expect(screen.getByTestId('screen-compare-quotes')).toBeTruthy();
      }
      return;
    }
    expect(router.state.location.pathname).toBe(list ? '/compare-quotes' : '/compare-offers');
    if (model.matches('loading')) {
      expect(screen.getByTestId(list ? 'quotes-loading' : 'offers-loading')).toBeTruthy();
      expect(api.heldPaths()).toContain(COMPARE_QUOTES);
      return;
    }
    if (model.matches('empty')) {
      expect(screen.getByRole('heading', { level: 2, name: 'No Quotes Found !!' })).toBeTruthy();
      expect(screen.queryByTestId('quote-list')).toBeNull();
      return;
    }
    if (model.matches('failed')) {
      expect(screen.getByRole('heading', { name: 'An error occurred' })).toBeTruthy();
      // Quoting flagged as failed outright opens the system error dialog over it.
      if (context.failure === 'quotes_error') expect(screen.getByText('Something went wrong')).toBeTruthy();
      else expect(screen.queryByText('Something went wrong')).toBeNull();
      return;
    }
    // Ready: the plans as the machine says they are shown, each with its total.
    const views = selectVisibleQuotes(model);
    const notice = screen.queryByTestId('quotes-notice');
    expect(notice === null).toBe(context.notice === null);
    if (context.notice === 'quote_expired') expect(notice!.textContent).toContain('Prices were updated');
    if (context.notice === 'bot_check_failed') expect(notice!.textContent).toContain('could not confirm this request came from a person');
    // A buy that failed for no reason the customer can fix opens the system error dialog (it stays open over the page).
    if (context.buyFailed) expect(screen.getByText('Something went wrong')).toBeTruthy();
    const buying = model.matches({ ready: { list: 'buying' } });
    if (list) {
      const listElement = screen.getByTestId('quote-list');
      expect(listElement.getAttribute('aria-busy')).toBe('false');
      const cards = screen.getAllByTestId('quote-card');
      expect(cards.map((element) => Number(element.dataset.quoteId))).toEqual(views.map((view) => view.quote.id));
      for (const view of views) {
        const one = within(card(view.quote.id));
        expect(one.getByTestId('quote-total').textContent).toBe(formatMoney(view.total, 'en'));
        expect((one.getByRole('checkbox', { name: /^Add to compare / }) as HTMLInputElement).checked).toBe(view.compared);
        for (const addon of view.quote.addon) expect((document.getElementById(`addon-${view.quote.id}-${addon.id}`) as HTMLInputElement).checked).toBe(view.checkedAddonIds.includes(addon.id));
        expect(one.getByTestId('buy-now').hasAttribute('data-loading')).toBe(view.buying);
      }
      const sortLabel = context.sort === 'medical' ? 'Medical limit: high to low' : 'Price: low to high';
      expect(labelled('Sort by').value).toBe(sortLabel);
      // The tray: from two plans, or to say a 4th was refused.
      const tray = screen.queryByTestId('compare-tray');
      expect(tray !== null).toBe(context.compareSelection.length >= 2 || context.compareRefused);
      if (tray) {
        expect(within(tray).queryAllByTestId('compare-tray-item')).toHaveLength(context.compareSelection.length);
        expect(within(tray).queryByTestId('compare-refused') !== null).toBe(context.compareRefused);
        expect(within(tray).queryByTestId('compare-add-another') !== null).toBe(context.compareSelection.length === 2);
      }
      // The benefits drawer.
      if (context.drawerQuoteId === null) expect(screen.queryByTestId('benefits-drawer-body')).toBeNull();
      else expect(screen.getByRole('dialog', { name: context.quotes.find((quote) => quote.id === context.drawerQuoteId)!.wizard_plan_name })).toBeTruthy();
    } else {
      const table = screen.getByTestId('offers-table');
      const heads = within(table).getAllByTestId('offers-plan');
      expect(heads.map((head) => head.textContent)).toEqual(views.map((view) => expect.stringContaining(view.quote.wizard_plan_name)));
      expect(within(table).getAllByTestId('quote-total').map((total) => total.textContent)).toEqual(views.map((view) => formatMoney(view.total, 'en')));
      const proceeds = screen.getAllByTestId('offers-proceed');
      expect(proceeds.map((button) => button.hasAttribute('data-loading'))).toEqual(views.map((view) => view.buying));
      for (const view of views)
        for (const addon of view.quote.addon) {
          const box = within(table).getByRole('checkbox', { name: new RegExp(`^${escape(addon.label)}, ${escape(planName(view.quote))}:`) }) as HTMLInputElement;
          expect(box.checked).toBe(view.checkedAddonIds.includes(addon.id));
        }
      expect((screen.getByTestId('offers-back') as HTMLButtonElement).disabled).toBe(buying);
    }
    // The agent's share: the buttons for an agent only, the e-mail button busy while it sends, the toast while sent.
    const share = screen.queryByTestId('agent-share');
    expect(share !== null).toBe(context.agentId !== null);
    if (share) expect(screen.getByTestId('share-email').hasAttribute('data-loading')).toBe(model.matches({ ready: { share: 'sending' } }));
    const toast = screen.queryByTestId('share-email-toast');
    expect(toast !== null).toBe(context.emailSent);
    if (toast) expect(toast.textContent).toContain(`Link sent to ${context.customer!.email}`);
    if (buying && model.matches({ ready: { list: { buying: 'verifying' } } })) expect(bot.getBotCheckToken).toHaveBeenLastCalledWith('en');
    if (model.matches({ ready: { list: { buying: 'proceeding' } } })) {
      // The request carries the chosen plan's total as its card (or column) shows it, with its ticked add-ons.
      const sent = api.requests.filter((request) => request.path === PROCEED_REVIEW).at(-1)?.body;
      expect(sent).toEqual(proceedPayload(context));
      const shown = views.find((view) => view.quote.id === context.buyingQuoteId)!;
      expect((sent as { selected_premium: number }).selected_premium).toBe(shown.total);
    }
  };

  let checked = 0;
  const check = async (model: Snapshot) => {
    checked += 1;
    await waitFor(() => expectSameSnapshot(step().getSnapshot(), model));
    await waitFor(() => expectShown(model));
  };

  try {
    let previous = path.steps[0]!.state;
    await check(previous);
    for (const { event, state } of path.steps.slice(1)) {
      await perform(previous, event);
      await check(state);
      previous = state;
    }
    return checked;
  } finally {
    (clock as ReturnType<typeof holdDelays> | null)?.restore();
  }
}

beforeAll(async () => {
  await activateLanguage('en');
});
beforeEach(() => {
  vi.resetAllMocks();
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('quotes model on the rendered screens (API at the ky client, bot check stubbed)', () => {
  it('runs paths that take every transition of the quotes machine, through the list and the table', () => {
    const keys = new Set(chosen.flatMap((candidate) => candidate.keys));
    // Leaving `starting` happens as the actor starts: each start takes its own, and each start runs.
    const defined = definedCoverage(quotesMachine).transitions.filter((transition) => !transition.name.startsWith('quotes.starting '));
    expect(defined.map((transition) => transition.name).filter((name) => !keys.has(name))).toEqual([]);
    expect(new Set(chosen.map((candidate) => candidate.name))).toEqual(new Set(Object.keys(STARTS)));
    // Buying, and its answers, through the table's Proceed as well as the cards' Buy now.
    expect(keys).toContain(`offers quotes.ready.list.buying.proceeding xstate.done.actor.proceed #0`);
    expect(keys).toContain(`quotes quotes.ready.list.buying.proceeding xstate.done.actor.proceed #0`);
  });
});

describe.each(Object.entries(STARTS))('quotes screen model (bot check stubbed): %s', (name, start) => {
  const ofStart = (kind: Candidate['kind']) => chosen.filter((candidate) => candidate.name === name && candidate.kind === kind).map((candidate) => candidate.path);
  const shortest = withPathIds(`quotes screen ${name} shortest`, ofStart('shortest'), quotesModelPathLabel);
  const transitions = withPathIds(`quotes screen ${name} transitions`, ofStart('transitions'), quotesModelPathLabel);
  const controls = withPathIds(`quotes screen ${name} controls`, ofStart('controls'), quotesModelPathLabel);

  it.each([...shortest, ...transitions, ...controls])('%s', async (_label, path) => {
    expect(await runOnScreen(start, path)).toBe(path.steps.length);
  });
});
