import { assign, fromPromise, setup } from 'xstate';
import { notProvided } from '../not-provided';
import { agentShareRegion } from '../agent-share';
import { chosenPlan, compareDataOf, isBotCheckRefused, isBotTokenSpent, isQuoteExpired, loaded, proceedPayload, quoteById, toggled } from './quotes.pricing';
import { loadFailureOf } from '../service-failure';
import {
  MAX_COMPARED,
  type BotTokenInput,
  type ChosenPlan,
  type CompareData,
  type LoadQuotesInput,
  type ProceedInput,
  type QuotesContext,
  type QuotesData,
  type QuotesEvent,
  type QuotesInput,
  type QuotesOutput,
  type SendEmailInput,
} from './quotes.types';


function initialContext(input: QuotesInput): QuotesContext {
  return {
    ...input,
    quotes: [],
    lead: null,
    customer: null,
    whatsappTemplate: '',
    unavailableProviders: [],
    checkedAddons: {},
    compareSelection: [],
    compareRefused: false,
    sort: 'price',
    insurerFilter: [],
    drawerQuoteId: null,
    buyingQuoteId: null,
    botToken: null,
    botRetried: false,
    notice: null,
    failure: null,
    buyFailed: false,
    emailSent: false,
    outcome: null,
  };
}

const machineSetup = setup({
  types: {
    context: {} as QuotesContext,
    events: {} as QuotesEvent,
    input: {} as QuotesInput,
    output: {} as QuotesOutput,
  },
  actors: {
    loadQuotes: fromPromise<QuotesData, LoadQuotesInput>(notProvided('quotes', 'loadQuotes')),
    getBotToken: fromPromise<string, BotTokenInput>(notProvided('quotes', 'getBotToken')),
    proceed: fromPromise<unknown, ProceedInput>(notProvided('quotes', 'proceed')),
    sendEmail: fromPromise<unknown, SendEmailInput>(notProvided('quotes', 'sendEmail')),
  },
  actions: {
    // The agent's share region (agentShareRegion) names these.
    markEmailSent: assign({ emailSent: true }),
    clearEmailSent: assign({ emailSent: false }),
    // Injected by the web: local storage writes of spec §3.
    storeTravellerIndex: () => {},
    storeChosen: (_, _params: ChosenPlan) => {},
    // compare_data follows every tick and compare choice, so the table, Back and a reload keep them.
    storeCompared: (_, _params: CompareData) => {},
  },
  guards: {
    hasLead: ({ context }) => context.uuid !== null,
    quotingFailed: (_, params: { data: QuotesData }) => params.data.hasError,
    noQuotes: (_, params: { data: QuotesData }) => params.data.quotes.length === 0,
    nothingToCompare: ({ context }, params: { data: QuotesData }) =>
      context.view === 'offers' && !params.data.quotes.some((quote) => context.compareIds.includes(quote.compare_id)),
    offersWithoutIds: ({ context }) => context.view === 'offers' && context.compareIds.length === 0,
    isQuote: ({ context }, params: { quoteId: number }) => quoteById(context, params.quoteId) !== undefined,
    compareFull: ({ context }, params: { quoteId: number }) =>
      !context.compareSelection.includes(params.quoteId) && context.compareSelection.length >= MAX_COMPARED,
    canCompare: ({ context }) => context.view === 'quotes' && context.compareSelection.length >= 2,
    addonEnabled: ({ context }, params: { quoteId: number; addonId: number }) =>
      quoteById(context, params.quoteId)?.addon.some((addon) => addon.id === params.addonId && !addon.disabled_addon) ?? false,
    isOffers: ({ context }) => context.view === 'offers',
    canShare: ({ context }) => context.agentId !== null && context.link !== null,
    botCheckRefused: (_, params: { error: unknown }) => isBotCheckRefused(params.error),
    firstSpentToken: ({ context }, params: { error: unknown }) => !context.botRetried && isBotTokenSpent(params.error),
    quoteExpired: (_, params: { error: unknown }) => isQuoteExpired(params.error),
  },
});

export const quotesMachine = machineSetup.createMachine({
  id: 'quotes',
  context: ({ input }) => initialContext(input),
  initial: 'starting',
  output: ({ context }) => context.outcome!,
  states: {
    starting: {
      description: 'Nothing to load without a lead (the journey sends the user back), nor a table without compared plans.',
      always: [
        { guard: 'offersWithoutIds', target: 'closed', actions: assign({ outcome: { type: 'closed' } }) },
        { guard: 'hasLead', target: 'loading' },
        { target: 'noLead' },
      ],
    },
    noLead: {
      description: 'No lead to quote: the page waits for the journey to leave it.',
    },
    loading: {
      description: 'compare-quotes prices every plan the lead can buy; the page shows "Searching".',
      invoke: {
        id: 'loadQuotes',
        src: 'loadQuotes',
        input: ({ context }) => ({ uuid: context.uuid!, lang: context.lang, link: context.link }),
        onDone: [
          {
            guard: { type: 'quotingFailed', params: ({ event }) => ({ data: event.output }) },
            target: 'failed',
            actions: assign({ failure: 'quotes_error' }),
          },
          {
            guard: { type: 'nothingToCompare', params: ({ event }) => ({ data: event.output }) },
            target: 'closed',
            actions: assign({ outcome: { type: 'closed' } }),
          },
          {
            guard: { type: 'noQuotes', params: ({ event }) => ({ data: event.output }) },
            target: 'empty',
            actions: assign(({ context, event }) => loaded(event.output, context)),
          },
          { target: 'ready', actions: assign(({ context, event }) => loaded(event.output, context)) },
        ],
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => loadFailureOf(event.error) }) },
      },
    },
    empty: {
      description: '"No Quotes Found !!": the insurers need more information; a call back is offered.',
    },
    failed: {
      description: 'The quotes could not be read (error view), or quoting failed outright (system error dialog).',
    },
    ready: {
      description: 'The list (or the compare table): the customer browses and buys; an agent can share the page meanwhile.',
      type: 'parallel',
      on: {
        'sort.change': { actions: assign({ sort: ({ event }) => event.sort }) },
        'filter.change': { actions: assign({ insurerFilter: ({ event }) => event.providerIds }) },
        'drawer.open': {
          guard: { type: 'isQuote', params: ({ event }) => ({ quoteId: event.quoteId }) },
          actions: assign({ drawerQuoteId: ({ event }) => event.quoteId }),
        },
        'drawer.close': { actions: assign({ drawerQuoteId: null }) },
        'notice.dismiss': { actions: assign({ notice: null }) },
        'compare.back': { guard: 'isOffers', target: 'closed', actions: assign({ outcome: { type: 'closed' } }) },
      },
      states: {
        list: {
          initial: 'browsing',
          states: {
            browsing: {
              description: 'Ticking add-ons, choosing plans to compare, and buy now.',
              on: {
                'addon.toggle': {
                  guard: { type: 'addonEnabled', params: ({ event }) => event },
                  actions: [
                    assign({
                      checkedAddons: ({ context, event }) => ({
                        ...context.checkedAddons,
                        [event.quoteId]: toggled(context.checkedAddons[event.quoteId] ?? [], event.addonId),
                      }),
                    }),
                    { type: 'storeCompared', params: ({ context }) => compareDataOf(context) },
                  ],
                },
                'compare.toggle': [
                  {
                    guard: { type: 'compareFull', params: ({ event }) => event },
                    actions: assign({ compareRefused: true }),
                  },
                  {
                    guard: { type: 'isQuote', params: ({ event }) => event },
                    actions: [
                      assign({
                        compareSelection: ({ context, event }) => toggled(context.compareSelection, event.quoteId),
                        compareRefused: false,
                      }),
                      { type: 'storeCompared', params: ({ context }) => compareDataOf(context) },
                    ],
                  },
                ],
                'compare.open': {
                  guard: 'canCompare',
                  target: '#quotes.compared',
                  actions: [
                    assign({
                      outcome: ({ context }) => ({
                        type: 'compared' as const,
                        compareIds: context.compareSelection.map((id) => quoteById(context, id)!.compare_id),
                      }),
                    }),
                    { type: 'storeCompared', params: ({ context }) => compareDataOf(context) },
                  ],
                },
                'quote.buy': {
                  guard: { type: 'isQuote', params: ({ event }) => event },
                  target: 'buying',
                  actions: assign({ buyingQuoteId: ({ event }) => event.quoteId, notice: null, buyFailed: false }),
                },
              },
            },
            buying: {
              description: 'Buy now: traveller index 0 is stored, the invisible bot check runs, then proceed-review.',
              entry: 'storeTravellerIndex',
              initial: 'verifying',
              // Forgotten on the way out, so a list after a refusal is the same state whatever the attempts.
              exit: assign({ botToken: null, botRetried: false }),
              states: {
                verifying: {
                  description: 'The bot-check token (RULINGS 16), obtained before the plan is chosen, and once more after a spent-token refusal.',
                  invoke: {
                    id: 'getBotToken',
                    src: 'getBotToken',
                    input: ({ context }) => ({ lang: context.lang }),
                    onDone: { target: 'proceeding', actions: assign({ botToken: ({ event }) => event.output }) },
                    onError: {
                      target: '#quotes.ready.list.browsing',
                      actions: assign({ notice: 'bot_check_failed', buyingQuoteId: null }),
                    },
                  },
                },
                proceeding: {
                  description: 'proceed-review: the server builds the invoice from its own stored quote.',
                  invoke: {
                    id: 'proceed',
                    src: 'proceed',
                    input: ({ context }) => proceedPayload(context),
                    onDone: {
                      target: '#quotes.chosen',
                      actions: [
                        { type: 'storeChosen', params: ({ context }) => chosenPlan(context) },
                        assign({ outcome: ({ context }) => ({ type: 'chosen' as const, quoteId: context.buyingQuoteId! }) }),
                      ],
                    },
                    onError: [
                      {
                        guard: { type: 'quoteExpired', params: ({ event }) => ({ error: event.error }) },
                        target: '#quotes.loading',
                        actions: assign({ notice: 'quote_expired', buyingQuoteId: null }),
                      },
                      {
                        // Issue 34 item 8: the token may have been spent by this very choice whose
                        // answer was lost; one fresh token, sent without a word to the customer.
                        guard: { type: 'firstSpentToken', params: ({ event }) => ({ error: event.error }) },
                        target: 'verifying',
                        actions: assign({ botRetried: true, botToken: null }),
                      },
                      {
                        guard: { type: 'botCheckRefused', params: ({ event }) => ({ error: event.error }) },
                        target: '#quotes.ready.list.browsing',
                        actions: assign({ notice: 'bot_check_failed', buyingQuoteId: null }),
                      },
                      { target: '#quotes.ready.list.browsing', actions: assign({ buyFailed: true, buyingQuoteId: null }) },
                    ],
                  },
                },
              },
            },
          },
        },
        share: agentShareRegion((context: QuotesContext) => (context.view === 'offers' ? ('compare-offers' as const) : ('compare-quotes' as const))),
      },
    },
    chosen: {
      description: 'A plan was chosen and the server holds its invoice: the journey opens review details.',
      type: 'final',
    },
    compared: {
      description: 'The plans to compare are stored (compare_data): the journey opens the compare table.',
      type: 'final',
    },
    closed: {
      description: 'The compare table was left, or had nothing to show: the journey returns to the quote list.',
      type: 'final',
    },
  },
});
