import { describe, expect, it } from 'vitest';
import { addDays, addYears, annualEndDate } from './dates';
import { splitFullName, travelDetailsErrors, type TravelDetails } from './travel-details.rules';

/**
 * The rules of spec §5 as the form and the server both apply them: each row changes one thing
 * in valid details and expects exactly one code on one field (or none, on the edge that passes).
 */
const today = '2026-11-23';
const ctx = { today, maxTravellers: 8, familyChildMaxAge: 18 };
const born = (yearsAgo: number, days = 0) => addDays(addYears(today, -yearsAgo), days);

const valid: TravelDetails = {
  name: "Rania O'Neil-Haddad",
  email: 'rania@example.com',
  phone_country_code: '+961',
  phone_number: '71234567',
  inbound_outbound: true,
  trip_type: 1,
  start_date: addDays(today, 7),
  end_date: addDays(today, 14),
  destination_id: [250],
  source_id: null,
  no_of_traveller: 1,
  is_family: false,
  travellers_info: [{ dob: born(35), first_name: null, middle_name: null, last_name: null, relationship_type_id: null }],
};
const traveller = (dob: string | null) => ({ dob, first_name: null, middle_name: null, last_name: null, relationship_type_id: null });
const family = (...dobs: string[]): Partial<TravelDetails> => ({
  is_family: true,
  no_of_traveller: dobs.length,
  travellers_info: dobs.map(traveller),
});

const cases: [string, Partial<TravelDetails>, Record<string, string>][] = [
  ['valid details', {}, {}],
  ['name of 62 characters', { name: 'A'.repeat(62) }, {}],
  ['name of 63 characters', { name: 'A'.repeat(63) }, { name: 'name_too_long' }],
  ['empty name', { name: '   ' }, { name: 'name_required' }],
  ['a second apostrophe', { name: "O'Neil D'Arcy" }, { name: 'name_chars' }],
  ['a second hyphen', { name: 'Anne-Marie Haddad-Khoury' }, { name: 'name_chars' }],
  ['digits in the name', { name: 'Rania 2' }, { name: 'name_chars' }],
  ['dot and underscore are allowed', { name: 'J.R. Smith_Jr' }, {}],
  ['empty email', { email: '' }, { email: 'email_required' }],
  ['invalid email', { email: 'rania@' }, { email: 'email_invalid' }],
  ['email of 63 characters', { email: `${'a'.repeat(51)}@example.com` }, { email: 'email_too_long' }],
  ['empty phone', { phone_number: '' }, { phone_number: 'phone_required' }],
  ['+961 with 6 digits', { phone_number: '712345' }, { phone_number: 'phone_digits_961' }],
  ['+961 with 7 digits', { phone_number: '7123456' }, {}],
  ['+961 with 8 digits', { phone_number: '71234567' }, {}],
  ['+961 with 9 digits', { phone_number: '712345678' }, { phone_number: 'phone_digits_961' }],
  ['+33 with 7 digits', { phone_country_code: '+33', phone_number: '6123456' }, { phone_number: 'phone_digits_other' }],
  ['+33 with 8 digits', { phone_country_code: '+33', phone_number: '61234567' }, {}],
  ['+33 with 10 digits', { phone_country_code: '+33', phone_number: '6123456789' }, {}],
  ['+33 with 11 digits', { phone_country_code: '+33', phone_number: '61234567890' }, { phone_number: 'phone_digits_other' }],
  ['start yesterday', { start_date: addDays(today, -1) }, { start_date: 'date_invalid' }],
  ['start today', { start_date: today }, {}],
  ['end before start', { end_date: addDays(today, 6) }, { end_date: 'date_invalid' }],
  ['one-day trip', { end_date: addDays(today, 7) }, {}],
  ['annual with a wrong end', { trip_type: 2 }, { end_date: 'date_invalid' }],
  ['annual ending 12 months less a day later', { trip_type: 2, end_date: annualEndDate(addDays(today, 7)) }, {}],
  ['no destination', { destination_id: [] }, { destination_id: 'destination_required' }],
  ['Lebanon as a destination', { destination_id: [422] }, { destination_id: 'destination_required' }],
  ['to Lebanon without a source', { inbound_outbound: false, destination_id: [], source_id: null }, { source_id: 'source_required' }],
  ['to Lebanon from France', { inbound_outbound: false, destination_id: [], source_id: 250 }, {}],
  ['no travellers', { no_of_traveller: 0, travellers_info: [] }, { no_of_traveller: 'members_min', travellers_info: 'travellers_min' }],
  ['more travellers than the broker allows', { no_of_traveller: 9, travellers_info: Array.from({ length: 9 }, () => traveller(born(30))) }, { no_of_traveller: 'members_max' }],
  ['a traveller without date of birth', { travellers_info: [traveller(null)] }, { travellers_info: 'travellers_incomplete', 'travellers_info.0.dob': 'dob_required' }],
  ['a future date of birth', { travellers_info: [traveller(addDays(today, 1))] }, { 'travellers_info.0.dob': 'dob_invalid' }],
  ['born today', { travellers_info: [traveller(today)] }, {}],
  ['older than 100 years', { travellers_info: [traveller(born(100, -1))] }, { 'travellers_info.0.dob': 'dob_invalid' }],
  ['family: first traveller 17', family(born(18, 1), born(10)), { 'travellers_info.0.dob': 'family_parent_missing' }],
  ['family: first traveller just 18', family(born(18), born(10)), {}],
  ['family: three travellers aged 18+', family(born(40), born(38), born(18)), { is_family: 'family_not_eligible' }],
  ['family: two adults and a 17-year-old', family(born(40), born(38), born(18, 1)), {}],
  ['family: a traveller aged 70', family(born(70), born(10)), {}],
  ['family: a traveller aged 71', family(born(40), born(71)), { is_family: 'family_not_eligible' }],
  ['no family rules without the family option', { no_of_traveller: 3, travellers_info: [traveller(born(17)), traveller(born(40)), traveller(born(80))] }, {}],
];

describe('travel details rules (spec §5), shared by form and server', () => {
  it.each(cases)('%s', (_name, change, expected) => {
    expect(travelDetailsErrors({ ...valid, ...change }, ctx)).toEqual(expected);
  });

  it('takes the child age limit from the broker setting (RULINGS 7)', () => {
    const details = { ...valid, ...family(born(40), born(38), born(16)) };
    expect(travelDetailsErrors(details, { ...ctx, familyChildMaxAge: 16 })).toEqual({ is_family: 'family_not_eligible' });
    expect(travelDetailsErrors(details, ctx)).toEqual({});
  });

  it('splits the full name into first name and the rest (spec §4)', () => {
    expect(splitFullName('  Rania  Maria Haddad ')).toEqual({ first_name: 'Rania', last_name: 'Maria Haddad' });
    expect(splitFullName('Cher')).toEqual({ first_name: 'Cher', last_name: '' });
  });
});
