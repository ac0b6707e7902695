import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_CLOCK_SKEW_SECONDS,
  SIGNATURE_HEADERS,
  computeSignature,
  signRequest,
  verifySignature,
} from '../../src/contract/signing';
import { companyInfoEndpoint, vatEndpoint } from '../../src/contract/reference.endpoints';
import { createApp } from '../../src/server/app';
import { createTestApp, testConfig, TEST_SIGNING_SECRET, type TestApp } from '../support/test-app';
import { createTestDatabase } from '../support/test-db';
import { errorCodes } from './expect-envelope';

const PATH = companyInfoEndpoint.path;
const BODY = JSON.stringify({ lang: 'en' });
const OTHER_KEY = 'another-signing-secret-of-some-length';

const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

/** Sends exactly these bytes with exactly these headers, so a test controls what is signed. */
function send(app: { request: TestApp['app']['request'] }, body: string, headers: Record<string, string>) {
  return app.request(PATH, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
}

async function signedHeaders(key: string, body: string, nowMs = Date.now()) {
  const parts = await signRequest(key, body, nowMs);
  return {
    [SIGNATURE_HEADERS.nonce]: parts.nonce,
    [SIGNATURE_HEADERS.timestamp]: parts.timestamp,
    [SIGNATURE_HEADERS.signature]: parts.signature,
  };
}

describe('contract signing (RULINGS 23)', () => {
  it('signs nonce + timestamp + body as hex HMAC-SHA256, equal to node:crypto', async () => {
    const signature = await computeSignature(TEST_SIGNING_SECRET, '1700000000123', '1700000000', BODY);
    expect(signature).toBe(hmac(TEST_SIGNING_SECRET, `17000000001231700000000${BODY}`));
  });

  it('uses the clock in ms as nonce and in whole seconds as timestamp', async () => {
    const parts = await signRequest(TEST_SIGNING_SECRET, BODY, 1_700_000_000_999);
    expect(parts).toEqual({
      nonce: '1700000000999',
      timestamp: '1700000000',
      signature: hmac(TEST_SIGNING_SECRET, `17000000009991700000000${BODY}`),
    });
  });

  it('signs an empty body as the empty string', async () => {
    const parts = await signRequest(TEST_SIGNING_SECRET, '', 1_700_000_000_000);
    expect(parts.signature).toBe(hmac(TEST_SIGNING_SECRET, '17000000000001700000000'));
  });

  it('verifies its own signature and names each failure', async () => {
    const now = 1_700_000_000_000;
    const parts = await signRequest(TEST_SIGNING_SECRET, BODY, now);
    expect(await verifySignature(TEST_SIGNING_SECRET, parts, BODY, now)).toBeNull();
    expect(await verifySignature(TEST_SIGNING_SECRET, { ...parts, signature: parts.signature.toUpperCase() }, BODY, now)).toBeNull();
    expect(await verifySignature(TEST_SIGNING_SECRET, { ...parts, nonce: undefined }, BODY, now)).toBe('signature_missing');
    expect(await verifySignature(OTHER_KEY, parts, BODY, now)).toBe('signature_invalid');
    expect(await verifySignature(TEST_SIGNING_SECRET, parts, `${BODY} `, now)).toBe('signature_invalid');
    expect(await verifySignature(TEST_SIGNING_SECRET, { ...parts, signature: 'zz' }, BODY, now)).toBe('signature_invalid');
    const late = now + (MAX_CLOCK_SKEW_SECONDS + 1) * 1000;
    expect(await verifySignature(TEST_SIGNING_SECRET, parts, BODY, late)).toBe('timestamp_skew');
  });
});

describe('signed API requests', () => {
  let t: TestApp;
  // Pinned mid-second during the skew tests, so 299 s and 301 s never round across a second.
  let pinnedNow: number | null = null;

  beforeAll(async () => {
    t = await createTestApp({ now: () => pinnedNow ?? Date.now() });
  });
  afterAll(() => t.close());
  afterEach(() => {
    pinnedNow = null;
  });

  it('answers 200 to a correctly signed request', async () => {
    const res = await t.post(PATH, { lang: 'en' });
    expect(res.status).toBe(200);
    expect((await res.json()).status).toBe(200);
  });

  it('answers 200 to a signed request without a body (signature over "")', async () => {
    const res = await t.post(vatEndpoint.path);
    expect(res.status).toBe(200);
  });

  for (const header of Object.values(SIGNATURE_HEADERS)) {
    it(`refuses 401 signature_missing without ${header}`, async () => {
      const res = await t.post(PATH, { lang: 'en' }, { headers: { [header]: undefined } });
      expect(await errorCodes(res, 401)).toEqual({ signature: 'signature_missing' });
    });
  }

  it('refuses 401 signature_invalid when signed with another key', async () => {
    const res = await send(t.app, BODY, await signedHeaders(OTHER_KEY, BODY));
    expect(await errorCodes(res, 401)).toEqual({ signature: 'signature_invalid' });
  });

  it('refuses 401 signature_invalid when the body was changed after signing', async () => {
    const headers = await signedHeaders(TEST_SIGNING_SECRET, BODY);
    const res = await send(t.app, JSON.stringify({ lang: 'ar' }), headers);
    expect(await errorCodes(res, 401)).toEqual({ signature: 'signature_invalid' });
  });

  it('refuses 401 signature_invalid for a malformed signature header', async () => {
    const res = await t.post(PATH, { lang: 'en' }, { headers: { [SIGNATURE_HEADERS.signature]: 'not-hex' } });
    expect(await errorCodes(res, 401)).toEqual({ signature: 'signature_invalid' });
  });

  it.each([
    ['301 s in the past', -301],
    ['301 s in the future', 301],
  ])('refuses 401 timestamp_skew for a timestamp %s', async (_label, offsetSeconds) => {
    pinnedNow = Math.floor(Date.now() / 1000) * 1000 + 500;
    const res = await t.post(PATH, { lang: 'en' }, { nowMs: pinnedNow + offsetSeconds * 1000 });
    expect(await errorCodes(res, 401)).toEqual({ signature: 'timestamp_skew' });
  });

  it.each([
    ['299 s in the past', -299],
    ['299 s in the future', 299],
  ])('accepts a timestamp %s', async (_label, offsetSeconds) => {
    pinnedNow = Math.floor(Date.now() / 1000) * 1000 + 500;
    const res = await t.post(PATH, { lang: 'en' }, { nowMs: pinnedNow + offsetSeconds * 1000 });
    expect(res.status).toBe(200);
  });

  it('refuses the exact same request sent twice with 401 nonce_reused', async () => {
    const headers = await signedHeaders(TEST_SIGNING_SECRET, BODY);
    expect((await send(t.app, BODY, headers)).status).toBe(200);
    expect(await errorCodes(await send(t.app, BODY, headers), 401)).toEqual({ signature: 'nonce_reused' });
  });

  it('accepts two different bodies signed in the same millisecond (nonce + signature is the key)', async () => {
    const nowMs = Date.now();
    const a = await t.post(PATH, { lang: 'en' }, { nowMs });
    const b = await t.post(PATH, { lang: 'ar' }, { nowMs });
    expect([a.status, b.status]).toEqual([200, 200]);
  });
});

describe('replay protection across instances', () => {
  it('refuses on a second app instance a request already seen by the first, over one database', async () => {
    const database = await createTestDatabase();
    try {
      const build = () =>
        createApp({
          db: database.db,
          config: testConfig(),
          staticDir: null,
          logError: () => {},
        });
      const first = build();
      const second = build();
      const headers = await signedHeaders(TEST_SIGNING_SECRET, BODY);
      expect((await send(first, BODY, headers)).status).toBe(200);
      expect(await errorCodes(await send(second, BODY, headers), 401)).toEqual({ signature: 'nonce_reused' });
      // The second instance is otherwise healthy: a fresh request passes.
      expect((await send(second, BODY, await signedHeaders(TEST_SIGNING_SECRET, BODY, Date.now() + 1))).status).toBe(200);
    } finally {
      await database.close();
    }
  });
});
