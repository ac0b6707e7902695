import { i18n } from '@lingui/core';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { definedCoverage, greedyCover, pathsCoveringTransitions, reachedCoverage, recordModelCoverage, transitionName } from '../../machines/model-tooling/model-coverage';
import { testPathOnActor, withPathIds } from '../../machines/model-tooling/model-replay';
import { travelDetailsMachine } from '../../machines/travel-details/travel-details.machine';
import {
  DEVICE_UUID,
  EMPTY_PREFILL,
  createTravelDetailsTestModel,
  describeTravelDetailsEvent,
  serializeTravelDetailsModelState,
  travelDetailsPathLabel,
  type TravelDetailsModelPath,
  LEAD_UUID,
  SAMPLE_VALUES,
  SESSION_UUID,
  modelInput,
  travelDetailsModelEvents,
  type TravelDetailsModelEvent,
} from '../../machines/travel-details/travel-details.model';
import { toLeadPayload } from '../../machines/travel-details/travel-details.payload';
import type { SavedLead, TravelDetailsInput, TravelDetailsReference } from '../../machines/travel-details/travel-details.types';
import { STEP_PATHS } from '../../machines/journey.routes';
import type { LeadDetails, RecentSearch } from '../../src/contract/lead.endpoints';
import { addCustomerLeadEndpoint, agentCheckEndpoint, latestLeadsByDeviceEndpoint, personalDetailsEndpoint } from '../../src/contract/lead.endpoints';
import { countriesEndpoint, countryCodesEndpoint, travelConfigsEndpoint } from '../../src/contract/reference.endpoints';
import { HOME_PHONE_CODE } from '../../src/contract/travel-details.rules';
import { activateLanguage } from '../../src/web/i18n/locale';
import { TRAVEL_DETAILS_MESSAGES } from '../../src/web/i18n/validation-messages';
import { configureHttpClient } from '../../src/web/services/http-client';
import { localStore } from '../../src/web/storage/local-store';
import { renderApp } from '../support/render-app';
import { watchStepActor } from './screen-support';
import { deferredApi, type DeferredApi } from './deferred-api';

/**
 * The travel details step's model (machines/travel-details/travel-details.model.test.ts) run on the rendered
 * app at /traveller-details (issue 20): each call outcome is the API's answer at the ky client
 * (deferred-api.ts) to the request the screen made, the leads chooser's choices are clicks in its
 * dialog, and a submit is the form filled in and "Proceed" clicked. After every step the live
 * step actor must be where the model is, the screen must show it, and an ended step must have
 * taken the journey on (quotes, /thank-you, or the page of a resumed lead's stage).
 *
 * Stubbed at the edge: the clock's date only (Date faked to 1 June 2030, timers real), so the
 * samples' trip of July 2030 is a valid trip to type and to restore.
 */

const inspect = recordModelCoverage(import.meta.url);

const serializeState = serializeTravelDetailsModelState;
const labelOf = travelDetailsPathLabel;
const createModel = createTravelDetailsTestModel;

type Snapshot = SnapshotFrom<typeof travelDetailsMachine>;
type Path = TravelDetailsModelPath;

const STATES = ['loading', 'chooser', 'editing', 'saving', 'failed', 'submitted', 'resumed', 'noQuote'] as const;
const TODAY = new Date('2030-06-01T09:00:00Z');

const PATHS = {
  countries: countriesEndpoint.path,
  codes: countryCodesEndpoint.path,
  configs: travelConfigsEndpoint.path,
  lead: personalDetailsEndpoint.path,
  recent: latestLeadsByDeviceEndpoint.path,
  agent: agentCheckEndpoint.path,
  save: addCustomerLeadEndpoint.path,
};

/**
 * The bare-actor model test's three starts, each as the screen is opened for it. The screen reads
 * the link's calling code with +961 as its default (startup-query.ts), so its prefill names
 * +961 where the bare model's names none; the models run with that prefill, so the live context
 * can equal the model's (the form starts with +961 either way).
 */
const screenInput = (overrides: Partial<TravelDetailsInput> = {}) => modelInput({ prefill: { ...EMPTY_PREFILL, phoneCountryCode: HOME_PHONE_CODE }, ...overrides });
const CASES: { name: string; input: TravelDetailsInput; url: string }[] = [
  { name: 'fresh visit', input: screenInput(), url: '/traveller-details' },
  { name: 'device with leads, agent link', input: screenInput({ deviceUuid: DEVICE_UUID, sessionId: SESSION_UUID, agentId: 101 }), url: '/traveller-details?agent_id=101' },
  { name: 'lead link', input: screenInput({ leadUuid: LEAD_UUID, deviceUuid: DEVICE_UUID, agentId: 101 }), url: `/traveller-details?uuid=${LEAD_UUID}&agent_id=101` },
];

/**
 * A path's edges: the state value it leaves, the machine's transitions the event takes there (by
 * their names, guarded alternatives apart) and the state value it enters.
 */
const edgesOf = (path: Path) =>
  path.steps.slice(1).map((step, index) => {
    const from = path.steps[index]!.state;
    const transitions = (travelDetailsMachine.getTransitionData(from as never, step.event as never) ?? []).map(transitionName);
    return `${JSON.stringify(from.value)} ${transitions.join(', ') || step.event.type} → ${JSON.stringify(step.state.value)}`;
  });

/** The samples a path sends, each with the transitions it takes: every answer's own screen, once. */
const samplesOf = (path: Path) =>
  path.steps.slice(1).map((step, index) => {
    const transitions = (travelDetailsMachine.getTransitionData(path.steps[index]!.state as never, step.event as never) ?? []).map(transitionName);
    return `${describeTravelDetailsEvent(step.event)} by ${transitions.join(', ')}`;
  });

/**
 * The paths run: a greedy cover (model-coverage.ts greedyCover) of every case's shortest and
 * transition-covering paths. A rendered path takes ~0.5 s here (the whole app, the lazy form,
 * typing), and the three cases have 88 paths (432 steps), too slow for one file. So the paths kept
 * take every edge (edgesOf: state value, the transitions taken, next state value), send every
 * sample by each transition (samplesOf: each refusal's own screen), end in every state that
 * some path does, and start the screen in every case; the loading state's value names every
 * call's region, so each call's outcome in each order is an edge of its own. Until 2026-12-03
 * each case covered its own edges, samples and ends: 44 paths, 38 core-seconds alone (issue 35
 * item 2). The last test below checks that the paths kept took every state and transition the
 * machine defines. MODEL_SCREEN_ALL_PATHS=1 runs every path.
 */
const CANDIDATES = CASES.flatMap(({ name, input }) => {
  const model = createModel(input);
  const shortest = model.getShortestPaths();
  const covering = pathsCoveringTransitions(travelDetailsMachine, model, shortest, serializeState);
  return [...shortest.map((path) => ({ name, kind: 'shortest' as const, path })), ...covering.map((path) => ({ name, kind: 'transitions' as const, path }))];
});
const keysOf = ({ name, path }: (typeof CANDIDATES)[number]) => [...edgesOf(path), ...samplesOf(path), `ends ${JSON.stringify(path.state.value)}`, `starts in: ${name}`];
const RUN = process.env.MODEL_SCREEN_ALL_PATHS === '1' ? CANDIDATES : greedyCover(CANDIDATES, keysOf, (candidate) => candidate.path.steps.length);

function pathsToRun(caseName: string) {
  const kept = RUN.filter((candidate) => candidate.name === caseName);
  return { shortest: kept.filter((candidate) => candidate.kind === 'shortest').map(({ path }) => path), covering: kept.filter((candidate) => candidate.kind === 'transitions').map(({ path }) => path) };
}

// --- What the server answers, as wire data the services parse into the samples ---

const COUNTRY_RECORDS = [
  { id: 422, iso2: 'LB', iso3: 'LBN', name: 'Lebanon', name_en: 'Lebanon', name_ar: 'لبنان', phone_code: '961' },
  { id: 250, iso2: 'FR', iso3: 'FRA', name: 'France', name_en: 'France', name_ar: 'فرنسا', phone_code: '33' },
  { id: 792, iso2: 'TR', iso3: 'TUR', name: 'Türkiye', name_en: 'Türkiye', name_ar: 'تركيا', phone_code: '90' },
];

function travelConfigs(reference: TravelDetailsReference) {
  const lists = ['genders', 'prefex', 'marital_status', 'relation_types', 'relation_types_without_principal', 'product_types', 'period_types', 'trip_types'];
  return { ...Object.fromEntries(lists.map((list) => [list, []])), max_traveller_count: reference.maxTravellers, family_child_max_age: reference.familyChildMaxAge };
}

const customer = { id: 1, name: 'Rania Haddad', email: 'rania@example.com', phone_country_code: '+961', phone_number: '71234567', complete_phone_number: '+96171234567' };

function savedAnswer(saved: SavedLead) {
  return {
    customer,
    uuid: saved.uuid,
    lead_map_id: saved.leadMapId,
    session_id: saved.sessionId,
    device_uuid: saved.deviceUuid,
    redirect: saved.noQuote ? 'thank-you' : null,
  };
}

/** The reference as the model holds it: the screen's countries also carry their search names. */
const plainReference = (reference: TravelDetailsReference | null) =>
  reference && { ...reference, countries: reference.countries.map(({ value, label }) => ({ value, label })) };

let api: DeferredApi;

beforeAll(async () => {
  await activateLanguage('en');
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: TODAY });
  api = deferredApi();
  configureHttpClient({ baseUrl: 'http://x.model.test', signingKey: 'model-test', fetch: api.fetch });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.useRealTimers();
});

// --- The form, as a user fills it in (see travel-details-form.test.tsx) ---

function labelled(label: string): HTMLInputElement {
  const pattern = new RegExp(`^${label.replace(/[()+]/g, '\\$&')}( \\*)?$`);
  const inputs = screen.getAllByLabelText(pattern).filter((element) => element.tagName === 'INPUT');
  if (inputs.length !== 1) throw new Error(`${inputs.length} inputs labelled ${label}`);
  return inputs[0] as HTMLInputElement;
}

function typeAndLeave(input: HTMLElement, value: string) {
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

/** Searches a Mantine multi-select for a country and takes the first match (Enter). */
function pickCountry(label: string, country: string) {
  const input = labelled(label);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: country } });
  fireEvent.keyDown(input, { key: 'Enter' });
  fireEvent.blur(input);
}

const typedDate = (iso: string) => iso.split('-').reverse().join('/');

/**
 * Types the sample's details (SAMPLE_VALUES) into a blank form: what it then submits is the
 * sample itself. A form restored from a lead, or kept after a refusal, is submitted as it is.
 */
function fillBlankForm() {
  if (labelled('Full name').value !== '') return;
  pickCountry('Destinations', 'France');
  typeAndLeave(labelled('Full name'), SAMPLE_VALUES.name);
  typeAndLeave(labelled('Email'), SAMPLE_VALUES.email);
  typeAndLeave(labelled('Phone number'), SAMPLE_VALUES.phone_number);
  typeAndLeave(labelled('Start date'), typedDate(SAMPLE_VALUES.start_date!));
  typeAndLeave(labelled('End date'), typedDate(SAMPLE_VALUES.end_date!));
  typeAndLeave(labelled('Number of travellers'), String(SAMPLE_VALUES.no_of_traveller));
  SAMPLE_VALUES.travellers_info.forEach((traveller, index) => typeAndLeave(labelled(index === 0 ? 'Traveller 1 (you)' : `Traveller ${index + 1}`), typedDate(traveller.dob!)));
}

async function runOnScreen(path: Path, url: string, input: TravelDetailsInput): Promise<number> {
  if (input.deviceUuid) localStore.set('device_uuid', input.deviceUuid);
  const { watch, step } = watchStepActor(inspect, travelDetailsMachine.id);
  const { router, actor: journey } = renderApp(
    url,
    { path: '/traveller-details', uuid: input.leadUuid, sessionId: input.sessionId, agentId: input.agentId === null ? null : String(input.agentId) },
    { inspect: watch },
  );
  const live = () => {
    return step().getSnapshot() as Snapshot;
  };
  let checked = 0;

  /**
   * The live actor is where the model is. Its context equals the model's but for two fields:
   * the countries carry their search names (compared without them), and a restored lead is
   * submitted as restored, not as the sample (its payload is checked as it was sent).
   */
  const expectSameState = (model: Snapshot) => {
    const actual = live();
    expect(actual.value).toEqual(model.value);
    expect(actual.status).toBe(model.status);
    const { reference, submitted, ...context } = actual.context;
    const { reference: modelReference, submitted: modelSubmitted, ...modelContext } = model.context;
    expect(context).toEqual(modelContext);
    expect(plainReference(reference)).toEqual(modelReference);
    expect(submitted === null).toBe(modelSubmitted === null);
    // A blank form filled in submits the sample itself; a lead's restored form is submitted as
    // restored (its travellers keep their ids and names, which no typing gives the sample's).
    if (submitted) expect(submitted).toEqual(context.values.name === '' ? modelSubmitted : context.values);
  };

  const expectShown = (model: Snapshot) => {
    const { context } = model;
    const query = new URLSearchParams(router.state.location.search);
    if (model.status === 'done') {
      const outcome = context.outcome!;
      const page = outcome.type === 'noQuote' ? 'thankYou' : outcome.type === 'submitted' ? 'compareQuotes' : ({ 1: 'compareQuotes', 2: 'reviewDetails', 3: 'checkout' } as const)[outcome.stage];
      expect(journey.getSnapshot().value).toBe(page);
      expect(router.state.location.pathname).toBe(STEP_PATHS[page]);
      expect(query.get('uuid')).toBe(outcome.uuid);
      expect(localStore.get('uuid')).toBe(outcome.uuid);
      expect(localStore.get('thankyou')).toBe(outcome.type === 'noQuote' ? '1' : null);
      return;
    }
    expect(router.state.location.pathname).toBe('/traveller-details');
    expect(screen.queryByTestId('agent-error') !== null).toBe(context.agentError !== null);
    if (model.matches('failed')) {
      expect(screen.getByText('An error occurred')).toBeTruthy();
      expect(screen.queryByTestId('travel-details-form')).toBeNull();
      return;
    }
    if (model.matches('loading')) {
      expect(screen.getByTestId('travel-details-loading')).toBeTruthy();
      return;
    }
    if (model.matches('chooser')) {
      const dialog = screen.getByRole('dialog', { name: 'Select from existing entered data' });
      expect(within(dialog).getAllByTestId('recent-lead').map((item) => item.getAttribute('data-stage'))).toEqual(context.recentLeads.map((lead) => String(lead.stage)));
      return;
    }
    expect(screen.queryByRole('dialog', { name: 'Select from existing entered data' })).toBeNull();
    const form = screen.getByTestId('travel-details-form');
    const proceed = within(form).getByRole('button', { name: 'Proceed', hidden: true }) as HTMLButtonElement;
    // Busy while saving, and still focusable: aria-disabled, never disabled (issue 21).
    expect([proceed.getAttribute('aria-disabled') === 'true', proceed.disabled]).toEqual([model.matches('saving'), false]);
    // What the form shows: what was restored or loaded, or after a refusal what was submitted.
    expect(labelled('Full name').value).toBe((context.submitted ?? context.values).name);
    for (const [field, code] of Object.entries(context.serverErrors)) {
      if (field.startsWith('travellers_info.')) continue;
      expect(screen.getAllByText(i18n._(TRAVEL_DETAILS_MESSAGES[code!])).length).toBeGreaterThan(0);
    }
    expect(screen.queryByTestId('contact-taken-help') !== null).toBe(context.serverErrors.email === 'email_taken' || context.serverErrors.phone_number === 'phone_taken');
    expect(screen.queryByText('Something went wrong') !== null).toBe(context.saveFailed);
  };

  const check = async (model: Snapshot) => {
    checked += 1;
    await waitFor(
      () => {
        expectSameState(model);
        expectShown(model);
      },
    );
    if (model.matches('saving')) {
      await waitFor(() => expect(api.heldPaths()).toContain(PATHS.save));
      const sent = api.requests.filter((request) => request.path === PATHS.save).at(-1)!.body;
      expect(sent).toEqual(JSON.parse(JSON.stringify(toLeadPayload(live().context.submitted!, live().context))));
    }
  };

  const perform = async ({ event }: { event: TravelDetailsModelEvent }) => {
    switch (event.type) {
      case 'xstate.done.actor.loadReference': {
        const reference = event.output as TravelDetailsReference;
        await api.answer(PATHS.countries, { countries: COUNTRY_RECORDS });
        await api.answer(PATHS.codes, { codes: reference.phoneCodes });
        await api.answer(PATHS.configs, travelConfigs(reference));
        break;
      }
      case 'xstate.error.actor.loadReference':
        await api.failWith(PATHS.countries, event.error);
        break;
      case 'xstate.done.actor.loadLead':
        await api.answer(PATHS.lead, {
          customer: { get_customer: customer, lead_details: event.output as LeadDetails, get_invoice: null, checkout_totals: null, isLeadAlreadyInDeal: false, recent_searches: [] },
        });
        break;
      case 'xstate.error.actor.loadLead':
        await api.failWith(PATHS.lead, event.error);
        break;
      case 'xstate.done.actor.loadRecentLeads':
        await api.answer(PATHS.recent, { leads: event.output as RecentSearch[], recent: [] });
        break;
      case 'xstate.error.actor.loadRecentLeads':
        await api.failWith(PATHS.recent, event.error);
        break;
      case 'xstate.done.actor.checkAgent':
        await api.answer(PATHS.agent, { agent: event.output });
        break;
      case 'xstate.error.actor.checkAgent':
        await api.failWith(PATHS.agent, event.error);
        break;
      case 'xstate.done.actor.saveLead':
        await api.answer(PATHS.save, savedAnswer(event.output as SavedLead));
        break;
      case 'xstate.error.actor.saveLead':
        await api.failWith(PATHS.save, event.error);
        break;
      case 'leads.pick': {
        const dialog = screen.getByRole('dialog', { name: 'Select from existing entered data' });
        const offered = live().context.recentLeads.findIndex((lead) => lead.uuid_lead === event.uuid && lead.stage === event.stage);
        if (offered >= 0) fireEvent.click(within(dialog).getAllByTestId('recent-lead')[offered]!);
        // The sample picks the first listed lead at every stage, but the dialog lists that lead
        // at its own stage only: a pick of it at another stage has no control on the screen.
        else step().send(event);
        break;
      }
      case 'leads.new':
        fireEvent.click(within(screen.getByRole('dialog', { name: 'Select from existing entered data' })).getByRole('button', { name: 'Enter new details' }));
        break;
      case 'details.submit': {
        fillBlankForm();
        fireEvent.click(screen.getByRole('button', { name: 'Proceed', hidden: true }));
        break;
      }
      default:
        throw new Error(`no way to perform ${(event as { type: string }).type} on the screen`);
    }
  };

  await testPathOnActor(path, { stop: () => undefined }, { states: STATES, check, samples: travelDetailsModelEvents, perform });
  return checked;
}

describe.each(CASES)('travel details model on the rendered /traveller-details (API at the ky client, date of 1 June 2030): $name', ({ name, input, url }) => {
  const { shortest, covering } = pathsToRun(name);

  if (shortest.length > 0) {
    it.each(withPathIds(`travel details screen ${name} shortest`, shortest, labelOf))('%s', async (_label, path) => {
      expect(await runOnScreen(path, url, input)).toBe(path.steps.length);
    });
  }

  if (covering.length > 0) {
    it.each(withPathIds(`travel details screen ${name} transitions`, covering, labelOf))('transition: %s', async (_label, path) => {
      expect(await runOnScreen(path, url, input)).toBe(path.steps.length);
    });
  }
});

describe('travel details model on the rendered /traveller-details: the paths run', () => {
  it('take every edge, sample and end some generated path takes, and start the screen in every case', () => {
    const keysIn = (candidates: readonly (typeof CANDIDATES)[number][]) => new Set(candidates.flatMap(keysOf));
    const run = keysIn(RUN);
    expect([...keysIn(CANDIDATES)].filter((key) => !run.has(key))).toEqual([]);
  });

  it('took every state and transition the machine defines', () => {
    const reached = reachedCoverage()[travelDetailsMachine.id];
    const defined = definedCoverage(travelDetailsMachine);
    expect(defined.transitions.map((transition) => transition.name).filter((transitionName) => !reached?.transitions.includes(transitionName))).toEqual([]);
    expect(defined.states.filter((state) => !reached?.states.includes(state))).toEqual([]);
  });
});
