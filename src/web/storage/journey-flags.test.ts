import { afterEach, describe, expect, it } from 'vitest';
import { clearThankYou, storeThankYou, thankYouStored } from './journey-flags';
import { localStore } from './local-store';

const PAID = '3f0c9a52-7d1e-4b8a-9c2f-5e6d7a8b9c0d';
const OTHER = '0b9d2c4e-1f3a-4b5c-8d6e-7f8091a2b3c4';

afterEach(() => localStorage.clear());

describe('the thank-you flag names its lead (issue 37)', () => {
  it('finishes the journey of the lead it was stored for, in any case of its uuid', () => {
    storeThankYou(PAID);
    expect(thankYouStored(PAID)).toBe(true);
    expect(thankYouStored(PAID.toUpperCase())).toBe(true);
  });

  it('on a device that finished one journey, a link to another or an unknown lead is not finished', () => {
    storeThankYou(PAID);
    expect(thankYouStored(OTHER)).toBe(false);
    expect(thankYouStored(null)).toBe(false);
  });

  it('a flag stored before it named its lead finishes no lead, and clearing removes both keys', () => {
    localStore.set('thankyou', '1');
    expect(thankYouStored(PAID)).toBe(false);
    storeThankYou(PAID);
    clearThankYou();
    expect([localStore.get('thankyou'), localStore.get('thankyou_lead'), thankYouStored(PAID)]).toEqual([null, null, false]);
  });
});
