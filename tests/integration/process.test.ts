import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { companyInfoEndpoint } from '../../src/contract/reference.endpoints';
import { SIGNATURE_HEADERS, signRequest } from '../../src/contract/signing';
import { DEV_SIGNING_SECRET } from '../../src/server/config';
import { bundleServer } from '../../src/server/server-bundle';
import { BIN, freePort, PROCESS_START_GUARD_MS, ROOT, startServerProcess, type ServerProcess } from '../support/server-process';

const SECRET = 'process-test-signing-secret-0123456789';
const START_TIMEOUT_MS = PROCESS_START_GUARD_MS;
/** main.ts's DRAIN_TIMEOUT_MS: how long SIGTERM waits for requests still being answered. */
const DRAIN_CUT_OFF_MS = 10_000;

const started: ServerProcess[] = [];
const dataDirs: string[] = [];

/**
 * The server as `npm start` runs it: plain node on the bundle (built in beforeAll), so the signal
 * tests are about what customers run.
 */
function start(env: Record<string, string>): ServerProcess {
  const server = startServerProcess({ LOG_REQUESTS: 'true', SIGNING_SECRET: SECRET, SAFAR_STATIC_DIR: '', ...env }, { bundle: true });
  started.push(server);
  return server;
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
 * SIGTERM, then the exit code. A clean stop says so: main.ts logs `stopped` with `drained: true`
 * when every connection closed before its 10 s cut-off, and exits 1 if closing the database
 * hangs. Told apart by what the server says, not by a time a busy machine could overrun.
 */
async function stop(server: ServerProcess): Promise<number | null> {
  const { code } = await server.stop();
  expect(server.stdout()).toMatch(/"event":"stopped","signal":"SIGTERM","drained":true/);
  return code;
}

/** True when nothing listens on `port` any more: a new listener can take it. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/**
 * Polls /health/ready until it answers 200 (the server is up on its data). Past the time, the
 * failure says what readiness last answered (its reason) and what the server logged.
 */
async function ready(port: number, server?: Pick<ServerProcess, 'stdout' | 'stderr'>, timeoutMs = START_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      async (res) => `${res.status} ${await res.text()}`,
      (error: unknown) => `no answer (${error instanceof Error ? error.message : String(error)})`,
    );
    if (last.startsWith('200 ')) return;
    if (Date.now() > deadline) {
      const logged = server ? `\nstdout (end): ${server.stdout().slice(-3_000)}\nstderr (end): ${server.stderr().slice(-3_000)}` : '';
      throw new Error(`not ready on ${port} after ${timeoutMs} ms; readiness last answered: ${last}${logged}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// Builds dist-server/main.js when a server source is newer than it, as `npm start` does.
beforeAll(() => bundleServer(), 120_000);

afterEach(() => {
  // A failed assertion must not leave a server running.
  for (const server of started.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
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
      await first.listening(START_TIMEOUT_MS);
      expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      // Beside the JSON line for the logs, one plain line for the person who started it (issue 38 item 4).
      await expect.poll(() => first.stdout()).toMatch(new RegExp(`\\nSafar is running on http://[^ ]+:${port} \\(port ${port}, embedded database in ${dataDir}\\)`));

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
      await second.listening(START_TIMEOUT_MS);
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
    'row 6: warns once at start for each secret left at its development default, one line naming each variable',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-process-'));
      dataDirs.push(dataDir);
      const port = await freePort();
      // SIGNING_SECRET set to its development value counts as unset; ALTCHA_HMAC_KEY is unset.
      const server = start({ PORT: String(port), DATA_DIR: dataDir, SIGNING_SECRET: DEV_SIGNING_SECRET });
      await server.listening(START_TIMEOUT_MS);
      const lines = server.stderr().split('\n');
      expect(lines.filter((line) => /^SIGNING_SECRET is not set: using the development default/.test(line))).toHaveLength(1);
      expect(lines.filter((line) => /^ALTCHA_HMAC_KEY is not set: using the development default/.test(line))).toHaveLength(1);
      expect(await stop(server)).toBe(0);
    },
    2 * START_TIMEOUT_MS,
  );

  it(
    'row 6: refuses to start over https with ALTCHA_HMAC_KEY at its development default, naming it, exit 1',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-process-'));
      dataDirs.push(dataDir);
      const server = start({ PUBLIC_URL: 'https://safar.example.com', DATA_DIR: dataDir });
      expect(await server.exited).toBe(1);
      expect(server.stderr()).toMatch(/^\s*ALTCHA_HMAC_KEY: still the development default while PUBLIC_URL is https/m);
      // SIGNING_SECRET is set to a real secret: only the default one is blamed.
      expect(server.stderr()).not.toMatch(/SIGNING_SECRET:/);
      expect(server.stdout()).not.toContain('listening');
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    },
    START_TIMEOUT_MS,
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
  it(
    'SIGTERM lets an in-flight request finish, exits 0, frees the port, and a new server opens the same data directory; SIGINT the same',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-process-'));
      dataDirs.push(dataDir);
      const port = await freePort();
      const first = start({ PORT: String(port), DATA_DIR: dataDir });
      await first.listening(START_TIMEOUT_MS);

      // A request held open: its headers are in, half of its body is still to come.
      const body = JSON.stringify({ lang: 'en' });
      const half = Math.floor(body.length / 2);
      const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: companyInfoEndpoint.path,
            headers: { 'content-length': String(Buffer.byteLength(body)) },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        void signedHeaders(body).then((headers) => {
          for (const [key, value] of Object.entries(headers)) req.setHeader(key, value);
          req.write(body.slice(0, half));
          setTimeout(() => {
            first.child.kill('SIGTERM');
            // The server stops accepting at once, yet this request still gets its answer.
            setTimeout(() => req.end(body.slice(half)), 500);
          }, 300);
        });
      });
      const result = await answered;
      expect(result.status).toBe(200);
      expect(JSON.parse(result.text).data.whatsapp_url).toMatch(/^https:\/\/wa\.me\//);
      expect(await first.exited).toBe(0);
      expect(first.stdout()).toMatch(/"event":"stopped","signal":"SIGTERM","drained":true/);
      expect(await portIsFree(port)).toBe(true);

      const second = start({ PORT: String(port), DATA_DIR: dataDir });
      await second.listening(START_TIMEOUT_MS);
      await ready(port, second);
      // SIGINT (Ctrl-C) stops it the same way.
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
      expect(second.stdout()).toMatch(/"event":"stopped","signal":"SIGINT","drained":true/);
      expect(await portIsFree(port)).toBe(true);
    },
    3 * START_TIMEOUT_MS,
  );

  it(
    'SIGTERM drains at once when every request is answered, whatever clients did with the bodies: a fetch whose body was cancelled, a kept-alive connection, one that never sent a byte',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-process-'));
      dataDirs.push(dataDir);
      const port = await freePort();
      const server = start({ PORT: String(port), DATA_DIR: dataDir, LOG_REQUESTS: 'false' });
      await server.listening(START_TIMEOUT_MS);
      await ready(port, server);

      // As the soak's readiness wait does: Node's fetch, then the body cancelled unread.
      const cancelled = await fetch(`http://127.0.0.1:${port}/health/ready`);
      expect(cancelled.status).toBe(200);
      await cancelled.body!.cancel();
      // A body read to its end: the connection stays in fetch's pool, kept alive.
      const read = await fetch(`http://127.0.0.1:${port}/health/live`);
      expect(read.status).toBe(200);
      await read.text();
      // A connection that never sends a request, which is what fetch leaves after a cancelled body.
      const silent = connect(port, '127.0.0.1');
      await once(silent, 'connect');
      // Accepted in order: once a connection opened after it is answered, the server has the silent one too.
      const later = await new Promise<number>((resolve, reject) =>
        http.get({ host: '127.0.0.1', port, path: '/health/live', agent: false }, (res) => res.resume().once('end', () => resolve(res.statusCode ?? 0))).once('error', reject),
      );
      expect(later).toBe(200);

      const { code, ms } = await server.stop();
      silent.destroy();
      const drainMs = Number(/"event":"stopped","signal":"SIGTERM","drained":true,"drain_ms":(\d+)/.exec(server.stdout())?.[1]);
      console.log(`SIGTERM with a cancelled body, a kept-alive and a silent connection open: drained in ${drainMs} ms, exited in ${ms} ms (cut-off ${DRAIN_CUT_OFF_MS} ms)`);
      expect(code).toBe(0);
      // Drained, not cut off: had the server waited on the silent or kept-alive connection, it
      // would have reached the 10 s cut-off and said `drained: false`.
      expect(server.stdout()).toMatch(/"event":"stopped","signal":"SIGTERM","drained":true/);
    },
    2 * START_TIMEOUT_MS,
  );

  it(
    'npm start passes SIGTERM to the server: it exits 0 and no orphan keeps the port or the data directory',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-process-'));
      dataDirs.push(dataDir);
      const port = await freePort();
      // The real start script, its build step narrowed to the server bundle (the test needs no
      // SPA), run by npm as-is.
      const script = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
      const buildStep = /^node dist-server\/start-check\.js 2>\/dev\/null \|\| node --import tsx src\/server\/build-if-stale\.ts && /;
      expect(script).toMatch(buildStep);
      const project = mkdtempSync(path.join(os.tmpdir(), 'safar-npm-start-'));
      dataDirs.push(project);
      const serve = script.replace(buildStep, 'node --import tsx src/server/server-bundle.ts && ');
      writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'npm-start-probe', private: true, scripts: { start: `cd ${JSON.stringify(ROOT)} && ${serve}` } }));
      const npm = spawn('npm', ['start', '--silent'], {
        cwd: project,
        env: {
          ...process.env,
          PATH: `${BIN}${path.delimiter}${process.env.PATH}`,
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          LOG_REQUESTS: 'false',
          SIGNING_SECRET: SECRET,
          SAFAR_STATIC_DIR: '',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      npm.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      npm.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      try {
        // Its guard covers the server bundle's build in front of the start, as well as the start.
        await ready(port, { stdout: () => out, stderr: () => err }, 2 * START_TIMEOUT_MS);
        npm.kill('SIGTERM');
        expect(await exited).toBe(0);
        // npm waited for its child: the server itself stopped, it was not left behind.
        expect(out).toMatch(/"event":"stopped","signal":"SIGTERM"/);
        expect(await portIsFree(port)).toBe(true);
        const second = start({ PORT: String(port), DATA_DIR: dataDir });
        await second.listening(START_TIMEOUT_MS);
        await ready(port, second);
        expect(await stop(second)).toBe(0);
      } finally {
        if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      }
    },
    4 * START_TIMEOUT_MS,
  );
});
