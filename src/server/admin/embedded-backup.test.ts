import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PartialFileError, writeFileAtomically } from './embedded-backup';

/**
 * How a backup file is written (issue 33 part 4): never through a link, never over a
 * FILE.partial someone else left. The broker's command line over a real database is in
 * tests/integration/broker-backup.test.ts.
 */

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function scratch(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'safar-atomic-'));
  roots.push(root);
  return root;
}

const backupBytes = new TextEncoder().encode('the backup');

describe('writeFileAtomically', () => {
  it('refuses a symbolic link planted at FILE.partial, before producing anything: the link and its target stay as they were, and FILE is not written', async () => {
    const root = scratch();
    const file = path.join(root, 'safar.tar.gz');
    const victim = path.join(root, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, `${file}.partial`);
    let produced = false;

    const written = writeFileAtomically(file, async () => {
      produced = true;
      return backupBytes;
    });
    await expect(written).rejects.toThrow(PartialFileError);
    await expect(written).rejects.toThrow(`${file}.partial is a symbolic link: refused, nothing was written`);
    expect(produced).toBe(false);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(`${file}.partial`).isSymbolicLink()).toBe(true);
    expect(readlinkSync(`${file}.partial`)).toBe(victim);
    expect(readdirSync(root).sort()).toEqual(['safar.tar.gz.partial', 'victim.txt']);
  });

  it('refuses a dangling link at FILE.partial too: nothing is created where it points', async () => {
    const root = scratch();
    const file = path.join(root, 'safar.tar.gz');
    const target = path.join(root, 'would-be-created');
    symlinkSync(target, `${file}.partial`);

    await expect(writeFileAtomically(file, async () => backupBytes)).rejects.toThrow(PartialFileError);
    expect(readdirSync(root)).toEqual(['safar.tar.gz.partial']);
  });

  it('refuses a FILE.partial left by another backup and leaves it there, naming it', async () => {
    const root = scratch();
    const file = path.join(root, 'safar.tar.gz');
    writeFileSync(`${file}.partial`, 'half of another backup');

    await expect(writeFileAtomically(file, async () => backupBytes)).rejects.toThrow(`${file}.partial exists already: another backup to ${file} may be running`);
    expect(readFileSync(`${file}.partial`, 'utf8')).toBe('half of another backup');
    expect(readdirSync(root)).toEqual(['safar.tar.gz.partial']);
  });

  it('replaces a symbolic link at FILE itself, owner-only, and leaves what it pointed to alone', async () => {
    const root = scratch();
    const file = path.join(root, 'safar.tar.gz');
    const victim = path.join(root, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, file);

    await writeFileAtomically(file, async () => backupBytes);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe('the backup');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
  });

  it('leaves neither FILE nor FILE.partial when producing the bytes fails', async () => {
    const root = scratch();
    const file = path.join(root, 'safar.tar.gz');

    await expect(writeFileAtomically(file, () => Promise.reject(new Error('the server went away')))).rejects.toThrow('the server went away');
    expect(readdirSync(root)).toEqual([]);
  });
});
