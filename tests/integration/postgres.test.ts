import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countriesEndpoint, travelConfigsEndpoint } from '../../src/contract/reference.endpoints';
import { signedHeaders } from '../support/signed-request';
import { createApp } from '../../src/server/app';
import { openDatabase, type Database } from '../../src/server/db/client';
import { seedDatabase } from '../../src/server/db/seed';
import { testConfig, TEST_SIGNING_SECRET } from '../support/test-app';
import { errorCodes } from './expect-envelope';
import { emptyPglite } from '../support/test-db';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

type App = ReturnType<typeof createApp>;

let pglite: PGlite;
let wire: PGLiteSocketServer;
/** The most client connections open at one time, to prove the pool really used several. */
let peakConnections = 0;
let url: string;
const opened: Database[] = [];

/** Rows of a raw query; Db is typed over both drivers, so its execute() result is opaque. */
async function rows(database: Database, query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]> {
  return ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
}

function appOver(database: Database): App {
  return createApp({
    db: database.db,
    config: testConfig(),
    staticDir: null,
    logError: () => {},
  });
}

async function open(): Promise<Database> {
  const database = await openDatabase({ url });
  opened.push(database);
  return database;
}

/** A signed request as bytes and headers, so the very same request can be sent twice. */
async function signed(apiPath: string, body: unknown, nowMs = Date.now()) {
  const text = JSON.stringify(body);
  const init = { method: 'POST', body: text, headers: await signedHeaders(TEST_SIGNING_SECRET, text, nowMs) };
  return (app: App) => app.request(apiPath, init);
}

beforeAll(async () => {
  pglite = await emptyPglite();
  // pglite-socket speaks the PostgreSQL wire protocol over PGlite, so the node-postgres driver,
  // its pool and the drizzle migrator run exactly as they would against a PostgreSQL server.
  wire = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 20 });
  wire.addEventListener('connection', () => {
    peakConnections = Math.max(peakConnections, wire.getStats().activeConnections);
  });
  await wire.start();
  url = `postgres://postgres@${wire.getServerConn()}/postgres`;
});
afterAll(async () => {
  for (const database of opened) await database.close();
  await wire?.stop();
  await pglite?.close();
});

describe('PostgreSQL through node-postgres (DATABASE_URL)', () => {
  let database: Database;
  let app: App;

  beforeAll(async () => {
    database = await open();
    await seedDatabase(database.db);
    app = appOver(database);
  });

  it('opens as postgres and applies the migrations', async () => {
    expect(database.kind).toBe('postgres');
    const journal = JSON.parse(readFileSync(new URL('../../src/server/db/migrations/meta/_journal.json', import.meta.url), 'utf8')) as {
      entries: unknown[];
    };
    expect(await rows(database, sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).toEqual([{ n: journal.entries.length }]);
    const tables = await rows(database, sql`select table_name from information_schema.tables where table_schema = 'public'`);
    expect(tables.map((row) => row.table_name)).toEqual(
      expect.arrayContaining(['countries', 'insurers', 'master_items', 'request_nonces', 'settings']),
    );
  });

  it('serves reference data from the seeded database', async () => {
    const res = await (await signed(countriesEndpoint.path, { lang: 'ar' }))(app);
    expect(res.status).toBe(200);
    const { countries } = (await res.json()).data as { countries: { id: number; name: string }[] };
    expect(countries.length).toBeGreaterThanOrEqual(249);
    expect(countries.find((c) => c.id === 422)?.name).toBe('لبنان');
  });

  it('refuses a replayed request with 401 nonce_reused', async () => {
    const send = await signed(travelConfigsEndpoint.path, { lang: 'en' });
    expect((await send(app)).status).toBe(200);
    expect(await errorCodes(await send(app), 401)).toEqual({ signature: 'nonce_reused' });
  });

  it('answers concurrent requests over several pool connections', async () => {
    const sends = await Promise.all(
      Array.from({ length: 24 }, (_, i) => signed(travelConfigsEndpoint.path, { lang: i % 2 ? 'ar' : 'en' }, Date.now() + i)),
    );
    const statuses = await Promise.all(sends.map(async (send) => (await send(app)).status));
    expect(statuses).toEqual(sends.map(() => 200));
    expect(peakConnections).toBeGreaterThan(1);
  });

  it('refuses on a second instance (its own pool, same database) a request the first one saw', async () => {
    const second = await open();
    const secondApp = appOver(second);
    const send = await signed(countriesEndpoint.path, { lang: 'en', isDropdown: true });
    expect((await send(app)).status).toBe(200);
    expect(await errorCodes(await send(secondApp), 401)).toEqual({ signature: 'nonce_reused' });
  });

  it('re-running migrations and seed on an existing database changes nothing', async () => {
    const count = () =>
      rows(database, sql`select (select count(*) from countries)::int as c, (select count(*) from master_items)::int as m`);
    const before = await count();
    const again = await open();
    await seedDatabase(again.db);
    expect(await count()).toEqual(before);
  });

  it('answers 422, not 5xx, for an id beyond PostgreSQL integer', async () => {
    const send = await signed(countriesEndpoint.path, { lang: 'en', insurance_provider_id: 2147483648 });
    expect(await errorCodes(await send(app), 422)).toEqual({ insurance_provider_id: 'out_of_range' });
  });
});
