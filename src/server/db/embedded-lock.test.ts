import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdLockInAnotherProcess, tryLockInAnotherProcess } from '../../../tests/support/lock-holder';
import { openDatabase } from './client';
import { EmbeddedDatabaseLocked, lockEmbeddedDatabase, lockFileOf, readLockHolder } from './embedded-lock';

/**
 * Issue 34 item 2: one process per PGlite data directory, enforced by the kernel. The other
 * process is real (a lock is per open file: only another process shows what a second server gets).
 */

const dirs: string[] = [];
const holders: { kill: () => Promise<void> }[] = [];
function pgliteDir(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'safar-lock-'));
  dirs.push(root);
  return path.join(root, 'pglite');
}
afterEach(async () => {
  for (const holder of holders.splice(0)) await holder.kill();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the lock of an embedded data directory', () => {
  it('is taken beside the directory (DATA_DIR/pglite.lock, 0600), names this process while held and says nobody once released', () => {
    const dir = pgliteDir();
    const lock = lockEmbeddedDatabase(dir, 'server');
    expect(lock.file).toBe(`${dir}.lock`);
    expect(statSync(lock.file).mode & 0o777).toBe(0o600);
    const holder = readLockHolder(dir);
    expect(holder).toMatchObject({ pid: process.pid, role: 'server' });
    expect(Date.parse(holder!.since)).toBeGreaterThan(Date.now() - 60_000);
    lock.release();
    expect(readLockHolder(dir)).toBeNull();
  });

  it('refuses a second process at once, with one line naming the holder, its pid and since when', async () => {
    const dir = pgliteDir();
    const first = lockEmbeddedDatabase(dir, 'server');
    try {
      const second = await tryLockInAnotherProcess(dir);
      expect(second).toMatchObject({ held: false, holder: { pid: process.pid, role: 'server' } });
      const message = (second as { message: string }).message;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toContain(`the server (pid ${process.pid}, since ${readLockHolder(dir)!.since}) holds the embedded database ${dir}`);
    } finally {
      first.release();
    }
    expect(await tryLockInAnotherProcess(dir)).toEqual({ held: true });
  });

  it('refuses this process while another holds it, and goes with its holder: after a SIGKILL the next take succeeds at once', async () => {
    const dir = pgliteDir();
    const holder = await holdLockInAnotherProcess(dir, 'server');
    holders.push(holder);
    let refusal: unknown;
    try {
      lockEmbeddedDatabase(dir).release();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(EmbeddedDatabaseLocked);
    expect((refusal as EmbeddedDatabaseLocked).holder).toMatchObject({ pid: holder.pid, role: 'server' });

    await holder.kill();
    // The dead holder's name is still in the file: it is the kernel's lock that counts, not the text.
    expect(readLockHolder(dir)?.pid).toBe(holder.pid);
    const lock = lockEmbeddedDatabase(dir, 'server');
    expect(readLockHolder(dir)?.pid).toBe(process.pid);
    lock.release();
  });

  it('is counted within this process: the server\'s own take and the database\'s are one lock, released by the last', async () => {
    const dir = pgliteDir();
    const server = lockEmbeddedDatabase(dir, 'server');
    const database = lockEmbeddedDatabase(dir);
    database.release();
    // A release called twice does not drop the other taker's share.
    database.release();
    expect((await tryLockInAnotherProcess(dir)).held).toBe(false);
    server.release();
    expect(await tryLockInAnotherProcess(dir)).toEqual({ held: true });
  });

  it('takes over the pid file of earlier versions: it is removed, and a lock file left by a dead holder is no obstacle', () => {
    const dir = pgliteDir();
    const legacy = `${dir}.pid`;
    writeFileSync(legacy, '4123456\n');
    writeFileSync(lockFileOf(dir), `${JSON.stringify({ pid: 4_123_456, since: '2026-01-01T00:00:00.000Z', host: 'gone', role: 'server' })}\n`);
    const lock = lockEmbeddedDatabase(dir, 'server');
    expect(existsSync(legacy)).toBe(false);
    expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('openDatabase holds it from before the directory is created until it is closed: another process is refused meanwhile and takes it after', async () => {
    const dir = pgliteDir();
    const opening = openDatabase({ dataDir: dir });
    // Taken synchronously when the open begins, before the directory is copied or made by initdb.
    expect(readLockHolder(dir)?.pid).toBe(process.pid);
    const database = await opening;
    try {
      expect((await tryLockInAnotherProcess(dir)).held).toBe(false);
    } finally {
      await database.close();
    }
    expect(await tryLockInAnotherProcess(dir)).toEqual({ held: true });
  }, 120_000);

  it('a second open in another process is refused before it creates or changes anything', async () => {
    const dir = pgliteDir();
    const holder = await holdLockInAnotherProcess(dir, 'server');
    holders.push(holder);
    await expect(openDatabase({ dataDir: dir })).rejects.toBeInstanceOf(EmbeddedDatabaseLocked);
    expect(existsSync(dir)).toBe(false);
  });
});
