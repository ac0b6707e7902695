import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestParam, type TestPath } from 'xstate/graph';
import { journeyMachine } from '../../machines/journey.machine';
import { JOURNEY_MODEL_LEAD, JOURNEY_MODEL_POLICY, journeyModelEvents, journeyModelInput, journeyModelStateKey, serializeJourneyModelState } from '../../machines/journey.model';
import { STEP_IDS, STEP_PATHS, stepPath, type StepId } from '../../machines/journey.routes';
import type { JourneyEvent } from '../../machines/journey.types';
import { activateLanguage } from '../../src/web/i18n/locale';
import { configureHttpClient } from '../../src/web/services/http-client';
import { localStore } from '../../src/web/storage/local-store';
import { greedyCover, pathsCoveringTransitions, recordModelCoverage, transitionsTakenBy } from '../../machines/model-tooling/model-coverage';
import { withPathIds } from '../../machines/model-tooling/model-replay';
import { renderApp } from '../support/render-app';

/**
 * The journey model run against the rendered app: paths generated as in
 * machines/journey.model.test.ts (a greedy cover of them, below), but URL events go through the
 * router (as back/forward and typed addresses do), header jumps are clicks on the wizard header,
 * and after every step the screen shown and the address bar must match the model's state.
 */

const inspect = recordModelCoverage(import.meta.url);

type Snapshot = SnapshotFrom<typeof journeyMachine>;
type Path = TestPath<Snapshot, JourneyEvent>;

/** The screen's test id for each step: its route path without the slash. */
const screenTestId = (step: StepId) => `screen-${STEP_PATHS[step].slice(1)}`;
const SCREEN_IDS: Record<StepId, string> = {
  ...Object.fromEntries(STEP_IDS.map((step) => [step, screenTestId(step)])),
  // The thank-you page after a fully discounted order lives at /thank-you-p.
  thankYouHundred: 'screen-thank-you-hundred',
} as Record<StepId, string>;

const model = createTestModel(journeyMachine, {
  events: journeyModelEvents,
  input: journeyModelInput,
  serializeState: serializeJourneyModelState,
});
const paths = model.getShortestPaths();
/** A path for each transition the shortest paths never take (Back into a visited page, refusals, no-ops). */
const coveringPaths = pathsCoveringTransitions(journeyMachine, model, paths, serializeJourneyModelState);
/**
 * The generated paths the app runs: a greedy cover of the shortest and transition-covering paths
 * by the transitions they take and the pages (with a lead or without) they show. Most of the 417
 * repeat one another's steps; all of them rendered took about three minutes of this 2-core
 * machine inside `npm test`. The live-actor test (machines/journey.model.test.ts) runs all.
 */
const appPaths = greedyCover(
  [...paths, ...coveringPaths],
  (path) => [...transitionsTakenBy(journeyMachine, journeyModelInput, [], path), ...path.steps.map((step) => `shows ${journeyModelStateKey(step.state)}`)],
  (path) => path.steps.length,
);

/**
 * Shortest paths never take a header jump back (a URL change reaches the same state in fewer
 * steps), so these journeys go forward and then click back through every header step.
 */
const lead = { uuid: 'lead-1', sessionId: 'sess-1' };
const headerJourneys: JourneyEvent[][] = [
  [
    { type: 'details.submitted', ...lead },
    { type: 'quote.chosen' },
    { type: 'review.completed' },
    { type: 'wizard.jump', step: 'review' },
    { type: 'wizard.jump', step: 'quotes' },
    { type: 'wizard.jump', step: 'travel' },
  ],
  [
    { type: 'lead.resumed', ...lead, stage: 3 },
    { type: 'wizard.jump', step: 'travel' },
    { type: 'route.changed', path: '/checkout' },
    { type: 'wizard.jump', step: 'quotes' },
    { type: 'compare.opened' },
    { type: 'wizard.jump', step: 'travel' },
  ],
];
const headerPaths = headerJourneys.flatMap((events) => model.getPathsFromEvents(events));

/**
 * The travel details screen loads its lists when it opens. This test is about the journey, so
 * those calls stay pending (until aborted) and the screen shows its loader: the page is there,
 * and no request leaves the test. The screen's own behaviour is tested beside it.
 */
const pendingFetch: typeof fetch = (input) =>
  new Promise((_resolve, reject) => {
    const signal = input instanceof Request ? input.signal : undefined;
    signal?.addEventListener('abort', () => reject(signal.reason));
  });

beforeAll(async () => {
  await activateLanguage('en');
  configureHttpClient({ baseUrl: 'http://journey.model.test', signingKey: 'model-test', fetch: pendingFetch });
});
afterEach(() => cleanup());

async function runInApp(path: Path) {
  // The journey is watched from its start (renderApp puts the inspector in ActorInspectorContext).
  const { router, actor } = renderApp(journeyModelInput.path, journeyModelInput, { inspect });

  // States are keyed by page and "has a lead" (journeyModelStateKey), so the model's snapshot
  // can carry another path's lead id: the address bar is checked against the live lead.
  const expectShown = (step: StepId) => (model: Snapshot) => {
    const live = actor.getSnapshot();
    expect(live.value).toBe(step);
    expect(live.context.uuid === null).toBe(model.context.uuid === null);
    expect(screen.getByTestId(SCREEN_IDS[step])).toBeTruthy();
    if (step === 'travellerDetails') expect(screen.getByTestId('travel-details-loading')).toBeTruthy();
    // A trailing slash names the same page (the machine's "same page" case) and stays as typed.
    expect(router.state.location.pathname.replace(/\/$/, '')).toBe(stepPath(step, live.context.policyToken));
    const query = new URLSearchParams(router.state.location.search);
    expect(query.get('uuid')).toBe(live.context.uuid);
    expect(query.get('sid')).toBe(live.context.uuid ? live.context.sessionId : null);
  };

  const perform = async (step: { event: { type: string } }) => {
    const event = step.event as JourneyEvent;
    await act(async () => {
      if (event.type === 'route.changed') {
        // The page shown, by another address that names it (a trailing slash added or dropped):
        // the same address again would not change the location at all.
        const here = router.state.location.pathname;
        const samePage = event.path === here.replace(/\/$/, '');
        const path = samePage ? (here.endsWith('/') ? event.path : `${event.path}/`) : event.path;
        await router.navigate(`${path}${router.state.location.search}`);
      } else if (event.type === 'wizard.jump') {
        // An allowed jump must be a click on the header step; a refused one is sent as the
        // header would never offer it, and the machine must ignore it.
        if (actor.getSnapshot().can(event)) fireEvent.click(screen.getByTestId(`wizard-step-${event.step}`));
        else actor.send(event);
      } else if (event.type === 'callBack.requested' && event.reason === 'header') {
        // The header's offer is a click too, and it must be missing where it is refused.
        const offer = screen.queryByTestId('header-call-back');
        expect(offer !== null).toBe(actor.getSnapshot().can(event));
        if (offer) fireEvent.click(offer);
      } else {
        // The quote list stores the compared plans before it opens the table; without them
        // /compare-offers goes straight back to the list.
        if (event.type === 'compare.opened') localStore.setJson('compare_data', ['model-a', 'model-b']);
        actor.send(event);
      }
    });
  };

  const params: TestParam<Snapshot, JourneyEvent> = {
    states: Object.fromEntries(STEP_IDS.map((step) => [step, expectShown(step)])),
    events: Object.fromEntries(journeyModelEvents.map(({ type }) => [type, perform])),
  };
  await path.test(params);
}

describe('journey model on the rendered app (router, header, screens)', () => {
  it('generates paths that reach every page', () => {
    // Paths that are prefixes of longer ones are dropped, so a page may be passed rather than end a path.
    expect(new Set(paths.flatMap((path) => path.steps.map((step) => step.state.value)))).toEqual(new Set(STEP_IDS));
  });

  it('includes journeys that click back through every header step', () => {
    const jumps = headerPaths.flatMap((path) => path.steps.filter((step) => step.event.type === 'wizard.jump'));
    expect(jumps.length).toBe(6);
    expect(headerPaths.map((path) => path.state.value)).toEqual(['travellerDetails', 'travellerDetails']);
  });

  it.each(withPathIds('journey app', [...appPaths, ...headerPaths], label))('%s', async (_label, path) => {
    await expect(runInApp(path)).resolves.toBeUndefined();
  });
});

/** A deep link to every page, with the model's lead in its address, as the journey model test opens them. */
const deepLinks = STEP_IDS.map((step) => ({ ...journeyModelInput, path: stepPath(step, JOURNEY_MODEL_POLICY), ...JOURNEY_MODEL_LEAD }));

describe('journey model on the rendered app: deep links', () => {
  it.each(deepLinks.map((input) => [input.path, input] as const))('%s with a lead opens the page the machine boots to (a page of the lead once the server said it is not paid)', async (_path, input) => {
    const booted = createActor(journeyMachine, { input }).start();
    const step = booted.getSnapshot().value as StepId;
    booted.stop();
    // The compare table shows plans named in compare_data; without them it goes back to the list.
    localStore.setJson('compare_data', ['model-a', 'model-b']);
    const { router, actor } = renderApp(`${input.path}?uuid=${input.uuid}&sid=${input.sessionId}`, input, { inspect });
    expect(actor.getSnapshot().value).toBe(step);
    expect(await screen.findByTestId(SCREEN_IDS[step])).toBeTruthy();
    expect(router.state.location.pathname).toBe(stepPath(step, JOURNEY_MODEL_POLICY));
    expect(new URLSearchParams(router.state.location.search).get('uuid')).toBe(input.uuid);
  });
});

function label(path: Path): string {
  const events = path.steps
    .map(({ event }) => event as JourneyEvent | { type: 'xstate.init' })
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => ('path' in event ? `${event.type}(${event.path})` : 'step' in event ? `${event.type}(${event.step})` : event.type));
  return `${journeyModelStateKey(path.state)} ⇐ ${events.join(' → ') || '(start)'}`;
}
