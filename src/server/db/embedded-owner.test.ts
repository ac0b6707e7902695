import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { claimEmbeddedDatabase, embeddedDatabaseUse, ownerFileOf, processExists } from './embedded-owner';

/**
 * Issue 17 item 16: the broker CLI said "stop the server" on every run. It now speaks up only
 * when another live process has the embedded database open, which PGlite's own postmaster.pid
 * cannot tell (it always says -42), so the opener records its PID beside the data directory.
 */

const dirs: string[] = [];
function dataDir(): { dataDir: string; pglite: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'safar-owner-'));
  dirs.push(root);
  const pglite = path.join(root, 'pglite');
  mkdirSync(pglite);
  return { dataDir: root, pglite };
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A live process that is not this one, stopped at the end of the test. */
async function otherLiveProcess(): Promise<{ pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  return { pid: child.pid!, stop: () => child.kill() };
}

describe('who uses the embedded database', () => {
  it('nobody: no owner file and no postmaster.pid, so the CLI opens it itself', () => {
    const { pglite } = dataDir();
    expect(embeddedDatabaseUse(pglite)).toEqual({ inUse: false });
  });

  it("PGlite's own postmaster.pid (PID -42) left after a crash is no user", () => {
    const { pglite } = dataDir();
    writeFileSync(path.join(pglite, 'postmaster.pid'), '-42\n/pglite/data\n1795621764\n5432\n');
    expect(embeddedDatabaseUse(pglite)).toEqual({ inUse: false });
  });

  it('a running server (a live process in the owner file): in use by that PID, so the CLI goes through it', async () => {
    const { pglite } = dataDir();
    const server = await otherLiveProcess();
    try {
      writeFileSync(ownerFileOf(pglite), `${server.pid}\n`);
      expect(embeddedDatabaseUse(pglite)).toEqual({ inUse: true, pid: server.pid });
    } finally {
      server.stop();
    }
  });

  it('a server that was killed (its PID no longer exists): not in use', () => {
    const { pglite } = dataDir();
    writeFileSync(ownerFileOf(pglite), '4123456\n');
    expect(processExists(4_123_456)).toBe(false);
    expect(embeddedDatabaseUse(pglite)).toEqual({ inUse: false });
  });

  it('a real PID on the first line of postmaster.pid counts when that process lives', () => {
    const { pglite } = dataDir();
    writeFileSync(path.join(pglite, 'postmaster.pid'), '777\n/data\n');
    expect(embeddedDatabaseUse(pglite, { isAlive: (pid) => pid === 777 })).toEqual({ inUse: true, pid: 777 });
    expect(embeddedDatabaseUse(pglite, { isAlive: () => false })).toEqual({ inUse: false });
  });

  it('this process is never "another user"', () => {
    const { pglite } = dataDir();
    claimEmbeddedDatabase(pglite);
    expect(embeddedDatabaseUse(pglite)).toEqual({ inUse: false });
    expect(embeddedDatabaseUse(pglite, { selfPid: 1 })).toEqual({ inUse: true, pid: process.pid });
  });

  it('opening the embedded database records this process while open and removes the record on close', async () => {
    const { pglite } = dataDir();
    const database = await openDatabase({ dataDir: pglite });
    try {
      expect(embeddedDatabaseUse(pglite, { selfPid: 1 })).toEqual({ inUse: true, pid: process.pid });
    } finally {
      await database.close();
    }
    expect(existsSync(ownerFileOf(pglite))).toBe(false);
    expect(embeddedDatabaseUse(pglite, { selfPid: 1 })).toEqual({ inUse: false });
  }, 60_000);
});
