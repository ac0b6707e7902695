/**
 * `npm run bench`: figures, not pass/fail. Start-up to first page (new and existing data
 * directory), signed API and page throughput on loopback, and the gzip size of the bundle.
 */
import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { DEV_SIGNING_SECRET } from '../../src/server/config';
import { BIN, ROOT, freePort, startServerProcess, type ServerProcess } from '../support/server-process';

const root = ROOT;
const bin = (name: string) => path.join(BIN, name);

/** Starts the server and returns the milliseconds until GET / answers with the app's HTML. */
async function startServer(dataDir: string, port: number): Promise<{ server: ServerProcess; ms: number }> {
  const started = performance.now();
  const server = startServerProcess({ PORT: String(port), DATA_DIR: dataDir });
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      if (response.ok && (await response.text()).includes('id="root"')) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) throw new Error('server did not start in 120 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { server, ms: Math.round(performance.now() - started) };
}

function sign(body: string, nonce: number) {
  const timestamp = String(Math.floor(nonce / 1000));
  const signature = createHmac('sha256', DEV_SIGNING_SECRET).update(`${nonce}${timestamp}${body}`).digest('hex');
  return { 'X-Nonce': String(nonce), 'X-Timestamp': timestamp, 'X-Signature': signature };
}

async function load(title: string, options: autocannon.Options) {
  const result = await autocannon({ connections: 10, duration: 5, ...options });
  console.log(
    `${title.padEnd(44)} ${String(Math.round(result.requests.average)).padStart(6)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   non-2xx ${result.non2xx}`,
  );
}

async function main() {
  const buildStarted = performance.now();
  execFileSync(bin('vite'), ['build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
  console.log(`vite build                                   ${Math.round(performance.now() - buildStarted)} ms`);

  const assets = path.join(root, 'dist/assets');
  const sizes = { js: 0, css: 0 };
  for (const file of readdirSync(assets)) {
    const kind = file.endsWith('.js') ? 'js' : file.endsWith('.css') ? 'css' : null;
    if (kind) sizes[kind] += gzipSync(readFileSync(path.join(assets, file))).length;
  }
  const entry = readdirSync(assets).find((f) => /^index-.*\.js$/.test(f));
  const entryGzip = entry ? gzipSync(readFileSync(path.join(assets, entry))).length : 0;
  console.log(`bundle (gzip)                                JS ${(sizes.js / 1024).toFixed(0)} KB (entry ${(entryGzip / 1024).toFixed(0)} KB), CSS ${(sizes.css / 1024).toFixed(0)} KB`);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-bench-'));
  try {
    const port = await freePort();
    const fresh = await startServer(dataDir, port);
    console.log(`start to first page, new data directory      ${fresh.ms} ms`);
    await fresh.server.stop();
    const again = await startServer(dataDir, port);
    console.log(`start to first page, existing data directory ${again.ms} ms`);
    if (!existsSync(path.join(dataDir, 'pglite'))) throw new Error('no pglite directory was created');
    console.log(`data directory size                          ${(dirSize(dataDir) / 1024 / 1024).toFixed(1)} MB`);

    const base = `http://127.0.0.1:${port}`;
    await load('GET /traveller-details (SPA, gzip)', { url: `${base}/traveller-details`, headers: { 'accept-encoding': 'gzip' } });
    // Each request needs its own nonce; counting up from now drifts at most a few seconds.
  let nonce = Date.now();
    const body = JSON.stringify({ lang: 'ar', isDropdown: true });
    await load('POST countries (signed, 249 rows, PGlite)', {
      url: `${base}/miscellaneous/travel/wiz/countries`,
      method: 'POST',
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            body,
            headers: { 'content-type': 'application/json', ...sign(body, (nonce += 1)) },
          }),
        },
      ],
    });
    await load('POST get-vat (signed, nonce insert)', {
      url: `${base}/miscellaneous/travel/wiz/get-vat`,
      method: 'POST',
      requests: [{ setupRequest: (request) => ({ ...request, headers: sign('', (nonce += 1)) }) }],
    });
    await again.server.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function dirSize(dir: string): number {
  return readdirSync(dir, { recursive: true })
    .map((f) => path.join(dir, String(f)))
    .reduce((sum, file) => sum + (statSync(file).isFile() ? statSync(file).size : 0), 0);
}

void main();
