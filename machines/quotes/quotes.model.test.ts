import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { pathsCoveringTransitions } from '../model-tooling/model-coverage';
import { deferredActors, replayStep, expectSameSnapshot, testPathOnActor, withPathIds } from '../model-tooling/model-replay';
import { quotesMachine } from './quotes.machine';
import type { Quote } from '../../src/contract/quote.endpoints';
import {
  SAMPLE_QUOTES,
  createQuotesModel,
  quotesInput,
  quotesModelEvents,
  quotesModelPathLabel,
  serializeQuotesModelState,
  type QuotesModelEvent,
  type QuotesModelPath,
  type QuotesModelSnapshot,
} from './quotes.model';
import { displayedTotal, proceedPayload } from './quotes.pricing';
import { MAX_COMPARED, type QuotesInput } from './quotes.types';
import { recordModelCoverage } from '../model-tooling/model-coverage';

const inspect = recordModelCoverage(import.meta.url);

// Built like travel-details.model.test.ts (see there why TestModel and not createTestModel()):
// call outcomes are sample events, which settle the pending promise actor of the live replay.
// The model itself (its event filters, serialisation and labels) is createQuotesModel in
// quotes.model.ts, shared with the run on the rendered screens (tests/model/).

type Snapshot = QuotesModelSnapshot;
type Path = QuotesModelPath;
type ImplementationsOf = Parameters<typeof quotesMachine.provide>[0];

const ACTOR_IDS = ['loadQuotes', 'getBotToken', 'proceed', 'sendEmail'] as const;
const STATES = ['noLead', 'loading', 'empty', 'failed', 'ready', 'chosen', 'compared', 'closed'] as const;

const INPUTS: Record<string, QuotesInput> = {
  customer: quotesInput(),
  agent: quotesInput({ agentId: 101 }),
};

const [firstQuote, secondQuote] = SAMPLE_QUOTES as [Quote, Quote];

/** The step's other starts: no lead, and the compare table (compare-offers) with and without plans to show. */
const OTHER_STARTS: Record<string, { input: QuotesInput; reaches: string[] }> = {
  'no lead': { input: quotesInput({ uuid: null }), reaches: ['"noLead"'] },
  'compare table without plans named': { input: quotesInput({ view: 'offers', compareIds: [] }), reaches: ['"closed"'] },
  'compare table whose plans are gone': { input: quotesInput({ view: 'offers', compareIds: ['999-gone'] }), reaches: ['"closed"'] },
  'compare table': { input: quotesInput({ view: 'offers', compareIds: [firstQuote.compare_id, secondQuote.compare_id] }), reaches: ['"closed"', '"failed"'] },
};

const serializeState = serializeQuotesModelState;
const labelOf = quotesModelPathLabel;
const createModel = createQuotesModel;

async function replayOnLiveActor(path: Path, input: QuotesInput): Promise<number> {
  const { actors: deferred, pending } = deferredActors(ACTOR_IDS);
  const actors = deferred as unknown as NonNullable<ImplementationsOf['actors']>;
  const stored: unknown[] = [];
  const actor = createActor(
    quotesMachine.provide({
      actors,
      actions: {
        storeTravellerIndex: () => stored.push('traveller_index'),
        storeChosen: (_, params) => stored.push({ chosen: params }),
        storeCompared: (_, params) => stored.push({ compared: params }),
      },
    }),
    { input, inspect },
  ).start();
  let checked = 0;

  const check = (modelState: Snapshot) => {
    checked += 1;
    const live = actor.getSnapshot();
    expectSameSnapshot(live, modelState);
    // Never more than 3 plans compared.
    expect(live.context.compareSelection.length).toBeLessThanOrEqual(MAX_COMPARED);
    if (live.matches({ ready: { list: { buying: 'proceeding' } } })) {
      // The payload carries the displayed total of the chosen quote, with its ticked add-ons.
      const payload = pending.get('proceed')?.input;
      expect(payload).toEqual(proceedPayload(live.context));
      const quote = live.context.quotes.find((candidate) => candidate.id === live.context.buyingQuoteId)!;
      expect(payload).toMatchObject({ selected_premium: displayedTotal(live.context, quote), agent_id: input.agentId ?? 0 });
    }
    if (live.status === 'done' && live.output?.type === 'chosen') {
      expect(stored).toContainEqual({ chosen: expect.objectContaining({ quote: expect.objectContaining({ id: live.output.quoteId }) }) });
    }
    if (live.status === 'done' && live.output?.type === 'compared') {
      expect(live.output.compareIds.length).toBeGreaterThanOrEqual(2);
      expect(stored).toContainEqual({ compared: expect.objectContaining({ compareIds: live.output.compareIds }) });
    }
  };

  const perform = replayStep(pending, (event) => actor.send(event as Exclude<QuotesModelEvent, { type: `xstate.${string}` }>));

  await testPathOnActor(path, actor, { states: STATES, check, samples: quotesModelEvents, perform });
  return checked;
}

describe.each(Object.entries(INPUTS))('quotes model: %s', (_name, input) => {
  const model = createModel(input);
  const shortestPaths = model.getShortestPaths();

  it('reaches every outcome of the step', () => {
    const reached = new Set(shortestPaths.map((path) => (typeof path.state.value === 'string' ? path.state.value : 'ready')));
    for (const state of ['empty', 'failed', 'ready', 'chosen', 'compared'] as const) expect(reached).toContain(state);
    // A 4th plan is refused somewhere along the way.
    expect(shortestPaths.some((path) => path.state.context.compareRefused)).toBe(true);
    // Each buy failure is reached: expired (reload), bot check, system error.
    expect(shortestPaths.some((path) => path.state.context.notice === 'quote_expired')).toBe(true);
    expect(shortestPaths.some((path) => path.state.context.notice === 'bot_check_failed')).toBe(true);
    expect(shortestPaths.some((path) => path.state.context.buyFailed)).toBe(true);
    // A spent token is followed by a fresh one and a second proceed, with nothing shown meanwhile.
    expect(shortestPaths.some((path) => path.state.matches({ ready: { list: { buying: 'proceeding' } } }) && path.state.context.botRetried && path.state.context.notice === null)).toBe(true);
  });

  it.each(withPathIds(`quotes ${_name} shortest`, shortestPaths, labelOf))('%s', async (_label, path) => {
    expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
  });

  it.each(withPathIds(`quotes ${_name} transitions`, pathsCoveringTransitions(quotesMachine, model, shortestPaths, serializeState), labelOf))(
    'transition: %s',
    async (_label, path) => {
      expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
    },
  );
});

describe.each(Object.entries(OTHER_STARTS))('quotes model: %s', (name, { input, reaches }) => {
  const model = createModel(input);
  const shortestPaths = model.getShortestPaths();

  it(`reaches ${reaches.join(' and ')}`, () => {
    const values = new Set(shortestPaths.flatMap((path) => [...path.steps.map((step) => step.state), path.state]).map((state) => JSON.stringify(state.value)));
    for (const value of reaches) expect(values).toContain(value);
  });

  it.each(withPathIds(`quotes ${name} shortest`, shortestPaths, labelOf))('%s', async (_label, path) => {
    expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
  });

  it.each(withPathIds(`quotes ${name} transitions`, pathsCoveringTransitions(quotesMachine, model, shortestPaths, serializeState), labelOf))(
    'transition: %s',
    async (_label, path) => {
      expect(await replayOnLiveActor(path, input)).toBe(path.steps.length);
    },
  );
});
