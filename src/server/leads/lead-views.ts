import { desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import type { LeadDetails, RecentSearch } from '../../contract/lead.endpoints';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { CustomerRow } from './customer-store';
import { liveTravellers, type LeadRow } from './lead-store';

/** How many recent searches a device is shown. */
export const RECENT_SEARCH_LIMIT = 5;

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

/** The saved lead as the contract's leadDetailsSchema, with its live travellers in form order. */
export async function leadDetailsView(db: Db, lead: LeadRow): Promise<LeadDetails> {
  const travellers = await liveTravellers(db, lead.id);
  return {
    uuid: lead.uuid,
    lang: lead.lang as Language,
    name: lead.name,
    email: lead.email,
    phone_country_code: lead.phoneCountryCode,
    phone_number: lead.phoneNumber,
    complete_phone_number: lead.completePhoneNumber,
    inbound_outbound: lead.inboundOutbound,
    trip_type: lead.tripType,
    product_type: lead.productType,
    start_date: lead.startDate,
    end_date: lead.endDate,
    no_of_days: lead.noOfDays,
    destination_id: lead.destinationIds,
    source_id: lead.sourceId,
    no_of_traveller: lead.noOfTraveller,
    is_family: lead.isFamily,
    agent_id: lead.agentId ?? 0,
    travellers_info: travellers.map((traveller) => ({
      id: traveller.id,
      dob: traveller.dob,
      first_name: traveller.firstName,
      middle_name: traveller.middleName,
      last_name: traveller.lastName,
      // The contract wants a number: 0 means "not chosen yet" (stored as NULL).
      relationship_type_id: traveller.relationshipTypeId,
    })),
    utm_source: lead.utmSource,
    utm_medium: lead.utmMedium,
    utm_campaign: lead.utmCampaign,
    utm_content: lead.utmContent,
  };
}

const LIST_SEPARATOR: Record<Language, string> = { en: ', ', ar: '، ' };

/**
 * Recent searches (lead trackers with their lead) matching `where`, newest activity first.
 * destination_name names where the trip goes in `lang`; for a trip to Lebanon it names the
 * country the traveller comes from, which is what tells two such trips apart.
 */
export async function recentSearches(db: Db, where: SQL, lang: Language, limit = RECENT_SEARCH_LIMIT): Promise<RecentSearch[]> {
  const rows = await db
    .select({ tracker: t.leadTrackers, lead: t.leads })
    .from(t.leadTrackers)
    .innerJoin(t.leads, eq(t.leads.id, t.leadTrackers.leadId))
    .where(where)
    .orderBy(desc(t.leads.updatedAt), desc(t.leads.id))
    .limit(limit);
  const placeIds = (lead: LeadRow) => (lead.inboundOutbound ? lead.destinationIds : [lead.sourceId]);
  const ids = [...new Set(rows.flatMap(({ lead }) => placeIds(lead)))];
  const names = new Map<number, string>();
  if (ids.length > 0) {
    const countries = await db.select().from(t.countries).where(inArray(t.countries.id, ids));
    for (const country of countries) names.set(country.id, lang === 'ar' ? country.nameAr : country.nameEn);
  }
  return rows.map(({ tracker, lead }) => ({
    bai_misc_lead_id: lead.id,
    stage: tracker.stage as RecentSearch['stage'],
    provider_name: null,
    destination_name: placeIds(lead)
      .map((id) => names.get(id) ?? String(id))
      .join(LIST_SEPARATOR[lang]),
    start_date: lead.startDate,
    end_date: lead.endDate,
    no_of_traveller: lead.noOfTraveller,
    last_visit: tracker.lastVisit,
    uuid_lead: tracker.uuidLead,
    insurance_provider_id: tracker.insuranceProviderId,
    plan_id: tracker.planId,
    plan_ref_id: tracker.planRefId,
    device_uuid: tracker.deviceUuid,
    status: tracker.status,
  }));
}
