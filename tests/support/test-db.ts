import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, pgliteDatabase, type Database } from '../../src/server/db/client';
import { leasePglite } from './pglite-pool';
import { seedDatabase } from '../../src/server/db/seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A key that changes whenever the migrations or the seed change. */
function templateKey(): string {
  const hash = createHash('sha256');
  const migrations = path.join(root, 'src/server/db/migrations');
  for (const file of readdirSync(migrations, { recursive: true }).map(String).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(readFileSync(path.join(migrations, file)));
  }
  for (const file of ['seed.ts', 'seed-data.ts', 'seed-catalogue.ts']) hash.update(readFileSync(path.join(root, 'src/server/db', file)));
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<Blob> | null = null;

/**
 * A migrated, seeded database snapshot. Built once (about 3 s) and kept in the temp folder,
 * so every test file after the first restores it in about half a second.
 */
function seededTemplate(): Promise<Blob> {
  template ??= (async () => {
    const file = path.join(os.tmpdir(), `safar-test-db-${templateKey()}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await openDatabase({ memory: true });
    // Test apps run the embedded sandbox (testConfig), where the demo coupons and agents belong.
    await seedDatabase(database.db, { demoData: true });
    const dump = await database.dump!();
    await database.close();
    const bytes = Buffer.from(await dump.arrayBuffer());
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    return new Blob([bytes]);
  })();
  return template;
}

/**
 * An admin URL of a throwaway PostgreSQL cluster (`npm run test:postgres` sets it). When set,
 * every test database is a real PostgreSQL database on it instead of PGlite in memory.
 */
const postgresAdminUrl = process.env.SAFAR_TEST_DATABASE_URL ?? '';

/** True when the tests run on a PostgreSQL server: PGlite-only tests (dumps, wire server, data directory) say so and run only on PGlite. */
export const onPostgres = postgresAdminUrl !== '';

/** Any fixed number: the session lock one test worker holds while it builds the template. */
const TEMPLATE_LOCK = 7_240_118;

let adminPool: pg.Pool | null = null;
function admin(): pg.Pool {
  // allowExitOnIdle: an idle admin pool must not keep a test worker alive.
  adminPool ??= new pg.Pool({ connectionString: postgresAdminUrl, max: 2, allowExitOnIdle: true });
  return adminPool;
}

function urlOf(database: string): string {
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

let postgresTemplate: Promise<string> | null = null;

/**
 * A migrated, seeded PostgreSQL database to copy with CREATE DATABASE … TEMPLATE, built once per
 * cluster and migrations/seed version. Test files run in parallel workers: the first one builds it
 * under an advisory lock while the others wait, and it is built under another name and renamed
 * when complete, so a worker that dies half-way never leaves a half-seeded template.
 */
function postgresTemplateName(): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `safar_template_${templateKey()}`;
    const client = await admin().connect();
    try {
      await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK]);
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (!rowCount) {
        const building = `${name}_building`;
        await client.query(`drop database if exists ${building} with (force)`);
        await client.query(`create database ${building}`);
        const database = await openDatabase({ url: urlOf(building) });
        try {
          await seedDatabase(database.db, { demoData: true });
        } finally {
          await database.close();
        }
        await client.query(`alter database ${building} rename to ${name}`);
        // A session left on the template would make every CREATE DATABASE … TEMPLATE fail.
        await client.query(`alter database ${name} with allow_connections false`);
      }
    } finally {
      await client.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK]).catch(() => {});
      client.release();
    }
    return name;
  })().catch((error: unknown) => {
    postgresTemplate = null;
    throw error;
  });
  return postgresTemplate;
}

/** A fresh copy of the seeded template on the PostgreSQL cluster, dropped again on close. */
async function createPostgresTestDatabase(): Promise<Database> {
  const template = await postgresTemplateName();
  const name = `safar_t_${randomBytes(6).toString('hex')}`;
  await admin().query(`create database ${name} template ${template}`);
  const drop = () => admin().query(`drop database if exists ${name} with (force)`).then(() => {});
  let database: Database;
  try {
    database = await openDatabase({ url: urlOf(name) });
  } catch (error) {
    await drop();
    throw error;
  }
  return {
    ...database,
    async close() {
      try {
        await database.close();
      } finally {
        await drop();
      }
    },
  };
}

/** A PGlite of this file's pool (pglite-pool.ts): released, it is put back as the template left it. */
export function leaseTestPglite(): ReturnType<typeof leasePglite> {
  return leasePglite(async () => PGlite.create({ loadDataDir: await seededTemplate() }));
}

/**
 * A throwaway, migrated and seeded database: PGlite in memory (a real PostgreSQL engine), or a
 * fresh database on a PostgreSQL server when SAFAR_TEST_DATABASE_URL is set.
 */
export async function createTestDatabase(): Promise<Database> {
  if (onPostgres) return createPostgresTestDatabase();
  const lease = await leaseTestPglite();
  try {
    return await pgliteDatabase(lease.client, lease.release, lease.dump);
  } catch (error) {
    await lease.release();
    throw error;
  }
}

/**
 * A fresh, empty PGlite (no migrations). Initialising one takes about 4 s, restoring a dump of
 * one about 0.5 s, so the dump is kept in the temp folder per PGlite version.
 */
export async function emptyPglite(): Promise<PGlite> {
  const manifest = fileURLToPath(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url));
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const file = path.join(os.tmpdir(), `safar-empty-pglite-${version}.tar`);
  if (existsSync(file)) return PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) });
  const db = await PGlite.create();
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
  renameSync(partial, file);
  return db;
}
