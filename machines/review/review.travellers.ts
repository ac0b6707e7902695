import {
  REVIEW_FIELDS,
  isReviewCode,
  reviewDefaults,
  type ReviewErrors,
  type ReviewField,
  type ReviewPlan,
  type ReviewTravellerValues,
} from '../../src/contract/traveller-review.rules';
import type { LeadDetails } from '../../src/contract/lead.endpoints';
import type { ReviewContext, ReviewData, ReviewDrafts, ReviewTravellerState, SaveTravellerInput } from './review.types';
import { errorsOf } from '../service-failure';

/**
 * Pure helpers of the review step machine (review.machine.ts): what a loaded lead becomes in
 * the machine's context, where a reload resumes, what a save sends, and how a refused save
 * reads. No I/O here; the machine calls these from its assigns, guards and inputs.
 */

type LeadTraveller = LeadDetails['travellers_info'][number];

/** The review fields of a saved traveller row; anything else on the row is not the form's. */
export function reviewValuesOf(traveller: LeadTraveller): ReviewTravellerValues {
  return {
    type: traveller.type,
    first_name: traveller.first_name ?? null,
    middle_name: traveller.middle_name ?? null,
    last_name: traveller.last_name ?? null,
    dob: traveller.dob,
    gender_id: traveller.gender_id,
    passport: traveller.passport,
    country_id: traveller.country_id,
    nationality_id: traveller.nationality_id,
    relationship_type_id: traveller.relationship_type_id,
  };
}

/**
 * Exactly the review fields of what the form sends, in the form's order: nothing else reaches
 * save-traveller-info, and equal values always compare (and serialise) equal.
 */
export function reviewValues(values: ReviewTravellerValues): ReviewTravellerValues {
  return Object.fromEntries(REVIEW_FIELDS.map((field) => [field, values[field] ?? null])) as unknown as ReviewTravellerValues;
}

/** What the rules need to know of the chosen plan (read from the server's invoice) and the lead. */
export function reviewPlanOf(data: ReviewData): ReviewPlan | null {
  const invoice = data.details.get_invoice;
  if (invoice === null) return null;
  const lead = data.details.lead_details;
  return { providerId: invoice.insurance_provider_id, isApiPlan: invoice.is_api_plan, isFamily: lead.is_family, sourceId: lead.source_id };
}

/** The lead's travellers as the review holds them, the spec §4 defaults applied (saved values win). */
export function travellersOf(lead: LeadDetails, plan: ReviewPlan): ReviewTravellerState[] {
  const facts = { name: lead.name, startDate: lead.start_date };
  return lead.travellers_info.map((traveller, index) => ({
    id: traveller.id,
    values: reviewDefaults(reviewValuesOf(traveller), plan, index, facts),
    saved: traveller.is_field,
  }));
}

/**
 * Where the review opens: the stored traveller index (spec §3 traveller_index), so a reload
 * resumes there, kept within the travellers; but never past the first traveller not saved yet,
 * so a stored index from another tab or an older visit cannot skip one.
 */
export function resumeIndex(travellers: readonly ReviewTravellerState[], storedIndex: number): number {
  const last = Math.max(travellers.length - 1, 0);
  const stored = Number.isInteger(storedIndex) ? Math.min(Math.max(storedIndex, 0), last) : 0;
  const firstUnsaved = travellers.findIndex((traveller) => !traveller.saved);
  return firstUnsaved === -1 ? stored : Math.min(stored, firstUnsaved);
}

/** The context once get-personal-details answered with a chosen plan. */
export function loadedReview(data: ReviewData, storedIndex: number): Partial<ReviewContext> {
  const plan = reviewPlanOf(data)!;
  const lead = data.details.lead_details;
  const travellers = travellersOf(lead, plan);
  return {
    lead,
    invoice: data.details.get_invoice,
    customer: data.details.get_customer,
    options: data.options,
    whatsappTemplate: data.whatsappTemplate,
    plan,
    travellers,
    index: resumeIndex(travellers, storedIndex),
    serverErrors: {},
    submitted: null,
  };
}

/** save-traveller-info's input for the open traveller with the values being saved. */
export function saveTravellerInput(context: ReviewContext): SaveTravellerInput {
  const traveller = context.travellers[context.index]!;
  return {
    uuid: context.uuid!,
    sessionId: context.sessionId,
    agentId: context.agentId,
    insuranceId: context.invoice!.insurance_provider_id,
    lang: context.lang,
    traveller: { id: traveller.id, ...(context.submitted ?? traveller.values) },
  };
}

/** The open traveller, saved with the values just sent. */
export function withSavedTraveller(context: ReviewContext): ReviewTravellerState[] {
  return context.travellers.map((traveller, index) =>
    index === context.index ? { id: traveller.id, values: context.submitted ?? traveller.values, saved: true } : traveller,
  );
}

/** The drafts with the open traveller's unsaved form kept as its draft (issue 17). */
export function keptDraft(context: ReviewContext, values: ReviewTravellerValues): ReviewDrafts {
  const traveller = context.travellers[context.index];
  return traveller ? { ...context.drafts, [traveller.id]: values } : context.drafts;
}

/** The drafts without the open traveller's: it is saved, so its saved values are what it shows. */
export function droppedDraft(context: ReviewContext): ReviewDrafts {
  // Stryker disable next-line OptionalChaining: the index always names one of the travellers while a save can end
  const id = context.travellers[context.index]?.id;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: without a draft for the traveller, taking it out of the drafts leaves the same drafts, so returning early or not gives equal drafts; and id is never undefined (this also leaves out the check set to true, which keeps a saved draft and is killed)
  if (id === undefined || !(id in context.drafts)) return context.drafts;
  const { [id]: _saved, ...rest } = context.drafts;
  return rest;
}

/**
 * The plan the page shows is no longer the lead's (409): none is chosen (`uuid:
 * plan_not_chosen`), or another was chosen meanwhile, say in a second tab (`insurance_id:
 * plan_changed`). Either way the review cannot go on: back to the quotes.
 */
export function isPlanGone(error: unknown): boolean {
  const errors = errorsOf(error, 409);
  return errors?.uuid === 'plan_not_chosen' || errors?.insurance_id === 'plan_changed';
}

const isReviewField = (key: string): key is ReviewField => (REVIEW_FIELDS as readonly string[]).includes(key);

/**
 * A 422 refusal's field codes for the form: `traveller.<field>` keys whose code is a review
 * code, keyed by the bare field name. Other keys (the lead, the insurer) and unknown codes are
 * left out: the form cannot show them, so they count as a failed save (see the machine).
 */
export function travellerFieldErrors(error: unknown): ReviewErrors {
  const errors = errorsOf(error, 422) ?? {};
  const fields: ReviewErrors = {};
  for (const [key, code] of Object.entries(errors)) {
    if (!key.startsWith('traveller.')) continue;
    const field = key.slice('traveller.'.length);
    if (isReviewField(field) && isReviewCode(code)) fields[field] = code;
  }
  return fields;
}
