import { and, desc, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import type { LeadDetails, RecentSearch } from '../../contract/lead.endpoints';
import { formatList } from '../../contract/list-format';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { CustomerRow } from './customer-store';
import { policyPagesOfLeads } from './lead-policy';
import { liveTravellers, type LeadRow, type TravellerRow } from './lead-store';

/** How many recent searches a device is shown. */
export const RECENT_SEARCH_LIMIT = 5;

type Traveller = LeadDetails['travellers_info'][number];

/** The customer as the contract's customerSchema. */
export function customerView(customer: CustomerRow) {
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    phone_country_code: customer.phoneCountryCode,
    phone_number: customer.phoneNumber,
    complete_phone_number: customer.completePhoneNumber,
  };
}

/** Country names by id in `lang`. */
async function countryNames(db: Db, ids: number[], lang: Language): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  if (ids.length === 0) return names;
  const countries = await db.select().from(t.countries).where(inArray(t.countries.id, ids));
  for (const country of countries) names.set(country.id, lang === 'ar' ? country.nameAr : country.nameEn);
  return names;
}

/** "1990-03-12" as the spec's clients print it: "12/03/1990". */
export const ddmmyyyy = (iso: string) => iso.split('-').reverse().join('/');

/** Names, in one language, of the ids a traveller carries: relationship, title, gender, countries. */
export interface TravellerLabels {
  relations: ReadonlyMap<number, string>;
  titles: ReadonlyMap<number, string>;
  genders: ReadonlyMap<number, string>;
  countries: ReadonlyMap<number, string>;
}

/** The traveller labels in `lang`, from the master lists and the countries table. */
export async function travellerLabels(db: Db, lang: Language): Promise<TravellerLabels> {
  // Sequential: save-traveller.ts calls this with a transaction's one client (issue 18 item 4).
  const items = await db.select().from(t.masterItems).where(inArray(t.masterItems.kind, ['relation_types', 'prefex', 'genders']));
  const countries = await db.select({ id: t.countries.id, nameEn: t.countries.nameEn, nameAr: t.countries.nameAr }).from(t.countries);
  const named = (kind: string) => new Map(items.filter((item) => item.kind === kind).map((item) => [item.id, lang === 'ar' ? item.nameAr : item.nameEn]));
  return {
    relations: named('relation_types'),
    titles: named('prefex'),
    genders: named('genders'),
    countries: new Map(countries.map((country) => [country.id, lang === 'ar' ? country.nameAr : country.nameEn])),
  };
}

const labelOf = (names: ReadonlyMap<number, string>, id: number | null) => (id === null ? null : (names.get(id) ?? null));

/**
 * One saved traveller as the contract's travellerSchema (spec §3 Traveller): the review fields
 * as saved by save-traveller-info, and is_field once the traveller was saved at review.
 */
export function travellerView(traveller: TravellerRow, lead: Pick<LeadRow, 'id' | 'tripType'>, labels: TravellerLabels): Traveller {
  return {
    id: traveller.id,
    bai_misc_lead_id: lead.id,
    dob: traveller.dob,
    date_of_birth: ddmmyyyy(traveller.dob),
    first_name: traveller.firstName,
    middle_name: traveller.middleName,
    last_name: traveller.lastName,
    relationship_type_id: traveller.relationshipTypeId,
    relationship_type_text: labelOf(labels.relations, traveller.relationshipTypeId),
    insurance_type: lead.tripType,
    type: traveller.titleId,
    type_text: labelOf(labels.titles, traveller.titleId),
    passport: traveller.passport,
    gender_id: traveller.genderId,
    gender_text: labelOf(labels.genders, traveller.genderId),
    marital_status_id: traveller.maritalStatusId,
    nationality_id: traveller.nationalityId,
    nationality_text: labelOf(labels.countries, traveller.nationalityId),
    country_id: traveller.countryId,
    country_text: labelOf(labels.countries, traveller.countryId),
    is_field: traveller.reviewedAt !== null,
    is_editable: true,
  };
}

/**
 * The saved lead as the contract's leadDetailsSchema (spec §3 Customer / lead and Traveller),
 * with its live travellers in form order. `sessionId` is the session id the caller sent: the
 * lead's own is answered back only when it matches (RULINGS 24).
 */
export async function leadDetailsView(
  db: Db,
  lead: LeadRow,
  options: { lang?: Language; sessionId?: string | null; labels?: TravellerLabels } = {},
): Promise<LeadDetails> {
  const lang = options.lang ?? (lead.lang as Language);
  const [travellers, removed, labels, names] = options.labels
    ? await withLabels(db, lead.id, options.labels)
    : await Promise.all([
        liveTravellers(db, lead.id),
        db
          .select({ id: t.leadTravellers.id })
          .from(t.leadTravellers)
          .where(and(eq(t.leadTravellers.leadId, lead.id), isNotNull(t.leadTravellers.deletedAt)))
          .orderBy(t.leadTravellers.id),
        travellerLabels(db, lang),
        countryNames(db, [...lead.destinationIds, lead.sourceId], lang),
      ]);
  return {
    id: lead.id,
    uuid: lead.uuid,
    lang: lead.lang as Language,
    name: lead.name,
    is_self: true,
    email: lead.email,
    phone_country_code: lead.phoneCountryCode,
    phone_number: lead.phoneNumber,
    complete_phone_number: lead.completePhoneNumber,
    inbound_outbound: lead.inboundOutbound,
    insured_type_id: lead.isFamily ? 2 : 1,
    trip_type: lead.tripType,
    product_type: lead.productType,
    start_date: lead.startDate,
    end_date: lead.endDate,
    no_of_days: lead.noOfDays,
    destination_id: lead.destinationIds,
    destination_country: formatList(
      lead.destinationIds.map((id) => names.get(id) ?? String(id)),
      lang,
    ),
    source_id: lead.sourceId,
    source: names.get(lead.sourceId) ?? String(lead.sourceId),
    is_travel: true,
    no_of_traveller: lead.noOfTraveller,
    is_family: lead.isFamily,
    agent_id: lead.agentId ?? 0,
    dob: travellers[0]?.dob ?? '',
    travellers_info: travellers.map((traveller) => travellerView(traveller, lead, labels)),
    deleted_members: removed.map((row) => row.id),
    session_id: options.sessionId && options.sessionId === lead.sessionId ? lead.sessionId : null,
    utm_source: lead.utmSource,
    utm_medium: lead.utmMedium,
    utm_campaign: lead.utmCampaign,
    utm_content: lead.utmContent,
  };
}

/**
 * leadDetailsView's reads when the caller holds the labels (kept in memory per version of the
 * reference data, for compare-quotes): one query for all the lead's travellers, split into the
 * live ones in form order and the removed ids in id order, as the two queries above answer them.
 */
async function withLabels(db: Db, leadId: number, labels: TravellerLabels) {
  const all = await db
    .select()
    .from(t.leadTravellers)
    .where(eq(t.leadTravellers.leadId, leadId))
    .orderBy(t.leadTravellers.position, t.leadTravellers.id);
  const live = all.filter((row) => row.deletedAt === null);
  const removed = all
    .filter((row) => row.deletedAt !== null)
    .map((row) => ({ id: row.id }))
    .sort((a, b) => a.id - b.id);
  return [live, removed, labels, labels.countries] as const;
}

/**
 * Recent searches (lead trackers with their lead) matching `where`, newest activity first.
 * destination_name names where the trip goes in `lang`; for a trip to Lebanon it names the
 * country the traveller comes from, which is what tells two such trips apart. A paid trip carries
 * its policy's page (RULINGS 28), which the resume dialog opens instead of the journey.
 */
export async function recentSearches(
  db: Db,
  where: SQL,
  lang: Language,
  options: { deviceUuid?: string; limit?: number } = {},
): Promise<RecentSearch[]> {
  const rows = await db
    .select({ tracker: t.leadTrackers, lead: t.leads })
    .from(t.leadTrackers)
    .innerJoin(t.leads, eq(t.leads.id, t.leadTrackers.leadId))
    .where(where)
    .orderBy(desc(t.leads.updatedAt), desc(t.leads.id))
    .limit(options.limit ?? RECENT_SEARCH_LIMIT);
  const placeIds = (lead: LeadRow) => (lead.inboundOutbound ? lead.destinationIds : [lead.sourceId]);
  const names = await countryNames(db, [...new Set(rows.flatMap(({ lead }) => placeIds(lead)))], lang);
  const policyPages = await policyPagesOfLeads(db, rows.map(({ lead }) => lead.id));
  return rows.map(({ tracker, lead }) => ({
    bai_misc_lead_id: lead.id,
    stage: tracker.stage as RecentSearch['stage'],
    provider_name: null,
    destination_name: formatList(
      placeIds(lead).map((id) => names.get(id) ?? String(id)),
      lang,
    ),
    start_date: lead.startDate,
    end_date: lead.endDate,
    no_of_traveller: lead.noOfTraveller,
    last_visit: tracker.lastVisit,
    uuid_lead: tracker.uuidLead,
    lead_details: {
      trip_type: lead.tripType,
      inbound_outbound: lead.inboundOutbound,
      destination_id: lead.destinationIds,
      source_id: lead.sourceId,
      is_family: lead.isFamily,
    },
    insurance_provider_id: tracker.insuranceProviderId,
    plan_id: tracker.planId,
    plan_ref_id: tracker.planRefId,
    // A device id opens that device's list, so it goes only to the device that sent it.
    device_uuid: options.deviceUuid && options.deviceUuid === tracker.deviceUuid ? tracker.deviceUuid : null,
    status: tracker.status,
    policy_page: policyPages.get(lead.id) ?? null,
  }));
}
