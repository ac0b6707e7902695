import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DumpError, readDumpFile } from '../../src/server/admin/embedded-backup';
import { openDatabase } from '../../src/server/db/client';
import { seedDatabase } from '../../src/server/db/seed';
import { addCoupon, listCoupons } from '../../src/server/orders/coupon-admin';
import { notOwnerOnly } from '../support/owner-only';
import { runBroker } from './broker-cli-process';

/**
 * `npm run broker -- backup FILE` and `restore FILE` on a data directory no server holds (issue
 * 18 item 8), run as the broker runs them. Backup and restore through and beside a running
 * server are in broker-admin.test.ts.
 */

const SLOW = 180_000;
let root: string;
let dataDir: string;
let pglite: string;
let backup: string;

/** Every file of a directory tree, hashed in path order: equal hashes mean untouched data. */
function treeHash(dir: string): string {
  const hash = createHash('sha256');
  for (const name of (readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const file = path.join(dir, name);
    hash.update(name);
    if (statSync(file).isFile()) hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

async function couponCodes(): Promise<string[]> {
  const database = await openDatabase({ dataDir: pglite });
  try {
    return (await listCoupons(database.db)).map((coupon) => coupon.code);
  } finally {
    await database.close();
  }
}

async function addCouponDirectly(code: string) {
  const database = await openDatabase({ dataDir: pglite });
  try {
    await addCoupon(database.db, { code, type: 'percent', value: '10' }, '2026-03-15');
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'safar-backup-'));
  dataDir = path.join(root, 'data');
  pglite = path.join(dataDir, 'pglite');
  backup = path.join(root, 'safar.tar.gz');
  const database = await openDatabase({ dataDir: pglite });
  try {
    await seedDatabase(database.db);
    await addCoupon(database.db, { code: 'BEFOREBACKUP', type: 'percent', value: '10' }, '2026-03-15');
  } finally {
    await database.close();
  }
}, SLOW);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('backup', () => {
  it(
    'writes the data directory as a .tar.gz, whole (no FILE.partial left), that readDumpFile accepts',
    async () => {
      const result = await runBroker(dataDir, ['backup', backup]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(new RegExp(`^Backed up ${pglite.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} to .*safar\\.tar\\.gz \\(\\d+\\.\\d MB\\)\\.\\n$`));
      expect(existsSync(`${backup}.partial`)).toBe(false);
      const bytes = readFileSync(backup);
      expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
      expect(statSync(backup).mode & 0o777).toBe(0o600);
      expect(() => readDumpFile(backup)).not.toThrow();
    },
    SLOW,
  );

  it(
    'refuses a symbolic link planted at FILE.partial (issue 33 part 4): exit 1 naming it, the link and the file it points to untouched, no FILE written',
    async () => {
      const file = path.join(root, 'planted.tar.gz');
      const victim = path.join(root, 'victim.txt');
      writeFileSync(victim, 'not to be overwritten\n');
      symlinkSync(victim, `${file}.partial`);

      const result = await runBroker(dataDir, ['backup', file]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`${file}.partial is a symbolic link: refused, nothing was written`);
      expect(readFileSync(victim, 'utf8')).toBe('not to be overwritten\n');
      expect(lstatSync(`${file}.partial`).isSymbolicLink()).toBe(true);
      expect(readlinkSync(`${file}.partial`)).toBe(victim);
      expect(existsSync(file)).toBe(false);
    },
    SLOW,
  );
});

describe('restore refuses a file that is not a usable backup, and leaves the data as it was', () => {
  const corrupt = (name: string, bytes: Uint8Array) => {
    const file = path.join(root, name);
    writeFileSync(file, bytes);
    return file;
  };
  /** A well-formed .tar.gz of a text file: a tarball, but no data directory. */
  const otherTar = () => {
    const dir = mkdtempSync(path.join(root, 'other-'));
    writeFileSync(path.join(dir, 'notes.txt'), 'not a database\n');
    return corrupt('other.tar.gz', gzipSync(execFileSync('tar', ['-cf', '-', '-C', dir, 'notes.txt'])));
  };
  /** The good backup unpacked, changed by `spoil`, and packed again with the system's tar. */
  const spoiled = (name: string, spoil: (dir: string) => void) => {
    const dir = mkdtempSync(path.join(root, 'spoil-'));
    // PGlite names the entries from "/": tar says so on stderr, which is not wanted here.
    execFileSync('tar', ['-xzf', backup, '-C', dir], { stdio: 'ignore' });
    spoil(dir);
    const file = path.join(root, name);
    execFileSync('tar', ['-czf', file, '-C', dir, '.']);
    return file;
  };

  it.each<[string, () => string, RegExp]>([
    ['random bytes', () => corrupt('random.tar.gz', new Uint8Array(4096).map((_, index) => (index * 7919) % 251)), /is not a backup of the embedded database: a tar header is damaged/],
    ['a few bytes', () => corrupt('tiny.tar.gz', new TextEncoder().encode('not a backup\n')), /is not a backup of the embedded database \(not a \.tar\.gz/],
    ['a backup cut short', () => corrupt('cut.tar.gz', readFileSync(backup).subarray(0, 200_000)), /is gzip data but does not unpack/],
    ['a tar of something else', () => otherTar(), /it holds no PG_VERSION/],
    ['a backup whose control file is zeroed', () => spoiled('zeroed.tar.gz', (dir) => writeFileSync(path.join(dir, 'global/pg_control'), new Uint8Array(8192))), /does not open as a database/],
    ['a missing file', () => path.join(root, 'no-such-backup.tar.gz'), /cannot be read \(ENOENT\)/],
  ])(
    'refuses %s: exit 1, the reason, "Nothing was changed", and the data directory is byte for byte the same',
    async (_label, make, reason) => {
      const file = make();
      const before = treeHash(pglite);
      const result = await runBroker(dataDir, ['restore', file]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(reason);
      expect(result.stderr).toContain('Nothing was changed.');
      expect(treeHash(pglite)).toBe(before);
      // No half-restored directory is left beside it; only the directory's lock file (db/embedded-lock.ts).
      expect(readdirSync(dataDir).filter((name) => name.startsWith('pglite.'))).toEqual(['pglite.lock']);
    },
    SLOW,
  );

  it('readDumpFile throws DumpError, the error the CLI turns into its refusal', () => {
    expect(() => readDumpFile(path.join(root, 'tiny.tar.gz'))).toThrow(DumpError);
  });
});

describe('restore', () => {
  it(
    'replaces the data with the backup once it opened and migrated, and keeps the replaced directory beside it',
    async () => {
      await addCouponDirectly('AFTERBACKUP');
      expect(await couponCodes()).toEqual(expect.arrayContaining(['BEFOREBACKUP', 'AFTERBACKUP']));

      const result = await runBroker(dataDir, ['restore', backup]);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const kept = readdirSync(dataDir).filter((name) => name.startsWith('pglite.before-restore-'));
      expect(kept).toHaveLength(1);
      expect(result.stdout).toContain(`Restored ${pglite} from ${backup}. The data it replaced is kept in ${path.join(dataDir, kept[0]!)}`);

      // Unpacked by PGlite, which sets modes the umask does not cover: still owner-only once in place.
      expect(notOwnerOnly(pglite)).toEqual([]);
      const codes = await couponCodes();
      expect(codes).toContain('BEFOREBACKUP');
      expect(codes).not.toContain('AFTERBACKUP');
      // The replaced data is really there, should the broker want it back.
      const previous = await openDatabase({ dataDir: path.join(dataDir, kept[0]!) });
      try {
        expect((await listCoupons(previous.db)).map((coupon) => coupon.code)).toContain('AFTERBACKUP');
      } finally {
        await previous.close();
      }
    },
    SLOW,
  );

  it(
    'into an empty DATA_DIR (a new machine): the database is created from the backup, nothing to keep',
    async () => {
      const fresh = path.join(root, 'fresh');
      mkdirSync(fresh);
      const result = await runBroker(fresh, ['restore', backup]);
      expect(result).toMatchObject({ code: 0, stdout: `Restored ${path.join(fresh, 'pglite')} from ${backup}.\n`, stderr: '' });
      // And the lock file the restore held it by (db/embedded-lock.ts), left empty.
      expect(readdirSync(fresh).sort()).toEqual(['pglite', 'pglite.lock']);
    },
    SLOW,
  );
});

describe('with DATABASE_URL', () => {
  it.each(['backup', 'restore'])('%s refuses and points to pg_dump / pg_restore, without connecting', async (command) => {
    const result = await runBroker(dataDir, [command, backup], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('backup and restore are for the embedded database');
    expect(result.stderr).toContain('pg_dump -Fc');
    expect(result.stderr).toContain('pg_restore --clean');
  });
});
