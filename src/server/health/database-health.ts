import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { Db } from '../db/client';
import type { ResourceReason } from './resource-health';

/**
 * Connection-level codes: the network (node-postgres could not reach or lost the server), the
 * server shutting down or refusing connections (SQLSTATE 57P01–57P03: `pg_ctl stop -m fast` is
 * 57P01 on every session, `-m immediate` 57P01 or a reset socket, a crashed backend 57P02, a
 * server starting or in recovery 57P03), connection exceptions (class 08), too many connections
 * (53300), and a write on a server that is a standby now (25006 read_only_sql_transaction: a
 * failover that left the address on the old primary). A query's own error (a constraint, a type) is not one.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '25006',
]);

/** Errors without a code that mean the same: PGlite closed, a pg connection dropped or timed out. */
const UNAVAILABLE_MESSAGES = [
  /^PGlite is closed/,
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end/,
];

/**
 * The code that makes `error` (or an error it wraps, as Drizzle's DrizzleQueryError does) a
 * "database unavailable" failure, or null. The code is a fact safe to log; for an error that has
 * none, a fixed word stands for it. The message is read here, never returned or logged.
 */
export function databaseUnavailableCode(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return code;
    const text = (current as { message?: unknown }).message;
    if (typeof text === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(text))) return 'connection_closed';
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Why the server is not ready, as a code: never a database message. `starting`: main.ts is still
 * opening the database. disk_full and insufficient_resources come from the writes that failed
 * (health/resource-health.ts).
 */
export type NotReadyReason = 'starting' | 'database_unavailable' | 'database_timeout' | 'migrations_pending' | ResourceReason;

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../db/migrations');
let expected: { count: number; lastHash: string } | null = null;

/** The migrations this build ships (src/server/db/migrations), read once. */
function expectedMigrations() {
  if (!expected) {
    const files = readMigrationFiles({ migrationsFolder });
    expected = { count: files.length, lastHash: files.at(-1)?.hash ?? '' };
  }
  return expected;
}

class ReadinessTimeout extends Error {}

/**
 * Ready when the database answers `select 1` within `timeoutMs` and drizzle's migrations table
 * holds as many migrations as the journal, the journal's last one (by hash) among them.
 */
export async function readiness(db: Db, timeoutMs = 2000): Promise<{ ready: true } | { ready: false; reason: NotReadyReason }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ReadinessTimeout()), timeoutMs);
  });
  const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
  try {
    const applied = await Promise.race([
      (async () => {
        await db.execute(sql`select 1`);
        // A missing table (42P01) means no migration ran: not ready, for the same reason.
        try {
          return rowsOf(
            await db.execute(
              sql`select count(*)::int as count, bool_or(hash = ${expectedMigrations().lastHash}) as last from drizzle.__drizzle_migrations`,
            ),
          )[0];
        } catch (error) {
          if (databaseUnavailableCode(error)) throw error;
          return { count: 0, last: false };
        }
      })(),
      timeout,
    ]);
    const want = expectedMigrations();
    if (Number(applied?.count) < want.count || applied?.last !== true) return { ready: false, reason: 'migrations_pending' };
    return { ready: true };
  } catch (error) {
    return { ready: false, reason: error instanceof ReadinessTimeout ? 'database_timeout' : 'database_unavailable' };
  } finally {
    clearTimeout(timer);
  }
}
