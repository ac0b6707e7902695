import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { companyInfoEndpoint } from '../../src/contract/reference.endpoints';
import { SIGNATURE_HEADERS, signRequest } from '../../src/contract/signing';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const SECRET = 'process-test-signing-secret-0123456789';
const START_TIMEOUT_MS = 60_000;

interface Server {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const started: ChildProcess[] = [];
const dataDirs: string[] = [];

/** A port free right now on loopback; the server binds it a moment later. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function start(env: Record<string, string>): Server {
  const child = spawn(TSX, ['src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', DATABASE_URL: '', LOG_REQUESTS: 'true', SIGNING_SECRET: SECRET, SAFAR_STATIC_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Resolves once the server printed its "listening" line; fails if it exits or takes too long. */
async function listening(server: Server): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exitCode: number | null | undefined;
  void server.exited.then((code) => (exitCode = code));
  while (!server.stdout().includes('"listening"')) {
    if (exitCode !== undefined) throw new Error(`server exited (${exitCode}) before listening:\n${server.stderr()}`);
    if (Date.now() > deadline) throw new Error(`server not listening after ${START_TIMEOUT_MS} ms:\n${server.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function signedHeaders(body: string) {
  const parts = await signRequest(SECRET, body);
  return {
    'content-type': 'application/json',
    [SIGNATURE_HEADERS.nonce]: parts.nonce,
    [SIGNATURE_HEADERS.timestamp]: parts.timestamp,
    [SIGNATURE_HEADERS.signature]: parts.signature,
  };
}

/**
 * SIGTERM, then the exit code. main.ts force-exits with 0 after 10 s as a last resort, so a
 * clean stop (server and database closed) is told apart by finishing well before that.
 */
async function stop(server: Server): Promise<number | null> {
  const sent = Date.now();
  server.child.kill('SIGTERM');
  const code = await server.exited;
  expect(Date.now() - sent).toBeLessThan(8_000);
  return code;
}

afterEach(() => {
  // A failed assertion must not leave a server running.
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe('the server process', () => {
  it(
    'starts on a fresh DATA_DIR, answers signed calls, stops cleanly on SIGTERM and restarts on its data',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-process-'));
      dataDirs.push(dataDir);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}${companyInfoEndpoint.path}`;
      const body = JSON.stringify({ lang: 'en' });

      const first = start({ PORT: String(port), DATA_DIR: dataDir });
      await listening(first);
      expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);

      const headers = await signedHeaders(body);
      const res = await fetch(url, { method: 'POST', headers, body });
      expect(res.status).toBe(200);
      expect((await res.json()).data.whatsapp_url).toMatch(/^https:\/\/wa\.me\//);
      const unsigned = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(unsigned.status).toBe(401);
      expect(first.stdout()).toContain(`"path":"${companyInfoEndpoint.path}"`);

      expect(await stop(first)).toBe(0);
      expect(first.stdout()).toMatch(/"event":"stopping"/);

      const second = start({ PORT: String(port), DATA_DIR: dataDir });
      await listening(second);
      const fresh = await fetch(url, { method: 'POST', headers: await signedHeaders(body), body });
      expect(fresh.status).toBe(200);
      // The first run's nonce was written to disk: replaying its request is still refused.
      const replay = await fetch(url, { method: 'POST', headers, body });
      expect(replay.status).toBe(401);
      expect((await replay.json()).data.errors).toEqual({ signature: 'nonce_reused' });
      expect(await stop(second)).toBe(0);
    },
    3 * START_TIMEOUT_MS,
  );

  it(
    'refuses to start with PORT=abc, naming PORT',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-process-'));
      dataDirs.push(dataDir);
      const server = start({ PORT: 'abc', DATA_DIR: dataDir });
      const code = await server.exited;
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(server.stderr()).toMatch(/PORT: /);
      expect(server.stdout()).not.toContain('listening');
      // It stopped before opening the database.
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    },
    START_TIMEOUT_MS,
  );
});
