import * as v from 'valibot';
import { addYears, ageOn, parseIsoDate } from './dates';
import { toWesternDigits } from './digits';
import {
  ADULT_AGE,
  HOME_COUNTRY_ID,
  MAX_AGE_YEARS,
  NAME_MAX_LENGTH,
  RELATIONSHIP_PRINCIPAL,
  nameSchema,
  splitFullName,
} from './travel-details.rules';

/**
 * The review step's rules for one traveller (spec §4, §5, §9; RULINGS 8–9), shared by the
 * traveller form and by save-traveller-info, so both give the same code for the same problem.
 * Which fields a traveller is asked for depends on the chosen plan's insurer: reviewFieldRules.
 * Each code has one message in src/web/i18n/validation-messages.ts, in English and Arabic.
 */
export const REVIEW_CODES = [
  'title_required',
  'name_required',
  'name_chars',
  'name_too_long',
  'dob_required',
  'dob_invalid',
  'gender_required',
  'passport_required',
  'passport_chars',
  'passport_too_long',
  /** Two travellers of one policy cannot share a passport number. */
  'passport_duplicate',
  'residence_required',
  'nationality_required',
  /** The nationality is not one the insurer covers for this trip (RULINGS 4). */
  'nationality_not_covered',
  'relationship_required',
  /** An id that is not in the list the form offers (title, gender, country, relationship). */
  'option_invalid',
] as const;
export type ReviewCode = (typeof REVIEW_CODES)[number];
export const isReviewCode = (value: unknown): value is ReviewCode => REVIEW_CODES.includes(value as ReviewCode);

/** Providers with the spec's own review rules (spec §9). */
export const PROVIDER = { ownVat: 7, stampFee: 3, passportOnly: 1000 } as const;
export const PASSPORT_MAX_LENGTH = 20;
/** Relationship a later traveller older than 17 gets with provider 3 (spec §4): spouse. */
export const RELATIONSHIP_SPOUSE = 1;

/** The fields of a traveller at review, in the order the form shows them. */
export const REVIEW_FIELDS = [
  'type',
  'first_name',
  'middle_name',
  'last_name',
  'dob',
  'gender_id',
  'passport',
  'country_id',
  'nationality_id',
  'relationship_type_id',
] as const;
export type ReviewField = (typeof REVIEW_FIELDS)[number];

export interface FieldRule {
  shown: boolean;
  required: boolean;
}

/** What the rules need to know about the chosen plan and the lead. */
export interface ReviewPlan {
  providerId: number;
  isApiPlan: 0 | 1;
  isFamily: boolean;
  /** The country the trip starts from (422 when travelling from Lebanon). */
  sourceId: number | null;
}

/**
 * Which fields traveller `index` is asked for, and which must be filled (spec §5, §9):
 * - title, first and last name, date of birth and passport: every plan (middle name optional);
 * - provider 1000 asks for the passport only, so no gender, residence or nationality, unless
 *   the plan is not issued through the insurer's API (is_api_plan 0), which always needs
 *   residence, nationality and passport;
 * - gender: shown for the others, required for providers 7 and 3;
 * - residence and nationality: required wherever shown (the insurer's policy names them);
 * - relationship: provider 3 only, for every traveller after the first (the first is the
 *   principal, relationship 5), and required there.
 */
export function reviewFieldRules(plan: ReviewPlan, index: number): Record<ReviewField, FieldRule> {
  const passportOnly = plan.providerId === PROVIDER.passportOnly && plan.isApiPlan === 1;
  const strict = plan.providerId === PROVIDER.ownVat || plan.providerId === PROVIDER.stampFee;
  const always = { shown: true, required: true };
  const place = { shown: !passportOnly, required: !passportOnly };
  const relationship = plan.providerId === PROVIDER.stampFee && index > 0;
  return {
    type: always,
    first_name: always,
    middle_name: { shown: true, required: false },
    last_name: always,
    dob: always,
    gender_id: { shown: !passportOnly, required: !passportOnly && strict },
    passport: always,
    country_id: place,
    nationality_id: place,
    relationship_type_id: { shown: relationship, required: relationship },
  };
}

/** What customers type or paste into the passport field, as stored: Western digits, capitals, no spaces. */
export function normalizePassport(text: string): string {
  return toWesternDigits(text).replace(/\s+/g, '').toUpperCase();
}

/**
 * What the passport field shows as it is typed or pasted: the stored form (Western digits,
 * capitals, no spaces: a pasted "AB 123 456" reads AB123456), capped at 20. Any other character
 * stays where it was typed, so the field can say why it is refused ("Only characters a-z and
 * 0-9 are allowed", spec §5) instead of dropping it without a word (issue 17).
 */
export function passportTypingText(text: string): string {
  return normalizePassport(text).slice(0, PASSPORT_MAX_LENGTH);
}

const count = (text: string, char: string) => text.split(char).length - 1;

/** Letters and digits, at most one apostrophe and one hyphen, at most 20 characters (spec §5). */
export const passportSchema = v.pipe(
  v.string('passport_required'),
  v.transform(normalizePassport),
  v.nonEmpty('passport_required'),
  v.maxLength(PASSPORT_MAX_LENGTH, 'passport_too_long'),
  v.regex(/^[A-Z0-9'-]+$/, 'passport_chars'),
  v.regex(/[A-Z0-9]/, 'passport_chars'),
  v.check((passport) => count(passport, "'") <= 1 && count(passport, '-') <= 1, 'passport_chars'),
);

/** One traveller's review fields as the form holds them and save-traveller-info receives them. */
export interface ReviewTravellerValues {
  type: number | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  dob: string | null;
  gender_id: number | null;
  passport: string | null;
  country_id: number | null;
  nationality_id: number | null;
  relationship_type_id: number | null;
}

export type ReviewErrors = Partial<Record<ReviewField, ReviewCode>>;

export interface ReviewRuleContext {
  plan: ReviewPlan;
  /** The traveller's position on the lead (0 is the principal). */
  index: number;
  /** Today, "YYYY-MM-DD". */
  today: string;
  /** The passports already given for the lead's other travellers (any form; compared normalised). */
  otherPassports: readonly (string | null)[];
}

const firstCode = (schema: v.GenericSchema, value: unknown): ReviewCode | null => {
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  if (result.success) return null;
  const message = result.issues[0]?.message;
  return isReviewCode(message) ? message : null;
};

const REQUIRED_CODE: Partial<Record<ReviewField, ReviewCode>> = {
  type: 'title_required',
  gender_id: 'gender_required',
  country_id: 'residence_required',
  nationality_id: 'nationality_required',
  relationship_type_id: 'relationship_required',
};

/**
 * Every rule of spec §5 for one traveller at review, field by field: the first failing rule's
 * code. Empty when the traveller may be saved. Whether an id is one of the offered options, and
 * whether the date of birth is the quoted one (RULINGS 8), only the server can tell.
 */
export function travellerReviewErrors(values: ReviewTravellerValues, ctx: ReviewRuleContext): ReviewErrors {
  const rules = reviewFieldRules(ctx.plan, ctx.index);
  const errors: ReviewErrors = {};
  const set = (field: ReviewField, code: ReviewCode | null) => {
    if (code && !errors[field]) errors[field] = code;
  };

  for (const field of ['type', 'gender_id', 'country_id', 'nationality_id', 'relationship_type_id'] as const) {
    if (rules[field].required && values[field] === null) set(field, REQUIRED_CODE[field]!);
  }
  for (const field of ['first_name', 'last_name'] as const) {
    set(field, firstCode(nameSchema, values[field] ?? ''));
  }
  if (values.middle_name?.trim()) set('middle_name', firstCode(nameSchema, values.middle_name));

  if (!values.dob) set('dob', 'dob_required');
  else if (parseIsoDate(values.dob) === null || values.dob > ctx.today || values.dob < addYears(ctx.today, -MAX_AGE_YEARS)) {
    set('dob', 'dob_invalid');
  }

  const passport = firstCode(passportSchema, values.passport ?? '');
  set('passport', passport);
  if (!passport && values.passport) {
    const mine = normalizePassport(values.passport);
    if (ctx.otherPassports.some((other) => other !== null && normalizePassport(other) === mine)) set('passport', 'passport_duplicate');
  }
  return errors;
}

/** The lead facts the review defaults read. */
export interface ReviewLeadFacts {
  /** The full name given at travel details. */
  name: string;
  /** The trip's first day: ages are counted on it, as the quote counted them. */
  startDate: string;
}

/**
 * What the form starts from for traveller `index` (spec §4): the principal's first and last
 * names from the full name, relationship principal for the first traveller; with provider 3 a
 * later traveller older than 17 is the spouse (relationship 1) and, for a trip from Lebanon,
 * the country of residence is Lebanon. Saved values always win over these.
 */
export function reviewDefaults(values: ReviewTravellerValues, plan: ReviewPlan, index: number, lead: ReviewLeadFacts): ReviewTravellerValues {
  const next = { ...values };
  if (index === 0) {
    const split = splitFullName(lead.name);
    if (!next.first_name?.trim() && !next.last_name?.trim()) {
      next.first_name = split.first_name;
      next.last_name = split.last_name;
    }
    next.relationship_type_id = RELATIONSHIP_PRINCIPAL;
  }
  if (plan.providerId === PROVIDER.stampFee) {
    if (index > 0 && next.relationship_type_id === null && next.dob && ageOn(next.dob, lead.startDate) >= ADULT_AGE) {
      next.relationship_type_id = RELATIONSHIP_SPOUSE;
    }
    if (plan.sourceId === HOME_COUNTRY_ID && next.country_id === null) next.country_id = HOME_COUNTRY_ID;
  }
  return next;
}

/** Longest name accepted on the wire; longer ones are refused by the name rule with its own code. */
export const REVIEW_NAME_WIRE_MAX = NAME_MAX_LENGTH * 4;
