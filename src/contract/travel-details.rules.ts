import * as v from 'valibot';
import { addDays, addYears, ageOn, annualEndDate, parseIsoDate, tripDays } from './dates';
import { HOME_PHONE_CODE, nationalPhoneNumber, phoneDigitRange, phoneNumberText, toWesternDigits } from './digits';

// The phone range lives beside the digit normaliser (src/contract/digits.ts); the rules keep
// exporting it so that callers have one place for the contact rules.
export { HOME_PHONE_CODE, phoneDigitRange };

/**
 * The validation rules of the travel details step (spec §5), shared by the form and by
 * add-customer-lead so both give the same code for the same problem. Each code has one
 * message in src/web/i18n/validation-messages.ts, in English and Arabic.
 */
export const TRAVEL_DETAILS_CODES = [
  'name_required',
  'name_chars',
  'name_too_long',
  'email_required',
  'email_invalid',
  'email_too_long',
  'email_taken',
  'phone_required',
  'phone_code_invalid',
  'phone_digits_961',
  'phone_digits_other',
  'phone_taken',
  'date_invalid',
  'destination_required',
  'source_required',
  'members_min',
  'members_max',
  'travellers_min',
  'travellers_incomplete',
  'dob_required',
  'dob_invalid',
  'family_parent_missing',
  'family_not_eligible',
  'agent_unknown',
  /** E-mail or phone of a saved lead changed without its session id (RULINGS 24). */
  'contact_locked',
] as const;
export type TravelDetailsCode = (typeof TRAVEL_DETAILS_CODES)[number];
export const isTravelDetailsCode = (value: unknown): value is TravelDetailsCode =>
  TRAVEL_DETAILS_CODES.includes(value as TravelDetailsCode);

export const NAME_MAX_LENGTH = 62;
export const EMAIL_MAX_LENGTH = 62;
export const HOME_COUNTRY_ID = 422;
export const DEFAULT_TRAVELLER_DOB_YEARS_BACK = 30;
export const MAX_AGE_YEARS = 100;
export const ADULT_AGE = 18;
export const FAMILY_MAX_AGE = 70;
/** How far ahead a trip may start, and how long a single trip may last (days). */
export const MAX_START_AHEAD_DAYS = 365;
export const MAX_TRIP_DAYS = 730;
export const TRIP_TYPE = { single: 1, annual: 2 } as const;
export const RELATIONSHIP_PRINCIPAL = 5;

const count = (text: string, char: string) => text.split(char).length - 1;

/** Letters a-z, space, dot, underscore, hyphen and apostrophe; at most one ' and one -. */
export const nameSchema = v.pipe(
  v.string('name_required'),
  v.trim(),
  v.nonEmpty('name_required'),
  v.maxLength(NAME_MAX_LENGTH, 'name_too_long'),
  v.regex(/^[A-Za-z ._'-]+$/, 'name_chars'),
  v.check((name) => count(name, "'") <= 1 && count(name, '-') <= 1, 'name_chars'),
);

/** What an English keyboard may type into a name field (spec §5): letters, space, ' and -. */
export const NAME_TYPING_FILTER = /[^A-Za-z '-]/g;

export const emailSchema = v.pipe(
  v.string('email_required'),
  v.trim(),
  v.nonEmpty('email_required'),
  v.maxLength(EMAIL_MAX_LENGTH, 'email_too_long'),
  v.email('email_invalid'),
);

/**
 * RULINGS 25: what the API receives is normalised before any rule reads it, so the server
 * checks and stores Western digits. A phone number loses its spaces, dashes and brackets; a
 * date written with Arabic-keyboard digits ("١٩٩٠-١٢-٢٥") reads as 1990-12-25.
 */
const phoneNumberInput = v.pipe(v.string(), v.transform(phoneNumberText));
const dateInput = v.pipe(v.string(), v.transform(toWesternDigits));

export const phoneCodeSchema = v.pipe(v.string('phone_code_invalid'), v.regex(/^\+\d{1,4}$/, 'phone_code_invalid'));

const id = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));

export const travellerInputSchema = v.object({
  id: v.optional(v.nullable(id)),
  dob: v.optional(v.nullable(dateInput), null),
  first_name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(NAME_MAX_LENGTH))), null),
  middle_name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(NAME_MAX_LENGTH))), null),
  last_name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(NAME_MAX_LENGTH))), null),
  relationship_type_id: v.optional(v.nullable(id), null),
});
export type TravellerInput = v.InferOutput<typeof travellerInputSchema>;

/** The trip and travellers as the form holds them; the lead payload extends this. */
export const travelDetailsSchema = v.object({
  name: v.string(),
  email: v.string(),
  phone_country_code: v.string(),
  phone_number: phoneNumberInput,
  inbound_outbound: v.boolean(),
  trip_type: v.picklist([TRIP_TYPE.single, TRIP_TYPE.annual]),
  start_date: v.nullable(dateInput),
  end_date: v.nullable(dateInput),
  destination_id: v.pipe(v.array(id), v.maxLength(50)),
  source_id: v.nullable(id),
  no_of_traveller: v.pipe(v.number(), v.integer()),
  is_family: v.boolean(),
  travellers_info: v.pipe(v.array(travellerInputSchema), v.maxLength(20)),
});
export type TravelDetails = v.InferOutput<typeof travelDetailsSchema>;

export interface RuleContext {
  /** Today, "YYYY-MM-DD" (the server's clock on the server). */
  today: string;
  maxTravellers: number;
  /** Children on a family plan must be younger than this (RULINGS 7). */
  familyChildMaxAge: number;
}

export type TravelDetailsErrors = Partial<Record<string, TravelDetailsCode>>;

const firstCode = (schema: v.GenericSchema, value: unknown): TravelDetailsCode | null => {
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  if (result.success) return null;
  const message = result.issues[0]?.message;
  return isTravelDetailsCode(message) ? message : null;
};

/** The earliest and latest date of birth the form accepts for traveller `index` (spec §5). */
export function dobBounds(details: Pick<TravelDetails, 'is_family' | 'no_of_traveller'>, index: number, today: string) {
  const familyParent = details.is_family && details.no_of_traveller > 1 && index === 0;
  return { min: addYears(today, -MAX_AGE_YEARS), max: familyParent ? addYears(today, -ADULT_AGE) : today };
}

/** The date bounds of the trip (spec §5: start not in the past; end not before start). */
export function tripBounds(start: string | null, today: string) {
  const startMax = addDays(today, MAX_START_AHEAD_DAYS);
  const validStart = start && parseIsoDate(start) !== null && start >= today && start <= startMax ? start : null;
  return { startMin: today, startMax, endMin: validStart ?? today, endMax: addDays(validStart ?? today, MAX_TRIP_DAYS - 1) };
}

/** Who to contact: the fields travel details and the call-back request (RULINGS 13) share. */
export type ContactDetails = Pick<TravelDetails, 'name' | 'email' | 'phone_country_code' | 'phone_number'>;

/** The contact rules of spec §5 (name, e-mail, calling code, phone digits), field by field. */
export function contactErrors(details: ContactDetails): TravelDetailsErrors {
  const errors: TravelDetailsErrors = {};
  const set = (field: string, code: TravelDetailsCode | null) => {
    if (code) errors[field] = code;
  };
  set('name', firstCode(nameSchema, details.name));
  set('email', firstCode(emailSchema, details.email));
  set('phone_country_code', firstCode(phoneCodeSchema, details.phone_country_code));
  const digits = nationalPhoneNumber(details.phone_number, details.phone_country_code);
  if (!digits) set('phone_number', 'phone_required');
  else {
    const range = phoneDigitRange(details.phone_country_code);
    if (!/^\d+$/.test(digits) || digits.length < range.min || digits.length > range.max) set('phone_number', range.code);
  }
  return errors;
}

/**
 * Every rule of spec §5 for this step, field by field: the first failing rule's code for each
 * field ("travellers_info.2.dob" for a traveller). Empty when the details may be saved.
 */
export function travelDetailsErrors(details: TravelDetails, ctx: RuleContext): TravelDetailsErrors {
  const errors: TravelDetailsErrors = contactErrors(details);
  const set = (field: string, code: TravelDetailsCode | null) => {
    if (code && !errors[field]) errors[field] = code;
  };

  const { start_date: start, end_date: end } = details;
  const bounds = tripBounds(start, ctx.today);
  const startOk = start !== null && parseIsoDate(start) !== null && start >= bounds.startMin && start <= bounds.startMax;
  if (!startOk) set('start_date', 'date_invalid');
  const endOk =
    end !== null &&
    parseIsoDate(end) !== null &&
    (!startOk ||
      (details.trip_type === TRIP_TYPE.annual
        ? end === annualEndDate(start!)
        : end >= start! && tripDays(start!, end) <= MAX_TRIP_DAYS));
  if (!endOk) set('end_date', 'date_invalid');

  if (details.inbound_outbound) {
    if (details.destination_id.length === 0) set('destination_id', 'destination_required');
    else if (details.destination_id.includes(HOME_COUNTRY_ID)) set('destination_id', 'destination_required');
  } else if (details.source_id === null || details.source_id === HOME_COUNTRY_ID) {
    set('source_id', 'source_required');
  }

  const members = details.no_of_traveller;
  if (members <= 0) set('no_of_traveller', 'members_min');
  else if (members > ctx.maxTravellers) set('no_of_traveller', 'members_max');
  const travellers = details.travellers_info;
  if (travellers.length === 0) set('travellers_info', 'travellers_min');
  else if (travellers.length !== members || travellers.some((t) => !t.dob)) set('travellers_info', 'travellers_incomplete');

  const ages: (number | null)[] = travellers.map((traveller, index) => {
    const field = `travellers_info.${index}.dob`;
    if (!traveller.dob) {
      set(field, 'dob_required');
      return null;
    }
    const { min, max } = dobBounds(details, index, ctx.today);
    if (parseIsoDate(traveller.dob) === null || traveller.dob > ctx.today || traveller.dob < min) {
      set(field, 'dob_invalid');
      return null;
    }
    if (traveller.dob > max) set(field, 'family_parent_missing');
    return ageOn(traveller.dob, ctx.today);
  });

  // Every traveller's names follow the principal's rules (spec §5): names end up on the policy.
  travellers.forEach((traveller, index) => {
    for (const part of ['first_name', 'middle_name', 'last_name'] as const) {
      const value = traveller[part];
      if (value?.trim()) set(`travellers_info.${index}.${part}`, firstCode(nameSchema, value));
    }
  });

  if (details.is_family && members > 1) {
    const known = ages.filter((age): age is number => age !== null);
    const notChildren = known.filter((age) => age >= ctx.familyChildMaxAge).length;
    if (notChildren > 2 || known.some((age) => age > FAMILY_MAX_AGE)) set('is_family', 'family_not_eligible');
  }
  return errors;
}

/** The first and last name of the principal from the full name (spec §4): first word, then the rest. */
export function splitFullName(fullName: string): { first_name: string; last_name: string } {
  const [first = '', ...rest] = fullName.trim().split(/\s+/);
  return { first_name: first, last_name: rest.join(' ') };
}
