import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTemplateIfStale } from '../../src/server/build-if-stale';
import { bundleServer } from '../../src/server/server-bundle';
import { BIN, ROOT } from './server-process';

/**
 * The builds a test run needs, made once per run (issue 35 item 2): the production SPA (with its
 * manifest, for the bundle budgets) and the server bundle (dist-server/, as `npm start` runs it).
 * `npm test` (tests/run-suites.ts) builds both before its suites start and names the SPA's folder
 * in SAFAR_TEST_SPA_DIR: the Chromium suite's server, the bundle-size test and the PostgreSQL
 * run's copy of it all read that one build instead of making their own.
 */
export const SPA_DIR_VARIABLE = 'SAFAR_TEST_SPA_DIR';

export interface SpaBuild {
  dir: string;
  /** Removes the build when this caller made it; a run's shared build is left to the run. */
  release(): void;
}

/**
 * A production build of the SPA into `outDir`, with its manifest (the bundle budgets read it), by
 * Vite's command in a process of its own: under vitest NODE_ENV is "test", and Vite would then
 * ship React's development build, which is not what customers get. Its output is shown only when
 * it fails.
 */
function viteBuild(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(BIN, 'vite'), ['build', '--logLevel', 'warn', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build failed with exit code ${code}:\n${output}`))));
  });
}

/** The customer's SPA into `outDir`, then the broker's console (its own build) into `outDir`/broker, as `npm run build` does. */
async function buildSpa(outDir: string): Promise<void> {
  await viteBuild(['--manifest', '--outDir', outDir, '--emptyOutDir']);
  await viteBuild(['-c', 'vite.broker.config.ts', '--outDir', path.join(outDir, 'broker'), '--emptyOutDir']);
}

/** The run's shared SPA build, or, run on its own (one vitest file), a build of this caller's. */
export async function spaBuildForTests(): Promise<SpaBuild> {
  const shared = process.env[SPA_DIR_VARIABLE];
  if (shared) return { dir: shared, release: () => {} };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'safar-spa-'));
  try {
    await buildSpa(dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { dir, release: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The builds of a run, made side by side: the SPA into a new folder, and, when stale, dist-server/
 * and the data directory template beside it (src/server/db/embedded-template.ts), as `npm start`
 * makes them. Without the template every server, broker command and database a test opens on a
 * new data directory ran initdb, every migration and the seed: the template's copy took the
 * private-files and data-dir-lock files from 71 to 44 core-seconds.
 */
export async function buildOncePerRun(): Promise<SpaBuild> {
  const [spa] = await Promise.all([spaBuildForTests(), bundleServer(), buildTemplateIfStale()]);
  return spa;
}
