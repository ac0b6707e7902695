import { parseIsoDate, tripDays } from '../../src/contract/dates';
import type { AddCustomerLeadRequest, LeadDetails } from '../../src/contract/lead.endpoints';
import {
  HOME_COUNTRY_ID,
  HOME_PHONE_CODE,
  RELATIONSHIP_PRINCIPAL,
  TRIP_TYPE,
  isTravelDetailsCode,
  splitFullName,
  type TravelDetailsErrors,
  type TravellerInput,
} from '../../src/contract/travel-details.rules';
import { knownCallingCode, phoneDigits } from '../../src/contract/digits';
import type { Language, Option } from '../../src/contract/endpoint';
import type { ServiceFailure, TravelDetailsPrefill, TravelDetailsValues, Utm } from './travel-details.types';

/**
 * Pure conversions of the travel details step: form values to the add-customer-lead payload
 * (spec §4 traveller list rules, RULINGS 4 and 6), a saved lead back to form values, and the
 * codes a refused save carries.
 */

export interface LeadPayloadContext {
  lang: Language;
  /** The restored lead being edited, if any: that lead is updated instead of a new one made. */
  leadUuid: string | null;
  deviceUuid: string | null;
  sessionId: string | null;
  agentId: number | null;
  utm: Utm;
  /** "Buy again": the policy whose travellers' passports follow to the review (issue 37). */
  fromPolicy?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The contract only takes ids in UUID form; anything else (a hand-edited link or stored value)
 * names nothing, so it is neither looked up nor sent, and one bad value cannot fail every save.
 */
export const asUuid = (value: string | null) => (value && UUID.test(value) ? value : null);

export function blankTraveller(principal = false): TravellerInput {
  return {
    id: null,
    dob: null,
    first_name: null,
    middle_name: null,
    last_name: null,
    relationship_type_id: principal ? RELATIONSHIP_PRINCIPAL : null,
  };
}

/**
 * Details of a new customer (spec §4 'Enter new details'): one traveller, travelling from
 * Lebanon to no destination yet, single trip, no dates; name, e-mail and phone from the link.
 */
export function blankValues(prefill: TravelDetailsPrefill): TravelDetailsValues {
  return {
    name: prefill.name ?? '',
    email: prefill.email ?? '',
    phone_country_code: prefill.phoneCountryCode ?? HOME_PHONE_CODE,
    phone_number: prefill.phoneNumber ?? '',
    inbound_outbound: true,
    trip_type: prefill.tripType ?? TRIP_TYPE.single,
    start_date: null,
    end_date: null,
    destination_id: [],
    source_id: HOME_COUNTRY_ID,
    no_of_traveller: 1,
    is_family: false,
    travellers_info: [blankTraveller(true)],
    deleted_members: [],
  };
}

/** A saved lead as form values, traveller ids included so that saving updates them. */
export function valuesFromLead(lead: LeadDetails): TravelDetailsValues {
  return {
    name: lead.name,
    email: lead.email,
    phone_country_code: lead.phone_country_code,
    phone_number: lead.phone_number,
    inbound_outbound: lead.inbound_outbound,
    trip_type: lead.trip_type === TRIP_TYPE.annual ? TRIP_TYPE.annual : TRIP_TYPE.single,
    start_date: lead.start_date || null,
    end_date: lead.end_date || null,
    // RULINGS 4, as the form holds it: Lebanon on the fixed side, the picks on the other.
    destination_id: lead.inbound_outbound ? lead.destination_id.filter((id) => id !== HOME_COUNTRY_ID) : [HOME_COUNTRY_ID],
    source_id: lead.inbound_outbound ? HOME_COUNTRY_ID : lead.source_id,
    no_of_traveller: lead.no_of_traveller,
    is_family: lead.is_family,
    travellers_info: lead.travellers_info.map((traveller) => ({
      id: traveller.id,
      dob: traveller.dob || null,
      first_name: traveller.first_name ?? null,
      middle_name: traveller.middle_name ?? null,
      last_name: traveller.last_name ?? null,
      relationship_type_id: traveller.relationship_type_id,
    })),
    deleted_members: [],
  };
}

/**
 * The traveller list rules of spec §4: as many entries as travellers (blank ones appended,
 * surplus ones dropped from the end, a dropped saved traveller listed in deleted_members), the
 * first one the principal named after the customer.
 */
function fitTravellers(values: TravelDetailsValues): { travellers: TravellerInput[]; deleted: number[] } {
  const count = Math.max(0, Math.trunc(values.no_of_traveller));
  const travellers = values.travellers_info.slice(0, count).map((traveller) => ({ ...traveller }));
  while (travellers.length < count) travellers.push(blankTraveller());
  const [principal] = travellers;
  if (principal) Object.assign(principal, { relationship_type_id: RELATIONSHIP_PRINCIPAL, ...splitFullName(values.name) });

  const kept = new Set(travellers.map((traveller) => traveller.id));
  // Stryker disable next-line MethodExpression: the ids still in the list are filtered out below (!kept.has), so taking every id instead of the dropped ones deletes the same
  const dropped = values.travellers_info.slice(count).map((traveller) => traveller.id);
  const deleted = [...values.deleted_members, ...dropped].filter(
    (id): id is number => typeof id === 'number' && id > 0 && !kept.has(id),
  );
  return { travellers, deleted: [...new Set(deleted)] };
}

/** The add-customer-lead payload for the submitted values (spec §3 Customer, §4, §7). */
export function toLeadPayload(values: TravelDetailsValues, ctx: LeadPayloadContext): AddCustomerLeadRequest {
  const { travellers, deleted } = fitTravellers(values);
  const start = parseIsoDate(values.start_date) === null ? null : values.start_date;
  // Spec §4: an end date before the start, or without a start, is cleared.
  const end = start && parseIsoDate(values.end_date) !== null && values.end_date! >= start ? values.end_date : null;
  const code = values.phone_country_code.startsWith('+') ? values.phone_country_code : `+${values.phone_country_code}`;
  const fromHome = values.inbound_outbound;
  return {
    name: values.name.trim(),
    email: values.email.trim(),
    phone_country_code: code,
    phone_number: values.phone_number,
    complete_phone_number: `${code}${values.phone_number}`,
    // RULINGS 4: from Lebanon to the chosen destinations, or to Lebanon from one source.
    inbound_outbound: fromHome,
    source_id: fromHome ? HOME_COUNTRY_ID : values.source_id,
    destination_id: fromHome ? values.destination_id.filter((id) => id !== HOME_COUNTRY_ID) : [HOME_COUNTRY_ID],
    trip_type: values.trip_type,
    start_date: start,
    end_date: end,
    no_of_days: start && end ? tripDays(start, end) : null,
    no_of_traveller: travellers.length,
    product_type: travellers.length > 1 ? 2 : 1,
    is_family: values.is_family && travellers.length > 1,
    travellers_info: travellers,
    deleted_members: deleted,
    uuid: asUuid(ctx.leadUuid),
    device_uuid: asUuid(ctx.deviceUuid),
    session_id: asUuid(ctx.sessionId),
    agent_id: ctx.agentId ?? 0,
    lang: ctx.lang,
    preferred_language: ctx.lang,
    utm_source: ctx.utm.utm_source,
    utm_medium: ctx.utm.utm_medium,
    utm_campaign: ctx.utm.utm_campaign,
    utm_content: ctx.utm.utm_content,
    from_policy: ctx.fromPolicy ?? null,
  };
}

function asFailure(error: unknown): ServiceFailure | null {
  return typeof error === 'object' && error !== null && 'kind' in error && 'body' in error ? (error as ServiceFailure) : null;
}

/**
 * Field codes of a refused call (RULINGS 2: data.errors, and the taken flags of a lead save),
 * keeping only codes the step knows. Empty for failures the form cannot fix.
 */
export function refusalCodes(error: unknown): TravelDetailsErrors {
  const failure = asFailure(error);
  const status = failure?.status ?? 0;
  const data = failure?.body?.data;
  if (!data || status < 400 || status >= 500) return {};
  const codes: TravelDetailsErrors = {};
  for (const [field, code] of Object.entries(data.errors ?? {})) if (isTravelDetailsCode(code)) codes[field] = code;
  if (data.email_taken) codes.email = 'email_taken';
  if (data.phone_taken) codes.phone_number = 'phone_taken';
  return codes;
}

/** The server does not know the agent named by agent_id (RULINGS 14). */
export const isAgentUnknown = (error: unknown) => refusalCodes(error).agent_id === 'agent_unknown';

/** The lead named by the link does not exist or is not a lead id: the form starts blank. */
export function isLeadMissing(error: unknown): boolean {
  const status = asFailure(error)?.status;
  return status === 404 || status === 422 || status === 400;
}

/** A usable agent id: a positive whole number. */
export const isAgentId = (value: number | null): value is number => value !== null && Number.isSafeInteger(value) && value > 0;

/**
 * Issue 8 row 7: a calling code from the link (?country_code=9999) that get-country-codes does
 * not list is replaced by +961 (spec §2 default), and the number is capped for the code kept.
 * Values and prefill that already hold a listed code are returned as they are.
 */
export function withKnownPhoneCode(values: TravelDetailsValues, phoneCodes: Option[]): TravelDetailsValues {
  const known = phoneCodes.map((option) => option.value);
  const code = knownCallingCode(values.phone_country_code, known);
  return code === values.phone_country_code ? values : { ...values, phone_country_code: code, phone_number: phoneDigits(values.phone_number, code) };
}

export function prefillWithKnownCode(prefill: TravelDetailsPrefill, phoneCodes: Option[]): TravelDetailsPrefill {
  if (prefill.phoneCountryCode === null) return prefill;
  const code = knownCallingCode(prefill.phoneCountryCode, phoneCodes.map((option) => option.value));
  if (code === prefill.phoneCountryCode) return prefill;
  return { ...prefill, phoneCountryCode: code, phoneNumber: prefill.phoneNumber && (phoneDigits(prefill.phoneNumber, code) || null) };
}
