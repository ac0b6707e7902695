import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DrizzleQueryError, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { writeFileAtomically } from '../../src/server/admin/embedded-backup';
import { createApp } from '../../src/server/app';
import { EMBEDDED_SETTINGS, openDatabase, type Database, type Db } from '../../src/server/db/client';
import { PgliteThread, STALL_MS } from '../../src/server/db/pglite-thread';
import { databaseUnavailableCode } from '../../src/server/health/database-health';
import * as t from '../../src/server/db/schema';
import { RESOURCE_WINDOW_MS } from '../../src/server/health/resource-health';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import { message } from '../../src/server/http/messages';
import { queueRenderedMailInTx } from '../../src/server/mail/outbox';
import { signedHeaders } from '../support/signed-request';
import { mountSmallDisk, type SmallDisk } from '../support/small-disk';
import { testConfig, TEST_SIGNING_SECRET } from '../support/test-app';
import { createTestDatabase, onPostgres } from '../support/test-db';
import { FIXED_NOW, leadBody } from './lead-fixtures';

/**
 * Issue 34 item 3: a full disk is an outage, not an error. The database's writes fail with
 * PostgreSQL's 53100 (PGlite's too: "could not extend file …: No space left on device"), the
 * outbox's .eml and a backup's file with ENOSPC; every request answers 503 with Retry-After in
 * the caller's language, never 500, /health/ready answers 503 disk_full, nothing half-written is
 * left, and writes work again as soon as there is room. The disk is a tmpfs of a few megabytes
 * this test mounts and fills (the tests run as root on Debian). Where mount is refused, the same
 * failures are injected at the edge (the database driver, the file system) and the test names say so.
 */

/** The file system's edge, used only when mount is refused: writes under these folders fail half-way with ENOSPC. */
const injected = vi.hoisted(() => ({ dirs: new Set<string>(), fds: new Set<number>() }));
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
const underInjected = (file: unknown) => typeof file === 'string' && [...injected.dirs].some((dir) => file.startsWith(`${dir}/`));

vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile: typeof fs.writeFile = async (file, data, options) => {
    if (!underInjected(file)) return fs.writeFile(file, data, options);
    // What a full disk leaves: the file created, part of it written.
    await fs.writeFile(file, typeof data === 'string' ? data.slice(0, 10) : Buffer.from(data as Uint8Array).subarray(0, 10), options);
    throw enospc();
  };
  return { ...fs, writeFile, default: { ...fs, writeFile } };
});
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const openSync = ((file: string, ...rest: unknown[]) => {
    const fd = (fs.openSync as (...args: unknown[]) => number)(file, ...rest);
    if (underInjected(file)) injected.fds.add(fd);
    return fd;
  }) as typeof fs.openSync;
  const writeFileSync = ((file: unknown, data: Uint8Array, ...rest: unknown[]) => {
    if (typeof file === 'number' && injected.fds.has(file)) {
      fs.writeSync(file, Buffer.from(data).subarray(0, 10));
      throw enospc();
    }
    return (fs.writeFileSync as (...args: unknown[]) => void)(file, data, ...rest);
  }) as typeof fs.writeFileSync;
  const closeSync = ((fd: number) => {
    injected.fds.delete(fd);
    fs.closeSync(fd);
  }) as typeof fs.closeSync;
  return { ...fs, openSync, writeFileSync, closeSync, default: { ...fs, openSync, writeFileSync, closeSync } };
});

/** Whether this machine lets the test mount a tmpfs; decided once, so every test name says which disk it used. */
function mountAllowed(): boolean {
  const probe = mountSmallDisk(1);
  probe?.remove();
  return probe !== null;
}
const canMount = mountAllowed();
const HOW = canMount ? 'a tmpfs the test mounts and fills' : 'mount refused: ENOSPC and 53100 injected at the file system and the database driver';

/** A small disk for files: a real tmpfs, or a folder whose writes the mocks above fail while it is "full". */
function fileDisk(sizeMb: number): SmallDisk {
  const real = canMount ? mountSmallDisk(sizeMb) : null;
  if (real) return real;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'safar-injected-disk-'));
  return {
    dir,
    fill: () => void injected.dirs.add(dir),
    free: () => void injected.dirs.delete(dir),
    remove() {
      injected.dirs.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL's own error on a full disk, as node-postgres and PGlite raise it, wrapped by Drizzle. */
function diskFullDatabaseError() {
  const cause = Object.assign(new (class DatabaseError extends Error {})('could not extend file "base/5/16400": No space left on device'), { code: '53100' });
  return new DrizzleQueryError('insert into "leads" (…) values (…)', [], cause);
}

/** A database whose disk can be filled and freed. */
interface DatabaseOnDisk {
  db: Db;
  fill(): Promise<void>;
  free(): Promise<void>;
  close(): Promise<void>;
}

/** PGlite's data directory (a copy of the seeded test database) on a tmpfs, opened as the server opens it: PGlite in its worker thread. */
async function pgliteOnSmallDisk(): Promise<DatabaseOnDisk> {
  const seeded = await createTestDatabase();
  const dump = await seeded.dump!();
  await seeded.close();
  // The seeded directory is about 42 MB; the rest is room for the WAL segment switched to below.
  const disk = mountSmallDisk(96)!;
  const dataDir = path.join(disk.dir, 'pglite');
  const loaded = await PGlite.create({ dataDir, loadDataDir: dump });
  await loaded.close();
  let database: Database | null = null;
  try {
    database = await openDatabase({ dataDir });
    // A fresh 16 MB WAL segment before the disk fills: PGlite cannot survive a WAL it cannot grow
    // (measured: its next query hangs; see the README), and this test is about the data files.
    await database.db.execute(sql`checkpoint`);
    await database.db.execute(sql`select pg_switch_wal()`);
  } catch (error) {
    await database?.close();
    disk.remove();
    throw error;
  }
  const opened = database;
  return {
    db: opened.db,
    fill: async () => disk.fill(),
    free: async () => disk.free(),
    async close() {
      await opened.close();
      disk.remove();
    },
  };
}

/** The uid and gid of the account the test cluster runs as (tests/postgres/cluster.ts): it must own a tablespace's folder. */
function postgresAccount(): { uid: number; gid: number } {
  const [, , uid, gid] = readFileSync('/etc/passwd', 'utf8').split('\n').find((line) => line.startsWith('postgres:'))?.split(':') ?? [];
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * A PostgreSQL test database whose customers and leads tables live in a tablespace on a tmpfs:
 * PostgreSQL's own 53100 when they must grow on the full disk (its WAL stays on the cluster's disk).
 */
async function postgresOnSmallDisk(): Promise<DatabaseOnDisk> {
  const disk = mountSmallDisk(8, { mode: '0755' })!;
  const location = path.join(disk.dir, 'tablespace');
  mkdirSync(location, { mode: 0o700 });
  const { uid, gid } = postgresAccount();
  chownSync(location, uid, gid);
  const tablespace = `safar_small_disk_${process.pid}`;
  const database = await createTestDatabase();
  try {
    await database.db.execute(sql.raw(`create tablespace ${tablespace} location '${location}'`));
    await database.db.execute(sql.raw(`alter table customers set tablespace ${tablespace}`));
    await database.db.execute(sql.raw(`alter table leads set tablespace ${tablespace}`));
  } catch (error) {
    await database.close();
    disk.remove();
    throw error;
  }
  return {
    db: database.db,
    fill: async () => disk.fill(),
    free: async () => disk.free(),
    async close() {
      await database.close();
      // The test database is dropped by now, and the tablespace with nothing in it.
      const admin = await createTestDatabase();
      try {
        await admin.db.execute(sql.raw(`drop tablespace if exists ${tablespace}`));
      } finally {
        await admin.close();
      }
      disk.remove();
    },
  };
}

/** Mount refused: the test database, its inserts and transactions failing with 53100 at the driver while "full". */
async function injectedDiskFull(): Promise<DatabaseOnDisk> {
  const database = await createTestDatabase();
  let full = false;
  const db = new Proxy(database.db, {
    get(target, key, receiver) {
      if (full && (key === 'insert' || key === 'transaction')) {
        return () => {
          throw diskFullDatabaseError();
        };
      }
      return Reflect.get(target, key, receiver) as unknown;
    },
  }) as Db;
  return {
    db,
    fill: async () => void (full = true),
    free: async () => void (full = false),
    close: () => database.close(),
  };
}

/** The app over `db` on a clock the test moves (a signed request's nonce is its time, so each one moves it by a millisecond). */
function appOn(db: Db, outboxDir: string) {
  const clock = { now: FIXED_NOW };
  const errors: ErrorLogLine[] = [];
  const app = createApp({ db, config: testConfig({ outboxDir }), staticDir: null, now: () => clock.now, logError: (line) => errors.push(line) });
  const post = async (apiPath: string, body: unknown) => {
    clock.now += 1;
    const text = JSON.stringify(body);
    return app.request(apiPath, { method: 'POST', body: text, headers: await signedHeaders(TEST_SIGNING_SECRET, text, clock.now) });
  };
  return { app, clock, errors, post };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function expectFullDiskIsAnOutage(target: DatabaseOnDisk) {
  cleanups.push(() => target.close());
  const outbox = mkdtempSync(path.join(os.tmpdir(), 'safar-outbox-'));
  cleanups.push(() => rmSync(outbox, { recursive: true, force: true }));
  const { app, clock, errors, post } = appOn(target.db, outbox);
  expect((await post(addCustomerLeadEndpoint.path, leadBody({ lang: 'ar' }))).status).toBe(200);

  await target.fill();
  // A write that lands in a page with room still works on a full disk; customers keep saving
  // until one needs the disk to grow. Every answer meanwhile is a 200 or a 503, never a 500.
  const statuses: number[] = [];
  let refused: Response | null = null;
  for (let attempt = 0; attempt < 250 && !refused; attempt += 1) {
    const res = await post(addCustomerLeadEndpoint.path, leadBody({ lang: 'ar' }));
    statuses.push(res.status);
    if (res.status !== 200) refused = res;
  }
  expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
  expect(refused?.status).toBe(503);
  expect(refused!.headers.get('retry-after')).toBe('5');
  expect(await refused!.json()).toEqual({ status: 503, message: message('service_unavailable', 'ar'), data: { request_id: refused!.headers.get('x-request-id') } });
  expect(errors).toContainEqual({
    event: 'resources_exhausted',
    request_id: refused!.headers.get('x-request-id'),
    method: 'POST',
    route: addCustomerLeadEndpoint.path,
    error: expect.any(String),
    code: '53100',
  });
  // `select 1` still works on a full disk: readiness knows from the write that failed.
  const notReady = await app.request('/health/ready', { headers: { 'accept-language': 'ar' } });
  expect(notReady.status).toBe(503);
  expect(notReady.headers.get('retry-after')).toBe('5');
  expect(await notReady.json()).toEqual({ status: 503, message: message('service_unavailable', 'ar'), data: { status: 'not_ready', reason: 'disk_full' } });

  await target.free();
  expect((await post(addCustomerLeadEndpoint.path, leadBody({ lang: 'en' }))).status).toBe(200);
  clock.now += RESOURCE_WINDOW_MS;
  expect((await app.request('/health/ready')).status).toBe(200);
}

/**
 * One of three, by where the suite runs (no variant is skipped): PGlite's own data directory on a
 * tmpfs, PostgreSQL's tablespace on one, or, where mounting is refused, the same failures injected
 * at the file system and the database driver.
 */
const fullDisk = !canMount
  ? { title: `the database on a full disk (${HOW})`, target: injectedDiskFull }
  : onPostgres
    ? { title: `PostgreSQL's tablespace on a full disk (${HOW})`, target: postgresOnSmallDisk }
    : { title: `PGlite's data directory on a full disk (${HOW}; PGlite only: its own data directory)`, target: pgliteOnSmallDisk };

describe(`${fullDisk.title}`, () => {
  it('customers saving trips get 503 with Retry-After in Arabic once a write needs the disk (53100, never 500), /health/ready answers 503 disk_full, and both work again once there is room', async () => {
    await expectFullDiskIsAnOutage(await fullDisk.target());
  }, 120_000);
});

describe(`the outbox and a backup on a full disk (${HOW})`, () => {
  it('an e-mail whose .eml cannot be written leaves no file and no half file, its row stays pending with DiskFullError, /health/ready answers 503 disk_full, and it is sent once when there is room', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const disk = fileDisk(4);
    cleanups.push(() => disk.remove());
    const outbox = path.join(disk.dir, 'outbox');
    const { app, clock, errors } = appOn(database.db, outbox);
    const id = await queueRenderedMailInTx(
      database.db,
      'share-quotes',
      { leadId: null, to: 'rania@example.com', subject: 'Your quotes', text: 'x'.repeat(64 * 1024), html: '<p>quotes</p>' },
      clock.now,
    );
    const left = () => readdirSync(disk.dir, { recursive: true }).map(String).filter((name) => name.includes('.eml'));

    disk.fill();
    await app.mailWorker.drain();
    expect(left()).toEqual([]);
    const [row] = await database.db.select().from(t.outbox).where(eq(t.outbox.id, id));
    expect(row).toEqual(expect.objectContaining({ status: 'pending', lastError: 'DiskFullError' }));
    expect(errors).toContainEqual(expect.objectContaining({ event: 'policy_mail_failed', outbox_id: id, final: false, error: 'DiskFullError', code: 'ENOSPC' }));
    const notReady = await app.request('/health/ready');
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual(expect.objectContaining({ data: { status: 'not_ready', reason: 'disk_full' } }));

    disk.free();
    // Past any wait the outbox set for the row, and past readiness's window.
    clock.now += Math.max(RESOURCE_WINDOW_MS, 60_000);
    await app.mailWorker.drain();
    const [sent] = await database.db.select().from(t.outbox).where(eq(t.outbox.id, id));
    expect(sent?.status).toBe('sent');
    expect(left()).toHaveLength(1);
    expect(left()[0]).toMatch(new RegExp(`-share-quotes-${id}\\.eml$`));
    expect((await app.request('/health/ready')).status).toBe(200);
  });

  it('a backup bigger than the room left fails with ENOSPC and leaves neither FILE nor FILE.partial', async () => {
    const disk = fileDisk(2);
    cleanups.push(() => disk.remove());
    if (!canMount) disk.fill();
    const file = path.join(disk.dir, 'safar.tar.gz');
    const written = writeFileAtomically(file, async () => new Uint8Array(4 * 1024 * 1024).fill(7));
    await expect(written).rejects.toMatchObject({ code: 'ENOSPC' });
    expect(readdirSync(disk.dir).filter((name) => name.startsWith('safar.tar.gz'))).toEqual([]);
  });
});

describe(`PGlite's WAL on a full disk (${canMount ? 'a tmpfs the test mounts and fills' : 'mount refused: the hang injected with pg_sleep'}; a 1 s watchdog instead of 30 s for the hang)`, () => {
  it('the write that cannot create a WAL segment fails with 53100, the thread that then stops answering is replaced so calls fail fast as unavailable (503) instead of hanging, and once there is room a new thread answers with every commit', async () => {
    const disk = canMount ? mountSmallDisk(64) : null;
    const dir = disk?.dir ?? mkdtempSync(path.join(os.tmpdir(), 'safar-wal-'));
    cleanups.push(() => (disk ? disk.remove() : rmSync(dir, { recursive: true, force: true })));
    const dataDir = path.join(dir, 'pglite');
    const created = await openDatabase({ dataDir });
    await created.close();
    const thread = await PgliteThread.open({ dataDir, settings: EMBEDDED_SETTINGS });
    cleanups.push(() => thread.close());
    await thread.query('create table wal_probe (id serial primary key, pad text)');
    const batch = () => thread.query('insert into wal_probe (pad) select md5(random()::text) from generate_series(1, 200)');
    let committed = 0;
    let failure: unknown = null;
    if (disk) {
      // Full, then 8 MB back: room for the table to grow, none for the WAL's next 16 MB segment.
      disk.fill();
      const filler = path.join(dir, 'filler');
      truncateSync(filler, statSync(filler).size - 8 * 1024 * 1024);
      while (!failure && committed < 200_000) failure = await batch().then(() => ((committed += 200), null), (error: unknown) => error);
    } else {
      await batch();
      committed = 200;
    }
    // On the real disk, the first failure is the WAL's: the table still had room.
    const seen = failure as { code?: string; message?: string } | null;
    expect({ code: seen?.code ?? null, onWal: /pg_wal/.test(seen?.message ?? '') }).toEqual(disk ? { code: '53100', onWal: true } : { code: null, onWal: false });
    // PGlite's next query never returns (measured: not even once there is room); the watchdog ends
    // the wait. Shortened only now: with 1 s from the start, a busy machine's slow insert above was
    // once taken for the stall, and the setup failed as "replaced".
    thread.stallAfter(1_000);
    const next = await (disk ? batch() : thread.query('select pg_sleep(600)')).catch((error: unknown) => error);
    expect(databaseUnavailableCode(next)).toBe('connection_closed');
    thread.stallAfter(STALL_MS);
    disk?.free();
    await expect.poll(() => thread.query('select count(*)::int as n from wal_probe').then((result) => (result as { rows: unknown[] }).rows, () => null)).toEqual([{ n: committed }]);
  });
});
