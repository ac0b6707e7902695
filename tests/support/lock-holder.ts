import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedDatabaseLocked, lockEmbeddedDatabase } from '../../src/server/db/embedded-lock';
import { ROOT } from './server-process';

/**
 * Another process and the lock of an embedded data directory (db/embedded-lock.ts): the lock is
 * per open file, so only a second process shows what a second server or CLI gets. Run as a
 * script: `hold DIR ROLE` takes the lock, prints "held" and keeps it until killed; `try DIR`
 * prints one JSON line, {"held":true} or {"held":false,"message":…,"holder":…}, and exits.
 */

/** The outcome of one attempt from another process. */
export type TryResult = { held: true } | { held: false; message: string; holder: { pid: number; since: string; role: string } | null };

function run(args: string[]): ChildProcess {
  // node with tsx's loader, not the tsx command: that one runs the script in a child of its own,
  // and the pid to name and to kill is the one that holds the lock.
  return spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A process that holds the lock of `pgliteDir` until `kill` (SIGKILL: nothing released by hand). */
export async function holdLockInAnotherProcess(pgliteDir: string, role = 'server'): Promise<{ pid: number; kill: () => Promise<void> }> {
  const child = run(['hold', pgliteDir, role]);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', () => out.includes('held\n') && resolve());
    void exited.then(() => reject(new Error(`the lock holder exited: ${out}${err}`)));
  });
  return {
    pid: child.pid!,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Whether another process can take the lock of `pgliteDir` now (it releases it at once). */
export function tryLockInAnotherProcess(pgliteDir: string): Promise<TryResult> {
  const child = run(['try', pgliteDir]);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as TryResult) : reject(new Error(`lock attempt failed (${code}): ${err}`)))),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [mode, dir, role] = process.argv.slice(2);
  if (mode === 'hold') {
    lockEmbeddedDatabase(dir!, role);
    console.log('held');
    setInterval(() => {}, 60_000);
  } else {
    try {
      lockEmbeddedDatabase(dir!).release();
      console.log(JSON.stringify({ held: true }));
    } catch (error) {
      if (!(error instanceof EmbeddedDatabaseLocked)) throw error;
      console.log(JSON.stringify({ held: false, message: error.message, holder: error.holder }));
    }
  }
}
