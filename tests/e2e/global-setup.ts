import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findChromium } from '../support/chromium';
import { freePort, PROCESS_START_GUARD_MS, startServerProcess, type ServerProcess } from '../support/server-process';
import { buildOncePerRun, type SpaBuild } from '../support/test-build';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the real Safar server the end-to-end tests drive, without a trailing slash. */
    baseUrl: string;
    /** That server's DATA_DIR (its mail outbox is DATA_DIR/outbox). */
    dataDir: string;
    /** The SPA build it serves, for tests that start a second server (SAFAR_STATIC_DIR). */
    staticDir: string;
  }
}

const READY_TIMEOUT_MS = PROCESS_START_GUARD_MS;

/**
 * Makes sure Chromium is there (installing it where it can: support/chromium.ts findChromium)
 * and starts the real server, from the server bundle as `npm start` runs it, over the run's one SPA
 * build (tests/support/test-build.ts: `npm test` makes it before its suites; a run of this project
 * alone makes its own) on a free port and a fresh data directory, and provides its address as
 * `baseUrl`; the returned teardown stops it and removes the directory. The build is never dist/,
 * so a test run never rewrites the dist/ another process may be serving.
 */
export default async function setup(project: TestProject) {
  const workDir = await mkdtemp(path.join(tmpdir(), 'safar-e2e-'));
  const dataDir = path.join(workDir, 'data');
  let server: ServerProcess | null = null;
  let build: SpaBuild | null = null;
  const teardown = async () => {
    if (server) await server.stop();
    build?.release();
    await rm(workDir, { recursive: true, force: true });
  };

  try {
    // Chromium found (or installed) once, while the builds run; the worker launches it (harness.ts).
    const finding = findChromium().then(() => null, (error: unknown) => error);
    build = await buildOncePerRun();
    const missing = await finding;
    if (missing) throw missing;
    const staticDir = build.dir;
    const port = await freePort();
    server = startServerProcess({
      PORT: String(port),
      DATA_DIR: dataDir,
      SIGNING_SECRET: randomBytes(24).toString('hex'),
      SAFAR_STATIC_DIR: staticDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }, { bundle: true });
    await server.listening(READY_TIMEOUT_MS);
    project.provide('baseUrl', `http://127.0.0.1:${port}`);
    project.provide('dataDir', dataDir);
    project.provide('staticDir', staticDir);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
