import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { BARE_TRAVELLER, completeTraveller, PROVIDER_CASES } from '../../tests/support/review-cases';
import {
  normalizePassport,
  passportSchema,
  passportTypingText,
  REVIEW_FIELDS,
  reviewDefaults,
  reviewFieldRules,
  travellerReviewErrors,
  type ReviewPlan,
  type ReviewRuleContext,
  type ReviewTravellerValues,
} from './traveller-review.rules';

/**
 * The review rules of spec §4, §5 and §9 as the traveller form and save-traveller-info both
 * apply them. Each row changes one thing in a valid traveller and expects exactly that code on
 * that field (or none, on the edge that passes).
 */
const today = '2026-11-23';
const providerTwelve: ReviewPlan = { providerId: 12, isApiPlan: 1, isFamily: false, sourceId: 422 };
const ctx: ReviewRuleContext = { plan: providerTwelve, index: 0, today, otherPassports: [] };
const valid: ReviewTravellerValues = completeTraveller('1990-05-20', 'LR1234567', ctx);
const errorsOf = (change: Partial<ReviewTravellerValues>, context: Partial<ReviewRuleContext> = {}) =>
  travellerReviewErrors({ ...valid, ...change }, { ...ctx, ...context });

describe('passport (spec §5: letters and digits, one apostrophe and one hyphen, at most 20)', () => {
  const cases: [label: string, typed: string | null, code: string | null, stored: string | null][] = [
    ['a valid number', 'LR1234567', null, 'LR1234567'],
    ['spaces pasted from a document', ' AB 123\u00a0456 ', null, 'AB123456'],
    ['Arabic-Indic digits', 'AB١٢٣٤٥٦', null, 'AB123456'],
    ['Eastern Arabic-Indic digits', 'AB۱۲۳۴۵۶', null, 'AB123456'],
    ['lower case', 'lr1234567', null, 'LR1234567'],
    ['20 characters', 'A'.repeat(20), null, 'A'.repeat(20)],
    ['21 characters', 'A'.repeat(21), 'passport_too_long', null],
    ['21 characters once spaces are dropped is still too long', `${'A'.repeat(10)} ${'B'.repeat(11)}`, 'passport_too_long', null],
    ['one apostrophe and one hyphen', "AB-12'34", null, "AB-12'34"],
    ['two hyphens', 'AB-12-34', 'passport_chars', null],
    ['two apostrophes', "AB'12'34", 'passport_chars', null],
    ['only a hyphen', '-', 'passport_chars', null],
    ['only an apostrophe and a hyphen', "'-", 'passport_chars', null],
    ['a symbol', 'AB#12345', 'passport_chars', null],
    ['a dot', 'AB.12345', 'passport_chars', null],
    ['Arabic letters', 'جواز123', 'passport_chars', null],
    ['empty', '', 'passport_required', null],
    ['spaces only', '   ', 'passport_required', null],
    ['not given', null, 'passport_required', null],
  ];

  it.each(cases)('%s', (_label, typed, code, stored) => {
    expect(errorsOf({ passport: typed })).toEqual(code ? { passport: code } : {});
    const parsed = v.safeParse(passportSchema, typed ?? '');
    expect(parsed.success ? parsed.output : null).toBe(stored);
  });

  it.each([
    ['AB 123 456', 'AB123456'],
    ['١٢٣ abc', '123ABC'],
    ['X'.repeat(25), 'X'.repeat(20)],
  ])('the typing filter turns %j into %j', (typed, shown) => {
    expect(passportTypingText(typed)).toBe(shown);
  });

  it.each([
    ['ab-12#34', 'AB-12#34'],
    ['AB.123/45', 'AB.123/45'],
    ['lr_123$', 'LR_123$'],
  ])('a symbol typed or pasted into a passport is kept (%j shows %j) and refused with its message, not dropped without a word', (typed, shown) => {
    const text = passportTypingText(typed);
    expect(text).toBe(shown);
    expect(errorsOf({ passport: text })).toEqual({ passport: 'passport_chars' });
  });

  it('two travellers of one policy cannot share a passport, however it was typed', () => {
    expect(errorsOf({ passport: 'lr 123 4567' }, { otherPassports: [null, 'LR1234567'] })).toEqual({ passport: 'passport_duplicate' });
    expect(errorsOf({ passport: 'LR١٢٣٤٥٦٧' }, { otherPassports: ['lr1234567'] })).toEqual({ passport: 'passport_duplicate' });
    expect(errorsOf({}, { otherPassports: [null, 'LR7654321'] })).toEqual({});
    // A malformed passport gets its own code first, never "duplicate".
    expect(errorsOf({ passport: 'LR-12-34' }, { otherPassports: ['LR-12-34'] })).toEqual({ passport: 'passport_chars' });
    expect(normalizePassport(' lr 12\u00a034 ')).toBe('LR1234');
  });
});

describe('names (spec §5: letters, space, dot, underscore, one apostrophe and one hyphen, at most 62)', () => {
  const cases: [label: string, name: string | null, required: string | null, optional: string | null][] = [
    ['a plain name', 'Rania', null, null],
    ["one apostrophe and one hyphen", "O'Neil-Haddad", null, null],
    ['dot, underscore and spaces', 'J.R. Smith_Jr', null, null],
    ['62 characters', 'A'.repeat(62), null, null],
    ['63 characters', 'A'.repeat(63), 'name_too_long', 'name_too_long'],
    ['surrounding spaces are trimmed before counting', ` ${'A'.repeat(62)} `, null, null],
    ['empty', '', 'name_required', null],
    ['spaces only', '   ', 'name_required', null],
    ['not given', null, 'name_required', null],
    ['digits', 'Rania2', 'name_chars', 'name_chars'],
    ['two apostrophes', "D'Arcy O'Neil", 'name_chars', 'name_chars'],
    ['two hyphens', 'Anne-Marie Haddad-Khoury', 'name_chars', 'name_chars'],
    ['Arabic letters (names as on the passport, in Latin letters)', 'رانيا', 'name_chars', 'name_chars'],
    ['accents', 'Zoë', 'name_chars', 'name_chars'],
  ];

  for (const field of ['first_name', 'middle_name', 'last_name'] as const) {
    it.each(cases)(`${field}: %s`, (_label, name, required, optional) => {
      const code = field === 'middle_name' ? optional : required;
      expect(errorsOf({ [field]: name })).toEqual(code ? { [field]: code } : {});
    });
  }
});

describe('date of birth', () => {
  it.each([
    ['today', today, null],
    ['tomorrow', '2026-11-24', 'dob_invalid'],
    ['100 years ago', '1926-11-23', null],
    ['more than 100 years ago', '1926-11-22', 'dob_invalid'],
    ['30 February', '1990-02-30', 'dob_invalid'],
    ['not a date', '20/05/1990', 'dob_invalid'],
    ['empty', '', 'dob_required'],
    ['not given', null, 'dob_required'],
  ])('%s', (_label, dob, code) => {
    expect(errorsOf({ dob })).toEqual(code ? { dob: code } : {});
  });
});

describe("each provider's fields (spec §5, §9)", () => {
  it.each(PROVIDER_CASES)('$label', (testCase) => {
    const rules = reviewFieldRules(testCase.plan, testCase.index);
    expect(REVIEW_FIELDS.filter((field) => rules[field].shown)).toEqual(testCase.shown);
    expect(REVIEW_FIELDS.filter((field) => rules[field].required).sort()).toEqual(Object.keys(testCase.bare).sort());
    const context = { ...ctx, plan: testCase.plan, index: testCase.index };
    expect(travellerReviewErrors(BARE_TRAVELLER, context)).toEqual(testCase.bare);
    expect(travellerReviewErrors(completeTraveller('1990-05-20', 'LR1234567', testCase), context)).toEqual({});
  });

  it('a field the plan does not ask for is never required, whatever it holds', () => {
    const passportOnly = { ...ctx, plan: { ...providerTwelve, providerId: 1000 } };
    expect(travellerReviewErrors({ ...valid, gender_id: null, country_id: null, nationality_id: null }, passportOnly)).toEqual({});
  });
});

describe('reviewDefaults (spec §4)', () => {
  const lead = { name: '  Rania   El Haddad ', startDate: '2026-12-01' };
  const stamp: ReviewPlan = { providerId: 3, isApiPlan: 1, isFamily: true, sourceId: 422 };
  const empty = (dob: string | null = null): ReviewTravellerValues => ({ ...BARE_TRAVELLER, dob });

  it('the principal starts from the full name (first word, then the rest) and is relationship 5', () => {
    expect(reviewDefaults(empty('1985-01-10'), providerTwelve, 0, lead)).toMatchObject({
      first_name: 'Rania',
      last_name: 'El Haddad',
      relationship_type_id: 5,
      country_id: null,
    });
  });

  it('the principal keeps the names already saved, and is always relationship 5', () => {
    const saved = { ...empty('1985-01-10'), first_name: 'RANIA', last_name: 'HADDAD', relationship_type_id: 1 };
    expect(reviewDefaults(saved, stamp, 0, lead)).toMatchObject({ first_name: 'RANIA', last_name: 'HADDAD', relationship_type_id: 5 });
  });

  it('a later traveller does not get the full name', () => {
    expect(reviewDefaults(empty('1987-02-11'), providerTwelve, 1, lead)).toMatchObject({ first_name: null, last_name: null, relationship_type_id: null });
  });

  it.each([
    ['18 on the first day of the trip', '2008-12-01', 1],
    ['17 on the first day of the trip', '2008-12-02', null],
    ['a child', '2015-03-12', null],
  ])('provider 3: a later traveller who is %s gets relationship %s (spouse)', (_label, dob, relationship) => {
    expect(reviewDefaults(empty(dob), stamp, 1, lead).relationship_type_id).toBe(relationship);
  });

  it('provider 3: a relationship already saved wins over the spouse default', () => {
    expect(reviewDefaults({ ...empty('1987-02-11'), relationship_type_id: 4 }, stamp, 1, lead).relationship_type_id).toBe(4);
  });

  it('other providers: an adult later traveller gets no relationship default', () => {
    expect(reviewDefaults(empty('1987-02-11'), { ...stamp, providerId: 7 }, 1, lead).relationship_type_id).toBeNull();
  });

  it('provider 3 with source Lebanon (422): residence preset to Lebanon for every traveller', () => {
    expect(reviewDefaults(empty('1985-01-10'), stamp, 0, lead).country_id).toBe(422);
    expect(reviewDefaults(empty('2015-03-12'), stamp, 2, lead).country_id).toBe(422);
  });

  it('provider 3: a residence already saved wins over the preset', () => {
    expect(reviewDefaults({ ...empty('1985-01-10'), country_id: 250 }, stamp, 0, lead).country_id).toBe(250);
  });

  it('no residence preset for a trip to Lebanon, nor for other providers', () => {
    expect(reviewDefaults(empty('1985-01-10'), { ...stamp, sourceId: 250 }, 0, lead).country_id).toBeNull();
    expect(reviewDefaults(empty('1985-01-10'), { ...stamp, providerId: 7 }, 0, lead).country_id).toBeNull();
  });
});
