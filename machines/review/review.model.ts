import type { CheckoutTotals } from '../../src/contract/checkout.endpoints';
import type { ErrorEnvelope } from '../../src/contract/envelope';
import type { Invoice } from '../../src/contract/invoice.schema';
import type { LeadDetails } from '../../src/contract/lead.endpoints';
import type { ReviewTravellerValues } from '../../src/contract/traveller-review.rules';
import { SAMPLE_LEAD } from '../travel-details/travel-details.model';
import type { ActorOutcomeEvent } from '../quotes/quotes.model';
import type { ReviewData, ReviewEvent, ReviewInput, SaveTravellerResult, ServiceFailure } from './review.types';
import { shareModelEvents, type ShareModelEvent } from '../agent-share.model';
import type { SnapshotFrom } from 'xstate';
import { TestModel, type TestPath } from 'xstate/graph';
import { reviewMachine } from './review.machine';

/**
 * Samples of the review step, shared by its unit tests, its model test (review.model.test.ts)
 * and the screens' tests: a provider-3 family from Lebanon (up to three travellers) as
 * get-personal-details answers it, what save-traveller-info can answer, and the user's events.
 */

export const REVIEW_LEAD_UUID = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';
export const REVIEW_SESSION_UUID = 'c0ffee00-1234-4abc-9def-0123456789ab';
export const REVIEW_LINK = `https://safar.example/review-details?uuid=${REVIEW_LEAD_UUID}`;

/** The closing form's delayed event (NEXT_TRAVELLER_DELAY_MS) as the model sends it; a clock tick on a live actor. */
export const NEXT_TRAVELLER_EVENT = 'xstate.after.500.review.reviewing.form.closing';

export function reviewInput(overrides: Partial<ReviewInput> = {}): ReviewInput {
  return {
    lang: 'en',
    uuid: REVIEW_LEAD_UUID,
    sessionId: REVIEW_SESSION_UUID,
    agentId: null,
    link: REVIEW_LINK,
    storedIndex: 0,
    thankYou: false,
    ...overrides,
  };
}

export function sampleInvoice(overrides: Partial<Invoice> = {}): Invoice {
  const providerId = overrides.insurance_provider_id ?? 3;
  return {
    quote_ref_no: 'SAF-2030-000123',
    quote_id: 101,
    insurance_provider_id: providerId,
    insurance_plan_id: 501,
    insurance_plan_name: 'Schengen Silver',
    insurance_coverage_name: 'Europe',
    insurance_cover_for: 'Family',
    insurance_plan_price: 9000,
    policy_addons: [{ addon_id: 13, code: 'winter_sports', addon_name: 'Winter sports', addon_price: 1200 }],
    total_price_without_vat: 10200,
    vat: 11,
    vat_amount: 1122,
    stamp_fee: 300,
    total_price_vat: 11622,
    is_api_plan: 1,
    premium_summary: [
      { label: 'Traveller 1, 45 years', value: 3000 },
      { label: 'Traveller 2, 43 years', value: 3000 },
      { label: 'Traveller 3, 15 years', value: 3000 },
    ],
    highlight: [
      { key: 'medical', label: 'Medical expenses', label_ar: 'النفقات الطبية', value: '$50,000', value_ar: '50,000 $', section: 1 },
      { key: 'baggage', label: 'Baggage loss', label_ar: 'فقدان الأمتعة', value: '$500', value_ar: '500 $', section: 2 },
    ],
    get_provider_detail: { id: providerId, name: `Insurer ${providerId}`, image: `insurer-${providerId}.svg` },
    ...overrides,
  };
}

/**
 * The totals of an invoice without a coupon, as get-personal-details answers them beside it
 * (checkout_totals): the invoice's own figures, line by line.
 */
export function invoiceTotals(invoice: Invoice): CheckoutTotals {
  return {
    plan_price: invoice.insurance_plan_price,
    addons_price: invoice.policy_addons.reduce((sum, addon) => sum + addon.addon_price, 0),
    discount: 0,
    subtotal: invoice.total_price_without_vat,
    vat_percent: invoice.vat,
    vat_amount: invoice.vat_amount,
    stamp_fee: invoice.stamp_fee,
    total: invoice.total_price_vat,
  };
}

type LeadTraveller = LeadDetails['travellers_info'][number];

/** The family's travellers as travel details saved them: dates of birth, the principal's names. */
const FAMILY: readonly Pick<LeadTraveller, 'id' | 'dob' | 'first_name' | 'last_name' | 'relationship_type_id'>[] = [
  { id: 61, dob: '1985-03-02', first_name: 'Rania', last_name: 'Haddad', relationship_type_id: 5 },
  { id: 62, dob: '1987-06-15', first_name: null, last_name: null, relationship_type_id: null },
  { id: 63, dob: '2015-01-20', first_name: null, last_name: null, relationship_type_id: null },
];

/** Complete review values for traveller `index` of the family: what the form saves. */
export function travellerValues(index: number): ReviewTravellerValues {
  const people = [
    { type: 2, first_name: 'Rania', last_name: 'Haddad', gender_id: 2, relationship_type_id: 5 },
    { type: 1, first_name: 'Karim', last_name: 'Haddad', gender_id: 1, relationship_type_id: 1 },
    { type: 3, first_name: 'Lina', last_name: 'Haddad', gender_id: 2, relationship_type_id: 3 },
  ] as const;
  const person = people[index]!;
  return {
    ...person,
    middle_name: null,
    dob: FAMILY[index]!.dob,
    passport: `RL${100200 + index}`,
    country_id: 422,
    nationality_id: 422,
  };
}

/** A saved traveller row as get-personal-details answers it; `saved` fills its review fields. */
export function leadTraveller(index: number, saved = false): LeadTraveller {
  const base = FAMILY[index]!;
  const values = saved ? travellerValues(index) : null;
  return {
    ...base,
    middle_name: null,
    bai_misc_lead_id: 70,
    date_of_birth: base.dob.split('-').reverse().join('/'),
    relationship_type_text: null,
    insurance_type: 1,
    type: values?.type ?? null,
    passport: values?.passport ?? null,
    gender_id: values?.gender_id ?? null,
    marital_status_id: null,
    nationality_id: values?.nationality_id ?? null,
    country_id: values?.country_id ?? null,
    ...(values ? { first_name: values.first_name, last_name: values.last_name, relationship_type_id: values.relationship_type_id } : {}),
    is_field: saved,
    type_text: null,
    gender_text: null,
    nationality_text: null,
    country_text: null,
    is_editable: true,
  };
}

export interface ReviewDataOptions {
  /** How many of the family travel (1–3). */
  count?: number;
  /** Which travellers were saved at review already. */
  saved?: number[];
  invoice?: Invoice | null;
  lead?: Partial<LeadDetails>;
  /** The lead's order is paid already (get-personal-details' isLeadAlreadyInDeal). */
  inDeal?: boolean;
}

export function reviewData({ count = 3, saved = [], invoice = sampleInvoice(), lead = {}, inDeal = false }: ReviewDataOptions = {}): ReviewData {
  const travellers = Array.from({ length: count }, (_, index) => leadTraveller(index, saved.includes(index)));
  return {
    details: {
      get_customer: { id: 9, name: 'Rania Haddad', email: 'rania@example.com', phone_country_code: '+961', phone_number: '71234567', complete_phone_number: '+96171234567' },
      lead_details: {
        ...SAMPLE_LEAD,
        id: 70,
        uuid: REVIEW_LEAD_UUID,
        name: 'Rania Haddad',
        insured_type_id: count > 1 ? 2 : 1,
        product_type: count > 1 ? 2 : 1,
        no_of_traveller: count,
        is_family: count > 1,
        dob: FAMILY[0]!.dob,
        source_id: 422,
        travellers_info: travellers,
        ...lead,
      },
      get_invoice: invoice,
      checkout_totals: invoice === null ? null : invoiceTotals(invoice),
      isLeadAlreadyInDeal: inDeal,
      recent_searches: [],
    },
    options: {
      titles: [
        { value: '1', label: 'Mr' },
        { value: '2', label: 'Mrs' },
        { value: '3', label: 'Miss' },
      ],
      genders: [
        { value: '1', label: 'Male' },
        { value: '2', label: 'Female' },
      ],
      residences: [{ value: '422', label: 'Lebanon' }],
      nationalities: [{ value: '422', label: 'Lebanese' }],
      relationships: [
        { value: '1', label: 'Spouse' },
        { value: '3', label: 'Child' },
      ],
    },
    whatsappTemplate: `Your travel insurance review: ${REVIEW_LINK}`,
  };
}

/** save-traveller-info's answer to a save of traveller `index` of `count`. */
export function savedResult(index: number, count = 3): SaveTravellerResult {
  const row = leadTraveller(index, true);
  return {
    error: null,
    message: null,
    leads: { uuid: REVIEW_LEAD_UUID, stage: index === count - 1 ? 3 : 2 },
    session_id: REVIEW_SESSION_UUID,
    traveller: { ...row, relationship_type_text: null },
  };
}

export const DOB_MESSAGE = 'The date of birth differs from the one quoted (02/03/1985).';

/** RULINGS 8: the date of birth is not the quoted one; nothing was saved. */
export const DOB_RESULT: SaveTravellerResult = {
  error: 'dob',
  message: DOB_MESSAGE,
  leads: { uuid: REVIEW_LEAD_UUID, stage: 2 },
  session_id: REVIEW_SESSION_UUID,
  traveller: null,
};

function failure(status: number | null, kind: string, data: ErrorEnvelope['data'] = {}): ServiceFailure {
  return { kind, status, body: status === null ? null : { status, message: 'refused', data } };
}

/** What the web's ApiError looks like for each failure the step tells apart. */
export const REVIEW_FAILURES = {
  network: failure(null, 'network'),
  server: failure(500, 'server'),
  planNotChosen: failure(409, 'rejected', { errors: { uuid: 'plan_not_chosen' } }),
  planChanged: failure(409, 'rejected', { errors: { insurance_id: 'plan_changed' } }),
  /** Field codes of the traveller: two map onto the form, the unknown field and code do not. */
  invalid: failure(422, 'invalid', {
    errors: { 'traveller.passport': 'passport_duplicate', 'traveller.gender_id': 'gender_required', 'traveller.shoe_size': 'option_invalid', 'traveller.type': 'no_such_code' },
  }),
  /** A 422 the form cannot show (no traveller field): a failed save. */
  invalidLead: failure(422, 'invalid', { errors: { uuid: 'invalid_value' } }),
} as const satisfies Record<string, ServiceFailure>;

export type ReviewModelEvent = ReviewEvent | ActorOutcomeEvent | { type: typeof NEXT_TRAVELLER_EVENT } | ShareModelEvent;

/**
 * The call outcomes and user events the model explores for a family of `count`, of whom `saved`
 * were saved before the page opened. The save event
 * carries the open traveller's complete values (review.model.test.ts fills them in by index), so
 * saving a traveller twice gives the same context and the state space stays small. Left out:
 * the agent's share, which runs beside the form and is unit tested, and would double every state.
 */
export function reviewModelEvents(count: number, saved: number[] = []): readonly ReviewModelEvent[] {
  return [
    { type: 'xstate.done.actor.loadReview', output: reviewData({ count, saved }) },
    { type: 'xstate.done.actor.loadReview', output: reviewData({ count, invoice: null }) },
    // A broken read: every lead has a traveller.
    { type: 'xstate.done.actor.loadReview', output: reviewData({ count: 0 }) },
    { type: 'xstate.error.actor.loadReview', error: REVIEW_FAILURES.network },
    { type: 'traveller.save', values: travellerValues(0) },
    { type: 'traveller.previous' },
    // The machine ignores the saved row it gets back; one sample serves every traveller.
    { type: 'xstate.done.actor.saveTraveller', output: savedResult(0, count) },
    { type: 'xstate.done.actor.saveTraveller', output: DOB_RESULT },
    { type: 'xstate.error.actor.saveTraveller', error: REVIEW_FAILURES.network },
    { type: 'xstate.error.actor.saveTraveller', error: REVIEW_FAILURES.invalid },
    { type: 'xstate.error.actor.saveTraveller', error: REVIEW_FAILURES.planNotChosen },
    { type: NEXT_TRAVELLER_EVENT },
    { type: 'dob.update' },
    { type: 'dob.dismiss' },
    { type: 'saveFailed.dismiss' },
  ];
}

/**
 * The review model tests' cases and their TestModel (issue 20), shared by the model test on a
 * live actor (review.model.test.ts) and the one on the rendered screen
 * (tests/model/review-screen.model.test.tsx).
 */
export interface ReviewModelCase {
  count: number;
  input: ReviewInput;
  /** Travellers saved before the page opened (a reload in the middle). */
  saved: number[];
  /** The samples, when not the step's usual ones (reviewModelEvents). */
  samples?: readonly ReviewModelEvent[];
}

/** The step's loaded cases: 1, 2 or 3 travellers, and a reload at the 2nd of 3. */
export const REVIEW_MODEL_CASES: Record<string, ReviewModelCase> = {
  '1 traveller': { count: 1, input: reviewInput(), saved: [] },
  '2 travellers': { count: 2, input: reviewInput(), saved: [] },
  '3 travellers': { count: 3, input: reviewInput(), saved: [] },
  '3 travellers, reload at the 2nd': { count: 3, input: reviewInput({ storedIndex: 1 }), saved: [0] },
};

/**
 * The step's other starts (the thank-you flag of a finished purchase, no lead) and the agent's
 * share, with the share's samples alone beside the loaded form: with the traveller events too,
 * every form state would double.
 */
export const REVIEW_OTHER_MODEL_CASES: Record<string, ReviewModelCase & { reaches: string }> = {
  'a finished purchase': { count: 1, input: reviewInput({ thankYou: true }), saved: [], reaches: '"finished"' },
  'no lead': { count: 1, input: reviewInput({ uuid: null }), saved: [], reaches: '"noLead"' },
  "the agent's share": {
    count: 1,
    input: reviewInput({ agentId: 101 }),
    saved: [],
    samples: [reviewModelEvents(1)[0]!, ...shareModelEvents('review.reviewing.share.sent')],
    reaches: '{"reviewing":{"form":"editing","share":"sent"}}',
  },
};

type ReviewModelSnapshot = SnapshotFrom<typeof reviewMachine>;
export type ReviewModelPath = TestPath<ReviewModelSnapshot, ReviewModelEvent>;

export const serializeReviewModelState = (snapshot: ReviewModelSnapshot) => JSON.stringify({ value: snapshot.value, context: snapshot.context });

/** The review model of a case. */
export function createReviewTestModel({ count, input, saved, samples = reviewModelEvents(count, saved) }: ReviewModelCase) {
  return new TestModel<ReviewModelSnapshot, ReviewModelEvent, ReviewInput>(reviewMachine as never, {
    input,
    serializeState: serializeReviewModelState,
    stateMatcher: (state, key) => state.matches(key as never),
    // The samples this state accepts; the save carries the open traveller's own complete values.
    events: (state) =>
      samples
        .map((event) => (event.type === 'traveller.save' ? { ...event, values: travellerValues(state.context.index) } : event))
        .filter((event) => state.can(event as never)),
  });
}

const REVIEW_FAILURE_NAMES = new Map<unknown, string>(Object.entries(REVIEW_FAILURES).map(([name, failure]) => [failure, name]));

function describeReviewEvent(event: ReviewModelEvent | { type: 'xstate.init' }): string {
  if (event.type === NEXT_TRAVELLER_EVENT) return '0.5s';
  if ('error' in event) return `${event.type.replace('xstate.error.actor.', '')}✗${REVIEW_FAILURE_NAMES.get(event.error) ?? 'error'}`;
  if ('output' in event) {
    const output = event.output as { error?: unknown; details?: { get_invoice: unknown } };
    const note = output.error === 'dob' ? '(dob)' : output.details?.get_invoice === null ? '(no plan)' : '';
    return `${event.type.replace('xstate.done.actor.', '')}✓${note}`;
  }
  return event.type;
}

/** A path's label in its test's name. */
export function reviewPathLabel(path: ReviewModelPath): string {
  const events = path.steps.map(({ event }) => event).filter((event) => !(event.type as string).startsWith('xstate.init'));
  const { index } = path.state.context;
  return `${JSON.stringify(path.state.value)} #${index + 1} ⇐ ${events.map(describeReviewEvent).join(' → ') || '(start)'}`;
}
