import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countriesEndpoint, companyInfoEndpoint } from '../../src/contract/reference.endpoints';
import { SIGNATURE_HEADERS } from '../../src/contract/signing';
import { createTestApp, listen, type TestApp } from '../support/test-app';
import { REFERENCE_ENDPOINTS } from './contract-endpoints';
import { ARABIC, errorCodes, expectErrorBody, expectErrorEnvelope } from './expect-envelope';

const ENDPOINTS = REFERENCE_ENDPOINTS;

const DEPTH = 20_000;

/**
 * Bodies a careless or hostile client could send. Each is the exact text sent, so invalid
 * JSON and nesting too deep for JSON.stringify can be expressed too.
 */
const HOSTILE_BODIES: [label: string, text: string][] = [
  ['null', 'null'],
  ['an array', '[]'],
  ['a string', '"str"'],
  ['a number', '123'],
  ['lang null', '{"lang":null}'],
  ['lang as an object', '{"lang":{"$ne":"en"}}'],
  ['isDropdown as text', '{"lang":"en","isDropdown":"yes"}'],
  ['prototype keys', '{"lang":"en","__proto__":{"polluted":true},"constructor":{"prototype":{}}}'],
  ['wrong-typed filters', '{"lang":"en","insurance_provider_id":"7","destination_ids":[1.5,-3,"x",null]}'],
  ['ids beyond PostgreSQL integer', '{"lang":"en","insurance_provider_id":99999999999,"destination_ids":[1e300]}'],
  ['deeply nested', `{"lang":"en","x":${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}}`],
  ['invalid JSON', '{"lang":'],
];

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('schema failures answer 422 with a code per field', () => {
  it('missing lang is required', async () => {
    expect(await errorCodes(await t.post(countriesEndpoint.path, {}), 422)).toEqual({ lang: 'required' });
  });

  it("lang 'fr' is an invalid value", async () => {
    expect(await errorCodes(await t.post(countriesEndpoint.path, { lang: 'fr' }), 422)).toEqual({ lang: 'invalid_value' });
  });

  it('an unknown key is an unknown field', async () => {
    const codes = await errorCodes(await t.post(countriesEndpoint.path, { lang: 'en', colour: 'red' }), 422);
    expect(codes).toEqual({ colour: 'unknown_field' });
  });

  it('destination_ids that is not an array is an invalid type', async () => {
    const codes = await errorCodes(await t.post(countriesEndpoint.path, { lang: 'en', destination_ids: 250 }), 422);
    expect(codes).toEqual({ destination_ids: 'invalid_type' });
  });

  it.each([2147483648, 99999999999, 1e300])('insurance_provider_id %s (beyond integer) is out of range', async (id) => {
    const codes = await errorCodes(await t.post(countriesEndpoint.path, { lang: 'en', insurance_provider_id: id }), 422);
    expect(codes).toEqual({ insurance_provider_id: 'out_of_range' });
  });

  it.each(['null', '"str"', '123', 'true'])('a body that is not an object (%s) is an invalid type', async (text) => {
    expect(await errorCodes(await t.post(countriesEndpoint.path, text), 422)).toEqual({ _: 'invalid_type' });
  });

  it.each(['constructor', '__proto__', 'toString'])('an unknown key named %s is still reported', async (key) => {
    const res = await t.post(countriesEndpoint.path, `{"lang":"en","${key}":1}`);
    expect(res.status).toBe(422);
    // Read raw: the contract's record schema drops such keys on purpose when parsing.
    const body = JSON.parse(await res.text()) as { data: { errors: Record<string, string> } };
    expect(Object.entries(body.data.errors)).toEqual([[key, 'unknown_field']]);
  });

  it('a signed body that is not JSON answers 400 invalid_json', async () => {
    const codes = await errorCodes(await t.post(countriesEndpoint.path, '{"lang": "en"'), 400);
    expect(Object.values(codes)).toEqual(['invalid_json']);
  });
});

describe('no hostile body makes an endpoint answer 5xx', () => {
  for (const endpoint of ENDPOINTS) {
    it.each(HOSTILE_BODIES)(`${endpoint.path}: %s`, async (_label, text) => {
      const res = await t.post(endpoint.path, text);
      expect(res.status).toBeLessThan(500);
      const body = await res.json();
      expect(body).toMatchObject({ status: res.status, message: expect.any(String), data: expect.any(Object) });
      if (res.status >= 400) expectErrorBody(body, res.status);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it(`${endpoint.path}: a 300 KB body answers 413`, async () => {
      const res = await t.post(endpoint.path, { lang: 'en', padding: 'x'.repeat(300 * 1024) });
      expect((await expectErrorEnvelope(res, 413)).message).toMatch(/too large/);
    });
  }

  it('over a real socket, a declared 300 KB body is refused 413 before it is read, in the asked language', async () => {
    const server = await listen(t.app);
    try {
      const res = await fetch(`${server.url}${countriesEndpoint.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': 'ar' },
        body: JSON.stringify({ lang: 'ar', padding: 'x'.repeat(300 * 1024) }),
      });
      expect((await expectErrorEnvelope(res, 413)).message).toMatch(ARABIC);
    } finally {
      await server.close();
    }
  });

  it('the sweep reached every endpoint (and 413 is not just a missing route)', () => {
    expect(ENDPOINTS.length).toBeGreaterThanOrEqual(6);
  });
});

describe('messages follow the language', () => {
  it('a 401 with Accept-Language: ar has an Arabic message', async () => {
    const res = await t.post(companyInfoEndpoint.path, { lang: 'x' }, {
      headers: { [SIGNATURE_HEADERS.signature]: undefined, 'Accept-Language': 'ar-LB,ar;q=0.9' },
    });
    expect((await expectErrorEnvelope(res, 401)).message).toMatch(ARABIC);
  });

  it('a 401 without Accept-Language has an English message', async () => {
    const res = await t.post(companyInfoEndpoint.path, { lang: 'x' }, { headers: { [SIGNATURE_HEADERS.signature]: undefined } });
    expect((await expectErrorEnvelope(res, 401)).message).not.toMatch(ARABIC);
  });

  it('a 422 for a body with lang ar has an Arabic message, whatever Accept-Language says', async () => {
    const res = await t.post(countriesEndpoint.path, { lang: 'ar', colour: 'red' }, { headers: { 'Accept-Language': 'en' } });
    expect((await expectErrorEnvelope(res, 422)).message).toMatch(ARABIC);
  });
});

describe('paths and methods', () => {
  it('an unknown API path with a valid signature answers a 404 envelope', async () => {
    const res = await t.post('/miscellaneous/travel/wiz/no-such-call', { lang: 'en' });
    expect((await expectErrorEnvelope(res, 404)).message).toBe('Not found.');
  });

  it('GET on an API path answers a 405 envelope', async () => {
    for (const path of [countriesEndpoint.path, '/api', '/health/anything']) {
      expect((await expectErrorEnvelope(await t.app.request(path), 405)).message).toMatch(/POST/);
    }
  });
});
