import { createServer } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countriesEndpoint } from '../../src/contract/reference.endpoints';
import { createApp } from '../../src/server/app';
import { openDatabase, type Database, type Db } from '../../src/server/db/client';
import { seedDatabase } from '../../src/server/db/seed';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import { message } from '../../src/server/http/messages';
import { travellerLabels } from '../../src/server/leads/lead-views';
import { loadPlans } from '../../src/server/quoting/catalogue';
import { signedHeaders } from '../support/signed-request';
import { testConfig, TEST_SIGNING_SECRET } from '../support/test-app';
import { createTestDatabase, emptyPglite } from '../support/test-db';

type App = ReturnType<typeof createApp>;

function appOver(db: Db, errors: ErrorLogLine[] = []): App {
  return createApp({ db, config: testConfig(), staticDir: null, logError: (line) => errors.push(line) });
}

async function countries(app: App, lang: 'en' | 'ar' = 'en') {
  const text = JSON.stringify({ lang });
  return app.request(countriesEndpoint.path, { method: 'POST', body: text, headers: await signedHeaders(TEST_SIGNING_SECRET, text) });
}

/** The body of a response, checked to be the envelope with its status equal to the HTTP status. */
async function envelopeOf(res: Response, status: number) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as { status: number; message: string; data: Record<string, unknown> };
  expect(body).toEqual({ status, message: expect.any(String), data: expect.any(Object) });
  return body;
}

describe('GET /health/live and /health/ready (on the test database: PGlite, or PostgreSQL in test:postgres)', () => {
  let database: Database;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = appOver(database.db);
  });
  afterAll(() => database.close());

  it('live answers 200 in the envelope, unsigned, without asking the database', async () => {
    const closed = await createTestDatabase();
    await closed.close();
    const body = await envelopeOf(await appOver(closed.db).request('/health/live'), 200);
    expect(body.data.status).toBe('live');
  });

  it('ready answers 200 when the database answers and every migration is applied', async () => {
    expect((await envelopeOf(await app.request('/health/ready'), 200)).data).toEqual({ status: 'ready' });
  });

  it('keeps 405 for other methods and other GET paths under /health, and /healthz as it was', async () => {
    expect((await app.request('/health/live', { method: 'PUT' })).status).toBe(405);
    expect((await app.request('/health/relationships')).status).toBe(405);
    expect((await app.request('/health')).status).toBe(405);
    expect((await app.request('/healthz')).status).toBe(200);
  });

  it('ready answers 503 migrations_pending when the last migration is not applied', async () => {
    const behind = await createTestDatabase();
    try {
      await behind.db.execute(
        sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
      );
      const res = await appOver(behind.db).request('/health/ready');
      expect((await envelopeOf(res, 503)).data).toEqual({ status: 'not_ready', reason: 'migrations_pending' });
      expect(res.headers.get('retry-after')).toBe('5');
    } finally {
      await behind.close();
    }
  });

  it('ready answers 503 database_unavailable, with no database text, when the database is closed', async () => {
    const closed = await createTestDatabase();
    await closed.close();
    const res = await appOver(closed.db).request('/health/ready', { headers: { 'accept-language': 'ar' } });
    const body = await envelopeOf(res, 503);
    expect(body).toEqual({ status: 503, message: message('service_unavailable', 'ar'), data: { status: 'not_ready', reason: 'database_unavailable' } });
    expect(JSON.stringify(body)).not.toMatch(/PGlite|closed|Error/);
  });

  it('a signed API call answers 503 service_unavailable with Retry-After and one line of facts when the database closes under a running app', async () => {
    const going = await createTestDatabase();
    const errors: ErrorLogLine[] = [];
    const running = appOver(going.db, errors);
    expect((await countries(running)).status).toBe(200);
    await going.close();
    const res = await countries(running, 'ar');
    const body = await envelopeOf(res, 503);
    expect(body.message).toBe(message('service_unavailable', 'ar'));
    expect(body.data).toEqual({ request_id: res.headers.get('x-request-id') });
    expect(res.headers.get('retry-after')).toBe('5');
    expect(errors).toEqual([
      {
        event: 'database_unavailable',
        request_id: res.headers.get('x-request-id'),
        method: 'POST',
        route: expect.any(String),
        error: 'DrizzleQueryError',
        code: 'connection_closed',
      },
    ]);
  });
});

/** A port free right now on loopback, so the wire server can come back on the same one. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

describe('PostgreSQL (node-postgres) going away and coming back', () => {
  let pglite: PGlite;
  let wire: PGLiteSocketServer | null = null;
  let port: number;
  let database: Database;

  const startWire = async () => {
    wire = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port, maxConnections: 20 });
    await wire.start();
  };

  beforeAll(async () => {
    pglite = await emptyPglite();
    port = await freePort();
    await startWire();
    // One connection: pglite-socket interleaves several connections' messages (hardening.test.ts).
    database = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/postgres`, poolSize: 1 });
    await seedDatabase(database.db);
  });
  afterAll(async () => {
    await database?.close();
    await wire?.stop();
    await pglite?.close();
  });

  it('answers 503 (never 500) while the server is stopped, and 200 again by itself once it is back', async () => {
    const errors: ErrorLogLine[] = [];
    const app = appOver(database.db, errors);
    expect((await countries(app)).status).toBe(200);
    expect((await app.request('/health/ready')).status).toBe(200);

    await wire!.stop();
    wire = null;
    for (let i = 0; i < 3; i += 1) {
      const res = await countries(app);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
    }
    expect((await envelopeOf(await app.request('/health/ready'), 503)).data).toEqual({ status: 'not_ready', reason: 'database_unavailable' });
    expect((await app.request('/health/live')).status).toBe(200);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((line) => line.event === 'database_unavailable')).toBe(true);

    await startWire();
    expect((await app.request('/health/ready')).status).toBe(200);
    expect((await countries(app)).status).toBe(200);
  });

  it('reads plans and traveller labels inside a transaction without pg\'s concurrent-queries warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      await database.db.transaction(async (tx) => {
        expect((await loadPlans(tx as unknown as Db)).length).toBeGreaterThan(0);
        expect((await travellerLabels(tx as unknown as Db, 'en')).countries.size).toBeGreaterThan(0);
      });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((text) => text.includes('already executing a query'))).toEqual([]);
  });
});
