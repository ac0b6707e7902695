import { afterEach, describe, expect, it } from 'vitest';
import { localStore } from '../storage/local-store';
import { blankValues, prefillWithKnownCode, withKnownPhoneCode } from '../../../machines/travel-details/travel-details.payload';
import { SAMPLE_REFERENCE } from '../../../machines/travel-details/travel-details.model';
import { applyStartupQuery, readEntryQuery } from './startup-query';

afterEach(() => localStorage.clear());

describe('applyStartupQuery (spec §2 entry query)', () => {
  it('removes state=new from the query and clears the stored drafts', () => {
    for (const key of ['uuid', 'personal_details', 'device_uuid', 'agent_id', 'session_id'] as const) localStore.set(key, 'old');
    localStore.set('language', 'ar');
    const result = applyStartupQuery('?state=new&utm_source=fb');
    expect(result.search).toBe('?utm_source=fb');
    for (const key of ['uuid', 'personal_details', 'device_uuid', 'agent_id', 'session_id'] as const) {
      expect(localStore.get(key)).toBeNull();
    }
    expect(localStore.get('language')).toBe('ar');
  });

  it('removes any other state value without clearing drafts', () => {
    localStore.set('uuid', 'kept');
    expect(applyStartupQuery('?state=old').search).toBe('');
    expect(localStore.get('uuid')).toBe('kept');
  });

  it('enters agent mode: clears the stored lead and stores the new agent id', () => {
    localStore.set('uuid', 'customer-lead');
    localStore.set('personal_details', '{}');
    localStore.set('device_uuid', 'dev');
    localStore.set('agent_id', '7');
    const result = applyStartupQuery('?agent_id=101');
    expect(result.agentId).toBe('101');
    expect(localStore.get('agent_id')).toBe('101');
    expect(localStore.get('uuid')).toBeNull();
    expect(localStore.get('personal_details')).toBeNull();
    expect(localStore.get('device_uuid')).toBeNull();
    expect(result.search).toBe('?agent_id=101');
  });

  it('stores lang, uuid and sid, and reads session_id as sid', () => {
    const result = applyStartupQuery('?lang=ar&uuid=u-1&session_id=s-9');
    expect(result).toMatchObject({ lang: 'ar', uuid: 'u-1', sessionId: 's-9' });
    expect(localStore.get('language')).toBe('ar');
    expect(localStore.get('uuid')).toBe('u-1');
    expect(localStore.get('session_id')).toBe('s-9');
  });

  it('ignores an unsupported lang and falls back to the stored language, else English', () => {
    expect(applyStartupQuery('?lang=fr').lang).toBe('en');
    localStore.set('language', 'ar');
    expect(applyStartupQuery('?lang=fr').lang).toBe('ar');
  });

  it('issue 37: a link to another lead without its sid never takes the session id stored for this device\'s lead', () => {
    localStore.set('uuid', 'mine');
    localStore.set('session_id', 's-mine');
    expect(applyStartupQuery('?uuid=theirs').sessionId).toBeNull();
    expect(localStore.get('session_id')).toBeNull();
    // The device's own lead keeps its session: named again (any case), or the page opened without a lead.
    localStore.set('uuid', 'mine');
    localStore.set('session_id', 's-mine');
    expect(applyStartupQuery('?uuid=MINE').sessionId).toBe('s-mine');
    expect(applyStartupQuery('').sessionId).toBe('s-mine');
  });

  it('does not take the uuid from storage: only the query names the lead to open', () => {
    localStore.set('uuid', 'stored');
    expect(applyStartupQuery('').uuid).toBeNull();
  });
});

describe('readEntryQuery (spec §2 entry page parameters)', () => {
  it('reads the prefill and utm parameters', () => {
    const entry = readEntryQuery(
      '?name=Rania%20Haddad&email=r@x.com&pn=71%20234%20567&country_code=33&utm_source=fb&utm_medium=cpc&utm_campaign=summer&utm_content=a',
    );
    expect(entry).toEqual({
      prefill: { name: 'Rania Haddad', email: 'r@x.com', phoneNumber: '71234567', phoneCountryCode: '+33' },
      utm: { utm_source: 'fb', utm_medium: 'cpc', utm_campaign: 'summer', utm_content: 'a' },
    });
  });

  it('defaults the calling code to +961 and leaves the rest empty', () => {
    expect(readEntryQuery('?name=')).toEqual({
      prefill: { name: null, email: null, phoneNumber: null, phoneCountryCode: '+961' },
      utm: { utm_source: null, utm_medium: null, utm_campaign: null, utm_content: null },
    });
  });
});

describe('issue 8 row 7: the entry query prefill is normalised (spec §5, §9)', () => {
  it('row 7: pn goes through the phone normaliser and is capped for the code (?pn=711234567890 under +961)', () => {
    expect(readEntryQuery('?pn=711234567890').prefill).toMatchObject({ phoneNumber: '71123456', phoneCountryCode: '+961' });
  });

  it('row 7: pn loses a pasted calling code, spaces and Arabic-keyboard digits', () => {
    expect(readEntryQuery('?pn=%2B961%2071%20123%20456').prefill.phoneNumber).toBe('71123456');
    expect(readEntryQuery('?pn=00961-71-123-456').prefill.phoneNumber).toBe('71123456');
    expect(readEntryQuery(`?pn=${encodeURIComponent('٧١١٢٣٤٥٦')}`).prefill.phoneNumber).toBe('71123456');
    expect(readEntryQuery('?pn=0612345678999&country_code=33').prefill).toMatchObject({ phoneNumber: '0612345678', phoneCountryCode: '+33' });
    expect(readEntryQuery('?pn=abc').prefill.phoneNumber).toBeNull();
  });

  it('row 7: a country_code that is not 1 to 4 digits falls back to +961', () => {
    expect(readEntryQuery('?country_code=99999').prefill.phoneCountryCode).toBe('+961');
    expect(readEntryQuery('?country_code=abc').prefill.phoneCountryCode).toBe('+961');
    expect(readEntryQuery('?country_code=%2B33').prefill.phoneCountryCode).toBe('+33');
  });

  it('row 7: ?country_code=9999 is not a known calling code, so the step shows +961 (and caps pn for it)', () => {
    const { prefill } = readEntryQuery('?country_code=9999&pn=7112345678');
    expect(prefill.phoneCountryCode).toBe('+9999');
    const known = prefillWithKnownCode(prefill, SAMPLE_REFERENCE.phoneCodes);
    expect(known).toMatchObject({ phoneCountryCode: '+961', phoneNumber: '71123456' });
    expect(withKnownPhoneCode(blankValues(prefill), SAMPLE_REFERENCE.phoneCodes)).toMatchObject({
      phone_country_code: '+961',
      phone_number: '71123456',
    });
  });

  it('row 7: a listed calling code is kept as it is', () => {
    const { prefill } = readEntryQuery('?country_code=33&pn=0612345678');
    expect(prefillWithKnownCode(prefill, SAMPLE_REFERENCE.phoneCodes)).toBe(prefill);
    const values = blankValues(prefill);
    expect(withKnownPhoneCode(values, SAMPLE_REFERENCE.phoneCodes)).toBe(values);
  });
});

describe('issue 8 row 4: insurance_type at start', () => {
  it('row 4: insurance_type=2 preselects the annual multi-trip type, 1 the single trip', () => {
    expect(readEntryQuery('?insurance_type=2').prefill.tripType).toBe(2);
    expect(blankValues(readEntryQuery('?insurance_type=2').prefill).trip_type).toBe(2);
    expect(blankValues(readEntryQuery('?insurance_type=1').prefill).trip_type).toBe(1);
  });

  it('row 4: an unknown or missing insurance_type is ignored (single trip)', () => {
    for (const search of ['', '?insurance_type=9', '?insurance_type=annual']) {
      expect(readEntryQuery(search).prefill.tripType ?? null).toBeNull();
      expect(blankValues(readEntryQuery(search).prefill).trip_type).toBe(1);
    }
  });
});
