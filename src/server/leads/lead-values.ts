import type * as v from 'valibot';
import { tripDays } from '../../contract/dates';
import { nationalPhoneNumber } from '../../contract/digits';
import type { addCustomerLeadEndpoint } from '../../contract/lead.endpoints';
import { HOME_COUNTRY_ID, RELATIONSHIP_PRINCIPAL, splitFullName } from '../../contract/travel-details.rules';
import type { leads } from '../db/schema';

/** The add-customer-lead body after the contract's schema accepted it. */
export type AddCustomerLeadInput = v.InferOutput<(typeof addCustomerLeadEndpoint)['request']>;

export interface CustomerValues {
  name: string;
  email: string;
  phoneCountryCode: string;
  phoneNumber: string;
  completePhoneNumber: string;
}

/** What the lead row holds besides its ids and bookkeeping. */
export type LeadValues = Omit<
  typeof leads.$inferInsert,
  'id' | 'uuid' | 'customerId' | 'deviceUuid' | 'sessionId' | 'agentId' | 'status' | 'createdAt' | 'updatedAt'
>;

export interface TravellerValues {
  /** A saved traveller of this lead, or null for a new one. */
  id: number | null;
  position: number;
  firstName: string | null;
  middleName: string | null;
  lastName: string | null;
  dob: string;
  relationshipTypeId: number | null;
}

const cleanName = (name: string) => name.trim().replace(/\s+/g, ' ');
const optionalText = (text: string | null | undefined) => (text?.trim() ? cleanName(text) : null);

/**
 * The customer as stored: the email lower-cased so one mailbox is one customer, and the
 * complete phone number built here, whatever the client sent for it.
 */
export function customerValues(input: AddCustomerLeadInput): CustomerValues {
  return {
    name: cleanName(input.name),
    email: input.email.trim().toLowerCase(),
    phoneCountryCode: input.phone_country_code,
    phoneNumber: nationalPhoneNumber(input.phone_number, input.phone_country_code),
    completePhoneNumber: `${input.phone_country_code}${nationalPhoneNumber(input.phone_number, input.phone_country_code)}`,
  };
}

/**
 * The lead's trip, with every derived field recomputed (the client's product_type, no_of_days
 * and complete_phone_number are ignored). Only called once the rules passed, so both dates
 * are valid. Lebanon is the fixed end of the trip (RULINGS 4): from Lebanon keeps the chosen
 * destinations with source 422, to Lebanon keeps the chosen source with destination [422].
 */
export function leadValues(input: AddCustomerLeadInput): LeadValues {
  const customer = customerValues(input);
  const fromLebanon = input.inbound_outbound;
  const startDate = input.start_date!;
  const endDate = input.end_date!;
  return {
    ...customer,
    lang: input.preferred_language ?? input.lang,
    inboundOutbound: fromLebanon,
    tripType: input.trip_type,
    productType: input.no_of_traveller > 1 ? 2 : 1,
    startDate,
    endDate,
    noOfDays: tripDays(startDate, endDate),
    destinationIds: fromLebanon ? [...new Set(input.destination_id)] : [HOME_COUNTRY_ID],
    sourceId: fromLebanon ? HOME_COUNTRY_ID : input.source_id!,
    noOfTraveller: input.no_of_traveller,
    isFamily: input.is_family && input.no_of_traveller > 1,
    utmSource: input.utm_source,
    utmMedium: input.utm_medium,
    utmCampaign: input.utm_campaign,
    utmContent: input.utm_content,
  };
}

/**
 * The travellers in form order. The first is always the principal (spec §4), named from the
 * full name: first word, then the rest; the others keep the relationship they were given.
 */
export function travellerValues(input: AddCustomerLeadInput): TravellerValues[] {
  const principal = splitFullName(cleanName(input.name));
  return input.travellers_info.map((traveller, position) => ({
    id: traveller.id ?? null,
    position,
    firstName: position === 0 ? principal.first_name : optionalText(traveller.first_name),
    middleName: optionalText(traveller.middle_name),
    lastName: position === 0 ? optionalText(principal.last_name) : optionalText(traveller.last_name),
    dob: traveller.dob!,
    relationshipTypeId: position === 0 ? RELATIONSHIP_PRINCIPAL : (traveller.relationship_type_id ?? null),
  }));
}
