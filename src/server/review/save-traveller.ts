import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type * as v from 'valibot';
import { ageOn, todayIso } from '../../contract/dates';
import type { FieldErrors } from '../../contract/error-codes';
import type { saveTravellerInfoEndpoint } from '../../contract/review.endpoints';
import { RELATIONSHIP_PRINCIPAL } from '../../contract/travel-details.rules';
import {
  normalizePassport,
  reviewFieldRules,
  travellerReviewErrors,
  type ReviewCode,
  type ReviewErrors,
  type ReviewField,
  type ReviewPlan,
} from '../../contract/traveller-review.rules';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { messageWith } from '../http/messages';
import { findActiveAgent } from '../leads/lead-checks';
import { findLeadByUuid, liveTravellers, type LeadRow } from '../leads/lead-store';
import { ddmmyyyy, travellerLabels, travellerView } from '../leads/lead-views';
import { lockLeadInvoice, PLAN_CHOSEN_STAGE } from '../orders/invoice-store';
import { voidPendingOrders } from '../orders/order-state';
import { Refusal } from '../orders/refusal';
import { loadPlans } from '../quoting/catalogue';
import { excludedNationalities } from '../reference/nationalities';

export type SaveTravellerInput = v.InferOutput<(typeof saveTravellerInfoEndpoint)['request']>;
export type SaveTravellerAnswer = v.InferInput<(typeof saveTravellerInfoEndpoint)['data']>;
type ReviewTravellerInput = SaveTravellerInput['traveller'];

/** The stage a lead reaches once every traveller is saved at review (spec §4: checkout). */
export const CHECKOUT_STAGE = 3;

const stageOf = (stage: number) => Math.min(3, Math.max(1, stage)) as 1 | 2 | 3;
const cleanName = (name: string) => name.trim().replace(/\s+/g, ' ');
const optionalName = (name: string | null) => (name?.trim() ? cleanName(name) : null);

/** A field of the review form with a code: the review fields, and the optional marital status. */
type OptionErrors = Partial<Record<ReviewField | 'marital_status_id', ReviewCode>>;

/** The review errors as the envelope's field codes: "traveller.passport" and so on. */
function travellerErrors(errors: ReviewErrors | OptionErrors): FieldErrors {
  return Object.fromEntries(Object.entries(errors).map(([field, code]) => [`traveller.${field}`, code]));
}

/** Whether `id` is an active entry of the master list `kind` (get-travel-configs offers only those). */
async function inMasterList(db: Db, kind: string, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: t.masterItems.id })
    .from(t.masterItems)
    .where(and(eq(t.masterItems.kind, kind), eq(t.masterItems.id, id), eq(t.masterItems.active, true)));
  return row !== undefined;
}

async function inRelationshipGroup(db: Db, group: string, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: t.relationships.id })
    .from(t.relationships)
    .where(and(eq(t.relationships.group, group), eq(t.relationships.id, id)));
  return row !== undefined;
}

/**
 * Ids that are not among the options the form offers for this plan and traveller: the title,
 * gender and marital status lists, countries, nationalities the insurer covers for this trip
 * (RULINGS 4, as the countries list filters them) and, where the plan asks for it, the
 * relationship (the family list for a family, else every relation but the principal). Fields
 * the plan does not ask for are not read: they are not stored.
 */
async function optionErrors(
  db: Db,
  traveller: ReviewTravellerInput,
  shown: (field: ReviewField) => boolean,
  plan: ReviewPlan,
  lead: LeadRow,
): Promise<OptionErrors> {
  const errors: OptionErrors = {};
  const asked = (field: ReviewField): number | null => (shown(field) ? (traveller[field] as number | null) : null);
  const invalid = (field: keyof OptionErrors, code: ReviewCode = 'option_invalid') => {
    errors[field] = code;
  };

  const title = asked('type');
  if (title !== null && !(await inMasterList(db, 'prefex', title))) invalid('type');
  const gender = asked('gender_id');
  if (gender !== null && !(await inMasterList(db, 'genders', gender))) invalid('gender_id');

  const residence = asked('country_id');
  const nationality = asked('nationality_id');
  const countryIds = [residence, nationality].filter((id): id is number => id !== null);
  const known =
    countryIds.length > 0
      ? new Set((await db.select({ id: t.countries.id }).from(t.countries).where(inArray(t.countries.id, countryIds))).map((row) => row.id))
      : new Set<number>();
  if (residence !== null && !known.has(residence)) invalid('country_id');
  if (nationality !== null) {
    if (!known.has(nationality)) invalid('nationality_id');
    else {
      // The insurer exists (the invoice's foreign key); null would mean it vanished: not covered either.
      const excluded = await excludedNationalities(db, plan.providerId, lead.destinationIds);
      if (!excluded || excluded.has(nationality)) invalid('nationality_id', 'nationality_not_covered');
    }
  }

  const relationship = asked('relationship_type_id');
  if (relationship !== null) {
    const offered = lead.isFamily
      ? await inRelationshipGroup(db, 'families', relationship)
      : await inMasterList(db, 'relation_types_without_principal', relationship);
    if (!offered) invalid('relationship_type_id');
  }
  // Marital status is optional for every plan, but only an offered one is stored.
  if (traveller.marital_status_id !== null && !(await inMasterList(db, 'marital_status', traveller.marital_status_id))) {
    invalid('marital_status_id');
  }
  return errors;
}

/**
 * save-traveller-info (spec §7): checks one traveller of a lead whose plan is chosen against the
 * review rules the form applies (travellerReviewErrors with reviewFieldRules), the options the
 * form offers and the quoted date of birth (RULINGS 8), then saves it; once every live traveller
 * is saved the lead reaches checkout (stage 3). In order, and writing nothing unless all pass:
 * - 404 for an unknown lead; 422 for another agent's id (RULINGS 24);
 * - 409 plan_not_chosen when no plan is chosen (or the details changed since), lead_in_deal once
 *   the order is paid, plan_changed when the page shows another insurer than the chosen plan's;
 * - 422 traveller.id not_found for anything but a live traveller of this lead (another lead's,
 *   a deleted member);
 * - 422 with a review code per field (traveller.passport: passport_duplicate, …);
 * - 200 with error "dob" and a message in the asked language when the date of birth is not the
 *   quoted one, or the traveller's age on the first day of the trip is outside the plan's.
 * Throws Refusal for the 4xx answers. The checks and the save run in one transaction holding the
 * lead's invoice and tracker, so neither a re-quote nor a payment can slip between them.
 */
export async function saveTravellerInfo(db: Db, input: SaveTravellerInput, nowMs: number): Promise<SaveTravellerAnswer> {
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new Refusal(404, 'not_found', { uuid: 'not_found' });
  // RULINGS 24, as proceed-review: the lead's agent was set when it was created.
  if (input.agent_id && input.agent_id !== lead.agentId) {
    const known = await findActiveAgent(db, input.agent_id);
    throw new Refusal(422, known ? 'agent_mismatch' : 'agent_unknown', { agent_id: known ? 'agent_mismatch' : 'agent_unknown' });
  }
  const sessionId = input.session_id === lead.sessionId ? lead.sessionId : null;

  return db.transaction(async (tx) => {
    // The invoice first (lockLeadInvoice): a payment of this lead settles either before this
    // save (which then answers lead_in_deal) or after it (its order voided below, so refunded).
    const invoice = await lockLeadInvoice(tx, lead.id);
    const [tracker] = await tx.select().from(t.leadTrackers).where(eq(t.leadTrackers.leadId, lead.id)).for('update');
    if (!tracker || tracker.stage < PLAN_CHOSEN_STAGE || !invoice) {
      throw new Refusal(409, 'plan_not_chosen', { uuid: 'plan_not_chosen' });
    }
    if (invoice.status !== 'open') throw new Refusal(409, 'lead_in_deal', { uuid: 'lead_in_deal' });
    if (input.insurance_id !== invoice.insurerId) throw new Refusal(409, 'plan_changed', { insurance_id: 'plan_changed' });
    const [plan] = await loadPlans(tx, [invoice.planId]);
    if (!plan) throw new Refusal(409, 'plan_not_chosen', { uuid: 'plan_not_chosen' });

    const travellers = await liveTravellers(tx, lead.id);
    const index = travellers.findIndex((row) => row.id === input.traveller.id);
    if (index < 0) throw new Refusal(422, 'invalid_request', { 'traveller.id': 'not_found' });
    const stored = travellers[index]!;

    const reviewPlan: ReviewPlan = { providerId: invoice.insurerId, isApiPlan: plan.isApiPlan ? 1 : 0, isFamily: lead.isFamily, sourceId: lead.sourceId };
    const values = input.traveller;
    const ruleErrors = travellerReviewErrors(values, {
      plan: reviewPlan,
      index,
      today: todayIso(nowMs),
      otherPassports: travellers.filter((_, other) => other !== index).map((row) => row.passport),
    });
    if (Object.keys(ruleErrors).length > 0) throw new Refusal(422, 'invalid_request', travellerErrors(ruleErrors));

    const rules = reviewFieldRules(reviewPlan, index);
    const shown = (field: ReviewField) => rules[field].shown;
    const invalidOptions = await optionErrors(tx, values, shown, reviewPlan, lead);
    if (Object.keys(invalidOptions).length > 0) throw new Refusal(422, 'invalid_request', travellerErrors(invalidOptions));

    // RULINGS 8: the traveller must be the one the plan was priced for; nothing is saved otherwise.
    const dobRefusal = (message: string): SaveTravellerAnswer => ({
      error: 'dob',
      message,
      leads: { uuid: lead.uuid, stage: stageOf(tracker.stage) },
      session_id: sessionId,
      traveller: null,
    });
    if (values.dob !== stored.dob) return dobRefusal(messageWith('dob_not_quoted', input.lang, { dob: ddmmyyyy(values.dob!) }));
    const age = ageOn(stored.dob, lead.startDate);
    if (age < plan.minAge || age > plan.maxAge) {
      return dobRefusal(messageWith('dob_outside_plan', input.lang, { min: plan.minAge, max: plan.maxAge, age }));
    }

    const relationship =
      index === 0 ? RELATIONSHIP_PRINCIPAL : shown('relationship_type_id') ? values.relationship_type_id : stored.relationshipTypeId;
    const [saved] = await tx
      .update(t.leadTravellers)
      .set({
        firstName: cleanName(values.first_name!),
        middleName: optionalName(values.middle_name),
        lastName: cleanName(values.last_name!),
        titleId: values.type,
        genderId: shown('gender_id') ? values.gender_id : null,
        passport: normalizePassport(values.passport!),
        countryId: shown('country_id') ? values.country_id : null,
        nationalityId: shown('nationality_id') ? values.nationality_id : null,
        maritalStatusId: values.marital_status_id,
        // The travel details' relationship stays where this plan does not ask for one.
        relationshipTypeId: relationship,
        reviewedAt: new Date(nowMs),
      })
      .where(eq(t.leadTravellers.id, stored.id))
      .returning();

    // The traveller an order was placed for may have changed: that order can no longer be paid.
    await voidPendingOrders(tx, { leadId: lead.id }, 'traveller_changed', nowMs);
    const [pending] = await tx
      .select({ travellers: count() })
      .from(t.leadTravellers)
      .where(and(eq(t.leadTravellers.leadId, lead.id), isNull(t.leadTravellers.deletedAt), isNull(t.leadTravellers.reviewedAt)));
    let stage = tracker.stage;
    if (pending!.travellers === 0) {
      const [raised] = await tx
        .update(t.leadTrackers)
        .set({ stage: sql`greatest(${t.leadTrackers.stage}, ${CHECKOUT_STAGE})` })
        .where(eq(t.leadTrackers.id, tracker.id))
        .returning({ stage: t.leadTrackers.stage });
      stage = raised!.stage;
    }
    return {
      error: null,
      message: null,
      leads: { uuid: lead.uuid, stage: stageOf(stage) },
      session_id: sessionId,
      traveller: travellerView(saved!, lead, await travellerLabels(tx, input.lang)),
    };
  });
}
