import { mkdirSync } from 'node:fs';
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
import { claimEmbeddedDatabase } from './embedded-owner';

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
  | { url: string }
  | { dataDir: string }
  | { memory: true; loadDataDir?: Blob };

/**
 * Opens PGlite (a directory, or memory) or PostgreSQL, applies the migrations and fills in what
 * a migration cannot compute in SQL (the contracts of orders paid before 0008).
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection that drops (the database restarted or went away) must not crash the
    // process with an unhandled 'error': pg-pool discards that client and the next query fails
    // into the app's error handler. Logged by class only, like every error line.
    pool.on('error', (error) => process.stderr.write(`${JSON.stringify({ event: 'database_connection_lost', error: error.constructor.name })}\n`));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    await backfillOrderContracts(db as unknown as Db);
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  let client: PGlite;
  // A directory is recorded as this process's while open, for the broker CLI (embedded-owner.ts).
  let release = () => {};
  if ('dataDir' in options) {
    mkdirSync(options.dataDir, { recursive: true });
    client = await PGlite.create(options.dataDir);
    release = claimEmbeddedDatabase(options.dataDir);
  } else {
    client = await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : undefined);
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  await backfillOrderContracts(db as unknown as Db);
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    close: async () => {
      try {
        await client.close();
      } finally {
        release();
      }
    },
    dump: async () => client.dumpDataDir('none'),
  };
}

/** The database the configuration names: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR/pglite. */
export function openConfiguredDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  return openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: embeddedDataDir(config) });
}

export function embeddedDataDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pglite');
}
