import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addYears, annualEndDate } from '../../src/contract/dates';
import { addCustomerLeadEndpoint, type AddCustomerLeadRequest } from '../../src/contract/lead.endpoints';
import { errorCodes } from './expect-envelope';
import { createLeadTestApp, FRANCE, LEBANON, leadBody, TODAY, TURKEY, type LeadTestApp } from './lead-fixtures';

/**
 * Every rule of the travel details step (spec §5, RULINGS 6, 7) through add-customer-lead,
 * with limits on both sides: 'ok' rows must save (200), the others must answer 422 with
 * exactly these field codes. Today is fixed, so every date boundary is exact.
 */

type Row = [label: string, change: Partial<AddCustomerLeadRequest>, expected: 'ok' | Record<string, string>];

let serial = 0;
/**
 * Digits of a given length no other row uses, so valid rows never collide on a phone number
 * (uniqueContact's numbers start with 7, these with 3).
 */
const digits = (length: number) => `3${String((serial += 1)).padStart(length - 1, '0')}`;

const dob = (yearsBack: number, daysShift = 0) => addDays(addYears(TODAY, -yearsBack), daysShift);
const adults = (...dobs: string[]) => ({ no_of_traveller: dobs.length, travellers_info: dobs.map((d) => ({ dob: d })) });
const family = (...dobs: string[]) => ({ ...adults(...dobs), is_family: true });
const START = addDays(TODAY, 10);

const ROWS: Row[] = [
  // Name: required, letters and . _ ' - only, at most one ' and one -, at most 62 characters.
  ['name of 62 characters', { name: `${'A'.repeat(30)} ${'B'.repeat(31)}` }, 'ok'],
  ['name of 63 characters', { name: `${'A'.repeat(30)} ${'B'.repeat(32)}` }, { name: 'name_too_long' }],
  ["name with one apostrophe and one hyphen", { name: "Rania O'Brien-Haddad" }, 'ok'],
  ['name with a second apostrophe', { name: "Rania O'Brien D'Souza" }, { name: 'name_chars' }],
  ['name with a second hyphen', { name: 'Rania El-Haddad-Khoury' }, { name: 'name_chars' }],
  ['name with digits', { name: 'Rania 2nd' }, { name: 'name_chars' }],
  ['name in Arabic letters', { name: 'رانيا حداد' }, { name: 'name_chars' }],
  ['empty name', { name: '' }, { name: 'name_required' }],
  ['name of spaces only', { name: '   ' }, { name: 'name_required' }],

  // Email: required, valid, at most 62 characters.
  ['email of 62 characters', { email: `${'a'.repeat(50)}@example.com` }, 'ok'],
  ['email of 63 characters', { email: `${'a'.repeat(51)}@example.com` }, { email: 'email_too_long' }],
  ['invalid email', { email: 'rania.example.com' }, { email: 'email_invalid' }],
  ['empty email', { email: '' }, { email: 'email_required' }],

  // Phone: required; +961 7-8 digits; other codes 8-10 digits.
  ['+961 phone of 6 digits', { phone_number: digits(6) }, { phone_number: 'phone_digits_961' }],
  ['+961 phone of 7 digits', { phone_number: digits(7) }, 'ok'],
  ['+961 phone of 8 digits', { phone_number: digits(8) }, 'ok'],
  ['+961 phone of 9 digits', { phone_number: digits(9) }, { phone_number: 'phone_digits_961' }],
  ['+33 phone of 7 digits', { phone_country_code: '+33', phone_number: digits(7) }, { phone_number: 'phone_digits_other' }],
  ['+33 phone of 8 digits', { phone_country_code: '+33', phone_number: digits(8) }, 'ok'],
  ['+33 phone of 10 digits', { phone_country_code: '+33', phone_number: digits(10) }, 'ok'],
  ['+33 phone of 11 digits', { phone_country_code: '+33', phone_number: digits(11) }, { phone_number: 'phone_digits_other' }],
  ['phone with a letter', { phone_number: '7123a456' }, { phone_number: 'phone_digits_961' }],
  // RULINGS 25 (issue 8 row 2): spaces, dashes, brackets and Arabic-keyboard digits are what people type.
  ['phone with spaces, a dash and brackets', { phone_number: '(71) 123-450' }, 'ok'],
  ['phone in Arabic-keyboard digits', { phone_number: '٧١١٢٣٤٥٩' }, 'ok'],
  ['empty phone', { phone_number: '' }, { phone_number: 'phone_required' }],
  ['calling code without +', { phone_country_code: '961' }, { phone_country_code: 'phone_code_invalid' }],

  // Dates: start today or later; end not before start; annual ends 12 months less a day later.
  ['start yesterday', { start_date: addDays(TODAY, -1), end_date: addDays(TODAY, 5) }, { start_date: 'date_invalid' }],
  ['start today', { start_date: TODAY, end_date: addDays(TODAY, 5) }, 'ok'],
  ['start that is not a date', { start_date: '2026-02-30', end_date: addDays(TODAY, 5) }, { start_date: 'date_invalid' }],
  ['no start date', { start_date: null }, { start_date: 'date_invalid' }],
  ['end the day before start', { start_date: START, end_date: addDays(START, -1) }, { end_date: 'date_invalid' }],
  ['end the same day as start', { start_date: START, end_date: START }, 'ok'],
  ['no end date', { end_date: null }, { end_date: 'date_invalid' }],
  ['annual trip ending a year later', { trip_type: 2, start_date: START, end_date: addYears(START, 1) }, { end_date: 'date_invalid' }],
  ['annual trip ending 12 months less a day later', { trip_type: 2, start_date: START, end_date: annualEndDate(START) }, 'ok'],

  // Where: from Lebanon needs destinations (Lebanon excluded); to Lebanon needs a source.
  ['from Lebanon without destinations', { inbound_outbound: true, destination_id: [] }, { destination_id: 'destination_required' }],
  ['from Lebanon to Lebanon', { inbound_outbound: true, destination_id: [LEBANON] }, { destination_id: 'destination_required' }],
  ['from Lebanon to a country that does not exist', { inbound_outbound: true, destination_id: [FRANCE, 999] }, { destination_id: 'destination_required' }],
  ['to Lebanon without a source', { inbound_outbound: false, source_id: null, destination_id: [] }, { source_id: 'source_required' }],
  ['to Lebanon from Lebanon', { inbound_outbound: false, source_id: LEBANON }, { source_id: 'source_required' }],
  ['to Lebanon from a country that does not exist', { inbound_outbound: false, source_id: 999 }, { source_id: 'source_required' }],
  ['to Lebanon from Turkey', { inbound_outbound: false, source_id: TURKEY, destination_id: [] }, 'ok'],

  // Travellers: 1 to max_traveller_count (8), one date of birth each.
  ['no travellers', { no_of_traveller: 0, travellers_info: [] }, { no_of_traveller: 'members_min', travellers_info: 'travellers_min' }],
  ['8 travellers', adults(...Array.from({ length: 8 }, () => dob(30))), 'ok'],
  ['9 travellers', adults(...Array.from({ length: 9 }, () => dob(30))), { no_of_traveller: 'members_max' }],
  ['fewer entries than travellers', { no_of_traveller: 2, travellers_info: [{ dob: dob(30) }] }, { travellers_info: 'travellers_incomplete' }],
  ['a traveller without date of birth', { travellers_info: [{ dob: null }] }, { travellers_info: 'travellers_incomplete', 'travellers_info.0.dob': 'dob_required' }],
  ['born tomorrow', adults(addDays(TODAY, 1)), { 'travellers_info.0.dob': 'dob_invalid' }],
  ['born today', adults(TODAY), 'ok'],
  ['exactly 100 years old', adults(dob(100)), 'ok'],
  ['100 years and a day old', adults(dob(100, -1)), { 'travellers_info.0.dob': 'dob_invalid' }],
  ['101 years old', adults(dob(101)), { 'travellers_info.0.dob': 'dob_invalid' }],
  ['a date of birth that is not a date', adults('1990-13-01'), { 'travellers_info.0.dob': 'dob_invalid' }],
  ['an unknown relationship', { ...adults(dob(40), dob(10)), travellers_info: [{ dob: dob(40) }, { dob: dob(10), relationship_type_id: 99 }] }, { 'travellers_info.1.relationship_type_id': 'invalid_value' }],

  // Family: first traveller 18+; at most two travellers 18+; nobody over 70.
  ['family whose first traveller is 17', family(dob(18, 1), dob(10)), { 'travellers_info.0.dob': 'family_parent_missing' }],
  ['family whose first traveller is 18 today', family(dob(18), dob(10)), 'ok'],
  ['family of two adults and a child of 17', family(dob(40), dob(38), dob(18, 1)), 'ok'],
  ['family of three travellers aged 18+', family(dob(40), dob(38), dob(18)), { is_family: 'family_not_eligible' }],
  ['family with a traveller aged 70', family(dob(40), dob(71, 1), dob(10)), 'ok'],
  ['family with a traveller aged 71', family(dob(40), dob(71), dob(10)), { is_family: 'family_not_eligible' }],
  ['three adults without the family option', adults(dob(40), dob(38), dob(18)), 'ok'],
];

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
});
afterAll(() => app.close());

describe('travel details rules through add-customer-lead', () => {
  it('covers each rule with rows on both sides of it', () => {
    expect(ROWS.filter(([, , expected]) => expected === 'ok').length).toBeGreaterThan(15);
    expect(new Set(ROWS.map(([label]) => label)).size).toBe(ROWS.length);
  });

  const accepted = ROWS.filter(([, , expected]) => expected === 'ok');
  const refused = ROWS.flatMap(([label, change, expected]) => (expected === 'ok' ? [] : [[label, change, expected] as const]));

  it.each(accepted)('%s is saved', async (_label, change) => {
    const res = await app.send(addCustomerLeadEndpoint.path, leadBody(change));
    // The body rides along so a failure shows the server's field codes.
    expect({ status: res.status, json: await res.json() }).toMatchObject({ status: 200 });
  });

  it.each(refused)('%s is refused with its code', async (_label, change, expected) => {
    expect(await errorCodes(await app.send(addCustomerLeadEndpoint.path, leadBody(change)), 422)).toEqual(expected);
  });
});
