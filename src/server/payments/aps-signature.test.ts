import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apsSignature, verifyApsSignature } from './aps-signature';

// A redirection PURCHASE request, and the string APS signs for it written out by hand:
// request phrase, the key=value pairs in alphabetical key order with no separator, request phrase.
const PHRASE = 'TESTSHAIN';
const request = {
  command: 'PURCHASE',
  merchant_reference: 'XYZ9239-yu898',
  amount: 10000,
  access_code: 'zx0IPmPy5jp1vAz8Kpg7',
  merchant_identifier: 'CycHZxVj',
  currency: 'USD',
  language: 'en',
  customer_email: 'test@payfort.com',
  return_url: 'https://safar.example/pay/return',
};
const SIGNED_STRING =
  'TESTSHAIN' +
  'access_code=zx0IPmPy5jp1vAz8Kpg7' +
  'amount=10000' +
  'command=PURCHASE' +
  'currency=USD' +
  'customer_email=test@payfort.com' +
  'language=en' +
  'merchant_identifier=CycHZxVj' +
  'merchant_reference=XYZ9239-yu898' +
  'return_url=https://safar.example/pay/return' +
  'TESTSHAIN';

describe('apsSignature', () => {
  it('matches the worked example: SHA-256 hex of phrase + sorted key=value pairs + phrase', () => {
    const expected = createHash('sha256').update(SIGNED_STRING).digest('hex');
    expect(apsSignature(request, PHRASE)).toBe(expected);
    expect(apsSignature(request, PHRASE)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('uses SHA-512 when asked', () => {
    const expected = createHash('sha512').update(SIGNED_STRING).digest('hex');
    expect(apsSignature(request, PHRASE, 'sha512')).toBe(expected);
  });

  it('does not depend on the order of the keys', () => {
    const reversed = Object.fromEntries(Object.entries(request).reverse());
    expect(apsSignature(reversed, PHRASE)).toBe(apsSignature(request, PHRASE));
  });

  it('sorts by byte order (ASCII), as PHP ksort does: "_" (0x5F) sorts before lower-case letters', () => {
    const expected = createHash('sha256').update('Pa_b=2ab=1P').digest('hex');
    expect(apsSignature({ ab: '1', a_b: '2' }, 'P')).toBe(expected);
  });

  it('changes when a value or the phrase changes', () => {
    const base = apsSignature(request, PHRASE);
    expect(apsSignature({ ...request, amount: 10001 }, PHRASE)).not.toBe(base);
    expect(apsSignature({ ...request, currency: 'AED' }, PHRASE)).not.toBe(base);
    expect(apsSignature(request, 'TESTSHAOUT')).not.toBe(base);
  });

  it('leaves out the signature field itself', () => {
    expect(apsSignature({ ...request, signature: 'anything' }, PHRASE)).toBe(apsSignature(request, PHRASE));
  });

  it('signs an empty string as "key=" and leaves out null and undefined (fields not sent)', () => {
    expect(apsSignature({ a: '1', b: '' }, 'P')).toBe(createHash('sha256').update('Pa=1b=P').digest('hex'));
    expect(apsSignature({ a: '1', b: null, c: undefined }, 'P')).toBe(createHash('sha256').update('Pa=1P').digest('hex'));
  });

  it('signs non-ASCII values as UTF-8', () => {
    expect(apsSignature({ customer_name: 'سارة' }, 'P')).toBe(createHash('sha256').update(Buffer.from('Pcustomer_name=سارةP', 'utf8')).digest('hex'));
  });
});

describe('verifyApsSignature', () => {
  const RESPONSE_PHRASE = 'TESTSHAOUT';
  const response = {
    amount: '10000',
    currency: 'USD',
    merchant_reference: 'XYZ9239-yu898',
    fort_id: '169996200000123456',
    response_code: '14000',
    status: '14',
  };
  const signed = { ...response, signature: apsSignature(response, RESPONSE_PHRASE) };

  it('accepts the original, also with the hex in upper case', () => {
    expect(verifyApsSignature(signed, RESPONSE_PHRASE)).toBe(true);
    expect(verifyApsSignature({ ...signed, signature: signed.signature.toUpperCase() }, RESPONSE_PHRASE)).toBe(true);
  });

  it('rejects a tampered field, an added field, the wrong phrase and the wrong algorithm', () => {
    expect(verifyApsSignature({ ...signed, amount: '1' }, RESPONSE_PHRASE)).toBe(false);
    expect(verifyApsSignature({ ...signed, status: '13' }, RESPONSE_PHRASE)).toBe(false);
    expect(verifyApsSignature({ ...signed, extra: 'x' }, RESPONSE_PHRASE)).toBe(false);
    expect(verifyApsSignature(signed, 'TESTSHAIN')).toBe(false);
    expect(verifyApsSignature(signed, RESPONSE_PHRASE, 'sha512')).toBe(false);
  });

  it('rejects a missing, empty or malformed signature', () => {
    expect(verifyApsSignature(response, RESPONSE_PHRASE)).toBe(false);
    expect(verifyApsSignature({ ...response, signature: '' }, RESPONSE_PHRASE)).toBe(false);
    expect(verifyApsSignature({ ...response, signature: signed.signature.slice(1) }, RESPONSE_PHRASE)).toBe(false);
    expect(verifyApsSignature({ ...response, signature: 12 }, RESPONSE_PHRASE)).toBe(false);
  });
});
