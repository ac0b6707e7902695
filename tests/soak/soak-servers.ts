import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { todayIso } from '../../src/contract/dates';
import { openDatabase, type Database } from '../../src/server/db/client';
import { seedDatabase } from '../../src/server/db/seed';
import { addCoupon } from '../../src/server/orders/coupon-admin';
import { bundleServer } from '../../src/server/server-bundle';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * Where a soak runs: a temporary DATA_DIR (embedded PGlite in DATA_DIR/pglite, mail in
 * DATA_DIR/outbox) or, with --database-url, a database of its own created on that PostgreSQL
 * server (dropped afterwards), so every count read at the end is this run's. One or more real
 * server processes (tests/support/server-process.ts) run on it.
 */

export interface SoakTargetOptions {
  /** A PostgreSQL server URL; empty: embedded PGlite. */
  databaseUrl: string;
  instances: number;
  /** Keep the data directory and the database afterwards (their paths are printed). */
  keep: boolean;
}

/** The two soak coupons: a 10 % one and a 100 % one, each limited below the journeys that try it. */
export interface SoakCoupon {
  code: string;
  percent: number;
  limit: number;
}

export interface SoakTarget {
  kind: 'pglite' | 'postgres';
  dataDir: string;
  outboxDir: string;
  /** This run's own database URL (postgres), or '' (PGlite). */
  databaseUrl: string;
  coupons: SoakCoupon[];
  /** Opens the run's database (PGlite only while no server holds it). */
  open(): Promise<Database>;
  cleanup(): Promise<void>;
}

/** Creates the data directory (and the PostgreSQL database), migrates, seeds, and adds the coupons as the broker would. */
export async function prepareTarget(options: SoakTargetOptions, coupons: SoakCoupon[]): Promise<SoakTarget> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-soak-'));
  try {
    return await prepareIn(dataDir, options, coupons);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function prepareIn(dataDir: string, options: SoakTargetOptions, coupons: SoakCoupon[]): Promise<SoakTarget> {
  let databaseUrl = '';
  let dropDatabase = async () => {};
  if (options.databaseUrl) {
    const name = `safar_soak_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: options.databaseUrl });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
    } finally {
      await admin.end();
    }
    const url = new URL(options.databaseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDatabase = async () => {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    };
  }
  const open = () => openDatabase(databaseUrl ? { url: databaseUrl } : { dataDir: path.join(dataDir, 'pglite') });
  const database = await open();
  try {
    await seedDatabase(database.db);
    for (const coupon of coupons) {
      await addCoupon(database.db, { code: coupon.code, type: 'percent', value: String(coupon.percent), limit: String(coupon.limit) }, todayIso(Date.now()));
    }
  } finally {
    await database.close();
  }
  return {
    kind: databaseUrl ? 'postgres' : 'pglite',
    dataDir,
    outboxDir: path.join(dataDir, 'outbox'),
    databaseUrl,
    coupons,
    open,
    async cleanup() {
      if (options.keep) {
        console.log(`kept: DATA_DIR=${dataDir}${databaseUrl ? ` DATABASE_URL=${databaseUrl}` : ''}`);
        return;
      }
      await dropDatabase().catch((error: unknown) => console.warn(`could not drop the soak database: ${String(error)}`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/* ------------------------------------------------------------------------------------------- */
/* Server processes                                                                             */
/* ------------------------------------------------------------------------------------------- */

export interface Instance {
  index: number;
  port: number;
  base: string;
  server: ServerProcess;
  /** The launcher and every process under it once ready: none may outlive a stop or a kill. */
  pids: number[];
  /** The insurer API its quotes call: its sandbox thread's address from its "listening" line, else the sandbox at its own address. */
  insurerUrl: string;
}

/** Starts one server on the target; resolves once /health/ready answers 200, with the ms it took. */
export async function startInstance(target: SoakTarget, index: number, port?: number): Promise<{ instance: Instance; readyMs: number }> {
  const chosen = port ?? (await freePort());
  const base = `http://127.0.0.1:${chosen}`;
  // The server as `npm start` runs it: the bundle under plain node (built when a source is newer).
  await bundleServer();
  const started = performance.now();
  const server = startServerProcess(
    {
    PORT: String(chosen),
    DATA_DIR: target.dataDir,
    DATABASE_URL: target.databaseUrl,
    // Return and feedback addresses must reach this very process (localhost may resolve to ::1).
    PUBLIC_URL: base,
    // Each simulated customer comes from an address of its own (X-Forwarded-For), as behind a proxy.
    TRUST_PROXY: 'true',
    LOG_REQUESTS: 'false',
    },
    { bundle: true },
  );
  await waitReady(base, server, 180_000);
  const readyMs = Math.round(performance.now() - started);
  const pids = server.child.pid === undefined ? [] : [server.child.pid, ...descendants(server.child.pid)];
  const listening = /\{"event":"listening".*\}/.exec(server.stdout())?.[0];
  const sandboxUrl = listening ? (JSON.parse(listening) as { insurer_sandbox_url?: string }).insurer_sandbox_url : undefined;
  return { instance: { index, port: chosen, base, server, pids, insurerUrl: sandboxUrl ?? `${base}/insurer-sandbox` }, readyMs };
}

/** Polls GET /health/ready until 200; fails if the process exits first or the deadline passes. */
export async function waitReady(base: string, server: ServerProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void server.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`the server exited before it was ready:\n${server.stderr().slice(-2000)}`);
    try {
      const res = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(2_000) });
      await res.body?.cancel().catch(() => undefined);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`not ready after ${timeoutMs} ms:\n${server.stderr().slice(-2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every process below `pid` (whatever the server starts). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (parent: number) => {
    for (const child of children.get(parent) ?? []) {
      out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** VmRSS of one process in MB (0 when it is gone). */
function rssMb(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The server's resident memory: its node process (worker threads are in it) and whatever it starts in turn. */
export function serverRssMb(instance: Instance): number {
  const pid = instance.server.child.pid;
  if (pid === undefined) return 0;
  return Math.round([pid, ...descendants(pid)].reduce((sum, child) => sum + rssMb(child), 0));
}

/**
 * Processes of these instances still alive 3 s after their end (an orphan would keep the port or
 * the data directory), as "pid command".
 */
export async function survivors(instances: readonly Instance[]): Promise<string[]> {
  const alive = () =>
    instances.flatMap((instance) => instance.pids).filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
  const deadline = Date.now() + 3_000;
  while (alive().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return alive().map((pid) => {
    try {
      return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim().slice(0, 120)}`;
    } catch {
      return String(pid);
    }
  });
}

/** SIGKILL, as a crash: whatever the server started, then the server; waits for the exit. */
export async function killHard(instance: Instance): Promise<void> {
  const pid = instance.server.child.pid;
  if (pid === undefined) return;
  for (const child of descendants(pid).reverse()) {
    try {
      process.kill(child, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  instance.server.child.kill('SIGKILL');
  await instance.server.exited;
}

/* ------------------------------------------------------------------------------------------- */
/* What the database and the outbox say afterwards                                              */
/* ------------------------------------------------------------------------------------------- */

/** The database's own words (drizzle wraps them as the cause of "Failed query: …"). */
function failureText(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  const text = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!;
}

/** One SQL count, or the error's text when the query fails (a table another change renamed). */
export async function countOf(database: Database, query: string): Promise<number | string> {
  try {
    const result = (await database.db.execute(sql.raw(query))) as unknown as { rows: { n: number | string }[] };
    return Number(result.rows[0]?.n ?? 0);
  } catch (error) {
    return `n/a (${failureText(error)})`;
  }
}

/** Rows of a query (empty on error, with the error printed once). */
export async function rowsOf<T>(database: Database, query: string): Promise<T[]> {
  try {
    const result = (await database.db.execute(sql.raw(query))) as unknown as { rows: T[] };
    return result.rows;
  } catch (error) {
    console.warn(`query failed: ${failureText(error)}`);
    return [];
  }
}

/** The .eml files in the outbox directory and how many distinct Message-IDs they carry. */
export function outboxFiles(outboxDir: string): { files: number; messageIds: number } {
  let names: string[];
  try {
    names = readdirSync(outboxDir).filter((name) => name.endsWith('.eml'));
  } catch {
    return { files: 0, messageIds: 0 };
  }
  const ids = new Set<string>();
  for (const name of names) {
    const head = readFileSync(path.join(outboxDir, name), 'utf8').split(/\r?\n\r?\n/, 1)[0] ?? '';
    ids.add(/^Message-ID:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? name);
  }
  return { files: names.length, messageIds: ids.size };
}
