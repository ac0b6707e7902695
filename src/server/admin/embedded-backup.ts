import { closeSync, constants, existsSync, fsyncSync, lstatSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { gunzipSync, gzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/client';
import { lockFileOf } from '../db/embedded-lock';
import { tightenDataDirModes } from '../data-dir-modes';

/**
 * Backup and restore of the embedded PGlite database (issue 18 item 8): a backup is the data
 * directory as a gzipped tarball (PGlite's dumpDataDir), a restore swaps a directory rebuilt
 * from one in place of the current. PostgreSQL has its own tools (pg_dump / pg_restore).
 */

const gzipAsync = promisify(gzip);

/** A file that is not a backup this tool can restore; the message says why. */
export class DumpError extends Error {}

/**
 * The whole database as a .tar.gz. A CHECKPOINT first writes every change into the data files,
 * so a restore need not replay the WAL; dumpDataDir then copies the directory while no query
 * runs (PGlite's query lock), which gives a consistent copy even while the server serves.
 */
export async function dumpEmbeddedDatabase(database: Pick<Database, 'db' | 'dump'>): Promise<Buffer> {
  if (!database.dump) throw new Error('Only the embedded database can be dumped this way.');
  await database.db.execute(sql`checkpoint`);
  const tar = Buffer.from(await (await database.dump()).arrayBuffer());
  return gzipAsync(tar);
}

/** FILE.partial was there before the backup began: refused, and left as it was. */
export class PartialFileError extends Error {}

/** Whether anything, a dangling link included, has this name (existsSync follows links). */
const taken = (file: string) => {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
};

/** Why an existing FILE.partial is refused, for the broker. */
function partialRefusal(file: string, partial: string): string {
  let link = false;
  try {
    link = lstatSync(partial).isSymbolicLink();
  } catch {
    // Gone since the open failed: the general sentence below still holds.
  }
  return link
    ? `${partial} is a symbolic link: refused, nothing was written (a link there would make the backup overwrite whatever it points to). Remove the link and run the backup again.`
    : `${partial} exists already: another backup to ${file} may be running, or one was cut short. Nothing was written; if no backup is running, delete it and run the backup again.`;
}

/**
 * Writes the bytes `produce` answers to `file` whole or not at all (issue 33 part 4): into
 * FILE.partial, created exclusively and never through a link (O_EXCL | O_NOFOLLOW, mode 0600),
 * then renamed over FILE, which replaces a link at FILE itself, never what it points to. The
 * partial is created before `produce` runs, so a refusal costs no dump. A FILE.partial that is
 * there already is refused (PartialFileError) and left alone, whatever it is: a link may have been
 * planted to make the backup overwrite its target, and a file may be another backup to FILE still
 * being written: removing it would let that backup's rename put this one's half-written file in place.
 */
export async function writeFileAtomically(file: string, produce: () => Promise<Uint8Array>): Promise<void> {
  const partial = `${file}.partial`;
  let fd: number;
  try {
    fd = openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new PartialFileError(partialRefusal(file, partial));
    throw error;
  }
  try {
    try {
      writeFileSync(fd, await produce());
      // On disk before the rename: a crash just after it must not leave FILE empty.
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, file);
  } catch (error) {
    // Only ever the file this call created: a refused partial never reaches here.
    rmSync(partial, { force: true });
    throw error;
  }
}

const BLOCK = 512;

/** A NUL-terminated ASCII field of a tar header. */
const field = (block: Buffer, start: number, length: number) => {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('latin1');
};

/** The octal number of a tar header field, or null when it is not one. */
const octal = (block: Buffer, start: number, length: number): number | null => {
  const text = field(block, start, length).trim();
  return /^[0-7]{1,12}$/.test(text) ? Number.parseInt(text, 8) : null;
};

/**
 * The tarball inside a backup file, checked entry by entry (every header's checksum, every
 * size within the file) and holding a PostgreSQL data directory (PG_VERSION, global/pg_control);
 * a DumpError says what is wrong. Gzipped or plain tar both count.
 */
export function readDumpFile(file: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new DumpError(`${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unknown error'}).`);
  }
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      throw new DumpError(`${file} is gzip data but does not unpack (cut short or damaged).`);
    }
  }
  // A tar ends with two zero blocks: anything shorter is not one.
  if (bytes.length < 2 * BLOCK) throw new DumpError(`${file} is not a backup of the embedded database (not a .tar.gz of a data directory).`);
  const names = new Set<string>();
  let offset = 0;
  for (;;) {
    if (offset + BLOCK > bytes.length) throw new DumpError(`${file} is not a backup of the embedded database: its tar data ends early.`);
    const header = bytes.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const expected = octal(header, 148, 8);
    let sum = 0;
    for (let index = 0; index < BLOCK; index += 1) sum += index >= 148 && index < 156 ? 0x20 : header[index]!;
    const size = octal(header, 124, 12);
    if (expected === null || expected !== sum || size === null) throw new DumpError(`${file} is not a backup of the embedded database: a tar header is damaged.`);
    const prefix = field(header, 345, 155);
    names.add(`${prefix ? `${prefix}/` : ''}${field(header, 0, 100)}`.replace(/^(\.?\/)+/, ''));
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (offset > bytes.length) throw new DumpError(`${file} is not a backup of the embedded database: a file in it is cut short.`);
  }
  for (const needed of ['PG_VERSION', 'global/pg_control']) {
    if (!names.has(needed)) throw new DumpError(`${file} is not a backup of the embedded database: it holds no ${needed}.`);
  }
  return bytes;
}

/** What a restore did: where the replaced data directory was kept (null when there was none). */
export interface RestoreResult {
  previous: string | null;
}

/**
 * Replaces the data directory `pgliteDir` with the backup in `file`. The backup is checked
 * (readDumpFile), unpacked into `pgliteDir.restoring-<stamp>`, opened and migrated there, and
 * only then swapped in: the current directory is renamed to `pgliteDir.before-restore-<stamp>`
 * and kept (a restore throws away what happened since the backup; the broker deletes it when
 * satisfied). Any failure before the swap removes the new directory and leaves the data as it
 * was. The caller holds the directory's lock (db/embedded-lock.ts), so no process has it open.
 */
export async function restoreEmbeddedDatabase(pgliteDir: string, file: string, now: number): Promise<RestoreResult> {
  const tar = readDumpFile(file);
  const stamp = new Date(now).toISOString().replace(/[:.]/g, '-');
  const staging = `${pgliteDir}.restoring-${stamp}`;
  const previous = `${pgliteDir}.before-restore-${stamp}`;
  if (taken(staging) || taken(previous)) throw new Error(`${staging} or ${previous} exists already: run the restore again in a moment.`);
  try {
    try {
      const client = await PGlite.create({ dataDir: staging, loadDataDir: new Blob([new Uint8Array(tar)], { type: 'application/x-tar' }) });
      await client.close();
      // Opened the way the server opens it: migrations applied (the server backfills contracts at its start).
      const database = await openDatabase({ dataDir: staging });
      await database.close();
    } catch (error) {
      throw new DumpError(`${file} does not open as a database (${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)}).`);
    }
    // Unpacked by PGlite in this thread, whose chmods ignore the umask: owner-only before it is swapped in.
    tightenDataDirModes(staging);
    const hadCurrent = existsSync(pgliteDir);
    if (hadCurrent) renameSync(pgliteDir, previous);
    try {
      renameSync(staging, pgliteDir);
    } catch (error) {
      if (hadCurrent) renameSync(previous, pgliteDir);
      throw error;
    }
    return { previous: hadCurrent ? previous : null };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    // The staging directory's own lock file (openDatabase took it): the name is never used again.
    rmSync(lockFileOf(staging), { force: true });
  }
}

/** "12.3 MB": a file's size for the CLI's messages. */
export const sizeText = (file: string): string => `${(statSync(file).size / 1024 / 1024).toFixed(1)} MB`;
