import type { SnapshotFrom } from 'xstate';
import { TestModel, type TestPath } from 'xstate/graph';
import type { ErrorEnvelope } from '../../src/contract/envelope';
import type { Quote, QuoteAddon } from '../../src/contract/quote.endpoints';
import { isShareEvent, shareModelEvents, type ShareModelEvent } from '../agent-share.model';
import { quotesMachine } from './quotes.machine';
import { SAMPLE_LEAD } from '../travel-details/travel-details.model';
import type { QuotesData, QuotesEvent, QuotesInput, QuotesServiceFailure } from './quotes.types';

/**
 * Samples of the quotes step, shared by its unit tests, its model test (quotes.model.test.ts)
 * and the screens' tests: quotes as compare-quotes answers them, what each call can answer,
 * and the user's events.
 */

export const QUOTES_LEAD_UUID = '0b7c2f4e-5a61-4c1d-9e3a-8d2f6b1a7c90';
export const QUOTES_SESSION_UUID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
export const BOT_TOKEN = 'eyJhbGdvcml0aG0iOiJTSEEtMjU2In0=';

function addon(id: number, code: string, label: string, value: number, extra: Partial<QuoteAddon> = {}): QuoteAddon {
  return {
    id,
    code,
    label,
    label_ar: `${label} (ar)`,
    value,
    value_to_display: `$${value / 100}`,
    addonCheck: false,
    checked_addon: false,
    disabled_addon: false,
    max_age: null,
    covered_travellers: 2,
    ...extra,
  };
}

/** A priced plan; `n` varies its ids, insurer and figures. */
export function sampleQuote(n: number, overrides: Partial<Quote> = {}): Quote {
  const providerId = [7, 3, 1000, 12][n % 4]!;
  return {
    id: 100 + n,
    compare_id: `${500 + n}-schengen`,
    premium: 4000 + n * 1000,
    premium_round: 40 + n * 10,
    premium_per_person: [
      { label: 'Traveller 1, 36 years', value: 2000 + n * 500 },
      { label: 'Traveller 2, 34 years', value: 2000 + n * 500 },
    ],
    provider: { id: providerId, name: `Insurer ${providerId}`, name_ar: `المؤمن ${providerId}`, image: `insurer-${providerId}.svg` },
    provider_plan_id: 500 + n,
    coverage_id: 1,
    wizard_plan_name: `Plan ${n}`,
    product_type_name: 'Several travellers',
    zone: 'schengen',
    trip_type: 1,
    // Medical limits fall as the premium rises, so the two sorts disagree.
    medical_limit_usd: 100_000 - n * 10_000,
    schengen_visa_compliant: true,
    planDocuments: { file_url: `/plan-documents/${500 + n}.pdf` },
    is_instant_policy: true,
    is_instant_policy_text: 'Instant policy',
    is_api_plan: 1,
    highlight: [
      { key: 'medical', label: 'Medical expenses', label_ar: 'النفقات الطبية', value: `$${100 - n * 10},000`, value_ar: `${100 - n * 10},000 $`, section: 1 },
      { key: 'evacuation', label: 'Evacuation', label_ar: 'الإخلاء', value: 'Covered', value_ar: 'مغطى', section: 1 },
      { key: 'baggage', label: 'Baggage loss', label_ar: 'فقدان الأمتعة', value: '$500', value_ar: '500 $', section: 2 },
      { key: 'covid19', label: 'COVID-19', label_ar: 'كوفيد-19', value: 'Included', value_ar: 'مشمول', section: 3 },
    ],
    addon: [
      addon(10 + n * 3, 'winter_sports', 'Winter sports', 1200, { max_age: 70 }),
      addon(11 + n * 3, 'trip_cancellation', 'Trip cancellation', 2500),
    ],
    benefits: [{ label: 'Emergency dental', label_ar: 'طب الأسنان الطارئ', value_to_display: '$300', value_to_display_ar: '300 $' }],
    ...overrides,
  };
}

export const SAMPLE_QUOTES: Quote[] = [sampleQuote(0), sampleQuote(1), sampleQuote(2), sampleQuote(3)];

export function quotesData(quotes: Quote[] = SAMPLE_QUOTES, overrides: Partial<QuotesData> = {}): QuotesData {
  return {
    quotes,
    customer: { id: 9, name: 'Rania Haddad', email: 'rania@example.com', phone_country_code: '+961', phone_number: '71234567', complete_phone_number: '+96171234567' },
    lead: { ...SAMPLE_LEAD, uuid: QUOTES_LEAD_UUID, destination_names: ['France', 'Türkiye'], source_name: 'Lebanon', stage: 1 },
    whatapp_template: 'Your travel insurance quotes: https://safar.example/compare-quotes?uuid=x',
    hasError: false,
    unavailable_providers: [],
    ...overrides,
  };
}

export const SAMPLE_DATA = quotesData();
export const EMPTY_DATA = quotesData([]);
export const ERROR_DATA = quotesData([], { hasError: true });

function failure(status: number | null, kind: string, data: ErrorEnvelope['data'] = {}): QuotesServiceFailure {
  return { kind, status, body: status === null ? null : { status, message: 'refused', data } };
}

/** What the web's ApiError looks like for each failure the step tells apart. */
export const QUOTES_FAILURES = {
  network: failure(null, 'network'),
  server: failure(500, 'server'),
  botRefused: failure(422, 'invalid', { errors: { bot_token: 'invalid_value' } }),
  botSpent: failure(403, 'rejected', { errors: { bot_token: 'bot_check_failed' } }),
  quoteExpired: failure(409, 'rejected', { errors: { policy_id: 'quote_expired' } }),
} as const satisfies Record<string, QuotesServiceFailure>;

export function quotesInput(overrides: Partial<QuotesInput> = {}): QuotesInput {
  return {
    lang: 'en',
    uuid: QUOTES_LEAD_UUID,
    sessionId: QUOTES_SESSION_UUID,
    agentId: null,
    link: 'https://safar.example/compare-quotes?uuid=' + QUOTES_LEAD_UUID,
    view: 'quotes',
    compareIds: [],
    addonsByPlan: {},
    ...overrides,
  };
}

export type ActorOutcomeEvent =
  | { type: `xstate.done.actor.${string}`; output: unknown }
  | { type: `xstate.error.actor.${string}`; error: unknown };

export type QuotesModelEvent = QuotesEvent | ActorOutcomeEvent | ShareModelEvent;

const [first, second, third, fourth] = SAMPLE_QUOTES as [Quote, Quote, Quote, Quote];

/**
 * The call outcomes and user events the model explores, one sample of each event type the step
 * accepts (issue 20): loading outcomes, comparing up to 3 (and the 4th refused), ticking an
 * add-on, each buy outcome, the list's sort, filter, benefits drawer and notice, Back from the
 * compare table, and the agent's share. Every event multiplies the reachable contexts, so
 * quotes.model.test.ts explores the view and share events off the freshly loaded list only.
 */
export const quotesModelEvents: readonly QuotesModelEvent[] = [
  { type: 'xstate.done.actor.loadQuotes', output: SAMPLE_DATA },
  { type: 'xstate.done.actor.loadQuotes', output: EMPTY_DATA },
  { type: 'xstate.done.actor.loadQuotes', output: ERROR_DATA },
  { type: 'xstate.error.actor.loadQuotes', error: QUOTES_FAILURES.network },
  { type: 'compare.toggle', quoteId: first.id },
  { type: 'compare.toggle', quoteId: second.id },
  { type: 'compare.toggle', quoteId: third.id },
  { type: 'compare.toggle', quoteId: fourth.id },
  { type: 'compare.open' },
  { type: 'addon.toggle', quoteId: first.id, addonId: first.addon[0]!.id },
  { type: 'quote.buy', quoteId: first.id },
  { type: 'xstate.done.actor.getBotToken', output: BOT_TOKEN },
  { type: 'xstate.error.actor.getBotToken', error: new Error('worker failed') },
  { type: 'xstate.done.actor.proceed', output: { ok: true } },
  { type: 'xstate.error.actor.proceed', error: QUOTES_FAILURES.botRefused },
  { type: 'xstate.error.actor.proceed', error: QUOTES_FAILURES.botSpent },
  { type: 'xstate.error.actor.proceed', error: QUOTES_FAILURES.quoteExpired },
  { type: 'xstate.error.actor.proceed', error: QUOTES_FAILURES.server },
  { type: 'sort.change', sort: 'medical' },
  { type: 'filter.change', providerIds: [first.provider.id] },
  { type: 'drawer.open', quoteId: first.id },
  { type: 'drawer.close' },
  { type: 'notice.dismiss' },
  { type: 'compare.back' },
  ...shareModelEvents('quotes.ready.share.sent'),
];

/** Events that change only what the list shows, explored off the freshly loaded list. */
export const QUOTES_VIEW_EVENT_TYPES = ['sort.change', 'filter.change', 'drawer.open', 'drawer.close', 'notice.dismiss'] as const;

/**
 * The quotes model, shared by the run of its paths on a live actor (quotes.model.test.ts) and on
 * the rendered screens (tests/model/quotes-screen.model.test.tsx): serialisation, event filters
 * and path labels.
 */
export type QuotesModelSnapshot = SnapshotFrom<typeof quotesMachine>;
export type QuotesModelPath = TestPath<QuotesModelSnapshot, QuotesModelEvent>;

export const serializeQuotesModelState = (snapshot: QuotesModelSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });

const isQuotesViewEvent = (event: QuotesModelEvent) => (QUOTES_VIEW_EVENT_TYPES as readonly string[]).includes(event.type);

/**
 * The list's view events (sort, filter, drawer, notice) and the agent's share are explored off
 * the freshly loaded list, nothing compared, ticked or bought: there, and in what they lead to,
 * only they are sent. Otherwise every sort, filter and share state would multiply every
 * selection the paths already cover.
 */
function exploredInQuotesModel(state: QuotesModelSnapshot, event: QuotesModelEvent): boolean {
  const { context } = state;
  const side = isQuotesViewEvent(event) || isShareEvent(event);
  const untouched = context.compareSelection.length === 0 && context.buyingQuoteId === null && Object.values(context.checkedAddons).every((ids) => ids.length === 0);
  const inSideBranch =
    context.sort !== 'price' || context.insurerFilter.length > 0 || context.drawerQuoteId !== null || !state.matches({ ready: { share: 'idle' } }) || context.emailSent;
  if (!state.matches('ready')) return !side;
  if (inSideBranch) return side;
  return side ? untouched : true;
}

/**
 * Plans are added to the comparison in list order and removed last first: the order of picks
 * only changes the order of the table, and every order would multiply the paths by 24.
 */
function inOrderInQuotesModel(state: QuotesModelSnapshot, event: QuotesModelEvent): boolean {
  if (event.type !== 'compare.toggle') return true;
  const { compareSelection, quotes } = state.context;
  const index = quotes.findIndex((quote) => quote.id === event.quoteId);
  return index === compareSelection.length || event.quoteId === compareSelection.at(-1);
}

export function createQuotesModel(input: QuotesInput) {
  return new TestModel<QuotesModelSnapshot, QuotesModelEvent, QuotesInput>(quotesMachine as never, {
    input,
    serializeState: serializeQuotesModelState,
    stateMatcher: (state, key) => state.matches(key as never),
    events: (state) => quotesModelEvents.filter((event) => state.can(event as never) && inOrderInQuotesModel(state, event) && exploredInQuotesModel(state, event)),
  });
}

const QUOTES_FAILURE_NAMES = new Map<unknown, string>(Object.entries(QUOTES_FAILURES).map(([name, failure]) => [failure, name]));

function describeQuotesModelEvent(event: QuotesModelEvent | { type: 'xstate.init' }): string {
  if ('error' in event) return `${event.type.replace('xstate.error.actor.', '')}✗${QUOTES_FAILURE_NAMES.get(event.error) ?? 'error'}`;
  if ('output' in event) return `${event.type.replace('xstate.done.actor.', '')}✓`;
  if ('quoteId' in event) return `${event.type}(${event.quoteId})`;
  return event.type;
}

/** A path's test label, as quotes.model.test.ts names its paths. */
export function quotesModelPathLabel(path: QuotesModelPath): string {
  const events = path.steps.map(({ event }) => event).filter((event) => !(event.type as string).startsWith('xstate.init'));
  return `${JSON.stringify(path.state.value)} ⇐ ${events.map(describeQuotesModelEvent).join(' → ') || '(start)'}`;
}
