import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client';
import { notOwnerOnly } from '../support/owner-only';
import { freePort, PROCESS_START_GUARD_MS, type ServerProcess } from '../support/server-process';
import { serverProcessesOfThisFile } from '../support/server-processes';

/**
 * Private files stay private (issue 33 part 4): DATA_DIR and everything Safar and PGlite write
 * under it are owner-only, folders 0700 and files 0600, on a fresh start, on a directory an
 * older version left loose, and for what is written while the server runs. The real server
 * process, as `npm start` runs it (the bundle under plain node). The tests run as root, which
 * reads whatever the modes say: they check the modes.
 */

const START_TIMEOUT_MS = PROCESS_START_GUARD_MS;
const processes = serverProcessesOfThisFile({ SIGNING_SECRET: 'private-files-test-signing-secret-0123' });

const start = async (dataDir: string): Promise<ServerProcess> => processes.start({ PORT: String(await freePort()), DATA_DIR: dataDir });
const scratch = () => processes.scratch('safar-private-');

/** The JSON lines the server printed with this event. */
const events = (server: ServerProcess, event: string) =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.event === event);

/** Every folder under `root` (itself included) 0777 and every file 0666, as a pre-fix start left them; answers how many of each. */
function loosen(root: string): { directories: number; files: number } {
  const counts = { directories: 0, files: 0 };
  const visit = (target: string) => {
    const stats = lstatSync(target);
    if (stats.isDirectory()) {
      chmodSync(target, 0o777);
      counts.directories += 1;
      for (const entry of readdirSync(target)) visit(path.join(target, entry));
    } else if (stats.isFile()) {
      chmodSync(target, 0o666);
      counts.files += 1;
    }
  };
  visit(root);
  return counts;
}

describe('DATA_DIR is owner-only', () => {
  it(
    'a first start creates DATA_DIR, its database (copied from the template, or made by initdb) and everything else with folders 0700 and files 0600, and has nothing to tighten',
    async () => {
      const dataDir = path.join(scratch(), 'data');
      const server = await start(dataDir);
      await server.listening(START_TIMEOUT_MS);

      expect(existsSync(path.join(dataDir, 'pglite', 'global', 'pg_control'))).toBe(true);
      expect(notOwnerOnly(dataDir)).toEqual([]);
      expect(events(server, 'data_dir_modes_tightened')).toEqual([]);
      await server.stop();
      // What the database wrote while it ran and as it closed.
      expect(notOwnerOnly(dataDir)).toEqual([]);
    },
    2 * START_TIMEOUT_MS,
  );

  it(
    'a start on a DATA_DIR left loose (0777 folders, 0666 files) makes it owner-only before serving, says how much in one line, leaves links and their targets alone, and what PGlite writes afterwards is 0600 too',
    async () => {
      const root = scratch();
      const dataDir = path.join(root, 'data');
      const pglite = path.join(dataDir, 'pglite');
      const database = await openDatabase({ dataDir: pglite });
      await database.close();
      mkdirSync(path.join(dataDir, 'outbox'));
      writeFileSync(path.join(dataDir, 'outbox', '20260315T100000Z-policy-1.eml'), 'Subject: your policy\r\n\r\nNames, birth dates, passports.\r\n');
      writeFileSync(path.join(dataDir, 'admin.json'), '{}\n');
      // PGlite writes this one at every start: gone, it shows what the running database creates.
      const relcacheFile = path.join(pglite, 'global', 'pg_internal.init');
      rmSync(relcacheFile, { force: true });
      const loose = loosen(dataDir);
      // A link in DATA_DIR to someone else's file: neither followed nor changed.
      const elsewhere = path.join(root, 'elsewhere.txt');
      writeFileSync(elsewhere, 'not Safar\'s\n');
      chmodSync(elsewhere, 0o644);
      symlinkSync(elsewhere, path.join(dataDir, 'elsewhere-link'));
      expect(notOwnerOnly(dataDir).length).toBe(loose.directories + loose.files);

      const server = await start(dataDir);
      await server.listening(START_TIMEOUT_MS);

      expect(notOwnerOnly(dataDir)).toEqual([]);
      expect(events(server, 'data_dir_modes_tightened')).toEqual([{ event: 'data_dir_modes_tightened', ...loose }]);
      expect(existsSync(relcacheFile)).toBe(true);
      // The lock file the server holds the directory by (db/embedded-lock.ts), written at this start.
      expect(readFileSync(`${pglite}.lock`, 'utf8')).toContain(`"role":"server"`);
      expect(lstatSync(path.join(dataDir, 'elsewhere-link')).isSymbolicLink()).toBe(true);
      expect(readlinkSync(path.join(dataDir, 'elsewhere-link'))).toBe(elsewhere);
      expect(lstatSync(elsewhere).mode & 0o777).toBe(0o644);
      await server.stop();
      expect(notOwnerOnly(dataDir)).toEqual([]);
    },
    2 * START_TIMEOUT_MS,
  );
});
