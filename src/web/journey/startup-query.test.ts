import { afterEach, describe, expect, it } from 'vitest';
import { localStore } from '../storage/local-store';
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
