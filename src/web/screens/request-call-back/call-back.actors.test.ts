import { afterEach, describe, expect, it } from 'vitest';
import { localStore } from '../../storage/local-store';
import { loadCallBackValues } from './call-back.actors';

afterEach(() => localStorage.clear());

const saved = { name: 'Saved Name', email: 'saved@example.com', phone_country_code: '+961', phone_number: '71123456' };

describe('loadCallBackValues (RULINGS 13: prefilled from what the visitor already typed)', () => {
  it('row 10: what was typed, unsaved, wins over nothing saved', async () => {
    const typed = { name: 'Rania Haddad', email: 'rania@example.com', phone_country_code: '+961', phone_number: '70111222' };
    expect(await loadCallBackValues('en', null, typed)).toEqual(typed);
  });

  it('row 10: typed fields win over the stored details, and an empty typed field takes the stored one', async () => {
    localStore.setJson('personal_details', saved);
    const typed = { name: 'Rania Haddad', email: '', phone_country_code: '+961', phone_number: '' };
    expect(await loadCallBackValues('en', null, typed)).toEqual({ ...saved, name: 'Rania Haddad' });
  });

  it('without anything typed, the stored details prefill the form', async () => {
    localStore.setJson('personal_details', saved);
    expect(await loadCallBackValues('en', null, null)).toEqual(saved);
  });
});
