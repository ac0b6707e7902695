import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { purchaseFields, type PurchaseConfig } from './purchase-fields';

const config: PurchaseConfig = {
  apsAccessCode: 'zx0IPmPy5jp1vAz8Kpg7',
  apsMerchantIdentifier: 'CycHZxVj',
  apsRequestPhrase: 'TESTSHAIN',
  apsShaType: 'sha256',
};
const email = 'sara@example.com';
const returnUrl = 'https://safar.example/pay/return';

/** The string APS signs, written out field by field in alphabetical order (RULINGS 19). */
const signedString = (amount: string, lang: string, reference: string) =>
  'TESTSHAIN' +
  'access_code=zx0IPmPy5jp1vAz8Kpg7' +
  `amount=${amount}` +
  'command=PURCHASE' +
  'currency=USD' +
  'customer_email=sara@example.com' +
  `language=${lang}` +
  'merchant_identifier=CycHZxVj' +
  `merchant_reference=${reference}` +
  'return_url=https://safar.example/pay/return' +
  'TESTSHAIN';

describe('purchaseFields', () => {
  const rows: { totalCents: number; lang: 'en' | 'ar'; reference: string; amount: string }[] = [
    { totalCents: 0, lang: 'en', reference: 'SF-1001-a', amount: '0' },
    { totalCents: 1, lang: 'ar', reference: 'SF-1002-b', amount: '1' },
    { totalCents: 123_456, lang: 'en', reference: 'SF-1003-c', amount: '123456' },
    { totalCents: 123_456, lang: 'ar', reference: 'SF-1003-d', amount: '123456' },
  ];

  it.each(rows)('$totalCents cents in $lang: amount=$amount, signed with the request phrase', ({ totalCents, lang, reference, amount }) => {
    const fields = purchaseFields({ order: { merchantReference: reference, totalCents }, config, lang, email, returnUrl });
    expect(fields).toEqual({
      command: 'PURCHASE',
      access_code: 'zx0IPmPy5jp1vAz8Kpg7',
      merchant_identifier: 'CycHZxVj',
      merchant_reference: reference,
      amount,
      currency: 'USD',
      language: lang,
      customer_email: email,
      return_url: returnUrl,
      signature: createHash('sha256').update(signedString(amount, lang, reference)).digest('hex'),
    });
  });

  it('signs with SHA-512 when configured', () => {
    const fields = purchaseFields({ order: { merchantReference: 'SF-1', totalCents: 500 }, config: { ...config, apsShaType: 'sha512' }, lang: 'en', email, returnUrl });
    expect(fields.signature).toBe(createHash('sha512').update(signedString('500', 'en', 'SF-1')).digest('hex'));
  });

  it('refuses an amount that is not a whole, non-negative number of cents', () => {
    for (const totalCents of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => purchaseFields({ order: { merchantReference: 'SF-1', totalCents }, config, lang: 'en', email, returnUrl })).toThrow(RangeError);
    }
  });

  it('refuses a merchant reference APS would refuse', () => {
    for (const merchantReference of ['', 'has space', 'x'.repeat(41), 'SF/1']) {
      expect(() => purchaseFields({ order: { merchantReference, totalCents: 100 }, config, lang: 'en', email, returnUrl })).toThrow(RangeError);
    }
  });
});
