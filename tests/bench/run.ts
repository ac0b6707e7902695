/**
 * `npm run bench`: every figure of issue 19's table in one run, each beside its budget with PASS
 * or FAIL; figures, not a test, so it always exits 0. Flags:
 *   --quick          one Lighthouse run per page and one purchase, instead of the median of three
 *   --only a,b       only these parts: size, start, lighthouse, purchase, buyagain, api, broker (memory comes with any server part)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildIfStale } from '../../src/server/build-if-stale';
import { FIRST_LOAD_BUDGET_BYTES, FIRST_LOAD_CEILING_BYTES, LAZY_CHUNK_BUDGET_BYTES, kb, measureBundle } from '../support/bundle-size';
import { spaBuildForTests } from '../support/test-build';
import { measureApiRates } from './api-rates';
import { measureBuyAgain } from './buy-again';
import { measureBrokerLists } from './broker-lists';
import { startBenchServer, type BenchServer } from './bench-server';
import { atMost, broken, megabytes, plain, printSummary, section } from './figures';
import { measureLighthouse } from './lighthouse-runs';
import { measurePurchase } from './purchase-waits';
import { measureStart } from './start-time';

const PARTS = ['size', 'start', 'lighthouse', 'purchase', 'buyagain', 'api', 'broker'] as const;
type Part = (typeof PARTS)[number];

function parseArgs(argv: string[]): { quick: boolean; parts: Set<Part> } {
  const quick = argv.includes('--quick');
  const only = argv.flatMap((arg, index) => (arg === '--only' ? (argv[index + 1] ?? '') : arg.startsWith('--only=') ? arg.slice(7) : '').split(',')).filter(Boolean);
  const unknown = only.filter((part) => !PARTS.includes(part as Part));
  if (unknown.length) {
    console.error(`unknown part(s) for --only: ${unknown.join(', ')} (parts: ${PARTS.join(', ')})`);
    process.exit(2);
  }
  return { quick, parts: new Set(only.length ? (only as Part[]) : PARTS) };
}

async function measureSize(): Promise<void> {
  const build = await spaBuildForTests();
  try {
    const sizes = measureBundle(build.dir);
    const entry = sizes.firstLoad.find((file) => /\/index-[^/]*\.js$/.test(file.file));
    atMost(
      `first-load JS (gzip), ${sizes.firstLoad.length} files`,
      sizes.firstLoadTotal,
      FIRST_LOAD_BUDGET_BYTES,
      kb,
      `entry ${entry ? kb(entry.gzip) : '?'}; ${sizes.firstLoad.map((file) => `${path.basename(file.file)} ${kb(file.gzip)}`).join(', ')}`,
    );
    atMost('first-load JS (gzip) against its size before the policy page', sizes.firstLoadTotal, FIRST_LOAD_CEILING_BYTES, kb);
    const largest = sizes.lazy[0];
    if (largest) atMost('largest lazy chunk (gzip)', largest.gzip, LAZY_CHUNK_BUDGET_BYTES, kb, `${path.basename(largest.file)}, of ${sizes.lazy.length} lazy chunks`);
  } finally {
    build.release();
  }
}

/** Runs a part; a part that breaks is reported as such and the others still run. */
async function part(name: string, work: () => Promise<void>): Promise<void> {
  section(name);
  const started = performance.now();
  try {
    await work();
  } catch (error) {
    broken(name, error);
  }
  console.log(`      (${name}: ${Math.round((performance.now() - started) / 1000)} s)`);
}

async function main() {
  const { quick, parts } = parseArgs(process.argv.slice(2));
  console.log(`bench: ${[...parts].join(', ')}${quick ? ' (quick: one Lighthouse run each, one purchase)' : ''}`);
  if (parts.has('size')) await part('bundle size', measureSize);
  if (parts.has('broker')) await part("the broker's order list at 100,000 leads", measureBrokerLists);

  const needsServer = parts.has('lighthouse') || parts.has('purchase') || parts.has('buyagain') || parts.has('api');
  if (!needsServer && !parts.has('start')) return printSummary();

  section('builds');
  try {
    console.log(await buildIfStale());
  } catch (error) {
    // Nothing current to start or serve: the other parts would measure a stale or half-written build.
    broken('builds (npm start would fail the same way)', error);
    return printSummary();
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-bench-'));
  let server: BenchServer | null = null;
  try {
    if (parts.has('start')) await part('npm start', () => measureStart(dataDir));
    if (needsServer) {
      server = await startBenchServer(dataDir);
      const running = server;
      plain('server memory (RSS) at start', megabytes(running.rssBytes()));
      if (parts.has('lighthouse')) await part('Lighthouse, mobile', () => measureLighthouse(running, quick ? 1 : 3));
      if (parts.has('purchase')) await part('scripted purchase in Chromium', () => measurePurchase(running, quick ? 1 : 3));
      if (parts.has('buyagain')) await part('buy again, scripted in Chromium', () => measureBuyAgain(running, quick ? 1 : 3));
      if (parts.has('api')) await part('rates at 50 connections', () => measureApiRates(running));
      section('memory');
      plain('server memory (RSS) after the runs above', megabytes(running.rssBytes()));
    }
  } finally {
    await server?.process.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  printSummary();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 0;
});
