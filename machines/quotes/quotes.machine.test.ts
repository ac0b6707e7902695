import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { EMAIL_TOAST_MS } from '../agent-share';
import { quotesMachine } from './quotes.machine';
import {
  BOT_TOKEN,
  EMPTY_DATA,
  ERROR_DATA,
  QUOTES_FAILURES,
  QUOTES_LEAD_UUID,
  QUOTES_SESSION_UUID,
  SAMPLE_DATA,
  SAMPLE_QUOTES,
  quotesInput,
} from './quotes.model';
import { selectOutcome, selectViewState, selectVisibleQuotes } from './quotes.selectors';
import type { CompareData, ProceedInput, QuotesData, QuotesInput, SendEmailInput } from './quotes.types';
import { waitForSnapshot } from '../model-tooling/wait-for-snapshot';

const [first, second, third, fourth] = SAMPLE_QUOTES as [(typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0], (typeof SAMPLE_QUOTES)[0]];

interface Stubs {
  load?: () => Promise<QuotesData>;
  token?: () => Promise<string>;
  proceed?: (input: ProceedInput) => Promise<unknown>;
  email?: (input: SendEmailInput) => Promise<unknown>;
}

function start(input: QuotesInput = quotesInput(), stubs: Stubs = {}, clock?: SimulatedClock) {
  const calls = { load: 0, loadInputs: [] as unknown[], tokenInputs: [] as unknown[], proceed: [] as ProceedInput[], email: [] as SendEmailInput[] };
  const stored: unknown[] = [];
  const actor = createActor(
    quotesMachine.provide({
      actors: {
        loadQuotes: fromPromise(async ({ input }) => {
          calls.load += 1;
          calls.loadInputs.push(input);
          return (stubs.load ?? (async () => SAMPLE_DATA))();
        }),
        getBotToken: fromPromise(({ input }) => {
          calls.tokenInputs.push(input);
          return (stubs.token ?? (async () => BOT_TOKEN))();
        }),
        proceed: fromPromise(async ({ input }) => {
          calls.proceed.push(input);
          return (stubs.proceed ?? (async () => ({})))(input);
        }),
        sendEmail: fromPromise(async ({ input }) => {
          calls.email.push(input);
          return (stubs.email ?? (async () => ({ sent: true })))(input);
        }),
      },
      actions: {
        storeTravellerIndex: () => stored.push('traveller_index'),
        storeChosen: (_, params) => stored.push({ chosen: params }),
        storeCompared: (_, params) => stored.push({ compared: params }),
      },
    }),
    { input, ...(clock ? { clock } : {}) },
  ).start();
  return { actor, calls, stored };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function ready(input?: QuotesInput, stubs?: Stubs) {
  const started = start(input, stubs);
  await waitForSnapshot(started.actor, (snapshot) => selectViewState(snapshot) !== 'loading');
  return started;
}

describe('loading', () => {
  it('shows quotes when the call answers some', async () => {
    const { actor } = await ready();
    expect(selectViewState(actor.getSnapshot())).toBe('ready');
    expect(actor.getSnapshot().context.quotes).toHaveLength(4);
    expect(actor.getSnapshot().context.whatsappTemplate).toBe(SAMPLE_DATA.whatapp_template);
  });

  it('is empty when no plan was quoted', async () => {
    const { actor } = await ready(undefined, { load: async () => EMPTY_DATA });
    expect(selectViewState(actor.getSnapshot())).toBe('empty');
  });

  it('fails with quotes_error when the server flags hasError', async () => {
    const { actor } = await ready(undefined, { load: async () => ERROR_DATA });
    expect(selectViewState(actor.getSnapshot())).toBe('failed');
    expect(actor.getSnapshot().context.failure).toBe('quotes_error');
  });

  it('fails with load_failed when the call fails', async () => {
    const { actor } = await ready(undefined, { load: () => Promise.reject(QUOTES_FAILURES.network) });
    expect(actor.getSnapshot().context.failure).toBe('load_failed');
  });

  it('loads nothing without a lead', async () => {
    const { actor, calls } = start(quotesInput({ uuid: null }));
    await settle();
    expect(actor.getSnapshot().value).toBe('noLead');
    expect(calls.load).toBe(0);
  });
});

describe('what the step starts from', () => {
  it('starts with nothing chosen, refused or failed while the quotes load, and nothing refused once they are shown', async () => {
    const { actor } = start();
    expect(selectViewState(actor.getSnapshot())).toBe('loading');
    expect(actor.getSnapshot().context).toMatchObject({
      whatsappTemplate: '',
      unavailableProviders: [],
      compareSelection: [],
      compareRefused: false,
      buyFailed: false,
      notice: null,
      failure: null,
    });
    expect(actor.getSnapshot().context.checkedAddons).toEqual({});
    await waitForSnapshot(actor, (snapshot) => selectViewState(snapshot) === 'ready');
    expect(actor.getSnapshot().context).toMatchObject({ compareRefused: false, buyFailed: false });
  });

  it("run without the web's calls (loadQuotes), the read fails into the error view, not a crash", async () => {
    const actor = createActor(quotesMachine, { input: quotesInput() }).start();
    await waitForSnapshot(actor, (snapshot) => selectViewState(snapshot) !== 'loading');
    expect(actor.getSnapshot().status).toBe('active');
    expect(selectViewState(actor.getSnapshot())).toBe('failed');
  });

  it("reads the lead's quotes in the page's language, with the page link", async () => {
    const { calls } = await ready(quotesInput({ lang: 'ar' }));
    expect(calls.loadInputs).toEqual([{ uuid: QUOTES_LEAD_UUID, lang: 'ar', link: quotesInput().link }]);
  });

  it('keeps the lead, the customer and the WhatsApp text of an empty list, for the call back it offers', async () => {
    const { actor } = await ready(undefined, { load: async () => EMPTY_DATA });
    expect(EMPTY_DATA.lead).not.toBeNull();
    expect(actor.getSnapshot().context).toMatchObject({ lead: EMPTY_DATA.lead, customer: EMPTY_DATA.customer, whatsappTemplate: EMPTY_DATA.whatapp_template });
  });
});

describe('a quote the list does not hold', () => {
  it('opens no drawer, ticks nothing, compares nothing and buys nothing for it', async () => {
    const { actor } = await ready();
    const unknown = 9999;
    expect(SAMPLE_QUOTES.some((quote) => quote.id === unknown)).toBe(false);
    actor.send({ type: 'drawer.open', quoteId: unknown });
    actor.send({ type: 'addon.toggle', quoteId: unknown, addonId: first.addon[0]!.id });
    actor.send({ type: 'compare.toggle', quoteId: unknown });
    expect(actor.getSnapshot().can({ type: 'quote.buy', quoteId: unknown })).toBe(false);
    actor.send({ type: 'quote.buy', quoteId: unknown });
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().context).toMatchObject({ drawerQuoteId: null, compareSelection: [], buyingQuoteId: null });
    expect(actor.getSnapshot().context.checkedAddons).toEqual({});
    expect(actor.getSnapshot().matches({ ready: { list: 'browsing' } })).toBe(true);
  });
});

describe('add-ons', () => {
  it('ticks only an enabled add-on the quote has, and records just that one', async () => {
    const quote = { ...first, addon: [{ ...first.addon[0]!, disabled_addon: true }, first.addon[1]!] };
    const { actor } = await ready(undefined, { load: async () => ({ ...SAMPLE_DATA, quotes: [quote, second] }) });
    actor.send({ type: 'addon.toggle', quoteId: quote.id, addonId: quote.addon[0]!.id });
    actor.send({ type: 'addon.toggle', quoteId: quote.id, addonId: 9999 });
    actor.send({ type: 'addon.toggle', quoteId: quote.id, addonId: second.addon[0]!.id === quote.addon[1]!.id ? 9998 : second.addon[0]!.id });
    expect(actor.getSnapshot().context.checkedAddons).toEqual({});
    actor.send({ type: 'addon.toggle', quoteId: quote.id, addonId: quote.addon[1]!.id });
    expect(actor.getSnapshot().context.checkedAddons).toEqual({ [quote.id]: [quote.addon[1]!.id] });
  });

  it('ticking an add-on raises the total by its value, unticking lowers it back', async () => {
    const { actor } = await ready();
    const total = () => selectVisibleQuotes(actor.getSnapshot()).find((view) => view.quote.id === first.id)!.total;
    expect(total()).toBe(first.premium);
    actor.send({ type: 'addon.toggle', quoteId: first.id, addonId: first.addon[1]!.id });
    expect(total()).toBe(first.premium + first.addon[1]!.value);
    actor.send({ type: 'addon.toggle', quoteId: first.id, addonId: first.addon[0]!.id });
    expect(total()).toBe(first.premium + first.addon[0]!.value + first.addon[1]!.value);
    actor.send({ type: 'addon.toggle', quoteId: first.id, addonId: first.addon[1]!.id });
    expect(total()).toBe(first.premium + first.addon[0]!.value);
  });

  it('a disabled add-on cannot be ticked', async () => {
    const quote = { ...first, addon: [{ ...first.addon[0]!, disabled_addon: true }] };
    const { actor } = await ready(undefined, { load: async () => ({ ...SAMPLE_DATA, quotes: [quote] }) });
    actor.send({ type: 'addon.toggle', quoteId: quote.id, addonId: quote.addon[0]!.id });
    expect(actor.getSnapshot().context.checkedAddons).toEqual({});
  });
});

describe('compare', () => {
  it('toggles up to 3 plans and refuses a 4th', async () => {
    const { actor } = await ready();
    for (const quote of [first, second, third]) actor.send({ type: 'compare.toggle', quoteId: quote.id });
    expect(actor.getSnapshot().context.compareSelection).toEqual([first.id, second.id, third.id]);
    actor.send({ type: 'compare.toggle', quoteId: fourth.id });
    expect(actor.getSnapshot().context.compareSelection).toEqual([first.id, second.id, third.id]);
    expect(actor.getSnapshot().context.compareRefused).toBe(true);
    actor.send({ type: 'compare.toggle', quoteId: second.id });
    expect(actor.getSnapshot().context.compareSelection).toEqual([first.id, third.id]);
    expect(actor.getSnapshot().context.compareRefused).toBe(false);
  });

  it('opens the comparison only from 2 plans, storing their compare ids', async () => {
    const { actor, stored } = await ready();
    actor.send({ type: 'compare.toggle', quoteId: second.id });
    actor.send({ type: 'compare.open' });
    expect(actor.getSnapshot().status).toBe('active');
    actor.send({ type: 'compare.toggle', quoteId: first.id });
    actor.send({ type: 'compare.open' });
    expect(selectOutcome(actor.getSnapshot())).toEqual({ type: 'compared', compareIds: [second.compare_id, first.compare_id] });
    expect(stored.at(-1)).toEqual({ compared: { uuid: QUOTES_LEAD_UUID, compareIds: [second.compare_id, first.compare_id], addons: {} } });
  });

  it('stores compare_data on every compare tick, and once more as the table opens', async () => {
    const { actor, stored } = await ready();
    actor.send({ type: 'compare.toggle', quoteId: first.id });
    expect(stored.at(-1)).toEqual({ compared: { uuid: QUOTES_LEAD_UUID, compareIds: [first.compare_id], addons: {} } });
    actor.send({ type: 'compare.toggle', quoteId: second.id });
    const before = stored.length;
    actor.send({ type: 'compare.open' });
    expect(stored.length).toBe(before + 1);
    expect(stored.at(-1)).toEqual({ compared: { uuid: QUOTES_LEAD_UUID, compareIds: [first.compare_id, second.compare_id], addons: {} } });
  });

  it('opens no table from the table itself, and leaves none from the list', async () => {
    const table = await ready(quotesInput({ view: 'offers', compareIds: [first.compare_id, second.compare_id] }));
    expect(table.actor.getSnapshot().context.compareSelection).toEqual([first.id, second.id]);
    expect(table.actor.getSnapshot().can({ type: 'compare.open' })).toBe(false);
    table.actor.send({ type: 'compare.open' });
    expect(selectViewState(table.actor.getSnapshot())).toBe('ready');
    const list = await ready();
    expect(list.actor.getSnapshot().can({ type: 'compare.back' })).toBe(false);
    list.actor.send({ type: 'compare.back' });
    expect(list.actor.getSnapshot().status).toBe('active');
    expect(selectOutcome(list.actor.getSnapshot())).toBeNull();
  });

  it('the offers view shows only the compared plans, in their order', async () => {
    const { actor } = await ready(quotesInput({ view: 'offers', compareIds: [third.compare_id, first.compare_id] }));
    expect(selectVisibleQuotes(actor.getSnapshot()).map((view) => view.quote.id)).toEqual([third.id, first.id]);
    actor.send({ type: 'compare.back' });
    expect(selectOutcome(actor.getSnapshot())).toEqual({ type: 'closed' });
  });

  it('row 3: the table shows each plan with the add-ons ticked on its card, and its total equals the card total', async () => {
    const list = await ready();
    list.actor.send({ type: 'addon.toggle', quoteId: first.id, addonId: first.addon[1]!.id });
    list.actor.send({ type: 'compare.toggle', quoteId: first.id });
    list.actor.send({ type: 'compare.toggle', quoteId: second.id });
    const cardTotal = selectVisibleQuotes(list.actor.getSnapshot()).find((view) => view.quote.id === first.id)!.total;
    list.actor.send({ type: 'compare.open' });
    // What the list stored in compare_data is what the table starts from.
    const compareData = (list.stored.at(-1) as { compared: CompareData }).compared;
    expect(compareData).toEqual({ uuid: QUOTES_LEAD_UUID, compareIds: [first.compare_id, second.compare_id], addons: { [first.compare_id]: [first.addon[1]!.id] } });

    const table = await ready(quotesInput({ view: 'offers', compareIds: compareData.compareIds, addonsByPlan: compareData.addons }));
    const columns = selectVisibleQuotes(table.actor.getSnapshot());
    expect(columns.map((view) => view.quote.id)).toEqual([first.id, second.id]);
    expect(columns[0]!.checkedAddonIds).toEqual([first.addon[1]!.id]);
    expect(columns[0]!.total).toBe(cardTotal);
    expect(columns[0]!.total).toBe(first.premium + first.addon[1]!.value);
  });

  it('row 3: toggling an add-on in the table moves the total, is stored, and Proceed sends it like Buy now', async () => {
    const { actor, calls, stored } = await ready(
      quotesInput({ view: 'offers', compareIds: [first.compare_id, second.compare_id], addonsByPlan: { [first.compare_id]: [first.addon[1]!.id] } }),
    );
    const total = () => selectVisibleQuotes(actor.getSnapshot()).find((view) => view.quote.id === first.id)!.total;
    actor.send({ type: 'addon.toggle', quoteId: first.id, addonId: first.addon[0]!.id });
    expect(total()).toBe(first.premium + first.addon[0]!.value + first.addon[1]!.value);
    expect(stored.at(-1)).toEqual({
      compared: { uuid: QUOTES_LEAD_UUID, compareIds: [first.compare_id, second.compare_id], addons: { [first.compare_id]: [first.addon[0]!.id, first.addon[1]!.id] } },
    });
    actor.send({ type: 'addon.toggle', quoteId: first.id, addonId: first.addon[1]!.id });
    expect(total()).toBe(first.premium + first.addon[0]!.value);
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.status === 'done');
    expect(calls.proceed).toEqual([expect.objectContaining({ policy_id: first.id, addons: [first.addon[0]!.id], selected_premium: first.premium + first.addon[0]!.value })]);
  });

  it('row 3: Back to the list keeps the compare selection and every ticked add-on (from compare_data)', async () => {
    const addonsByPlan = { [first.compare_id]: [first.addon[1]!.id], [fourth.compare_id]: [fourth.addon[0]!.id] };
    const { actor } = await ready(quotesInput({ view: 'quotes', compareIds: [second.compare_id, first.compare_id], addonsByPlan }));
    expect(actor.getSnapshot().context.compareSelection).toEqual([second.id, first.id]);
    expect(actor.getSnapshot().context.checkedAddons).toEqual({ [first.id]: [first.addon[1]!.id], [fourth.id]: [fourth.addon[0]!.id] });
    expect(selectVisibleQuotes(actor.getSnapshot()).find((view) => view.quote.id === first.id)!.total).toBe(first.premium + first.addon[1]!.value);
  });

  it('row 3: restoring drops add-ons a plan no longer has or that are now disabled', async () => {
    const disabled = { ...first, addon: [{ ...first.addon[0]!, disabled_addon: true }, first.addon[1]!] };
    const { actor } = await ready(
      quotesInput({ view: 'quotes', compareIds: [], addonsByPlan: { [first.compare_id]: [first.addon[0]!.id, first.addon[1]!.id, 9999] } }),
      { load: async () => ({ ...SAMPLE_DATA, quotes: [disabled, second] }) },
    );
    expect(actor.getSnapshot().context.checkedAddons).toEqual({ [first.id]: [first.addon[1]!.id] });
  });

  it('the offers view without compare ids closes at once, without loading', async () => {
    const { actor, calls } = start(quotesInput({ view: 'offers', compareIds: [] }));
    expect(selectOutcome(actor.getSnapshot())).toEqual({ type: 'closed' });
    expect(calls.load).toBe(0);
  });

  it('the offers view closes when none of the compared plans is quoted any more', async () => {
    const { actor } = await ready(quotesInput({ view: 'offers', compareIds: ['gone-schengen'] }));
    expect(selectOutcome(actor.getSnapshot())).toEqual({ type: 'closed' });
  });
});

describe('sort, filter and drawer', () => {
  it('sorts by price by default and by medical limit on demand, and filters by insurer', async () => {
    const { actor } = await ready(undefined, { load: async () => ({ ...SAMPLE_DATA, quotes: [third, first, second] }) });
    const ids = () => selectVisibleQuotes(actor.getSnapshot()).map((view) => view.quote.id);
    expect(ids()).toEqual([first.id, second.id, third.id]);
    actor.send({ type: 'sort.change', sort: 'medical' });
    expect(ids()).toEqual([first.id, second.id, third.id].sort((a, b) => a - b));
    const reversedLimits = [{ ...first, medical_limit_usd: 1 }, second, third];
    const other = await ready(undefined, { load: async () => ({ ...SAMPLE_DATA, quotes: reversedLimits }) });
    other.actor.send({ type: 'sort.change', sort: 'medical' });
    expect(selectVisibleQuotes(other.actor.getSnapshot()).map((view) => view.quote.id)).toEqual([second.id, third.id, first.id]);
    actor.send({ type: 'filter.change', providerIds: [second.provider.id] });
    expect(ids()).toEqual([second.id]);
  });

  it('opens and closes the drawer for a quote', async () => {
    const { actor } = await ready();
    actor.send({ type: 'drawer.open', quoteId: second.id });
    expect(actor.getSnapshot().context.drawerQuoteId).toBe(second.id);
    actor.send({ type: 'drawer.close' });
    expect(actor.getSnapshot().context.drawerQuoteId).toBeNull();
  });
});

describe('buy now', () => {
  it('gets the bot token, sends the spec payload with the displayed total, stores the plan and ends chosen', async () => {
    const { actor, calls, stored } = await ready(quotesInput({ agentId: 101 }));
    actor.send({ type: 'addon.toggle', quoteId: second.id, addonId: second.addon[1]!.id });
    actor.send({ type: 'quote.buy', quoteId: second.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.status === 'done');
    expect(calls.proceed).toEqual([
      {
        uuid: QUOTES_LEAD_UUID,
        policy_id: second.id,
        addons: [second.addon[1]!.id],
        selected_premium: second.premium + second.addon[1]!.value,
        quote: second,
        agent_id: 101,
        session_id: QUOTES_SESSION_UUID,
        bot_token: BOT_TOKEN,
        lang: 'en',
      },
    ]);
    expect(stored).toEqual([
      { compared: { uuid: QUOTES_LEAD_UUID, compareIds: [], addons: { [second.compare_id]: [second.addon[1]!.id] } } },
      'traveller_index',
      { chosen: { quote: second, selectedPremium: second.premium + second.addon[1]!.value, addonIds: [second.addon[1]!.id] } },
    ]);
    expect(selectOutcome(actor.getSnapshot())).toEqual({ type: 'chosen', quoteId: second.id });
    expect(calls.tokenInputs).toEqual([{ lang: 'en' }]);
  });

  it('while a buy is under way, a second Buy now, an add-on tick and a compare tick change nothing: the plan bought is the one sent (the screen disables them a render later)', async () => {
    let answer: (value: unknown) => void = () => {};
    const { actor, calls, stored } = await ready(undefined, { proceed: () => new Promise((resolve) => (answer = resolve)) });
    actor.send({ type: 'quote.buy', quoteId: second.id });
    await waitForSnapshot(actor, () => calls.proceed.length === 1);
    const during = actor.getSnapshot().context;
    actor.send({ type: 'quote.buy', quoteId: first.id });
    actor.send({ type: 'addon.toggle', quoteId: second.id, addonId: second.addon[1]!.id });
    actor.send({ type: 'compare.toggle', quoteId: second.id });
    expect(actor.getSnapshot().context).toEqual(during);
    answer({});
    await waitForSnapshot(actor, (snapshot) => snapshot.status === 'done');
    expect(calls.proceed.map((sent) => [sent.policy_id, sent.addons])).toEqual([[second.id, []]]);
    expect(stored.at(-1)).toEqual({ chosen: { quote: second, selectedPremium: second.premium, addonIds: [] } });
    expect(selectOutcome(actor.getSnapshot())).toEqual({ type: 'chosen', quoteId: second.id });
  });

  it('a customer without agent sends agent_id 0', async () => {
    const { actor, calls } = await ready();
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.status === 'done');
    expect(calls.proceed[0]!.agent_id).toBe(0);
  });

  it('a failed bot check returns to the list with bot_check_failed and does not call proceed', async () => {
    const { actor, calls } = await ready(undefined, { token: () => Promise.reject(new Error('worker')) });
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.notice !== null);
    expect(actor.getSnapshot().context.notice).toBe('bot_check_failed');
    expect(actor.getSnapshot().matches({ ready: { list: 'browsing' } })).toBe(true);
    expect(calls.proceed).toEqual([]);
  });

  it('dismissing the notice clears it and leaves the list as it was', async () => {
    const { actor } = await ready(undefined, { token: () => Promise.reject(new Error('worker')) });
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.notice !== null);
    actor.send({ type: 'notice.dismiss' });
    expect(actor.getSnapshot().context.notice).toBeNull();
    expect(actor.getSnapshot().matches({ ready: { list: 'browsing' } })).toBe(true);
  });

  it('a refused bot token returns to the list with bot_check_failed', async () => {
    const { actor } = await ready(undefined, { proceed: () => Promise.reject(QUOTES_FAILURES.botRefused) });
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.notice !== null);
    expect(actor.getSnapshot().context.notice).toBe('bot_check_failed');
    expect(actor.getSnapshot().context.buyFailed).toBe(false);
  });

  it('a spent token is replaced by a fresh one and the choice sent again, with nothing shown', async () => {
    let tokens = 0;
    let answers = 0;
    const { actor, calls } = await ready(undefined, {
      token: async () => `token-${(tokens += 1)}`,
      proceed: () => (answers++ === 0 ? Promise.reject(QUOTES_FAILURES.botSpent) : Promise.resolve({})),
    });
    const notices: unknown[] = [];
    actor.subscribe((snapshot) => notices.push(snapshot.context.notice, snapshot.context.buyFailed || null));
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.status === 'done');
    expect(calls.proceed.map((sent) => [sent.policy_id, sent.bot_token])).toEqual([
      [first.id, 'token-1'],
      [first.id, 'token-2'],
    ]);
    expect(selectOutcome(actor.getSnapshot())).toEqual({ type: 'chosen', quoteId: first.id });
    expect(notices.filter((notice) => notice !== null)).toEqual([]);
  });

  it('a second spent-token refusal in the same buy is shown, and the next buy may retry again', async () => {
    let tokens = 0;
    const { actor, calls } = await ready(undefined, { token: async () => `token-${(tokens += 1)}`, proceed: () => Promise.reject(QUOTES_FAILURES.botSpent) });
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.notice !== null);
    expect(actor.getSnapshot().context.notice).toBe('bot_check_failed');
    expect(actor.getSnapshot().matches({ ready: { list: 'browsing' } })).toBe(true);
    expect(calls.proceed).toHaveLength(2);
    actor.send({ type: 'quote.buy', quoteId: second.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.notice !== null);
    expect(calls.proceed.map((sent) => [sent.policy_id, sent.bot_token])).toEqual([
      [first.id, 'token-1'],
      [first.id, 'token-2'],
      [second.id, 'token-3'],
      [second.id, 'token-4'],
    ]);
  });

  it('a malformed token is shown at once: a fresh one would be refused the same way', async () => {
    const { actor, calls } = await ready(undefined, { proceed: () => Promise.reject(QUOTES_FAILURES.botRefused) });
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.notice !== null);
    expect(calls.proceed).toHaveLength(1);
  });

  it('an expired quote reloads the quotes and says so', async () => {
    const { actor, calls } = await ready(undefined, { proceed: () => Promise.reject(QUOTES_FAILURES.quoteExpired) });
    actor.send({ type: 'compare.toggle', quoteId: first.id });
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => calls.load === 2 && snapshot.matches('ready'));
    expect(actor.getSnapshot().context.notice).toBe('quote_expired');
    // The fresh quotes are the same plans: the selection is carried by compare id.
    expect(actor.getSnapshot().context.compareSelection).toEqual([first.id]);
  });

  it('row 3: a reload re-prices the plans under new quote ids and keeps the selection and ticks by compare id', async () => {
    const repriced = SAMPLE_QUOTES.map((quote) => ({ ...quote, id: quote.id + 1000 }));
    let loads = 0;
    const { actor } = await ready(undefined, {
      load: async () => ({ ...SAMPLE_DATA, quotes: loads++ === 0 ? SAMPLE_QUOTES : repriced }),
      proceed: () => Promise.reject(QUOTES_FAILURES.quoteExpired),
    });
    actor.send({ type: 'compare.toggle', quoteId: second.id });
    actor.send({ type: 'addon.toggle', quoteId: second.id, addonId: second.addon[0]!.id });
    actor.send({ type: 'quote.buy', quoteId: second.id });
    await waitForSnapshot(actor, (snapshot) => loads === 2 && snapshot.matches('ready'));
    expect(actor.getSnapshot().context.compareSelection).toEqual([second.id + 1000]);
    expect(actor.getSnapshot().context.checkedAddons).toEqual({ [second.id + 1000]: [second.addon[0]!.id] });
  });

  it('any other failure flags buyFailed (system error) and returns to the list', async () => {
    const { actor } = await ready(undefined, { proceed: () => Promise.reject(QUOTES_FAILURES.server) });
    actor.send({ type: 'quote.buy', quoteId: first.id });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.buyFailed);
    expect(actor.getSnapshot().matches({ ready: { list: 'browsing' } })).toBe(true);
    expect(actor.getSnapshot().context.buyingQuoteId).toBeNull();
  });
});

describe('agent e-mail share', () => {
  it('is refused without an agent', async () => {
    const { actor, calls } = await ready();
    actor.send({ type: 'share.email' });
    await settle();
    expect(calls.email).toEqual([]);
  });

  it('needs both an agent and the page link: either alone is refused', async () => {
    for (const input of [quotesInput({ agentId: 101, link: null }), quotesInput({ agentId: null })]) {
      const { actor, calls } = await ready(input);
      expect(actor.getSnapshot().can({ type: 'share.email' })).toBe(false);
      actor.send({ type: 'share.email' });
      await settle();
      expect(calls.email).toEqual([]);
    }
  });

  it('sends the page link and shows the toast for 5 s (clock mocked)', async () => {
    const clock = new SimulatedClock();
    const { actor, calls } = start(quotesInput({ agentId: 101 }), {}, clock);
    await waitForSnapshot(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'share.email' });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.emailSent);
    expect(calls.email).toEqual([
      { uuid: QUOTES_LEAD_UUID, lang: 'en', agentId: 101, link: quotesInput().link, pagename: 'compare-quotes' },
    ]);
    clock.increment(EMAIL_TOAST_MS - 1);
    expect(actor.getSnapshot().context.emailSent).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().context.emailSent).toBe(false);
  });

  it('shares the compare table as compare-offers', async () => {
    const { actor, calls } = await ready(quotesInput({ agentId: 101, view: 'offers', compareIds: [first.compare_id, second.compare_id] }));
    actor.send({ type: 'share.email' });
    await waitForSnapshot(actor, (snapshot) => snapshot.context.emailSent);
    expect(calls.email.map((input) => input.pagename)).toEqual(['compare-offers']);
  });

  it('a failed share is silent and stops loading', async () => {
    const { actor } = await ready(quotesInput({ agentId: 101 }), { email: () => Promise.reject(QUOTES_FAILURES.server) });
    actor.send({ type: 'share.email' });
    expect(actor.getSnapshot().matches({ ready: { share: 'sending' } })).toBe(true);
    await waitForSnapshot(actor, (snapshot) => snapshot.matches({ ready: { share: 'idle' } }));
    expect(actor.getSnapshot().context.emailSent).toBe(false);
  });
});
