import type { SnapshotFrom } from 'xstate';
import { TestModel, type TestPath } from 'xstate/graph';
import type { ErrorEnvelope } from '../../src/contract/envelope';
import { travelDetailsMachine } from './travel-details.machine';
import type { LeadDetails, RecentSearch } from '../../src/contract/lead.endpoints';
import type { ServiceFailure, TravelDetailsEvent, SavedLead, TravelDetailsInput, TravelDetailsReference, TravelDetailsValues } from './travel-details.types';

/**
 * Samples of the travel details step, shared by its unit tests and its model test
 * (travel-details.model.test.ts): inputs, what each call can answer, and the user's events.
 * Call outcomes are events of the invoked actors (`xstate.done.actor.<id>` and
 * `xstate.error.actor.<id>`), so the model explores every order in which they settle.
 */

export const LEAD_UUID = '0b7c2f4e-5a61-4c1d-9e3a-8d2f6b1a7c90';
export const OTHER_LEAD_UUID = '6e1d9a2b-3c4f-4a5b-8c7d-9e0f1a2b3c4d';
export const DEVICE_UUID = '3f2a1b0c-9d8e-4f7a-b6c5-d4e3f2a1b0c9';
export const SESSION_UUID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

export const SAMPLE_REFERENCE: TravelDetailsReference = {
  countries: [
    { value: '250', label: 'France' },
    { value: '792', label: 'Türkiye' },
  ],
  phoneCodes: [
    { value: '+961', label: 'Lebanon (+961)' },
    { value: '+33', label: 'France (+33)' },
  ],
  maxTravellers: 8,
  familyChildMaxAge: 18,
};

type LeadTraveller = LeadDetails['travellers_info'][number];

/** A saved traveller as get-personal-details answers it, before review fills its other fields. */
function sampleTraveller(fields: Pick<LeadTraveller, 'id' | 'dob' | 'relationship_type_id'> & Partial<LeadTraveller>): LeadTraveller {
  return {
    bai_misc_lead_id: 7,
    date_of_birth: fields.dob.split('-').reverse().join('/'),
    first_name: null,
    middle_name: null,
    last_name: null,
    relationship_type_text: null,
    insurance_type: 1,
    type: null,
    passport: null,
    gender_id: null,
    marital_status_id: null,
    nationality_id: null,
    country_id: null,
    is_field: false,
    type_text: null,
    gender_text: null,
    nationality_text: null,
    country_text: null,
    is_editable: true,
    ...fields,
  };
}

export const SAMPLE_LEAD: LeadDetails = {
  id: 7,
  uuid: LEAD_UUID,
  lang: 'en',
  name: 'Rania Haddad',
  email: 'rania@example.com',
  phone_country_code: '+961',
  phone_number: '71234567',
  complete_phone_number: '+96171234567',
  is_self: true,
  inbound_outbound: true,
  insured_type_id: 1,
  trip_type: 1,
  product_type: 2,
  start_date: '2030-07-01',
  end_date: '2030-07-10',
  no_of_days: 10,
  destination_id: [250, 792],
  destination_country: 'France, Türkiye',
  source_id: 422,
  source: 'Lebanon',
  is_travel: true,
  no_of_traveller: 2,
  is_family: false,
  agent_id: 0,
  dob: '1990-04-12',
  travellers_info: [
    sampleTraveller({ id: 41, dob: '1990-04-12', first_name: 'Rania', last_name: 'Haddad', relationship_type_id: 5 }),
    sampleTraveller({ id: 42, dob: '1992-09-30', relationship_type_id: 1 }),
  ],
  deleted_members: [],
  session_id: null,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  utm_content: null,
};

export function recentSearch(uuid: string, stage: 1 | 2 | 3): RecentSearch {
  return {
    bai_misc_lead_id: stage,
    stage,
    provider_name: stage === 1 ? null : 'Demo Insurer',
    destination_name: 'France, Türkiye',
    start_date: '2030-07-01',
    end_date: '2030-07-10',
    no_of_traveller: 2,
    last_visit: '2030-06-01',
    uuid_lead: uuid,
    lead_details: { trip_type: 1, inbound_outbound: true, destination_id: [250, 792], source_id: 422, is_family: false },
    insurance_provider_id: stage === 1 ? null : 7,
    plan_id: null,
    plan_ref_id: null,
    device_uuid: DEVICE_UUID,
    status: 0,
  };
}

export const SAMPLE_RECENT_LEADS: RecentSearch[] = [recentSearch(LEAD_UUID, 1), recentSearch(OTHER_LEAD_UUID, 2)];

export const SAMPLE_SAVED: SavedLead = { uuid: LEAD_UUID, sessionId: SESSION_UUID, deviceUuid: DEVICE_UUID, leadMapId: 77, noQuote: false };

/** A save the server keeps for a manual quote (add-customer-lead answered redirect "thank-you"). */
export const SAMPLE_SAVED_NO_QUOTE: SavedLead = { ...SAMPLE_SAVED, noQuote: true };

/** Values a customer might submit: two travellers from Lebanon to France. */
export const SAMPLE_VALUES: TravelDetailsValues = {
  name: 'Rania Haddad',
  email: 'rania@example.com',
  phone_country_code: '+961',
  phone_number: '71234567',
  inbound_outbound: true,
  trip_type: 1,
  start_date: '2030-07-01',
  end_date: '2030-07-10',
  destination_id: [250],
  source_id: 422,
  no_of_traveller: 2,
  is_family: false,
  travellers_info: [
    { id: null, dob: '1990-04-12', first_name: null, middle_name: null, last_name: null, relationship_type_id: 5 },
    { id: null, dob: '1992-09-30', first_name: null, middle_name: null, last_name: null, relationship_type_id: null },
  ],
  deleted_members: [],
};

function failure(status: number | null, kind: string, data: ErrorEnvelope['data'] = {}): ServiceFailure {
  return { kind, status, body: status === null ? null : { status, message: 'refused', data } };
}

/** What the web's ApiError looks like for each failure the step tells apart. */
export const FAILURES = {
  network: failure(null, 'network'),
  server: failure(500, 'server'),
  notFound: failure(404, 'rejected'),
  emailTaken: failure(409, 'rejected', { email_taken: true }),
  phoneTaken: failure(409, 'rejected', { phone_taken: true }),
  invalidFields: failure(422, 'invalid', { errors: { start_date: 'date_invalid', 'travellers_info.1.dob': 'dob_invalid' } }),
  agentUnknown: failure(422, 'invalid', { errors: { agent_id: 'agent_unknown' } }),
} as const satisfies Record<string, ServiceFailure>;

export const EMPTY_PREFILL = { name: null, email: null, phoneNumber: null, phoneCountryCode: null } as const;
export const NO_UTM = { utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null } as const;

export function modelInput(overrides: Partial<TravelDetailsInput> = {}): TravelDetailsInput {
  return {
    lang: 'en',
    deviceUuid: null,
    leadUuid: null,
    sessionId: null,
    agentId: null,
    prefill: EMPTY_PREFILL,
    utm: NO_UTM,
    ...overrides,
  };
}

/** A settled call, as the machine receives it from an invoked actor. */
export type ActorOutcomeEvent =
  | { type: `xstate.done.actor.${string}`; output: unknown }
  | { type: `xstate.error.actor.${string}`; error: unknown };

/**
 * Every call outcome and user event the step distinguishes, once each: the model test drives
 * the machine with these samples.
 */
export type TravelDetailsModelEvent = TravelDetailsEvent | ActorOutcomeEvent;

export const travelDetailsModelEvents: readonly TravelDetailsModelEvent[] = [
  { type: 'xstate.done.actor.loadReference', output: SAMPLE_REFERENCE },
  { type: 'xstate.error.actor.loadReference', error: FAILURES.network },
  { type: 'xstate.done.actor.loadLead', output: SAMPLE_LEAD },
  { type: 'xstate.error.actor.loadLead', error: FAILURES.notFound },
  { type: 'xstate.error.actor.loadLead', error: FAILURES.server },
  { type: 'xstate.done.actor.loadRecentLeads', output: SAMPLE_RECENT_LEADS },
  { type: 'xstate.done.actor.loadRecentLeads', output: [] },
  { type: 'xstate.error.actor.loadRecentLeads', error: FAILURES.network },
  { type: 'xstate.done.actor.checkAgent', output: { id: 101, name: 'Demo Agent' } },
  { type: 'xstate.error.actor.checkAgent', error: FAILURES.agentUnknown },
  { type: 'xstate.error.actor.checkAgent', error: FAILURES.network },
  { type: 'xstate.done.actor.saveLead', output: SAMPLE_SAVED },
  { type: 'xstate.done.actor.saveLead', output: SAMPLE_SAVED_NO_QUOTE },
  ...Object.values({
    email: FAILURES.emailTaken,
    fields: FAILURES.invalidFields,
    agent: FAILURES.agentUnknown,
    server: FAILURES.server,
  }).map((error): ActorOutcomeEvent => ({ type: 'xstate.error.actor.saveLead', error })),
  ...([1, 2, 3] as const).map((stage): TravelDetailsEvent => ({ type: 'leads.pick', uuid: LEAD_UUID, stage })),
  { type: 'leads.new' },
  { type: 'details.submit', values: SAMPLE_VALUES },
];

/**
 * The travel details model (issue 20), shared by the run of its paths on a live actor
 * (travel-details.model.test.ts) and on the rendered screen
 * (tests/model/travel-details-screen.model.test.tsx).
 */
export type TravelDetailsModelSnapshot = SnapshotFrom<typeof travelDetailsMachine>;
export type TravelDetailsModelPath = TestPath<TravelDetailsModelSnapshot, TravelDetailsModelEvent>;

export const serializeTravelDetailsModelState = (snapshot: TravelDetailsModelSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });

export function createTravelDetailsTestModel(input: TravelDetailsInput) {
  return new TestModel<TravelDetailsModelSnapshot, TravelDetailsModelEvent, TravelDetailsInput>(travelDetailsMachine as never, {
    input,
    serializeState: serializeTravelDetailsModelState,
    stateMatcher: (state, key) => state.matches(key as never),
    // `can` also evaluates guards, so a sample whose guard fails in a state is not offered there.
    events: (state) => travelDetailsModelEvents.filter((event) => state.can(event as never)),
  });
}

const TRAVEL_DETAILS_FAILURE_NAMES = new Map<unknown, string>(Object.entries(FAILURES).map(([name, failure]) => [failure, name]));

export function describeTravelDetailsEvent(event: TravelDetailsModelEvent | { type: 'xstate.init' }): string {
  if ('error' in event) return `${event.type.replace('xstate.error.actor.', '')}✗${TRAVEL_DETAILS_FAILURE_NAMES.get(event.error) ?? '?'}`;
  if ('output' in event) return `${event.type.replace('xstate.done.actor.', '')}✓${Array.isArray(event.output) ? `[${event.output.length}]` : ''}`;
  if (event.type === 'leads.pick') return `leads.pick(${event.stage})`;
  return event.type;
}

/** A path's label in its test's name (the first step is the machine's start, with the init event). */
export function travelDetailsPathLabel(path: TravelDetailsModelPath): string {
  const events = path.steps.map(({ event }) => event).filter((event) => !(event.type as string).startsWith('xstate.init'));
  return `${JSON.stringify(path.state.value)} ⇐ ${events.map(describeTravelDetailsEvent).join(' → ') || '(start)'}`;
}
