/**
 * `npm run soak -- <command>`: the issue 18 figures, each beside its goal; exit code 1 when a goal is missed.
 *
 *   journeys [N]        N concurrent API journeys to a paid policy (default 200); with --waves W,
 *                       W such waves one after the other, the server's RSS after each (tests/soak/waves.ts);
 *                       with --kill-one (PostgreSQL, --instances 2 or more), the last instance is SIGKILLed
 *                       mid-load for good and its outbox claims' takeover is timed (tests/soak/kill-one.ts)
 *   crash               journeys, SIGKILL mid-load, restart on the same data, finish (--journeys N, default 100)
 *   fuzz [N]            N bodies per endpoint against the running server (tests/soak/fuzz.ts)
 *   outage              under load (--journeys N customers paying per disruption, default 10): PostgreSQL stopped
 *                       fast (--stop CMD), then immediately (--stop-immediate CMD), each for --outage-ms (12000)
 *                       and started again (--start CMD), then restarted mid-payment (tests/soak/outage.ts)
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
import { runKillOne } from './kill-one';
import { runOutage } from './outage';
import { runWaves } from './waves';
import { printSummary, type SoakSummary } from './soak-figures';

const USAGE = `usage: npm run soak -- journeys [N] [--waves W] [--kill-one] | crash [--journeys N] | fuzz [N] | outage --stop CMD --stop-immediate CMD --start CMD [--outage-ms MS] [--journeys N] | coupon-guessing [N]
  [--database-url postgres://…] [--instances 2] [--json] [--keep] [--settle-ms MS] [--shared-address] [--seed N]`;

interface Parsed {
  command: string;
  count: number | null;
  options: SoakOptions;
  seed: number | null;
  outage: { stop: string; stopImmediate: string; start: string; ms: number };
  /** journeys only: how many waves of N journeys run one after the other (null: one, as before). */
  waves: number | null;
  /** journeys only: one instance killed for good mid-load (tests/soak/kill-one.ts). */
  killOne: boolean;
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
  let waves: number | null = null;
  let killOne = false;
  const outage = { stop: '', stopImmediate: '', start: '', ms: 12_000 };
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
    else if (arg === '--waves') waves = whole('--waves', value(), 2);
    else if (arg === '--kill-one') killOne = true;
    else if (arg === '--stop') outage.stop = value() ?? '';
    else if (arg === '--stop-immediate') outage.stopImmediate = value() ?? '';
    else if (arg === '--start') outage.start = value() ?? '';
    else if (arg === '--outage-ms') outage.ms = whole('--outage-ms', value(), 1_000);
    else if (arg === '--json') options.json = true;
    else if (arg === '--keep') options.keep = true;
    else if (arg === '--shared-address') options.sharedAddress = true;
    else fail(`unknown option "${arg}"`);
  }
  if (options.instances > 1 && !options.databaseUrl) fail('--instances above 1 needs --database-url: embedded PGlite has one owner');
  if (command === 'outage' && (!options.databaseUrl || !outage.stop || !outage.stopImmediate || !outage.start)) {
    fail('outage needs --database-url, --stop "<command that stops PostgreSQL fast>", --stop-immediate "<command that stops it at once>" and --start "<command that starts it>"');
  }
  if (waves !== null && command !== 'journeys') fail('--waves goes with journeys only');
  if (killOne && (command !== 'journeys' || waves !== null || options.instances < 2)) fail('--kill-one goes with journeys, without --waves, and --instances 2 or more (on --database-url)');
  // outage: customers per disruption (three disruptions in a row).
  options.journeys = count ?? (command === 'outage' ? 10 : command === 'crash' || command === 'coupon-guessing' ? 100 : 200);
  // Every customer's lead and bot check comes from the one address, under its limits of 300 each per 10 minutes.
  if (command === 'coupon-guessing' && options.journeys > 200) fail('coupon-guessing takes at most 200 customers');
  return { command: command!, count, options, seed, outage, waves, killOne };
}

async function main() {
  const parsed = parseArgs(process.argv.slice(2));
  let summary: SoakSummary;
  if (parsed.command === 'journeys' && parsed.killOne) summary = await runKillOne(parsed.options);
  else if (parsed.command === 'journeys') summary = parsed.waves ? await runWaves(parsed.options, parsed.waves) : await runJourneys(parsed.options);
  else if (parsed.command === 'crash') summary = await runCrash(parsed.options);
  else if (parsed.command === 'coupon-guessing') summary = await runCouponGuessing(parsed.options);
  else if (parsed.command === 'outage') {
    summary = await runOutage({
      ...parsed.options,
      stopCommand: parsed.outage.stop,
      stopImmediateCommand: parsed.outage.stopImmediate,
      startCommand: parsed.outage.start,
      outageMs: parsed.outage.ms,
    });
  }
  else summary = await runFuzzCommand({ perEndpoint: parsed.count ?? 10_000, seed: parsed.seed, options: parsed.options });
  printSummary(summary, parsed.options.json);
  process.exit(summary.ok ? 0 : 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
