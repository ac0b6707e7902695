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

    // Quoting: a new family lead priced from scratch (every plan, the HTTP insurer included),
    // then the same lead's quotes answered again from its stored snapshot.
    const post = async (apiPath: string, payload: unknown) => {
      const text = JSON.stringify(payload);
      const response = await fetch(`${base}${apiPath}`, { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...sign(text, (nonce += 1)) } });
      return (await response.json()) as { status: number; data: { uuid: string } };
    };
    const firstQuoteMs: number[] = [];
    let uuid = '';
    for (let run = 0; run < 5; run += 1) {
      const saved = await post('/miscellaneous/travel/wiz/add-customer-lead', benchLead(run));
      if (saved.status !== 200) throw new Error(`add-customer-lead answered ${saved.status}`);
      uuid = saved.data.uuid;
      const started = performance.now();
      const quoted = await post('/miscellaneous/travel/wiz/compare-quotes', { uuid, lang: 'en' });
      if (quoted.status !== 200) throw new Error(`compare-quotes answered ${quoted.status}`);
      firstQuoteMs.push(performance.now() - started);
    }
    firstQuoteMs.sort((a, b) => a - b);
    console.log(`compare-quotes, new lead (median of 5)       ${Math.round(firstQuoteMs[2]!)} ms`);
    const quoteBody = JSON.stringify({ uuid, lang: 'ar' });
    await load('POST compare-quotes (signed, stored quotes)', {
      url: `${base}/miscellaneous/travel/wiz/compare-quotes`,
      method: 'POST',
      requests: [{ setupRequest: (request) => ({ ...request, body: quoteBody, headers: { 'content-type': 'application/json', ...sign(quoteBody, (nonce += 1)) } }) }],
    });
    await again.server.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A family of three to France and Italy in ten days' time, with its own e-mail and phone. */
function benchLead(run: number) {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const year = new Date().getUTCFullYear();
  return {
    name: 'Bench Traveller',
    email: `bench.${Date.now()}.${run}@example.com`,
    phone_country_code: '+961',
    phone_number: `7${String(Date.now() + run).slice(-7)}`,
    inbound_outbound: true,
    trip_type: 1,
    start_date: day(10),
    end_date: day(20),
    destination_id: [250, 380],
    source_id: 422,
    no_of_traveller: 3,
    is_family: true,
    travellers_info: [{ dob: `${year - 41}-01-10` }, { dob: `${year - 39}-02-11` }, { dob: `${year - 11}-03-12` }],
    lang: 'en',
  };
}

function dirSize(dir: string): number {
  return readdirSync(dir, { recursive: true })
    .map((f) => path.join(dir, String(f)))
    .reduce((sum, file) => sum + (statSync(file).isFile() ? statSync(file).size : 0), 0);
}

void main();
