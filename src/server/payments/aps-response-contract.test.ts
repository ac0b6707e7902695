import { describe, expect, it } from 'vitest';
import { apsSignature, verifyApsSignature } from './aps-signature';
import {
  APS_PURCHASE_SUCCESS,
  APS_RESPONSE_FORMATS,
  APS_RESPONSE_KEYS,
  ECHOED_REQUEST_KEYS,
  checkNoticeFields,
  type NoticeCheck,
} from './aps-response-contract';
import { purchaseFields } from './purchase-fields';
import { checkPurchaseRequest, purchaseResponse, readCard, signResponse, type FormFields, type SandboxMerchant } from './sandbox-gateway';

const merchant: SandboxMerchant = {
  apsAccessCode: 'zx0IPmPy5jp1vAz8Kpg7',
  apsMerchantIdentifier: 'CycHZxVj',
  apsRequestPhrase: 'TESTSHAIN',
  apsResponsePhrase: 'TESTSHAOUT',
  apsShaType: 'sha256',
};
const REFERENCE = 'SAF7-MFX3K2A1-7QZC0P4M8R2D';
/** The PURCHASE form the payments page posts, signed. */
const form = purchaseFields({
  order: { merchantReference: REFERENCE, totalCents: 14_763 },
  config: merchant,
  lang: 'en',
  email: 'rania@example.com',
  returnUrl: 'http://safar.test/payments/aps/return',
});
/** What Safar records as sent for the order: the form without its signature. */
const { signature: _formSignature, ...sent } = form;
/** 15 March 2026, the integration tests' clock. */
const NOW = Date.UTC(2026, 2, 15, 10, 0, 0);
const ids = { fortId: '169996200000123456', authorizationCode: '654321', customerIp: '192.0.2.10' };

function card(number: string) {
  const read = readCard({ card_number: number, expiry_date: '05/29', card_security_code: '123', card_holder_name: 'Rania Haddad' }, NOW);
  if (!read.ok) throw new Error('fixture cards must be valid');
  return read.card;
}
const success = purchaseResponse(form, { action: 'pay', card: card('4005550000000001') }, ids, merchant);
const declined = purchaseResponse(form, { action: 'pay', card: card('5123456789012346') }, ids, merchant);
const cancelled = purchaseResponse(form, { action: 'cancel' }, ids, merchant);

const verifies = (fields: FormFields) => verifyApsSignature(fields, merchant.apsResponsePhrase, merchant.apsShaType);
/** Fields signed by the sandbox as the gateway, i.e. genuine. */
const signed = (fields: FormFields) => signResponse(fields, merchant);
const withoutSignature = ({ signature: _signature, ...fields }: FormFields): FormFields => fields;

/** The signed string between the phrases: sorted key=value pairs, nothing between them. */
function signedString(fields: FormFields): string {
  return Object.keys(fields)
    .filter((key) => key !== 'signature')
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('');
}

/**
 * A re-split of signed fields: `removed` keys go, `pairs` are set, the signature stays. Asserts the
 * signed string is unchanged, i.e. the re-split is real and its signature still verifies.
 */
function resplit(fields: FormFields, pairs: FormFields, removed: string[] = []): FormFields {
  const out: FormFields = { ...fields };
  for (const key of removed) delete out[key];
  Object.assign(out, pairs);
  expect(signedString(out)).toBe(signedString(fields));
  expect(verifies(out)).toBe(true);
  return out;
}

/** The refusal the gateway signs for a request that does not pass its checks. */
function refusal(request: FormFields): FormFields {
  const check = checkPurchaseRequest(request, merchant);
  if (check.kind !== 'refused') throw new Error(`expected a refusal, got ${check.kind}`);
  return check.response;
}

const refused = (problem: string, keys: string[]): NoticeCheck => ({ ok: false, problem, keys }) as NoticeCheck;

describe('the sandbox answers what a real notice must be', () => {
  it('a success: status 14, 14000, with its fort_id', () => {
    expect(verifies(success)).toBe(true);
    expect(checkNoticeFields(success, sent)).toEqual({
      ok: true,
      decision: { status: APS_PURCHASE_SUCCESS, responseCode: '14000', responseMessage: 'Success', fortId: ids.fortId, success: true },
    });
  });

  it('a decline: status 13, 13666, with its fort_id, not a success', () => {
    expect(verifies(declined)).toBe(true);
    expect(checkNoticeFields(declined, sent)).toEqual({
      ok: true,
      decision: { status: '13', responseCode: '13666', responseMessage: 'Transaction declined', fortId: ids.fortId, success: false },
    });
  });

  it('a cancel: status 00, 00072, no fort_id', () => {
    expect(verifies(cancelled)).toBe(true);
    expect(checkNoticeFields(cancelled, sent)).toEqual({
      ok: true,
      decision: { status: '00', responseCode: '00072', responseMessage: 'Transaction canceled by user', fortId: null, success: false },
    });
  });

  it('a mis-signed request: status 00, 00008 Signature mismatch', () => {
    const response = refusal({ ...form, signature: apsSignature(sent, 'SOMEONE-ELSE') });
    expect(verifies(response)).toBe(true);
    expect(checkNoticeFields(response, sent)).toEqual({
      ok: true,
      decision: { status: '00', responseCode: '00008', responseMessage: 'Signature mismatch', fortId: null, success: false },
    });
  });

  it('a request without its signature: status 00, 00001 Missing parameter', () => {
    const response = refusal(sent);
    expect(verifies(response)).toBe(true);
    expect(checkNoticeFields(response, sent)).toEqual({
      ok: true,
      decision: { status: '00', responseCode: '00001', responseMessage: 'Missing parameter', fortId: null, success: false },
    });
  });

  it('every field the sandbox sends is one APS sends, and it echoes the contract’s list', () => {
    for (const response of [success, declined, cancelled, refusal(sent)]) {
      for (const key of Object.keys(response)) expect({ key, known: (APS_RESPONSE_KEYS as readonly string[]).includes(key) }).toEqual({ key, known: true });
    }
    const everyEcho = Object.fromEntries(ECHOED_REQUEST_KEYS.map((key) => [key, 'x']));
    const response = purchaseResponse({ ...form, ...everyEcho }, { action: 'cancel' }, ids, merchant);
    for (const key of ECHOED_REQUEST_KEYS) expect(response).toHaveProperty(key, 'x');
  });
});

describe('re-split attacks are refused', () => {
  it('the reported one: a refusal for phone_number=1status=14zz= cut into status=14 and zz=<the gateway’s tail> is unknown_key', () => {
    const response = refusal({ ...form, phone_number: '1status=14zz=' });
    expect(response).toMatchObject({ status: '00', response_code: '00008' });
    const forged = resplit(
      response,
      { phone_number: '1', status: '14', zz: 'response_code=00008response_message=Signature mismatchstatus=00' },
      ['response_code', 'response_message'],
    );
    expect(forged.status).toBe('14');
    expect(checkNoticeFields(forged, sent)).toEqual(refused('unknown_key', ['zz']));
  });

  it('the same with a known key after status (token_name) to swallow the tail: the echo and the format both refuse it', () => {
    const response = refusal({ ...form, phone_number: '1response_code=14000response_message=Successstatus=14token_name=' });
    const forged = resplit(response, {
      phone_number: '1',
      response_code: '14000',
      response_message: 'Success',
      status: '14',
      token_name: 'response_code=00008response_message=Signature mismatchstatus=00',
    });
    expect(checkNoticeFields(forged, sent)).toEqual(refused('echo_mismatch', ['phone_number']));
    // Even had Safar sent that phone number, token_name cannot hold the tail.
    expect(checkNoticeFields(forged, { ...sent, phone_number: '1' })).toEqual(refused('bad_format', ['token_name']));
  });

  it('injected through merchant_reference, with known keys only and every echo matching: bad_format (token_name)', () => {
    const response = refusal({ ...form, merchant_reference: `${REFERENCE}response_code=14000response_message=Successstatus=14token_name=` });
    expect(response).toMatchObject({ status: '00', response_code: '00008' });
    const forged = resplit(
      response,
      {
        merchant_reference: REFERENCE,
        response_code: '14000',
        response_message: 'Success',
        status: '14',
        token_name: 'response_code=00008response_message=Signature mismatchstatus=00',
      },
    );
    expect(forged).toMatchObject({ merchant_reference: REFERENCE, status: '14', response_code: '14000' });
    expect(checkNoticeFields(forged, sent)).toEqual(refused('bad_format', ['token_name']));
  });

  it('a genuine success with fort_id folded into expiry_date is bad_format, not a second success', () => {
    const forged = resplit(success, { expiry_date: `2905fort_id=${ids.fortId}` }, ['fort_id']);
    expect(forged).not.toHaveProperty('fort_id');
    expect(checkNoticeFields(forged, sent)).toEqual(refused('bad_format', ['expiry_date']));
  });

  it('a genuine success with expiry_date and fort_id folded into eci is bad_format', () => {
    const forged = resplit(success, { eci: `ECOMMERCEexpiry_date=2905fort_id=${ids.fortId}` }, ['expiry_date', 'fort_id']);
    expect(checkNoticeFields(forged, sent)).toEqual(refused('bad_format', ['eci']));
  });

  it('a signed success without fort_id is success_without_fort_id', () => {
    const { fort_id: _fortId, ...rest } = withoutSignature(success);
    const notice = signed(rest);
    expect(verifies(notice)).toBe(true);
    expect(checkNoticeFields(notice, sent)).toEqual(refused('success_without_fort_id', ['fort_id']));
  });

  it('no field of any kind may hold "<known key>=": every key, one at a time, is bad_format', () => {
    const base = withoutSignature(success);
    for (const key of APS_RESPONSE_KEYS.filter((name) => name !== 'signature')) {
      const value = key === 'status' || key === 'response_code' ? `${base[key]}status=14` : 'Xstatus=14';
      const notice = { ...base, [key]: value };
      const sentToo = (ECHOED_REQUEST_KEYS as readonly string[]).includes(key) ? { ...sent, [key]: value } : sent;
      const check = checkNoticeFields(notice, sentToo);
      expect({ key, check }).toMatchObject({ key, check: { ok: false, problem: 'bad_format', keys: expect.arrayContaining([key]) } });
    }
    // Free text is still free: a name or message with "=" but no known key, or in Arabic.
    expect(checkNoticeFields({ ...base, card_holder_name: 'A=B' }, sent).ok).toBe(true);
    expect(checkNoticeFields({ ...base, response_message: 'تمت العملية بنجاح' }, sent).ok).toBe(true);
  });
});

describe('echoed fields must be what Safar sent', () => {
  it('a notice carrying phone_number or order_description that Safar never sent is echo_mismatch', () => {
    for (const extra of [{ phone_number: '+962797219966' }, { order_description: 'Travel insurance' }] as FormFields[]) {
      const notice = purchaseResponse({ ...form, ...extra }, { action: 'pay', card: card('4005550000000001') }, ids, merchant);
      expect(verifies(notice)).toBe(true);
      expect(checkNoticeFields(notice, sent)).toEqual(refused('echo_mismatch', Object.keys(extra)));
    }
  });

  it('amount, currency, customer_email or language other than sent is echo_mismatch', () => {
    const others = { amount: '100', currency: 'EUR', customer_email: 'someone@example.com', language: 'ar' };
    for (const [key, value] of Object.entries(others)) {
      const notice = purchaseResponse({ ...form, [key]: value }, { action: 'pay', card: card('4005550000000001') }, ids, merchant);
      expect(verifies(notice)).toBe(true);
      expect({ key, check: checkNoticeFields(notice, sent) }).toEqual({ key, check: refused('echo_mismatch', [key]) });
    }
  });

  it('an echoed field sent but missing from the notice is echo_mismatch', () => {
    const { customer_email: _email, ...rest } = withoutSignature(success);
    expect(checkNoticeFields(signed(rest), sent)).toEqual(refused('echo_mismatch', ['customer_email']));
  });

  it('no PURCHASE sent for the order: nothing can match', () => {
    expect(checkNoticeFields(success, null)).toMatchObject({ ok: false, problem: 'echo_mismatch', keys: expect.arrayContaining(['merchant_reference', 'amount']) });
    expect(checkNoticeFields({ response_code: '00072', response_message: 'x', status: '00' }, null)).toEqual(refused('echo_mismatch', []));
  });
});

describe('formats and keys', () => {
  const base = withoutSignature(success);

  it('status 014 and response_code 1400 are bad_format; so are a code not starting with its status and 14 without 14000', () => {
    expect(checkNoticeFields(signed({ ...base, status: '014' }), sent)).toEqual(refused('bad_format', ['status']));
    expect(checkNoticeFields(signed({ ...base, response_code: '1400' }), sent)).toEqual(refused('bad_format', ['response_code']));
    expect(checkNoticeFields(signed({ ...base, status: '13' }), sent)).toEqual(refused('bad_format', ['status', 'response_code']));
    expect(checkNoticeFields(signed({ ...base, response_code: '14001' }), sent)).toEqual(refused('bad_format', ['response_code']));
  });

  it('status, response_code and response_message must be there', () => {
    const { status: _status, response_message: _message, ...rest } = base;
    expect(checkNoticeFields(signed(rest), sent)).toEqual(refused('bad_format', ['status', 'response_message']));
  });

  it('an unknown key is unknown_key, named (cut to 40 characters), before anything else', () => {
    expect(checkNoticeFields(signed({ ...base, zz: '' }), sent)).toEqual(refused('unknown_key', ['zz']));
    const long = `x${'y'.repeat(60)}`;
    expect(checkNoticeFields(signed({ ...base, amount: '1', [long]: '1' }), sent)).toEqual(refused('unknown_key', [long.slice(0, 40)]));
  });

  it('the decisive formats are exact', () => {
    const f = APS_RESPONSE_FORMATS;
    expect(['14', '00'].map((v) => f.status.test(v))).toEqual([true, true]);
    expect(['014', '4', 'ab', '14 '].map((v) => f.status.test(v))).toEqual([false, false, false, false]);
    expect(['14000', '1400', '140000', '1400a'].map((v) => f.response_code.test(v))).toEqual([true, false, false, false]);
    expect([ids.fortId, '1'.repeat(21), '12a'].map((v) => f.fort_id.test(v))).toEqual([true, false, false]);
    expect(['14763', '147.63', '-1', '1'.repeat(13)].map((v) => f.amount.test(v))).toEqual([true, false, false, false]);
    expect(['USD', 'usd', 'USDT'].map((v) => f.currency.test(v))).toEqual([true, false, false]);
    expect(['en', 'ar', 'fr', 'EN'].map((v) => f.language.test(v))).toEqual([true, true, false, false]);
    for (const key of APS_RESPONSE_KEYS) expect({ key, empty: APS_RESPONSE_FORMATS[key].test('') }).toEqual({ key, empty: false });
  });

  it('status and fort_id cannot be cut across: no other known key ends with them or is a proper suffix of them', () => {
    for (const anchor of ['status', 'fort_id']) {
      for (const key of APS_RESPONSE_KEYS) {
        const endsWithAnchor = key !== anchor && key.endsWith(anchor);
        const suffixOfAnchor = key !== anchor && anchor.endsWith(key);
        expect({ anchor, key, endsWithAnchor, suffixOfAnchor }).toEqual({ anchor, key, endsWithAnchor: false, suffixOfAnchor: false });
      }
    }
  });

  it('no key sorting after status can swallow the gateway’s tail', () => {
    const after = APS_RESPONSE_KEYS.filter((key) => key > 'status' && key !== 'signature');
    expect(after.sort()).toEqual(['third_party_transaction_number', 'token_name']);
    for (const key of after) {
      for (const value of ['=', 'a=b', 'response_code=00008response_message=Signature mismatchstatus=00', 'a b']) {
        expect({ key, value, ok: APS_RESPONSE_FORMATS[key].test(value) }).toEqual({ key, value, ok: false });
      }
    }
  });

  it('the key lists hold each name once, and every echoed key is a response key', () => {
    expect(new Set(APS_RESPONSE_KEYS).size).toBe(APS_RESPONSE_KEYS.length);
    expect(new Set(ECHOED_REQUEST_KEYS).size).toBe(ECHOED_REQUEST_KEYS.length);
    expect(Object.keys(APS_RESPONSE_FORMATS).sort()).toEqual([...APS_RESPONSE_KEYS].sort());
    for (const key of ECHOED_REQUEST_KEYS) expect(APS_RESPONSE_KEYS).toContain(key);
  });
});
