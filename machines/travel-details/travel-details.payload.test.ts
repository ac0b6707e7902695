import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addCustomerLeadRequestSchema } from '../../src/contract/lead.endpoints';
import { travelDetailsErrors } from '../../src/contract/travel-details.rules';
import {
  asUuid,
  blankValues,
  isAgentId,
  isAgentUnknown,
  isLeadMissing,
  refusalCodes,
  prefillWithKnownCode,
  toLeadPayload,
  valuesFromLead,
  withKnownPhoneCode,
  type LeadPayloadContext,
} from './travel-details.payload';
import { DEVICE_UUID, EMPTY_PREFILL, FAILURES, LEAD_UUID, NO_UTM, SAMPLE_LEAD, SAMPLE_REFERENCE, SAMPLE_VALUES, SESSION_UUID } from './travel-details.model';
import type { TravelDetailsValues } from './travel-details.types';

const CTX: LeadPayloadContext = { lang: 'en', leadUuid: null, deviceUuid: null, sessionId: null, agentId: null, utm: NO_UTM };

const traveller = (id: number | null, dob: string | null = '1990-01-01') => ({
  id,
  dob,
  first_name: null,
  middle_name: null,
  last_name: null,
  relationship_type_id: null,
});

function values(overrides: Partial<TravelDetailsValues>): TravelDetailsValues {
  return { ...SAMPLE_VALUES, ...overrides };
}

describe('toLeadPayload: trip direction (RULINGS 4)', () => {
  it('from Lebanon: source is Lebanon, destinations as picked (Lebanon never among them), inbound_outbound true', () => {
    const payload = toLeadPayload(values({ inbound_outbound: true, destination_id: [250, 422, 792], source_id: 250 }), CTX);
    expect(payload).toMatchObject({ inbound_outbound: true, source_id: 422, destination_id: [250, 792] });
  });

  it('to Lebanon: destination is [422], the picked source is kept, inbound_outbound false', () => {
    const payload = toLeadPayload(values({ inbound_outbound: false, destination_id: [250], source_id: 792 }), CTX);
    expect(payload).toMatchObject({ inbound_outbound: false, source_id: 792, destination_id: [422] });
  });
});

describe('toLeadPayload: traveller list (spec §4)', () => {
  it('makes the first traveller the principal, named from the full name (first word, then the rest)', () => {
    const payload = toLeadPayload(values({ name: '  Rania  Al Haddad ' }), CTX);
    expect(payload.travellers_info[0]).toMatchObject({ relationship_type_id: 5, first_name: 'Rania', last_name: 'Al Haddad' });
    expect(payload.travellers_info[1]).toMatchObject({ relationship_type_id: null, first_name: null });
    expect(payload.name).toBe('Rania  Al Haddad');
  });

  it('appends blank travellers up to the number of travellers', () => {
    const payload = toLeadPayload(values({ no_of_traveller: 4, travellers_info: [traveller(null)] }), CTX);
    expect(payload.travellers_info).toHaveLength(4);
    expect(payload.no_of_traveller).toBe(4);
    expect(payload.travellers_info.slice(1).every((t) => t.dob === null && t.id === null)).toBe(true);
    expect(payload.travellers_info.map((t) => t.relationship_type_id)).toEqual([5, null, null, null]);
  });

  it('sends no traveller for a count of none, and lists the saved ones as deleted', () => {
    const payload = toLeadPayload(values({ no_of_traveller: 0, travellers_info: [traveller(11)] }), CTX);
    expect(payload.travellers_info).toEqual([]);
    expect(payload.deleted_members).toEqual([11]);
  });

  it('drops surplus travellers from the end and lists the saved ones in deleted_members, with the form’s own', () => {
    const payload = toLeadPayload(
      values({ no_of_traveller: 1, travellers_info: [traveller(11), traveller(12), traveller(null), traveller(13)], deleted_members: [9, 12] }),
      CTX,
    );
    expect(payload.travellers_info.map((t) => t.id)).toEqual([11]);
    expect(payload.deleted_members).toEqual([9, 12, 13]);
  });

  it('deletes only saved travellers (a positive id), never a blank or made-up id', () => {
    const payload = toLeadPayload(values({ no_of_traveller: 1, travellers_info: [traveller(11), traveller(null), traveller(0)], deleted_members: [0, -2, 7] }), CTX);
    expect(payload.deleted_members).toEqual([7]);
  });

  it('never deletes a traveller that is still in the list', () => {
    const payload = toLeadPayload(values({ no_of_traveller: 1, travellers_info: [traveller(11)], deleted_members: [11, 4] }), CTX);
    expect(payload.deleted_members).toEqual([4]);
  });

  it('sets product_type 1 for one traveller and 2 for several, and drops the family flag for one traveller', () => {
    expect(toLeadPayload(values({ no_of_traveller: 1, is_family: true }), CTX)).toMatchObject({ product_type: 1, is_family: false });
    expect(toLeadPayload(values({ no_of_traveller: 2, is_family: true }), CTX)).toMatchObject({ product_type: 2, is_family: true });
  });
});

describe('toLeadPayload: dates, phone and ids', () => {
  it('counts the trip days, both ends included', () => {
    expect(toLeadPayload(values({ start_date: '2030-07-01', end_date: '2030-07-10' }), CTX).no_of_days).toBe(10);
  });

  it('keeps the end of a one-day trip (end on the start) and counts 1 day', () => {
    expect(toLeadPayload(values({ start_date: '2030-07-01', end_date: '2030-07-01' }), CTX)).toMatchObject({ end_date: '2030-07-01', no_of_days: 1 });
  });

  it.each([
    ['an impossible end', '2030-07-01', '2030-13-45'],
    ['an end before the start', '2030-07-10', '2030-07-01'],
    ['no start', null, '2030-07-10'],
    ['an impossible start', '2030-02-30', '2030-03-10'],
  ])('clears the end date after %s', (_case, start, end) => {
    const payload = toLeadPayload(values({ start_date: start, end_date: end }), CTX);
    expect(payload.end_date).toBeNull();
    expect(payload.no_of_days).toBeNull();
  });

  it('trims the name and the e-mail', () => {
    expect(toLeadPayload(values({ name: ' Rania Haddad ', email: '  r@x.com \t' }), CTX)).toMatchObject({ name: 'Rania Haddad', email: 'r@x.com' });
  });

  it('sends the calling code with its plus and the complete number', () => {
    expect(toLeadPayload(values({ phone_country_code: '+961', phone_number: '71234567' }), CTX)).toMatchObject({
      phone_country_code: '+961',
      complete_phone_number: '+96171234567',
    });
    expect(toLeadPayload(values({ phone_country_code: '33', phone_number: '612345678' }), CTX)).toMatchObject({
      phone_country_code: '+33',
      complete_phone_number: '+33612345678',
    });
  });

  it('sends agent_id 0 without an agent, else the agent id', () => {
    expect(toLeadPayload(SAMPLE_VALUES, CTX).agent_id).toBe(0);
    expect(toLeadPayload(SAMPLE_VALUES, { ...CTX, agentId: 101 }).agent_id).toBe(101);
  });

  it('sends the restored lead uuid, device and session ids, language and utm parameters', () => {
    const utm = { utm_source: 'fb', utm_medium: 'cpc', utm_campaign: 'summer', utm_content: null };
    const payload = toLeadPayload(SAMPLE_VALUES, {
      lang: 'ar',
      leadUuid: LEAD_UUID,
      deviceUuid: DEVICE_UUID,
      sessionId: SESSION_UUID,
      agentId: null,
      utm,
    });
    expect(payload).toMatchObject({
      uuid: LEAD_UUID,
      device_uuid: DEVICE_UUID,
      session_id: SESSION_UUID,
      lang: 'ar',
      preferred_language: 'ar',
      ...utm,
    });
  });

  it('takes a UUID only whole: one with anything before or after it names nothing', () => {
    expect(asUuid(LEAD_UUID)).toBe(LEAD_UUID);
    expect(asUuid(LEAD_UUID.toUpperCase())).toBe(LEAD_UUID.toUpperCase());
    expect([`x${LEAD_UUID}`, `${LEAD_UUID}x`, `${LEAD_UUID}/${LEAD_UUID}`, '', null].map(asUuid)).toEqual([null, null, null, null, null]);
  });

  it('does not send ids that are not UUIDs (a hand-edited sid), so the save is not refused for them', () => {
    const payload = toLeadPayload(SAMPLE_VALUES, { ...CTX, leadUuid: 'abc', deviceUuid: 'dev', sessionId: 's1' });
    expect(payload).toMatchObject({ uuid: null, device_uuid: null, session_id: null });
  });

  it('builds a payload the add-customer-lead contract accepts', () => {
    const payload = toLeadPayload(SAMPLE_VALUES, { ...CTX, leadUuid: LEAD_UUID, deviceUuid: DEVICE_UUID, sessionId: SESSION_UUID, agentId: 5 });
    expect(v.safeParse(addCustomerLeadRequestSchema, payload).issues).toBeUndefined();
  });
});

describe('blankValues and valuesFromLead', () => {
  it('starts a new customer with one principal traveller, from Lebanon, +961, single trip, no dates', () => {
    expect(blankValues(EMPTY_PREFILL)).toEqual({
      name: '',
      email: '',
      phone_country_code: '+961',
      phone_number: '',
      inbound_outbound: true,
      trip_type: 1,
      start_date: null,
      end_date: null,
      destination_id: [],
      source_id: 422,
      no_of_traveller: 1,
      is_family: false,
      travellers_info: [{ id: null, dob: null, first_name: null, middle_name: null, last_name: null, relationship_type_id: 5 }],
      deleted_members: [],
    });
  });

  it('takes name, e-mail and phone from the link', () => {
    const prefill = { name: 'Rania Haddad', email: 'r@x.com', phoneNumber: '71234567', phoneCountryCode: '+961' };
    expect(blankValues(prefill)).toMatchObject({ name: 'Rania Haddad', email: 'r@x.com', phone_number: '71234567', phone_country_code: '+961' });
  });

  it('restores a saved lead with its traveller ids', () => {
    const restored = valuesFromLead(SAMPLE_LEAD);
    expect(restored).toMatchObject({ name: 'Rania Haddad', destination_id: [250, 792], source_id: 422, no_of_traveller: 2 });
    expect(restored.travellers_info.map((t) => [t.id, t.dob])).toEqual([
      [41, '1990-04-12'],
      [42, '1992-09-30'],
    ]);
    expect(restored.deleted_members).toEqual([]);
    expect(travelDetailsErrors(restored, { today: '2030-01-01', maxTravellers: 8, familyChildMaxAge: 18 })).toEqual({});
  });

  it('restores each traveller\'s names, and a name not given as none', () => {
    const [principal, other] = SAMPLE_LEAD.travellers_info;
    const lead = { ...SAMPLE_LEAD, travellers_info: [{ ...principal!, middle_name: 'Maria' }, { ...other!, first_name: undefined as unknown as null }] };
    expect(valuesFromLead(lead).travellers_info.map((t) => [t.first_name, t.middle_name, t.last_name])).toEqual([
      ['Rania', 'Maria', 'Haddad'],
      [null, null, null],
    ]);
  });

  it('restores an annual trip as annual, and any other trip type as a single trip', () => {
    expect(valuesFromLead({ ...SAMPLE_LEAD, trip_type: 2 }).trip_type).toBe(2);
    expect(valuesFromLead({ ...SAMPLE_LEAD, trip_type: 1 }).trip_type).toBe(1);
    expect(valuesFromLead({ ...SAMPLE_LEAD, trip_type: 7 }).trip_type).toBe(1);
  });

  it('restores a trip from Lebanon without Lebanon among its destinations', () => {
    expect(valuesFromLead({ ...SAMPLE_LEAD, destination_id: [422, 250, 792] }).destination_id).toEqual([250, 792]);
  });

  it('restores a relationship not chosen yet (null) as none, and saves it back', () => {
    const [principal, other] = SAMPLE_LEAD.travellers_info;
    const restored = valuesFromLead({ ...SAMPLE_LEAD, travellers_info: [principal!, { ...other!, relationship_type_id: null }] });
    expect(restored.travellers_info[1]!.relationship_type_id).toBeNull();
    expect(v.safeParse(addCustomerLeadRequestSchema, toLeadPayload(restored, CTX)).success).toBe(true);
  });

  it('restores a trip to Lebanon with its source, Lebanon as the destination', () => {
    const restored = valuesFromLead({ ...SAMPLE_LEAD, inbound_outbound: false, destination_id: [422], source_id: 250 });
    expect(restored).toMatchObject({ inbound_outbound: false, destination_id: [422], source_id: 250 });
    expect(toLeadPayload(restored, CTX)).toMatchObject({ destination_id: [422], source_id: 250 });
  });

  it('saves a restored lead unchanged: same travellers, no deletions', () => {
    const payload = toLeadPayload(valuesFromLead(SAMPLE_LEAD), { ...CTX, leadUuid: LEAD_UUID });
    expect(payload.travellers_info.map((t) => t.id)).toEqual([41, 42]);
    expect(payload.deleted_members).toEqual([]);
    expect(payload.uuid).toBe(LEAD_UUID);
  });
});

describe('refusalCodes and failure checks', () => {
  it('reads the taken flags of a 409', () => {
    expect(refusalCodes(FAILURES.emailTaken)).toEqual({ email: 'email_taken' });
    expect(refusalCodes(FAILURES.phoneTaken)).toEqual({ phone_number: 'phone_taken' });
  });

  it('reads the field codes of a 422 and drops codes the step does not know', () => {
    const error = { ...FAILURES.invalidFields, body: { status: 422, message: 'x', data: { errors: { start_date: 'date_invalid', x: 'whatever' } } } };
    expect(refusalCodes(error)).toEqual({ start_date: 'date_invalid' });
  });

  it('reads the codes of any 4xx refusal, from 400 to 499', () => {
    const refusal = (status: number) => ({ kind: 'rejected', status, body: { status, message: 'x', data: { email_taken: true } } });
    expect([399, 400, 499, 500].map((status) => refusalCodes(refusal(status)))).toEqual([{}, { email: 'email_taken' }, { email: 'email_taken' }, {}]);
  });

  it('reads codes only from a failed call of the web\'s shape (kind and body), not from another object', () => {
    expect(refusalCodes({ status: 409, body: { status: 409, message: 'x', data: { email_taken: true } } })).toEqual({});
  });

  it.each([
    ['network', FAILURES.network],
    ['server', FAILURES.server],
    ['a 422 whose body could not be read', { kind: 'invalid', status: 422, body: null }],
    ['a thrown Error', new Error('boom')],
    ['undefined', undefined],
    ['null', null],
  ])('finds no field codes in a %s failure', (_name, error) => {
    expect(refusalCodes(error)).toEqual({});
  });

  it('tells an unknown agent, a missing lead and a usable agent id', () => {
    expect(isAgentUnknown(FAILURES.agentUnknown)).toBe(true);
    expect(isAgentUnknown(FAILURES.network)).toBe(false);
    expect(isLeadMissing(FAILURES.notFound)).toBe(true);
    expect(isLeadMissing(FAILURES.server)).toBe(false);
    expect([404, 422, 400, 409, 500].map((status) => isLeadMissing({ kind: 'rejected', status, body: null }))).toEqual([true, true, true, false, false]);
    expect([new Error('bug'), undefined, FAILURES.network].map(isLeadMissing)).toEqual([false, false, false]);
    expect([101, 0, -1, 1.5, Number.NaN, null].map(isAgentId)).toEqual([true, false, false, false, false, false]);
  });
});

describe('calling codes no country has (issue 8 row 7)', () => {
  const codes = SAMPLE_REFERENCE.phoneCodes;

  it('keeps form values whose calling code is listed, as they are', () => {
    const french = values({ phone_country_code: '+33', phone_number: '06 12 34 56 78' });
    expect(withKnownPhoneCode(french, codes)).toBe(french);
    const lebanese = values({ phone_country_code: '+961', phone_number: '71 234 567' });
    expect(withKnownPhoneCode(lebanese, codes)).toBe(lebanese);
  });

  it('replaces a calling code no country has by +961, and fits the number to it', () => {
    expect(withKnownPhoneCode(values({ phone_country_code: '+9999', phone_number: '7123456789012345' }), codes)).toEqual(
      values({ phone_country_code: '+961', phone_number: '71234567' }),
    );
  });

  it('keeps a link\'s prefill without a calling code, or with a listed one, as it is', () => {
    const none = { ...EMPTY_PREFILL, phoneNumber: '71234567' };
    expect(prefillWithKnownCode(none, codes)).toBe(none);
    const french = { ...EMPTY_PREFILL, phoneCountryCode: '+33', phoneNumber: '06 12 34 56 78' };
    expect(prefillWithKnownCode(french, codes)).toBe(french);
  });

  it('replaces a link\'s calling code no country has by +961, and fits its number to it (none when nothing is left)', () => {
    const prefill = { ...EMPTY_PREFILL, name: 'Rania Haddad', phoneCountryCode: '+9999' };
    expect(prefillWithKnownCode({ ...prefill, phoneNumber: '71 234 567' }, codes)).toEqual({ ...prefill, phoneCountryCode: '+961', phoneNumber: '71234567' });
    expect(prefillWithKnownCode({ ...prefill, phoneNumber: 'abc' }, codes)).toEqual({ ...prefill, phoneCountryCode: '+961', phoneNumber: null });
    expect(prefillWithKnownCode({ ...prefill, phoneNumber: null }, codes)).toEqual({ ...prefill, phoneCountryCode: '+961', phoneNumber: null });
  });
});
