import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_BUNDLE } from '../../src/server/server-bundle';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'node_modules/.bin');

/**
 * The hang guard for a server process to listen, or to be ready on its data, in every test that
 * starts one: far above what a start takes (a few seconds), since the machine's cores may be full
 * of the suites beside (a fresh data directory with the server bundle's build in front of it once
 * took over 60 s to be ready there).
 */
export const PROCESS_START_GUARD_MS = 90_000;

/** A port free right now on loopback; the server binds it a moment later. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code once the process ends (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Resolves once the server printed its "listening" line; rejects if it exits or is too slow. */
  listening(timeoutMs?: number): Promise<void>;
  /** SIGTERM (SIGKILL after `forceAfterMs`), then the exit code and how long the stop took. */
  stop(forceAfterMs?: number): Promise<{ code: number | null; ms: number }>;
}

/**
 * Starts the real server as a child process: the sources under node with tsx's loader, or with
 * `bundle` the built `dist-server/main.js` under plain node, as `npm start` runs it (the caller
 * builds it first with bundleServer). The sources are not run through the `tsx` command: it is a
 * parent process that relays a signal to the server and kills it when the server has not
 * acknowledged it within 30 ms, which a busy machine misses (a SIGTERM test then saw the server
 * killed, silent, instead of stopping). Under node the signal reaches the server itself. The
 * environment defaults to loopback only and no request log; `env` overrides it.
 */
export function startServerProcess(env: Record<string, string>, options: { bundle?: boolean } = {}): ServerProcess {
  const [command, args] = options.bundle ? [process.execPath, [SERVER_BUNDLE]] : [process.execPath, ['--import', 'tsx', 'src/server/main.ts']];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', DATABASE_URL: '', LOG_REQUESTS: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve(code);
    }),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async listening(timeoutMs = PROCESS_START_GUARD_MS) {
      const deadline = Date.now() + timeoutMs;
      while (!/"event":"listening"/.test(out)) {
        if (exitCode !== undefined) throw new Error(`server exited (${exitCode}) before listening:\n${err}`);
        if (Date.now() > deadline) throw new Error(`server not listening after ${timeoutMs} ms:\n${out}\n${err}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop(forceAfterMs = 15_000) {
      const sent = Date.now();
      if (exitCode !== undefined) return { code: exitCode, ms: 0 };
      const force = setTimeout(() => child.kill('SIGKILL'), forceAfterMs);
      child.kill('SIGTERM');
      const code = await exited;
      clearTimeout(force);
      return { code, ms: Date.now() - sent };
    },
  };
}
