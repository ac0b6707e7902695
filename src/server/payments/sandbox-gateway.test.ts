import { describe, expect, it } from 'vitest';
import { apsSignature, verifyApsSignature } from './aps-signature';
import { purchaseFields } from './purchase-fields';
import {
  checkPurchaseRequest,
  duplicateReferenceResponse,
  formatMinorUnits,
  luhnValid,
  maskCardNumber,
  newFortId,
  parseFormBody,
  paymentOption,
  purchaseResponse,
  readCard,
  type CardInput,
  type SandboxMerchant,
} from './sandbox-gateway';

const merchant: SandboxMerchant = {
  apsAccessCode: 'zx0IPmPy5jp1vAz8Kpg7',
  apsMerchantIdentifier: 'CycHZxVj',
  apsRequestPhrase: 'TESTSHAIN',
  apsResponsePhrase: 'TESTSHAOUT',
  apsShaType: 'sha256',
};
const request = purchaseFields({
  order: { merchantReference: 'SAF7-MFX3K2A1-7QZC0P4M8R2D', totalCents: 14_763 },
  config: merchant,
  lang: 'en',
  email: 'rania@example.com',
  returnUrl: 'http://safar.test/payments/aps/return',
});
/** 15 March 2026, the integration tests' clock. */
const NOW = Date.UTC(2026, 2, 15, 10, 0, 0);
const ids = { fortId: '169996200000123456', authorizationCode: '654321', customerIp: '192.0.2.10' };
const card = (overrides: Partial<CardInput> = {}): CardInput => ({
  card_number: '4005 5500 0000 0001',
  expiry_date: '05/29',
  card_security_code: '123',
  card_holder_name: 'Rania Haddad',
  ...overrides,
});

describe('checkPurchaseRequest', () => {
  it('accepts the PURCHASE form the payments page posts', () => {
    expect(checkPurchaseRequest(request, merchant)).toEqual({ kind: 'accepted', request });
  });

  it('refuses a changed amount as APS does: back to return_url, status 00, 00008 Signature mismatch, signed with the response phrase', () => {
    const check = checkPurchaseRequest({ ...request, amount: '100' }, merchant);
    expect(check).toMatchObject({ kind: 'refused', returnUrl: request.return_url });
    if (check.kind !== 'refused') return;
    expect(check.response).toMatchObject({ status: '00', response_code: '00008', response_message: 'Signature mismatch', merchant_reference: request.merchant_reference, amount: '100' });
    expect(check.response).not.toHaveProperty('fort_id');
    expect(check.response).not.toHaveProperty('return_url');
    expect(verifyApsSignature(check.response, merchant.apsResponsePhrase)).toBe(true);
  });

  it('refuses a signature made with another phrase, an added field, and a field sent twice', () => {
    const forged = { ...request, signature: apsSignature(request, 'SOMEONE-ELSE') };
    expect(checkPurchaseRequest(forged, merchant)).toMatchObject({ kind: 'refused', response: { response_code: '00008' } });
    expect(checkPurchaseRequest({ ...request, customer_name: 'X' }, merchant)).toMatchObject({ kind: 'refused', response: { response_code: '00008' } });
    expect(checkPurchaseRequest(request, merchant, true)).toMatchObject({ kind: 'refused', response: { response_code: '00008' } });
  });

  it('a missing field is 00001 Missing parameter; a signed but malformed one 00002 Invalid parameter format', () => {
    const { customer_email: _dropped, ...missing } = request;
    expect(checkPurchaseRequest(missing, merchant)).toMatchObject({ kind: 'refused', response: { status: '00', response_code: '00001', response_message: 'Missing parameter' } });
    /** The request with `amount` changed and signed again, as a merchant with a bug would send it. */
    const resigned = (amount: string) => {
      const fields: Record<string, string> = { ...request, amount };
      return { ...fields, signature: apsSignature(fields, merchant.apsRequestPhrase) };
    };
    expect(checkPurchaseRequest(resigned('12.50'), merchant)).toMatchObject({ kind: 'refused', response: { response_code: '00002', response_message: 'Invalid parameter format' } });
    expect(checkPurchaseRequest(resigned('0'), merchant)).toMatchObject({ kind: 'refused', response: { response_code: '00002' } });
  });

  it('without a usable return_url, or for another merchant, there is nobody to answer: an error page', () => {
    for (const returnUrl of [undefined, '', 'javascript:alert(1)', '/relative/path', 'ftp://safar.test/x']) {
      const fields = { ...request, return_url: returnUrl as string };
      if (returnUrl === undefined) delete (fields as Partial<typeof fields>).return_url;
      expect({ returnUrl, check: checkPurchaseRequest(fields, merchant) }).toEqual({ returnUrl, check: { kind: 'no_return_url' } });
    }
    expect(checkPurchaseRequest({ ...request, access_code: 'other' }, merchant)).toEqual({ kind: 'unknown_merchant' });
    expect(checkPurchaseRequest({ ...request, merchant_identifier: 'other' }, merchant)).toEqual({ kind: 'unknown_merchant' });
  });
});

describe('duplicateReferenceResponse', () => {
  it('refuses a second PURCHASE for a reference as APS does: status 00, 00007 Duplicate order number, the request echoed, signed with the response phrase, no transaction', () => {
    const response = duplicateReferenceResponse(request, merchant);
    expect(response).toMatchObject({
      status: '00',
      response_code: '00007',
      response_message: 'Duplicate order number',
      command: 'PURCHASE',
      merchant_reference: request.merchant_reference,
      amount: request.amount,
      currency: 'USD',
    });
    for (const name of ['fort_id', 'authorization_code', 'card_number', 'return_url']) expect(response).not.toHaveProperty(name);
    expect(verifyApsSignature(response, merchant.apsResponsePhrase)).toBe(true);
    expect(verifyApsSignature(response, merchant.apsRequestPhrase)).toBe(false);
  });
});

describe('parseFormBody', () => {
  it('reads an urlencoded form, and reports a name sent twice', () => {
    expect(parseFormBody('a=1&b=x+y&c=%26%3D')).toEqual({ fields: { a: '1', b: 'x y', c: '&=' }, duplicated: false });
    expect(parseFormBody('amount=1&amount=2').duplicated).toBe(true);
    const { fields } = parseFormBody('__proto__=x&constructor=y');
    expect(Object.keys(fields)).toEqual(['__proto__', 'constructor']);
    expect(fields.constructor).toBe('y');
  });
});

describe('readCard', () => {
  it('accepts the test card typed with spaces, dashes or Arabic-Indic digits, and any future expiry', () => {
    for (const number of ['4005550000000001', '4005 5500 0000 0001', '4005-5500-0000-0001', '٤٠٠٥ ٥٥٠٠ ٠٠٠٠ ٠٠٠١', '۴۰۰۵۵۵۰۰۰۰۰۰۰۰۰۱']) {
      const result = readCard(card({ card_number: number }), NOW);
      expect({ number, result }).toEqual({ number, result: { ok: true, card: { number: '4005550000000001', month: 5, year: 29, holderName: 'Rania Haddad' } } });
    }
    for (const expiry of ['03/26', '0326', '03-26', ' 03 / 26 ', '١٢/٣٠']) expect({ expiry, ok: readCard(card({ expiry_date: expiry }), NOW).ok }).toEqual({ expiry, ok: true });
  });

  it('refuses, field by field: not digits, wrong length, Luhn, past or impossible expiry, bad CVV, no or too long a name', () => {
    const errors = (overrides: Partial<CardInput>) => {
      const result = readCard(card(overrides), NOW);
      return result.ok ? {} : result.errors;
    };
    expect(errors({ card_number: '' })).toEqual({ card_number: 'required' });
    expect(errors({ card_number: '4005x50000000001' })).toEqual({ card_number: 'card_number' });
    expect(errors({ card_number: '400555000001' })).toEqual({ card_number: 'card_number' });
    expect(errors({ card_number: '40055500000000011112' })).toEqual({ card_number: 'card_number' });
    expect(errors({ card_number: '4005550000000002' })).toEqual({ card_number: 'card_checksum' });
    expect(errors({ expiry_date: '02/26' })).toEqual({ expiry_date: 'expired' });
    expect(errors({ expiry_date: '13/29' })).toEqual({ expiry_date: 'expiry' });
    expect(errors({ expiry_date: '00/29' })).toEqual({ expiry_date: 'expiry' });
    expect(errors({ expiry_date: '5/29' })).toEqual({ expiry_date: 'expiry' });
    expect(errors({ expiry_date: '' })).toEqual({ expiry_date: 'required' });
    expect(errors({ card_security_code: '12' })).toEqual({ card_security_code: 'cvv' });
    expect(errors({ card_security_code: '12345' })).toEqual({ card_security_code: 'cvv' });
    expect(errors({ card_security_code: 'abc' })).toEqual({ card_security_code: 'cvv' });
    expect(errors({ card_security_code: '٤٥٦٧' })).toEqual({});
    expect(errors({ card_holder_name: '   ' })).toEqual({ card_holder_name: 'required' });
    expect(errors({ card_holder_name: 'A'.repeat(51) })).toEqual({ card_holder_name: 'name' });
    expect(errors({ card_holder_name: 'Rania\u0000' })).toEqual({ card_holder_name: 'name' });
    // It comes back signed in card_holder_name, where "key=" is how a re-split is smuggled in.
    expect(errors({ card_holder_name: 'Rania status=14' })).toEqual({ card_holder_name: 'name' });
    expect(errors({ card_number: '', expiry_date: '', card_security_code: '', card_holder_name: '' })).toEqual({
      card_number: 'required',
      expiry_date: 'required',
      card_security_code: 'required',
      card_holder_name: 'required',
    });
  });

  it('luhnValid on known numbers', () => {
    for (const valid of ['4005550000000001', '4000000000000002', '5123456789012346', '378282246310005']) expect({ valid, ok: luhnValid(valid) }).toEqual({ valid, ok: true });
    for (const invalid of ['4005550000000002', '1234567812345678', '']) expect({ invalid, ok: luhnValid(invalid) }).toEqual({ invalid, ok: false });
  });
});

describe('purchaseResponse', () => {
  const success = readCard(card(), NOW);
  const declined = readCard(card({ card_number: '5123 4567 8901 2346', expiry_date: '11/27' }), NOW);
  if (!success.ok || !declined.ok) throw new Error('fixture cards must be valid');

  it('the test card: status 14, 14000 Success, with what APS returns, signed with the response phrase', () => {
    const response = purchaseResponse(request, { action: 'pay', card: success.card }, ids, merchant);
    expect(response).toEqual({
      command: 'PURCHASE',
      access_code: merchant.apsAccessCode,
      merchant_identifier: merchant.apsMerchantIdentifier,
      merchant_reference: request.merchant_reference,
      amount: '14763',
      currency: 'USD',
      language: 'en',
      customer_email: 'rania@example.com',
      fort_id: ids.fortId,
      payment_option: 'VISA',
      eci: 'ECOMMERCE',
      authorization_code: '654321',
      card_number: '400555******0001',
      expiry_date: '2905',
      customer_ip: '192.0.2.10',
      card_holder_name: 'Rania Haddad',
      response_code: '14000',
      response_message: 'Success',
      status: '14',
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(verifyApsSignature(response, merchant.apsResponsePhrase)).toBe(true);
    expect(verifyApsSignature(response, merchant.apsRequestPhrase)).toBe(false);
  });

  it('any other valid card: status 13, 13666 Transaction declined, a fort_id and no authorization code', () => {
    const response = purchaseResponse(request, { action: 'pay', card: declined.card }, ids, merchant);
    expect(response).toMatchObject({ status: '13', response_code: '13666', response_message: 'Transaction declined', fort_id: ids.fortId, payment_option: 'MASTERCARD', card_number: '512345******2346', expiry_date: '2711' });
    expect(response).not.toHaveProperty('authorization_code');
    expect(verifyApsSignature(response, merchant.apsResponsePhrase)).toBe(true);
  });

  it('Cancel: status 00, 00072 Transaction canceled by user, no fort_id and no card', () => {
    const response = purchaseResponse(request, { action: 'cancel' }, ids, merchant);
    expect(response).toMatchObject({ status: '00', response_code: '00072', response_message: 'Transaction canceled by user', merchant_reference: request.merchant_reference, amount: '14763' });
    for (const absent of ['fort_id', 'card_number', 'authorization_code', 'return_url']) expect(response).not.toHaveProperty(absent);
    expect(verifyApsSignature(response, merchant.apsResponsePhrase)).toBe(true);
  });

  it('signs with SHA-512 when configured', () => {
    const response = purchaseResponse(request, { action: 'cancel' }, ids, { ...merchant, apsShaType: 'sha512' });
    expect(response.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyApsSignature(response, merchant.apsResponsePhrase, 'sha512')).toBe(true);
  });
});

describe('small pieces', () => {
  it('masks all but the first six and last four digits; names the scheme', () => {
    expect(maskCardNumber('4005550000000001')).toBe('400555******0001');
    expect(maskCardNumber('378282246310005')).toBe('378282*****0005');
    expect([paymentOption('4005550000000001'), paymentOption('5123456789012346'), paymentOption('2221000000000009'), paymentOption('378282246310005')]).toEqual(['VISA', 'MASTERCARD', 'MASTERCARD', 'AMEX']);
  });

  it('a fort_id is 18 digits, not starting with 0, new each time', () => {
    const drawn = Array.from({ length: 50 }, newFortId);
    for (const id of drawn) expect(id).toMatch(/^[1-9]\d{17}$/);
    expect(new Set(drawn).size).toBe(50);
  });

  it('formats minor units with the currency’s own decimals', () => {
    expect(formatMinorUnits('14763', 'USD')).toBe('USD 147.63');
    expect(formatMinorUnits('123456789', 'USD')).toBe('USD 1,234,567.89');
    expect(formatMinorUnits('1500', 'KWD')).toBe('KWD 1.500');
  });
});
