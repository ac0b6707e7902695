import http, { type IncomingHttpHeaders } from 'node:http';
import { DrizzleQueryError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestLeadsByDeviceEndpoint, personalDetailsEndpoint } from '../../src/contract/lead.endpoints';
import { paymentStatusEndpoint } from '../../src/contract/payment.endpoints';
import { countriesEndpoint } from '../../src/contract/reference.endpoints';
import { createApp } from '../../src/server/app';
import type { Db } from '../../src/server/db/client';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import { MAX_BODY_BYTES } from '../../src/server/middleware/body-limit.middleware';
import { signedHeaders } from '../support/signed-request';
import { createTestApp, listen, testConfig, TEST_SIGNING_SECRET, type TestApp } from '../support/test-app';
import { createTestDatabase } from '../support/test-db';
import { RATE_LIMITS } from '../../src/server/rate-limit/rate-limit';
import { contractEndpoints, runFuzz, type InProcessApp } from '../soak/fuzz';
import { ARABIC } from './expect-envelope';
import { FIXED_NOW } from './lead-fixtures';
import { CUSTOMER, PERSONAL } from './personal-fixtures';
import { createPaymentTestApp, pendingOrder } from './payment-fixtures';

/**
 * Issue 7 rows 2 and 3: bodies bounded while they stream, one error handler, logs without personal
 * data; issue 33 item 5: no API answer is kept by a cache.
 */

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/**
 * A POST over a real socket with node:http, writing `chunks` one by one (chunked when no
 * Content-Length is given) and stopping as soon as the server answers or the socket fails.
 */
function rawPost(url: string, apiPath: string, headers: Record<string, string>, chunks: Iterable<Uint8Array>): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let stopped = false;
    const req = http.request({ hostname, port, path: apiPath, method: 'POST', headers }, (res) => {
      stopped = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body });
      });
    });
    req.on('error', (error) => {
      stopped = true;
      reject(error);
    });
    void (async () => {
      for (const chunk of chunks) {
        if (stopped) return;
        if (!req.write(chunk)) {
          await new Promise<void>((done) => {
            const resume = () => {
              req.off('drain', resume);
              req.off('close', resume);
              done();
            };
            req.on('drain', resume);
            req.on('close', resume);
          });
        }
      }
      if (!stopped) req.end();
    })();
  });
}

/** The same 64 KB buffer `times` times: 64 MB on the wire, 64 KB in this process. */
function* repeated(buffer: Uint8Array, times: number) {
  for (let i = 0; i < times; i += 1) yield buffer;
}

/** A string cut into pieces of `size` bytes, so multi-byte characters are split across chunks. */
function* pieces(text: string, size: number) {
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Runs `work` while sampling the process's resident memory; answers its result and the peak growth. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; grownBytes: number }> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, grownBytes: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

function expect413(answer: Answer) {
  expect(answer.status).toBe(413);
  expect(answer.headers.connection).toBe('close');
  const json = JSON.parse(answer.body) as { status: number; message: string; data: unknown };
  expect(json).toEqual({ status: 413, message: expect.stringMatching(/too large/) as unknown, data: {} });
  return json;
}

describe('row 3: bodies are bounded while they stream', () => {
  let t: TestApp;
  let server: { url: string; close: () => Promise<void> };

  beforeAll(async () => {
    t = await createTestApp();
    server = await listen(t.app);
  });
  afterAll(async () => {
    await server.close();
    await t.close();
  });

  it('row 3: a chunked 64 MB body without Content-Length is refused with 413 while memory stays flat', async () => {
    const buffer = new Uint8Array(64 * 1024).fill(0x20);
    // The signed API (signature headers present but irrelevant: size is refused first) and the unsigned insurer sandbox.
    const targets: [string, Record<string, string>][] = [
      [countriesEndpoint.path, await signedHeaders(TEST_SIGNING_SECRET, '{}')],
      ['/insurer-sandbox/quote', { 'content-type': 'application/json' }],
    ];
    for (const [target, headers] of targets) {
      const { result, grownBytes } = await peakGrowth(() => rawPost(server.url, target, headers, repeated(buffer, 1024)));
      expect(result.headers['content-length'] === undefined || Number(result.headers['content-length']) > 0).toBe(true);
      expect413(result);
      // Reading the 64 MB would hold at least 64 MB (bytes, then text); the refusal holds the limit at most.
      expect(grownBytes).toBeLessThan(48 * 1024 * 1024);
    }
  });

  it('row 3: a declared Content-Length over the limit is refused at once, before the body is sent, in the asked language', async () => {
    const answer = await rawPost(
      server.url,
      '/insurer-sandbox/quote',
      { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024), 'accept-language': 'ar' },
      // Only 1 KB of the declared 10 MB is ever written: the answer cannot wait for the rest.
      [new Uint8Array(1024).fill(0x20)],
    );
    expect(answer.status).toBe(413);
    expect((JSON.parse(answer.body) as { message: string }).message).toMatch(ARABIC);
  });

  it('row 3: a validly signed body of exactly 256 KB, sent chunked, is not refused for size; one byte more is', async () => {
    const head = '{"lang":"en"}';
    const exact = head + ' '.repeat(MAX_BODY_BYTES - head.length);
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES);
    const ok = await rawPost(server.url, countriesEndpoint.path, await signedHeaders(TEST_SIGNING_SECRET, exact), pieces(exact, 1000));
    expect(ok.status).toBe(200);

    const over = `${exact} `;
    expect413(await rawPost(server.url, countriesEndpoint.path, await signedHeaders(TEST_SIGNING_SECRET, over), pieces(over, 1000)));
  });

  it('row 3: a signed Arabic body just under the limit, its characters split across chunks, verifies byte for byte', async () => {
    const head = '{"lang":"ar","note":"';
    const tail = '"}';
    // "سفر " is 7 bytes: 1001-byte pieces split its two-byte letters at many chunk boundaries.
    const filler = 'سفر '.repeat(Math.floor((MAX_BODY_BYTES - 64 - head.length - tail.length) / 7));
    const text = head + filler + tail;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_BODY_BYTES - 100);
    const answer = await rawPost(server.url, countriesEndpoint.path, await signedHeaders(TEST_SIGNING_SECRET, text), pieces(text, 1001));
    // Past the signature (not 401) and not refused for size (not 413): the schema refuses the unknown field.
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 422, data: { errors: { note: 'unknown_field' } } });
  });
});

/**
 * A fake pg error as node-postgres and PGlite raise them, wrapped by Drizzle: its message and
 * detail quote the row's values, and Drizzle's message adds the query parameters.
 */
function fakeDatabaseError() {
  const pgError = Object.assign(
    new (class DatabaseError extends Error {})(`duplicate key value violates unique constraint "customers_email_unique"`),
    { code: '23505', detail: `Key (email)=(${CUSTOMER.email}) already exists. Failing row contains (${CUSTOMER.name}, ${CUSTOMER.phone}).` },
  );
  return new DrizzleQueryError('insert into "customers" ("name", "email", "phone_number") values ($1, $2, $3)', [CUSTOMER.name, CUSTOMER.email, CUSTOMER.phone], pgError);
}

describe('row 2: one error handler', () => {
  it('a failure inside the API answers the 500 envelope with a request id, no-store (database failure mocked at the edge: a db whose select throws a pg error quoting the customer)', async () => {
    const database = await createTestDatabase();
    let failing = false;
    // The edge of the world: the database driver. Everything else is the real app.
    const db = new Proxy(database.db, {
      get(target, key, receiver) {
        if (key === 'select' && failing) {
          return () => {
            throw fakeDatabaseError();
          };
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
    }) as Db;
    const lines: ErrorLogLine[] = [];
    const app = createApp({ db, config: testConfig(), staticDir: null, logError: (line) => lines.push(line) });
    try {
      const text = JSON.stringify({ lang: 'ar' });
      failing = true;
      const res = await app.request(countriesEndpoint.path, { method: 'POST', body: text, headers: await signedHeaders(TEST_SIGNING_SECRET, text) });
      failing = false;
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      // Not kept by any cache either (issue 33 item 5), like every API answer.
      expect(res.headers.get('cache-control')).toBe('no-store');
      const json = (await res.json()) as { status: number; message: string; data: { request_id: string } };
      expect(json).toEqual({ status: 500, message: expect.stringMatching(ARABIC) as unknown, data: { request_id: expect.any(String) as unknown } });
      expect(json.data.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-request-id')).toBe(json.data.request_id);

      expect(lines).toEqual([
        { event: 'error', request_id: json.data.request_id, method: 'POST', route: countriesEndpoint.path, error: 'DrizzleQueryError', code: '23505' },
      ]);
      const logged = JSON.stringify(lines);
      for (const value of PERSONAL) expect(logged).not.toContain(value);

      // Every answer carries a fresh request id, successful or not, and the app is still healthy.
      const again = await app.request(countriesEndpoint.path, { method: 'POST', body: text, headers: await signedHeaders(TEST_SIGNING_SECRET, text) });
      expect(again.status).toBe(200);
      expect(again.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(again.headers.get('x-request-id')).not.toBe(json.data.request_id);
    } finally {
      await database.close();
    }
  });

  it('a caller cannot choose its own request id', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.request('/healthz', { headers: { 'X-Request-Id': 'chosen-by-the-caller' } });
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await t.close();
    }
  });
});

/**
 * Issue 33 item 5: every API answer carries Cache-Control: no-store, so no browser, proxy or CDN
 * keeps a customer's details, totals or payment state, whatever the answer and whoever made it
 * (a route, a refusal in a middleware, the error handler).
 */
describe('issue 33 item 5: every API answer carries Cache-Control: no-store', () => {
  it('every endpoint of the contract, with valid and invalid bodies (the fuzz’s, all signed), answers no-store whatever its status', async () => {
    let clock = FIXED_NOW;
    const t = await createTestApp({ now: () => clock, config: testConfig({ trustProxy: true }) });
    try {
      const seen: { path: string; status: number; cacheControl: string | null }[] = [];
      const recording: InProcessApp = {
        async request(apiPath, init) {
          const res = await t.app.request(apiPath, init);
          seen.push({ path: apiPath, status: res.status, cacheControl: res.headers.get('cache-control') });
          return res;
        },
      };
      let requests = 0;
      const summary = await runFuzz({
        app: recording,
        perEndpoint: 12,
        seed: 33,
        now: () => clock,
        spreadAddresses: true,
        // As fuzz.test.ts: rate-limit windows pass, so bodies reach their handlers.
        beforeRequest: () => {
          requests += 1;
          if (requests % 30 === 0) clock += 2 * 60_000;
        },
      });
      expect(summary.endpoints.map((row) => row.path).sort()).toEqual(contractEndpoints().map((endpoint) => endpoint.path).sort());
      expect(summary.endpoints.filter((row) => row.kinds.valid === 0 || row.kinds.mutated + row.kinds.hostile === 0)).toEqual([]);
      const statuses = new Set(seen.map((answer) => answer.status));
      expect([200, 404, 422].every((status) => statuses.has(status))).toBe(true);
      expect(seen.filter((answer) => answer.cacheControl !== 'no-store')).toEqual([]);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('get-personal-details and payment-status (a customer’s details and order), the reference lists (200 and 304), the health GETs, and 401, 404, 405, 413 and 429 answer no-store', async () => {
    const app = await createPaymentTestApp();
    try {
      const { lead, order } = await pendingOrder(app);
      const answers: Record<string, Response> = {};
      answers['get-personal-details'] = await app.send(personalDetailsEndpoint.path, { uuid: lead.uuid, session_id: lead.sessionId, lang: 'en' });
      answers['payment-status'] = await app.send(paymentStatusEndpoint.path, { uuid: lead.uuid, merchant_reference: order.merchantReference, language: 'en' });
      const countries = await app.send(countriesEndpoint.path, { lang: 'en' });
      answers.countries = countries;
      const text = JSON.stringify({ lang: 'en' });
      answers['countries 304'] = await app.app.request(countriesEndpoint.path, {
        method: 'POST',
        body: text,
        headers: { ...(await signedHeaders(TEST_SIGNING_SECRET, text, FIXED_NOW + 1_000)), 'if-none-match': countries.headers.get('etag')! },
      });
      answers['health live'] = await app.app.request('/health/live');
      answers['health ready'] = await app.app.request('/health/ready');
      answers['unsigned'] = await app.post(countriesEndpoint.path, { lang: 'en' }, { headers: { 'X-Signature': undefined }, nowMs: FIXED_NOW });
      answers['unknown API path'] = await app.send('/miscellaneous/travel/wiz/no-such-endpoint', { lang: 'en' });
      answers['GET on the API'] = await app.app.request(personalDetailsEndpoint.path);
      answers['too large'] = await app.app.request(countriesEndpoint.path, { method: 'POST', body: 'x'.repeat(MAX_BODY_BYTES + 1), headers: { 'content-type': 'application/json' } });
      const device = crypto.randomUUID();
      for (let i = 0; i < RATE_LIMITS.latestLeadsByDevice.perDevice.limit; i += 1) await app.send(latestLeadsByDeviceEndpoint.path, { device_uuid: device });
      answers['rate limited'] = await app.send(latestLeadsByDeviceEndpoint.path, { device_uuid: device });
      expect(Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.status]))).toEqual({
        'get-personal-details': 200,
        'payment-status': 200,
        countries: 200,
        'countries 304': 304,
        'health live': 200,
        'health ready': 200,
        unsigned: 401,
        'unknown API path': 404,
        'GET on the API': 405,
        'too large': 413,
        'rate limited': 429,
      });
      for (const [name, res] of Object.entries(answers)) expect({ name, cacheControl: res.headers.get('cache-control') }).toEqual({ name, cacheControl: 'no-store' });
    } finally {
      await app.close();
    }
  }, 120_000);
});
