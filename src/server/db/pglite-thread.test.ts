import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailableCode } from '../health/database-health';
import { openDatabase, type Database } from './client';
import { PgliteThread, STALL_MS } from './pglite-thread';

/**
 * The server's embedded database runs PGlite in a worker thread (pglite-thread.ts): these tests
 * open a real data directory through openDatabase, as main.ts does, and check that the thread
 * keeps PGlite's own semantics (transactions, errors, closing) while the event loop stays free.
 */

const root = mkdtempSync(path.join(os.tmpdir(), 'safar-pglite-thread-'));
let database: Database;
const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

beforeAll(async () => {
  database = await openDatabase({ dataDir: path.join(root, 'pglite') });
  await database.db.execute(sql`create table thread_probe (id int primary key, note text)`);
}, 120_000);

afterAll(async () => {
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('embedded PGlite in its own thread', () => {
  it('runs a long query off the event loop: timers keep firing while the database works', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const started = performance.now();
    await database.db.execute(sql`select count(*) from generate_series(1, 3000000) as n where n % 7 = 0`);
    const ms = performance.now() - started;
    clearInterval(timer);
    // In this thread PGlite would hold the loop for the whole query: not one tick.
    expect(ms).toBeGreaterThan(100);
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(ms / 10 / 4));
  });

  it('commits a transaction, and rolls back one whose callback throws', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_probe values (1, 'kept')`);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_probe values (2, 'dropped')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(rowsOf(await database.db.execute(sql`select id from thread_probe order by id`))).toEqual([{ id: 1 }]);
  });

  it('keeps a query outside a transaction waiting until it ends, as PGlite in one thread does', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_probe values (3, 'rolled back')`);
      await held;
      throw new Error('rolled back');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Run inside the open transaction (one connection), it would see the row that is rolled back.
    const outside = database.db.execute(sql`select count(*)::int as n from thread_probe where id = 3`);
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    expect(rowsOf(await outside)).toEqual([{ n: 0 }]);
  });

  it("hands PostgreSQL's error fields across the thread (a unique violation is 23505)", async () => {
    const error: unknown = await database.db.execute(sql`insert into thread_probe values (1, 'again')`).catch((e: unknown) => e);
    const codes: unknown[] = [];
    for (let current = error as { code?: unknown; cause?: unknown } | undefined; current; current = current.cause as typeof current) codes.push(current.code);
    expect(codes).toContain('23505');
    expect(databaseUnavailableCode(error)).toBeNull();
  });

  it('dumps the data directory, which an in-memory PGlite opens with the same rows', async () => {
    const copy = await openDatabase({ memory: true, loadDataDir: await database.dump!() });
    try {
      expect(rowsOf(await copy.db.execute(sql`select id, note from thread_probe order by id`))).toEqual([{ id: 1, note: 'kept' }]);
    } finally {
      await copy.close();
    }
  });

  it('answers every call after closing as "database unavailable" (503), not as a bug', async () => {
    const other = await openDatabase({ dataDir: path.join(root, 'closing') });
    await other.close();
    const error: unknown = await other.db.execute(sql`select 1`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(databaseUnavailableCode(error)).toBe('connection_closed');
  }, 120_000);

  it('replaces a thread that stops answering (stalled here by pg_sleep inside a transaction, with a 500 ms watchdog instead of 30 s): the transaction and the query waiting behind it fail as unavailable (503), and a new thread on the same data answers with every commit and nothing of the lost transaction', async () => {
    const dataDir = path.join(root, 'stalling');
    const created = await openDatabase({ dataDir });
    await created.db.execute(sql`create table stall_probe (id int primary key)`);
    await created.close();
    const thread = await PgliteThread.open({ dataDir });
    try {
      await thread.query('insert into stall_probe values (1)');
      let begun!: () => void;
      const transactionBegun = new Promise<void>((resolve) => (begun = resolve));
      const transaction = thread
        .transaction(async (tx) => {
          await tx.query('insert into stall_probe values (2)');
          begun();
          // Shortened only for the hang, so a busy machine's slow setup is never taken for it.
          thread.stallAfter(500);
          // PGlite's WebAssembly holds its thread here, as it did on a full disk's WAL.
          await tx.query('select pg_sleep(600)');
        })
        .then(
          () => null,
          (error: unknown) => error,
        );
      await transactionBegun;
      const waiting = thread.query('select count(*) from stall_probe').catch((error: unknown) => error);
      expect(databaseUnavailableCode(await transaction)).toBe('connection_closed');
      expect(databaseUnavailableCode(await waiting)).toBe('connection_closed');
      thread.stallAfter(STALL_MS);
      await expect.poll(() => thread.query('select id from stall_probe order by id').then(rowsOf, () => null)).toEqual([{ id: 1 }]);
    } finally {
      await thread.close();
    }
  });
});
