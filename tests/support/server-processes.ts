import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { bundleServer } from '../../src/server/server-bundle';
import { startServerProcess, type ServerProcess } from './server-process';

/**
 * The real server processes of one test file, as `npm start` runs the server: plain node on the
 * bundle, which is built first when a server source is newer than it. Call it once at the top of
 * the file: it registers the file's hooks, so a failed assertion never leaves a server running
 * (each test's are killed after it) and the scratch folders go when the file ends.
 */
export function serverProcessesOfThisFile(defaults: Record<string, string> = {}) {
  const started: ServerProcess[] = [];
  const folders: string[] = [];
  beforeAll(() => bundleServer(), 120_000);
  afterEach(() => {
    for (const server of started.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  });
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });
  return {
    /** A server on loopback with `defaults` and then `env` (no SPA unless SAFAR_STATIC_DIR says). */
    start(env: Record<string, string>): ServerProcess {
      const server = startServerProcess({ SAFAR_STATIC_DIR: '', ...defaults, ...env }, { bundle: true });
      started.push(server);
      return server;
    },
    /** A new empty folder in the temp folder, removed when the file ends. */
    scratch(prefix: string): string {
      const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
      folders.push(folder);
      return folder;
    },
  };
}
