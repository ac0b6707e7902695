import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findChromium } from '../support/chromium';
import { BIN, ROOT, freePort, startServerProcess, type ServerProcess } from '../support/server-process';

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

const READY_TIMEOUT_MS = 90_000;

/** Runs a command to completion; its output is kept and only shown when it fails. */
function runQuietly(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // Vitest sets NODE_ENV=test; a build under it would ship React's development build (double
    // effects in StrictMode, slower), which is not what customers get.
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(command)} ${args.join(' ')} failed with exit code ${code}:\n${output}`));
    });
  });
}

/**
 * Builds the SPA once, starts the real server on a free port over a fresh data directory and
 * provides its address as `baseUrl`; the returned teardown stops it and removes the directory.
 * The build goes to the temporary directory (SAFAR_STATIC_DIR) so a test run never rewrites the
 * dist/ another process may be serving.
 */
export default async function setup(project: TestProject) {
  await findChromium();
  const workDir = await mkdtemp(path.join(tmpdir(), 'safar-e2e-'));
  const staticDir = path.join(workDir, 'dist');
  const dataDir = path.join(workDir, 'data');
  let server: ServerProcess | null = null;
  const teardown = async () => {
    if (server) await server.stop();
    await rm(workDir, { recursive: true, force: true });
  };

  try {
    await runQuietly(path.join(BIN, 'vite'), ['build', '--logLevel', 'warn', '--outDir', staticDir, '--emptyOutDir']);
    const port = await freePort();
    server = startServerProcess({
      PORT: String(port),
      DATA_DIR: dataDir,
      SIGNING_SECRET: randomBytes(24).toString('hex'),
      SAFAR_STATIC_DIR: staticDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    });
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
