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
import { embeddedDataDir, startEmbeddedDirectory, type StartedEmbedded } from './embedded-start';
import type { PgliteQueryable, PgliteThread } from './pglite-thread';

export { EMBEDDED_SETTINGS, embeddedDataDir } from './embedded-start';

export type Schema = typeof schema;
/** The one database type the app uses, whether PGlite or PostgreSQL is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball, used by tests to clone a seeded database. */
  dump?(): Promise<Blob>;
  /** A data directory this open created: from the template (a copy) or by initdb, and how long that took. */
  created?: { from: 'template' | 'initdb'; ms: number };
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseOptions =
  | { url: string; poolSize?: number }
  | {
      dataDir: string;
      /**
       * What a new directory is copied from: by default the current template (embedded-template.ts),
       * when there is one; null runs initdb (how a template itself is made).
       */
      template?: string | null;
      /** Its first half, begun already (main.ts starts PGlite before it loads the app). */
      started?: Promise<StartedEmbedded>;
    }
  | { memory: true; loadDataDir?: Blob };

/**
 * Opens PGlite (a directory, or memory) or PostgreSQL and applies the migrations: the database
 * layer and nothing above it. What a migration cannot compute in SQL (the contracts of orders
 * paid before 0008) is a start step of main.ts.
 */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options || 'dataDir' in options) return connectDatabase(options).opened;
  // In memory (tests): PGlite in this thread, where a test's queries are all there is.
  const client = await PGlite.create(options.loadDataDir ? { loadDataDir: options.loadDataDir } : undefined);
  return pgliteDatabase(client, async () => client.close(), async () => client.dumpDataDir('none'));
}

/**
 * A database on its way to open: its `db` exists at once, so main.ts builds the app and answers
 * the web app's pages while PGlite starts and the migrations run (issue 34 item 6); a query on
 * it waits until `opened` (migrated), and fails as the open failed. `dump` is the embedded
 * database's tarball, once open.
 */
export interface OpeningDatabase {
  db: Db;
  kind: Database['kind'];
  opened: Promise<Database>;
  dump?(): Promise<Blob>;
}

/** Starts opening PostgreSQL (`url`) or the embedded directory (`dataDir`); see OpeningDatabase. */
export function connectDatabase(options: Exclude<DatabaseOptions, { memory: true }>): OpeningDatabase {
  if ('url' in options) {
    const pool = postgresPool(options.url, options.poolSize ?? 10);
    const db = drizzlePg(pool, { schema });
    const opened = migratePg(db, { migrationsFolder }).then((): Database => ({ db: db as unknown as Db, kind: 'postgres', close: () => pool.end() }));
    return { db: db as unknown as Db, kind: 'postgres', opened };
  }
  const started = options.started ?? startEmbeddedDirectory(options.dataDir, options.template);
  const opened = openEmbeddedDirectory(started);
  const thread = opened.then(() => started).then(({ thread }) => thread);
  // Nothing may wait on these until a query does: the open's failure is its caller's to report.
  thread.catch(() => undefined);
  const db = drizzlePglite(new OpeningClient(thread) as unknown as PGlite, { schema }) as unknown as Db;
  return { db, kind: 'pglite', opened, dump: () => opened.then((database) => database.dump!()) };
}

/** drizzle-orm/pglite's client for a thread not open yet: each call waits for it (connectDatabase). */
class OpeningClient implements PgliteQueryable {
  constructor(private readonly thread: Promise<PgliteThread>) {}

  query(sql: string, params?: unknown[], options?: { rowMode?: 'array' | 'object' }): Promise<unknown> {
    return this.thread.then((thread) => thread.query(sql, params, options));
  }

  transaction<T>(callback: (tx: PgliteQueryable) => Promise<T>): Promise<T> {
    return this.thread.then((thread) => thread.transaction(callback));
  }
}

/**
 * How long a query may wait for a connection: an address that no longer answers (a failover
 * under way, packets dropped) is a 503 then, not a request left hanging for TCP's two minutes.
 * pg-pool counts a wait for a free connection in it too, so it sits well above any such wait
 * under load.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * node-postgres's pool, made to outlive the database (issue 34 item 1). A connection that the
 * database closes, resets or shuts down (`pg_ctl stop -m fast` sends 57P01 to every session, an
 * immediate stop or a failover resets the socket) emits 'error' on its Client; pg-pool listens
 * only while the client is idle, so a client checked out (every drizzle transaction checks one
 * out, and holds it across its queries) would crash the process with an unhandled 'error' event.
 * Every client gets a listener of its own when it connects: the query in flight fails into the
 * app's error handler (503 with Retry-After), the broken client is discarded at its release
 * (pg-pool drops a client that is not queryable) and the next query opens a new connection.
 * Logged by class and code only, like every error line.
 */
function postgresPool(url: string, max: number): pg.Pool {
  // keepAlive: a peer gone without a reset (a failover that moved the address) is found dead by TCP.
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
  const lost = (error: Error) => {
    const code = (error as { code?: unknown }).code;
    const line = { event: 'database_connection_lost', error: error.constructor.name, ...(typeof code === 'string' && /^([0-9A-Z]{5}|E[A-Z]+)$/.test(code) ? { code } : {}) };
    process.stderr.write(`${JSON.stringify(line)}\n`);
  };
  pool.on('connect', (client) => client.on('error', lost));
  // pg-pool repeats an idle client's error on the pool; the client's own listener has logged it.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * The server's embedded database: PGlite in a worker thread (pglite-thread.ts), so its
 * WebAssembly never holds the HTTP event loop, started by embedded-start.ts. The directory's lock
 * (embedded-lock.ts) is taken before anything creates or opens it and held until it is closed: a
 * second process is refused (EmbeddedDatabaseLocked) and never migrates, seeds or writes a
 * directory another one has open.
 */
async function openEmbeddedDirectory(started: Promise<StartedEmbedded>): Promise<Database> {
  const { thread, lock, created } = await started;
  try {
    const database = await pgliteDatabase(
      thread as unknown as PGlite,
      async () => {
        try {
          await thread.close();
        } finally {
          lock.release();
        }
      },
      () => thread.dump(),
    );
    return created ? { ...database, created } : database;
  } catch (error) {
    await thread.close().catch(() => undefined);
    lock.release();
    throw error;
  }
}

/** Drizzle over a PGlite client (in this thread or the worker's, or a test's lease of one), migrated. */
export async function pgliteDatabase(client: PGlite, close: () => Promise<void>, dump: () => Promise<Blob>): Promise<Database> {
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close, dump };
}

const configuredOptions = (config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolSize'>>, started?: Promise<StartedEmbedded> | null) =>
  config.databaseUrl ? { url: config.databaseUrl, poolSize: config.databasePoolSize } : { dataDir: embeddedDataDir(config), started: started ?? undefined };

/**
 * The database the configuration names: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR/pglite
 * (`started`: its start begun already, main.ts).
 */
export function openConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolSize'>>,
  started?: Promise<StartedEmbedded> | null,
): Promise<Database> {
  return connectDatabase(configuredOptions(config, started)).opened;
}

/** The same, on its way to open (OpeningDatabase): main.ts serves the pages meanwhile. */
export function connectConfiguredDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolSize'>>,
  started?: Promise<StartedEmbedded> | null,
): OpeningDatabase {
  return connectDatabase(configuredOptions(config, started));
}
