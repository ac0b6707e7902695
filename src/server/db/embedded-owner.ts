import { closeSync, constants, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Who has the embedded PGlite data directory open. PGlite takes no lock of its own: its
 * postmaster.pid names the WebAssembly "postmaster" (PID -42), not a process, and a second
 * PGlite opens the same directory without complaint (and removes that file when it closes).
 * So the process that opens the directory also writes its own PID beside it
 * (DATA_DIR/pglite.pid), and removes it when it closes; the broker CLI reads it to know
 * whether a running server holds the database, and then sends its command to that server
 * (admin/admin.routes.ts) instead of opening the directory a second time, which would lose
 * every write the server makes after it, once the server crashes (issue 18 item 2).
 */

/** The owner file of a PGlite data directory: beside it, never inside PostgreSQL's own files. */
export const ownerFileOf = (pgliteDir: string) => `${path.resolve(pgliteDir)}.pid`;

/** Whether a process with this PID exists (EPERM: it exists, under another user). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A positive PID on the first line of a file, or null (absent, unreadable, -42, junk). */
function pidInFile(file: string): number | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const first = text.split('\n', 1)[0]!.trim();
  if (!/^[1-9]\d{0,9}$/.test(first)) return null;
  return Number(first);
}

/** Who uses an embedded database: nobody, or the live process `pid`. */
export type EmbeddedDatabaseUse = { inUse: false } | { inUse: true; pid: number };

export interface OwnerCheckOptions {
  /** Defaults to processExists. */
  isAlive?: (pid: number) => boolean;
  /** This process: never counted as another user. Defaults to process.pid. */
  selfPid?: number;
}

/**
 * Whether another live process has `pgliteDir` open: the PID in its owner file, or a real
 * PID on the first line of postmaster.pid (a PGlite that writes one), when that process
 * exists. A file left by a process that died (killed, crashed) is not a user.
 */
export function embeddedDatabaseUse(pgliteDir: string, options: OwnerCheckOptions = {}): EmbeddedDatabaseUse {
  const isAlive = options.isAlive ?? processExists;
  const self = options.selfPid ?? process.pid;
  for (const file of [ownerFileOf(pgliteDir), path.join(pgliteDir, 'postmaster.pid')]) {
    const pid = pidInFile(file);
    if (pid !== null && pid !== self && isAlive(pid)) return { inUse: true, pid };
  }
  return { inUse: false };
}

/**
 * Records this process as the user of `pgliteDir`; the returned function removes the record
 * if it is still this process's (a later owner's is left alone). Never throws: the record is
 * advice for the broker CLI, not something the database needs.
 */
export function claimEmbeddedDatabase(pgliteDir: string, pid = process.pid): () => void {
  const file = ownerFileOf(pgliteDir);
  try {
    // Owner-only like all of DATA_DIR, and never written through a link planted at its name.
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o600);
    try {
      writeFileSync(fd, `${pid}\n`);
    } finally {
      closeSync(fd);
    }
  } catch {
    return () => {};
  }
  return () => {
    try {
      if (pidInFile(file) === pid) rmSync(file, { force: true });
    } catch {
      // Already gone or unreadable: nothing to release.
    }
  };
}
