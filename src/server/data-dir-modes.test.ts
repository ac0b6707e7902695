import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tightenDataDirModes } from './data-dir-modes';

/**
 * The start's walk over DATA_DIR (issue 33 part 4). The tests run as root, which ignores modes
 * when it reads: they check the modes themselves, not who can read.
 */

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function scratch(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'safar-modes-'));
  roots.push(root);
  return root;
}

const modeOf = (target: string) => (lstatSync(target).mode & 0o777).toString(8);

/** `file` with `mode` exactly, whatever the umask. */
function fileWith(file: string, mode: number, text = 'x') {
  writeFileSync(file, text);
  chmodSync(file, mode);
}

describe('tightenDataDirModes', () => {
  it('makes every loose folder 0700 and every loose file 0600, DATA_DIR itself and nested ones included, and counts them', () => {
    const dataDir = path.join(scratch(), 'data');
    mkdirSync(path.join(dataDir, 'pglite', 'global'), { recursive: true });
    mkdirSync(path.join(dataDir, 'outbox'));
    fileWith(path.join(dataDir, 'pglite', 'global', 'pg_control'), 0o666);
    fileWith(path.join(dataDir, 'outbox', 'policy.eml'), 0o644);
    fileWith(path.join(dataDir, 'pglite.pid'), 0o640);
    for (const folder of [dataDir, path.join(dataDir, 'pglite'), path.join(dataDir, 'pglite', 'global'), path.join(dataDir, 'outbox')]) chmodSync(folder, 0o777);

    expect(tightenDataDirModes(dataDir)).toEqual({ directories: 4, files: 3 });
    expect([dataDir, 'pglite', 'pglite/global', 'outbox'].map((name) => modeOf(path.resolve(dataDir, name)))).toEqual(['700', '700', '700', '700']);
    expect(['pglite/global/pg_control', 'outbox/policy.eml', 'pglite.pid'].map((name) => modeOf(path.join(dataDir, name)))).toEqual(['600', '600', '600']);
    // Nothing loose is left: a second start has nothing to say.
    expect(tightenDataDirModes(dataDir)).toEqual({ directories: 0, files: 0 });
  });

  it('leaves modes already owner-only as they are, even tighter ones', () => {
    const dataDir = scratch();
    fileWith(path.join(dataDir, 'read-only'), 0o400);
    fileWith(path.join(dataDir, 'owner-all'), 0o700);
    mkdirSync(path.join(dataDir, 'sealed'), { mode: 0o500 });
    chmodSync(dataDir, 0o700);

    expect(tightenDataDirModes(dataDir)).toEqual({ directories: 0, files: 0 });
    expect(['read-only', 'owner-all', 'sealed'].map((name) => modeOf(path.join(dataDir, name)))).toEqual(['400', '700', '500']);
  });

  it('neither follows nor changes a symbolic link under DATA_DIR: the link stays, and the file and folder it points to keep their modes', () => {
    const root = scratch();
    const dataDir = path.join(root, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    const victimFile = path.join(root, 'shared.txt');
    const victimFolder = path.join(root, 'shared');
    fileWith(victimFile, 0o644);
    mkdirSync(victimFolder);
    chmodSync(victimFolder, 0o755);
    fileWith(path.join(victimFolder, 'inside'), 0o644);
    symlinkSync(victimFile, path.join(dataDir, 'file-link'));
    symlinkSync(victimFolder, path.join(dataDir, 'folder-link'));

    expect(tightenDataDirModes(dataDir)).toEqual({ directories: 0, files: 0 });
    expect(lstatSync(path.join(dataDir, 'file-link')).isSymbolicLink()).toBe(true);
    expect(lstatSync(path.join(dataDir, 'folder-link')).isSymbolicLink()).toBe(true);
    expect([victimFile, victimFolder, path.join(victimFolder, 'inside')].map(modeOf)).toEqual(['644', '755', '644']);
  });

  it('follows DATA_DIR itself when it is a link (a data directory on another disk), and has nothing to do when it does not exist yet', () => {
    const root = scratch();
    const real = path.join(root, 'disk');
    mkdirSync(real);
    chmodSync(real, 0o755);
    fileWith(path.join(real, 'admin.json'), 0o644);
    symlinkSync(real, path.join(root, 'data'));

    expect(tightenDataDirModes(path.join(root, 'data'))).toEqual({ directories: 1, files: 1 });
    expect((statSync(real).mode & 0o777).toString(8)).toBe('700');
    expect(modeOf(path.join(real, 'admin.json'))).toBe('600');
    expect(tightenDataDirModes(path.join(root, 'not-yet'))).toEqual({ directories: 0, files: 0 });
  });
});
