import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/**
 * One process per embedded PGlite data directory, enforced by the kernel (issue 34 item 2).
 * PGlite takes no lock of its own: its postmaster.pid names the WebAssembly "postmaster" (PID
 * -42), and a second PGlite opens a live directory without complaint. A second `npm start` on
 * the same folder then migrated and seeded it, and after the first server's next crash 4 of 20
 * paid orders were pending again; a pid file did not stop it (the second start left it naming a
 * dead process, and the CLI then opened the directory too).
 *
 * So every process that opens a data directory (the server, the broker CLI, a test) first takes
 * an exclusive lock on DATA_DIR/pglite.lock: an open-file-description lock (fcntl F_OFD_SETLK
 * on Linux, LockFileEx on Windows, through fs-native-extensions' prebuilt addon). The kernel
 * drops it when the holder's file is closed, which includes every way a process dies (SIGKILL,
 * OOM, a crash): there is no stale lock to detect, no heartbeat a stalled event loop could miss,
 * and a start after a crash takes the lock at once. (proper-lockfile's mkdir lock would make that
 * start wait out a stale time, which must be long enough that a busy machine's stall cannot
 * trip it: tens of seconds after every crash.) The lock file also says who holds it, for the
 * refusal line and the CLI; that text is advice, the lock is the kernel's.
 */

/** The lock file of a PGlite data directory: beside it (DATA_DIR/pglite.lock), never inside PostgreSQL's own files. */
export const lockFileOf = (pgliteDir: string) => `${path.resolve(pgliteDir)}.lock`;

/** What holds a data directory, as the holder wrote it into the lock file. */
export interface LockHolder {
  pid: number;
  /** When the holder took the lock (ISO 8601). */
  since: string;
  host: string;
  /** What the holder is: 'server', 'broker CLI', or another opener (a test, a restore). */
  role: string;
}

/** Another process holds the data directory; the message is the one line a refused start prints. */
export class EmbeddedDatabaseLocked extends Error {
  constructor(
    readonly pgliteDir: string,
    readonly holder: LockHolder | null,
  ) {
    super(`Refused: ${holderText(holder)} holds the embedded database ${path.resolve(pgliteDir)} (lock ${lockFileOf(pgliteDir)}). One process owns a PGlite data directory: stop that one first, or give this one a DATA_DIR of its own.`);
    this.name = 'EmbeddedDatabaseLocked';
  }
}

/** "the server (pid 123, since 2026-03-15T10:00:00.000Z)": who holds a directory, for a refusal. */
export function holderText(holder: LockHolder | null): string {
  if (!holder) return 'another process (one that is starting or stopping: it has not said who it is)';
  const host = holder.host === os.hostname() ? '' : ` on ${holder.host}`;
  return `the ${holder.role} (pid ${holder.pid}${host}, since ${holder.since})`;
}

interface FsNativeExtensions {
  tryLock(fd: number, offset?: number, length?: number, options?: { shared?: boolean }): boolean;
}

let extensions: FsNativeExtensions | null = null;
/** Loaded on first use: a server on PostgreSQL never needs it. */
function fsExtensions(): FsNativeExtensions {
  try {
    extensions ??= createRequire(import.meta.url)('fs-native-extensions') as FsNativeExtensions;
  } catch (error) {
    throw new Error(
      `The embedded database needs an operating-system file lock, and its addon (fs-native-extensions) does not load on ${process.platform}-${process.arch} (${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)}). Use DATABASE_URL (PostgreSQL) on this platform.`,
    );
  }
  return extensions;
}

const EMPTY_HOLDER_RETRIES = 20;

/** The holder named in a lock file, or null while it is empty (being taken or released) or unreadable. */
export function readLockHolder(pgliteDir: string): LockHolder | null {
  try {
    const parsed = JSON.parse(readFileSync(lockFileOf(pgliteDir), 'utf8')) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || typeof parsed.since !== 'string' || typeof parsed.host !== 'string' || typeof parsed.role !== 'string') return null;
    return { pid: parsed.pid, since: parsed.since, host: parsed.host, role: parsed.role };
  } catch {
    return null;
  }
}

/** A lock this process holds; `release` once per take. */
export interface EmbeddedLock {
  readonly file: string;
  release(): void;
}

/**
 * The locks this process holds, by file, with how many takers. An open-file-description lock
 * refuses a second open of the same file even in the same process, so the server's lock taken at
 * start (main.ts) and the one openDatabase takes are one lock, counted.
 */
const held = new Map<string, { fd: number; takers: number }>();

/**
 * Takes the lock of `pgliteDir` (creating DATA_DIR, and the lock file 0600, when missing) or
 * throws EmbeddedDatabaseLocked naming the holder. Never waits: a second server or CLI is
 * refused at once rather than queued behind a server that may run for months.
 */
export function lockEmbeddedDatabase(pgliteDir: string, role = 'process'): EmbeddedLock {
  const file = lockFileOf(pgliteDir);
  const mine = held.get(file);
  if (mine) {
    mine.takers += 1;
    return onceReleased(file);
  }
  const { tryLock } = fsExtensions();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Never through a link planted at its name (DATA_DIR is owner-only, but its files are checked anyway).
  const fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  let locked = false;
  try {
    locked = tryLock(fd);
  } finally {
    if (!locked) closeSync(fd);
  }
  if (!locked) {
    // The holder writes its name just after it takes the lock: an empty file is a start in progress.
    let holder = readLockHolder(pgliteDir);
    for (let attempt = 0; !holder && attempt < EMPTY_HOLDER_RETRIES; attempt += 1) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
      holder = readLockHolder(pgliteDir);
    }
    throw new EmbeddedDatabaseLocked(pgliteDir, holder);
  }
  const holder: LockHolder = { pid: process.pid, since: new Date().toISOString(), host: os.hostname(), role };
  ftruncateSync(fd, 0);
  writeSync(fd, `${JSON.stringify(holder)}\n`, 0);
  held.set(file, { fd, takers: 1 });
  // What the pid file of earlier versions left beside the directory names nobody now.
  rmSync(`${path.resolve(pgliteDir)}.pid`, { force: true });
  return onceReleased(file);
}

/** A handle whose first release drops one taker; the last one empties the file and unlocks it. */
function onceReleased(file: string): EmbeddedLock {
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      const mine = held.get(file);
      if (!mine || (mine.takers -= 1) > 0) return;
      held.delete(file);
      // Emptied, never removed: a process that opened the file just before a removal would lock
      // the removed inode while the next one locks a new file of the same name, and both would hold.
      try {
        ftruncateSync(mine.fd, 0);
      } finally {
        closeSync(mine.fd);
      }
    },
  };
}
