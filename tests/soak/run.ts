/**
 * `npm run soak -- <command>`: the issue 18 figures, each beside its goal; exit code 1 when a goal is missed.
 *
 *   journeys [N]        N concurrent API journeys to a paid policy (default 200)
 *   crash               journeys, SIGKILL mid-load, restart on the same data, finish (--journeys N, default 100)
 *   fuzz [N]            N bodies per endpoint against the running server (tests/soak/fuzz.ts)
 *   outage              PostgreSQL stopped (--stop CMD) for --outage-ms (12000), then started (--start CMD)
 *   coupon-guessing [N] one coupon guesser and N customers (default 100) behind one address (tests/soak/coupon-guessing.ts)
 *
 * Options: --database-url URL (a PostgreSQL server; the soak creates and drops a database of its
 * own on it), --instances 2 (two servers on that PostgreSQL), --json, --keep (keep the data
 * directory and database), --settle-ms MS (default 60000), --shared-address, --seed N (fuzz).
 */
import { runCouponGuessing } from './coupon-guessing';
import { runCrash } from './crash';
import { runFuzzCommand } from './fuzz-command';
import { runJourneys, type SoakOptions } from './journeys';
import { runOutage } from './outage';
import { printSummary, type SoakSummary } from './soak-figures';

const USAGE = `usage: npm run soak -- journeys [N] | crash [--journeys N] | fuzz [N] | outage --stop CMD --start CMD [--outage-ms MS] | coupon-guessing [N]
  [--database-url postgres://…] [--instances 2] [--json] [--keep] [--settle-ms MS] [--shared-address] [--seed N]`;

interface Parsed {
  command: string;
  count: number | null;
  options: SoakOptions;
  seed: number | null;
  outage: { stop: string; start: string; ms: number };
}

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function whole(name: string, text: string | undefined, min: number): number {
  if (text === undefined || !/^\d{1,7}$/.test(text) || Number(text) < min) fail(`${name} must be a whole number of at least ${min} (got ${text ?? 'nothing'})`);
  return Number(text);
}

export function parseArgs(argv: readonly string[]): Parsed {
  const [command, ...rest] = argv;
  if (!command || !['journeys', 'crash', 'fuzz', 'outage', 'coupon-guessing'].includes(command)) fail(command ? `unknown command "${command}"` : 'a command is required');
  let count: number | null = null;
  let seed: number | null = null;
  const outage = { stop: '', start: '', ms: 12_000 };
  const options: SoakOptions = { journeys: 0, databaseUrl: '', instances: 1, json: false, keep: false, settleMs: 60_000, sharedAddress: false };
  for (let index = 0; index < rest.length; index += 1) {
    const arg = rest[index]!;
    const value = () => rest[(index += 1)];
    if (/^\d+$/.test(arg)) count = whole('N', arg, 1);
    else if (arg === '--journeys') count = whole('--journeys', value(), 1);
    else if (arg === '--database-url') {
      const url = value();
      if (!url || !/^postgres(ql)?:\/\//.test(url)) fail('--database-url must be a postgres:// or postgresql:// URL');
      options.databaseUrl = url;
    } else if (arg === '--instances') options.instances = whole('--instances', value(), 1);
    else if (arg === '--settle-ms') options.settleMs = whole('--settle-ms', value(), 1_000);
    else if (arg === '--seed') seed = whole('--seed', value(), 0);
    else if (arg === '--stop') outage.stop = value() ?? '';
    else if (arg === '--start') outage.start = value() ?? '';
    else if (arg === '--outage-ms') outage.ms = whole('--outage-ms', value(), 1_000);
    else if (arg === '--json') options.json = true;
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--shared-address') options.sharedAddress = true;
    else fail(`unknown option "${arg}"`);
  }
  if (options.instances > 1 && !options.databaseUrl) fail('--instances above 1 needs --database-url: embedded PGlite has one owner');
  if (command === 'outage' && (!options.databaseUrl || !outage.stop || !outage.start)) {
    fail('outage needs --database-url, --stop "<command that stops PostgreSQL>" and --start "<command that starts it>"');
  }
  options.journeys = count ?? (command === 'crash' || command === 'coupon-guessing' ? 100 : 200);
  // Every customer's lead and bot check comes from the one address, under its limits of 300 each per 10 minutes.
  if (command === 'coupon-guessing' && options.journeys > 200) fail('coupon-guessing takes at most 200 customers');
  return { command: command!, count, options, seed, outage };
}

async function main() {
  const parsed = parseArgs(process.argv.slice(2));
  let summary: SoakSummary;
  if (parsed.command === 'journeys') summary = await runJourneys(parsed.options);
  else if (parsed.command === 'crash') summary = await runCrash(parsed.options);
  else if (parsed.command === 'coupon-guessing') summary = await runCouponGuessing(parsed.options);
  else if (parsed.command === 'outage') {
    summary = await runOutage({ ...parsed.options, stopCommand: parsed.outage.stop, startCommand: parsed.outage.start, outageMs: parsed.outage.ms });
  }
  else summary = await runFuzzCommand({ perEndpoint: parsed.count ?? 10_000, seed: parsed.seed, options: parsed.options });
  printSummary(summary, parsed.options.json);
  process.exit(summary.ok ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
