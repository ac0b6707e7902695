import type { ReviewCode, ReviewField, ReviewPlan, ReviewTravellerValues } from '../../src/contract/traveller-review.rules';

/**
 * The review fields each provider asks for (spec §5, §9), as one table shared by the contract's
 * unit test (travellerReviewErrors, reviewFieldRules) and the server's integration test
 * (save-traveller-info): the same traveller must get the same codes on both sides.
 */

export interface ProviderCase {
  label: string;
  plan: ReviewPlan;
  /** The traveller's position on the lead (0 is the principal). */
  index: number;
  /** The fields the form shows, in form order. */
  shown: ReviewField[];
  /** What a traveller with nothing filled in gets: one code per required field. */
  bare: Partial<Record<ReviewField, ReviewCode>>;
}

const plan = (providerId: number, isApiPlan: 0 | 1, isFamily = false): ReviewPlan => ({ providerId, isApiPlan, isFamily, sourceId: 422 });

/** Every plan asks for these, and refuses them empty. */
const EVERY_PLAN = {
  type: 'title_required',
  first_name: 'name_required',
  last_name: 'name_required',
  dob: 'dob_required',
  passport: 'passport_required',
} as const satisfies Partial<Record<ReviewField, ReviewCode>>;
const PLACE = { country_id: 'residence_required', nationality_id: 'nationality_required' } as const;

const ALL_BUT_RELATIONSHIP: ReviewField[] = [
  'type',
  'first_name',
  'middle_name',
  'last_name',
  'dob',
  'gender_id',
  'passport',
  'country_id',
  'nationality_id',
];
const PASSPORT_ONLY: ReviewField[] = ['type', 'first_name', 'middle_name', 'last_name', 'dob', 'passport'];

export const PROVIDER_CASES: ProviderCase[] = [
  {
    label: 'provider 7: gender, residence and nationality required',
    plan: plan(7, 1),
    index: 0,
    shown: ALL_BUT_RELATIONSHIP,
    bare: { ...EVERY_PLAN, gender_id: 'gender_required', ...PLACE },
  },
  {
    label: 'provider 7, a later traveller: no relationship asked',
    plan: plan(7, 1),
    index: 1,
    shown: ALL_BUT_RELATIONSHIP,
    bare: { ...EVERY_PLAN, gender_id: 'gender_required', ...PLACE },
  },
  {
    label: 'provider 3, the principal of a family: gender, residence, nationality; no relationship (always principal)',
    plan: plan(3, 1, true),
    index: 0,
    shown: ALL_BUT_RELATIONSHIP,
    bare: { ...EVERY_PLAN, gender_id: 'gender_required', ...PLACE },
  },
  {
    label: 'provider 3, the principal, no family',
    plan: plan(3, 1, false),
    index: 0,
    shown: ALL_BUT_RELATIONSHIP,
    bare: { ...EVERY_PLAN, gender_id: 'gender_required', ...PLACE },
  },
  {
    label: 'provider 3, a later traveller of a family: relationship required too',
    plan: plan(3, 1, true),
    index: 1,
    shown: [...ALL_BUT_RELATIONSHIP, 'relationship_type_id'],
    bare: { ...EVERY_PLAN, gender_id: 'gender_required', ...PLACE, relationship_type_id: 'relationship_required' },
  },
  {
    label: 'provider 3, a later traveller, no family: relationship required too',
    plan: plan(3, 1, false),
    index: 1,
    shown: [...ALL_BUT_RELATIONSHIP, 'relationship_type_id'],
    bare: { ...EVERY_PLAN, gender_id: 'gender_required', ...PLACE, relationship_type_id: 'relationship_required' },
  },
  {
    label: 'provider 1000 with is_api_plan 1: the passport only (no gender, residence or nationality)',
    plan: plan(1000, 1),
    index: 0,
    shown: PASSPORT_ONLY,
    bare: { ...EVERY_PLAN },
  },
  {
    label: 'provider 1000 with is_api_plan 0: residence and nationality required, gender optional',
    plan: plan(1000, 0),
    index: 0,
    shown: ALL_BUT_RELATIONSHIP,
    bare: { ...EVERY_PLAN, ...PLACE },
  },
  {
    label: 'another insurer (12): residence and nationality required, gender optional',
    plan: plan(12, 1),
    index: 0,
    shown: ALL_BUT_RELATIONSHIP,
    bare: { ...EVERY_PLAN, ...PLACE },
  },
];

/** A traveller with nothing filled in. */
export const BARE_TRAVELLER: ReviewTravellerValues = {
  type: null,
  first_name: null,
  middle_name: null,
  last_name: null,
  dob: null,
  gender_id: null,
  passport: null,
  country_id: null,
  nationality_id: null,
  relationship_type_id: null,
};

/**
 * A traveller with every field filled in with an offered option (title Mrs, gender female,
 * Lebanon for residence and nationality, daughter in a family, else son), whatever the plan shows.
 */
export function completeTraveller(dob: string, passport: string, testCase: Pick<ProviderCase, 'plan' | 'index'>): ReviewTravellerValues {
  return {
    type: 2,
    first_name: 'Rania',
    middle_name: null,
    last_name: 'Haddad',
    dob,
    gender_id: 2,
    passport,
    country_id: 422,
    nationality_id: 422,
    relationship_type_id: testCase.index === 0 ? null : testCase.plan.isFamily ? 3 : 2,
  };
}
