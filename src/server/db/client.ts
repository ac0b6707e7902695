import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Config } from '../config';
import * as schema from './schema';
import { backfillOrderContracts } from '../orders/order-contract';
import { tightenDataDirModes } from '../data-dir-modes';
import { claimEmbeddedDatabase } from './embedded-owner';
import { PgliteThread } from './pglite-thread';

/**
 * PostgreSQL's memory settings for the embedded database. PGlite starts with initdb's 128 MB of
 * shared buffers inside its WebAssembly memory, which never shrinks once touched; the whole data
 * directory after 200 journeys is about 40 MB, of which 16 MB of buffers hold more than a third. With these,
 * the server idles at about 350 MB after a first start and 310 MB a minute after 200 concurrent
 * journeys, against 880–910 MB before (issue 18 item 3; commands and figures in the README).
 */
export const EMBEDDED_SETTINGS = { shared_buffers: '16MB', work_mem: '2MB', maintenance_work_mem: '16MB', temp_buffers: '2MB' };

export type Schema = typeof schema;
/** The one database type the app uses, whether PGlite or PostgreSQL is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, used by tests to clone a seeded database. */
  dump?(): Promise<Blob>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseOptions =
  | { url: string; poolSize?: number }
  | { dataDir: string }
  | { memory: true; loadDataDir?: Blob };

/**
 * Opens PGlite (a directory, or memory) or PostgreSQL, applies the migrations and fills in what
 * a migration cannot compute in SQL (the contracts of orders paid before 0008).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
    // An idle connection that drops (the database restarted or went away) must not crash the
    // process with an unhandled 'error': pg-pool discards that client and the next query fails
    // into the app's error handler. Logged by class only, like every error line.
    pool.on('error', (error) => process.stderr.write(`${JSON.stringify({ event: 'database_connection_lost', error: error.constructor.name })}\n`));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    await backfillOrderContracts(db as unknown as Db);
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  if ('dataDir' in options) return openEmbeddedDirectory(options.dataDir);
  // In memory (tests): PGlite in this thread, where a test's queries are all there is.
  const client = await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : undefined);
  return pgliteDatabase(client, async () => client.close(), async () => client.dumpDataDir('none'));
}

/**
 * The server's embedded database: PGlite in a worker thread (pglite-thread.ts), so its
 * WebAssembly never holds the HTTP event loop. The directory is recorded as this process's
 * while open, for the broker CLI (embedded-owner.ts).
 */
async function openEmbeddedDirectory(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await initEmbeddedDirectory(dataDir);
    // initdb's PGlite chmods its files 0666 whatever the umask (pglite-worker.ts masks that in the
    // server's own thread, not in this child): owner-only before anything else opens them.
    tightenDataDirModes(dataDir);
  }
  const thread = await PgliteThread.open({ dataDir, settings: EMBEDDED_SETTINGS });
  const release = claimEmbeddedDatabase(dataDir);
  try {
    return await pgliteDatabase(
      thread as unknown as PGlite,
      async () => {
        try {
          await thread.close();
        } finally {
          release();
        }
      },
      () => thread.dump(),
    );
  } catch (error) {
    await thread.close().catch(() => undefined);
    release();
    throw error;
  }
}

/**
 * Creates a new PGlite data directory (initdb) in a short-lived process. initdb grows memory
 * that this process would keep after it is freed (940 MB after a first open, against 460 MB on an
 * existing directory, measured before the settings above); a process of its own gives it all back.
 */
function initEmbeddedDirectory(dataDir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `require(${JSON.stringify(pglite)}).PGlite.create(${JSON.stringify(dataDir)}).then((db) => db.close())`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { env: {} }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`PGlite could not create ${dataDir}: ${stderr.trim().split('\n').at(-1) ?? error.message}`));
      else resolve();
    });
  });
}

/** Drizzle over a PGlite client (in this thread or the worker's), migrated and backfilled. */
async function pgliteDatabase(client: PGlite, close: () => Promise<void>, dump: () => Promise<Blob>): Promise<Database> {
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  await backfillOrderContracts(db as unknown as Db);
  return { db: db as unknown as Db, kind: 'pglite', close, dump };
}

/** The database the configuration names: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR/pglite. */
export function openConfiguredDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolSize'>>): Promise<Database> {
  return openDatabase(config.databaseUrl ? { url: config.databaseUrl, poolSize: config.databasePoolSize } : { dataDir: embeddedDataDir(config) });
}

export function embeddedDataDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pglite');
}
