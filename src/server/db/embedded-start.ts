import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config } from '../config';
import { tightenDataDirModes } from '../data-dir-modes';
import { lockEmbeddedDatabase, type EmbeddedLock } from './embedded-lock';
import { copyTemplate, currentTemplate } from './embedded-template';
import { PgliteThread } from './pglite-thread';

/**
 * The first half of opening the embedded database: the lock, a new directory when there is none,
 * and PGlite started in its thread. It imports nothing heavy (no drizzle, no PGlite in this
 * thread), so main.ts starts it before it loads the rest of the server, and PGlite's start (about a
 * second of WebAssembly and PostgreSQL) runs beside the loading of the app's modules (issue 34
 * item 6). client.ts does the second half: migrations, then the database the app uses.
 */

/**
 * PostgreSQL's memory settings for the embedded database. PGlite starts with initdb's 128 MB of
 * shared buffers inside its WebAssembly memory, which never shrinks once touched; the whole data
 * directory after 200 journeys is about 40 MB, of which 16 MB of buffers hold more than a third. With these,
 * the server idles at about 350 MB after a first start and 310 MB a minute after 200 concurrent
 * journeys, against 880–910 MB before (issue 18 item 3; commands and figures in the README).
 */
export const EMBEDDED_SETTINGS = { shared_buffers: '16MB', work_mem: '2MB', maintenance_work_mem: '16MB', temp_buffers: '2MB' };

/** The embedded database's directory: DATA_DIR/pglite. */
export function embeddedDataDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pglite');
}

/** PGlite started on a directory whose lock this process holds. */
export interface StartedEmbedded {
  thread: PgliteThread;
  lock: EmbeddedLock;
  /** When the directory was new: copied from the template or made by initdb, and how long that took. */
  created?: { from: 'template' | 'initdb'; ms: number };
}

/**
 * Takes the directory's lock (synchronously, before anything else: a refusal is the promise's
 * rejection, EmbeddedDatabaseLocked), creates the directory when it is new (a copy of the current
 * template, else initdb; `template` null forces initdb), and starts PGlite's thread on it.
 */
export async function startEmbeddedDirectory(dataDir: string, template?: string | null): Promise<StartedEmbedded> {
  const lock = lockEmbeddedDatabase(dataDir);
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    let created: StartedEmbedded['created'];
    if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
      const startedAt = performance.now();
      let source = template === undefined ? currentTemplate() : template;
      if (source) {
        try {
          copyTemplate(source, dataDir);
        } catch {
          // A template this account cannot read (built by another user, say) is no reason not to
          // start: the long way, over whatever the copy left (the directory had no PG_VERSION).
          source = null;
          rmSync(dataDir, { recursive: true, force: true });
          mkdirSync(dataDir, { recursive: true, mode: 0o700 });
        }
      }
      if (!source) await initEmbeddedDirectory(dataDir);
      // initdb's PGlite chmods its files 0666 whatever the umask (pglite-worker.ts masks that in the
      // server's own thread, not in this child): owner-only before anything else opens them.
      tightenDataDirModes(dataDir);
      created = { from: source ? 'template' : 'initdb', ms: Math.round(performance.now() - startedAt) };
    }
    const thread = await PgliteThread.open({ dataDir, settings: EMBEDDED_SETTINGS });
    // A session's first query costs a quarter of a second (PostgreSQL loading its catalog caches):
    // paid here, beside the app's modules loading, instead of by the first migration check after.
    await thread.query('select 1').catch(async (error: unknown) => {
      await thread.close().catch(() => undefined);
      throw error;
    });
    return created ? { thread, lock, created } : { thread, lock };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * Creates a new PGlite data directory (initdb) in a short-lived process. initdb grows memory
 * that this process would keep after it is freed (940 MB after a first open, against 460 MB on an
 * existing directory, measured before the settings above); a process of its own gives it all back.
 */
function initEmbeddedDirectory(dataDir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `require(${JSON.stringify(pglite)}).PGlite.create(${JSON.stringify(dataDir)}).then((db) => db.close())`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { env: {} }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`PGlite could not create ${dataDir}: ${stderr.trim().split('\n').at(-1) ?? error.message}`));
      else resolve();
    });
  });
}
