import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { findChromium } from '../support/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the real Safar server the end-to-end tests drive, without a trailing slash. */
    baseUrl: string;
  }
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'node_modules/.bin');
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;

/** A free loopback port: the OS picks one, then it is released for the server to take. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not find a free port'))));
    });
  });
}

/** Runs a command to completion; its output is kept and only shown when it fails. */
function runQuietly(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Resolves when the server prints its `listening` line; rejects if it exits or stays silent too long. */
function waitUntilListening(server: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const fail = (reason: string) => {
      clearTimeout(timer);
      reject(new Error(`The Safar server did not start: ${reason}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`));
    };
    const timer = setTimeout(() => fail(`no 'listening' line within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    server.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    server.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const ready = stdout.split('\n').some((line) => {
        try {
          return (JSON.parse(line) as { event?: unknown }).event === 'listening';
        } catch {
          return false;
        }
      });
      if (ready) {
        clearTimeout(timer);
        resolve();
      }
    });
    server.on('error', (error) => fail(error.message));
    server.on('exit', (code, signal) => fail(`it exited (${signal ?? `exit code ${code}`})`));
  });
}

function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
    server.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    server.kill('SIGTERM');
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
  let server: ChildProcess | null = null;
  const teardown = async () => {
    if (server) await stop(server);
    await rm(workDir, { recursive: true, force: true });
  };

  try {
    await runQuietly(path.join(BIN, 'vite'), ['build', '--logLevel', 'warn', '--outDir', staticDir, '--emptyOutDir']);
    const port = await freePort();
    server = spawn(path.join(BIN, 'tsx'), ['src/server/main.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(workDir, 'data'),
        SIGNING_SECRET: randomBytes(24).toString('hex'),
        SAFAR_STATIC_DIR: staticDir,
        LOG_REQUESTS: 'false',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
      },
    });
    await waitUntilListening(server);
    // Keep reading so a chatty server never blocks on a full pipe.
    server.stdout?.resume();
    server.stderr?.resume();
    project.provide('baseUrl', `http://127.0.0.1:${port}`);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
