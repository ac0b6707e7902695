import { spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { ROOT } from '../support/server-process';

/**
 * `npm run test:loaded -- [--runs N] <command…>` (issue 35 item 1): runs a command N times (default
 * 3) while a CPU hog keeps every core busy (one `node -e` busy loop per core, started before and
 * stopped after each run), and prints each run's exit code and time, then the failures counted.
 * It proves that a suite waits on state, not on the clock: a test that passes only on a quiet
 * machine fails here. Exits 1 when any run failed.
 *
 *   npm run test:loaded -- npm run test:model
 *   npm run test:loaded -- --runs 1 npx vitest run --project unit
 */

function parse(argv: string[]): { runs: number; command: string[] } {
  const at = argv.indexOf('--runs');
  const runs = at >= 0 ? Number(argv[at + 1]) : 3;
  const command = at >= 0 ? [...argv.slice(0, at), ...argv.slice(at + 2)] : argv;
  if (!Number.isInteger(runs) || runs < 1 || command.length === 0) {
    console.error('usage: npm run test:loaded -- [--runs N] <command…>');
    process.exit(2);
  }
  return { runs, command };
}

/** One busy loop per core, each its own process (so the operating system spreads them). */
function startHogs(): ChildProcess[] {
  return Array.from({ length: os.availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

async function stopHogs(hogs: ChildProcess[]): Promise<void> {
  await Promise.all(
    hogs.map(
      (hog) =>
        new Promise<void>((resolve) => {
          if (hog.exitCode !== null || hog.signalCode !== null) return resolve();
          hog.once('exit', () => resolve());
          hog.kill('SIGKILL');
        }),
    ),
  );
}

function runOnce(command: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, stdio: 'inherit' });
    child.once('error', () => resolve(null));
    child.once('exit', (code) => resolve(code));
  });
}

const { runs, command } = parse(process.argv.slice(2));
const results: { code: number | null; seconds: number }[] = [];
let hogs: ChildProcess[] = [];
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void stopHogs(hogs).then(() => process.exit(130)));
}
for (let run = 1; run <= runs; run += 1) {
  hogs = startHogs();
  console.log(`\n──── run ${run} of ${runs}, beside ${hogs.length} busy loops (one per core): ${command.join(' ')} ────\n`);
  const started = Date.now();
  const code = await runOnce(command);
  await stopHogs(hogs);
  results.push({ code, seconds: (Date.now() - started) / 1000 });
}
console.log(`\nUnder load (${os.availableParallelism()} busy loops): ${command.join(' ')}`);
results.forEach(({ code, seconds }, index) => console.log(`  run ${index + 1}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`));
const failed = results.filter(({ code }) => code !== 0).length;
console.log(`  ${failed} of ${runs} runs failed`);
process.exitCode = failed ? 1 : 0;
