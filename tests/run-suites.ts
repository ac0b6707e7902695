import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, rmdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, ROOT } from './support/server-process';
import { SPA_DIR_VARIABLE, buildOncePerRun, type SpaBuild } from './support/test-build';
import { findServerBinaries } from './postgres/cluster';
import { postgresOnlyFiles } from './postgres/engines';

/**
 * The test suites of `npm test` (issue 20 item 8) and its checks. First the catalogue check
 * (`npm run i18n:check`, 4 s), alone: its extraction may rewrite the catalogues, which the build
 * and the tests read. Then its type, lint and import checks (`npm run check:code`) beside
 * everything else from the start, their output kept and shown at the end: they are mostly one
 * process, and run before the suites they left a core idle for about a minute and a half
 * (issue 35 item 2). Meanwhile the SPA, the server bundle and the data directory template, built
 * once for every suite (issue 35 item 2); then the main vitest run (logic, unit, server and
 * integration) in the foreground, its output shown as it comes, without the integration tests
 * the PostgreSQL run runs when it can (tests/postgres/engines.ts); beside it from the start, the
 * Chromium suite and `npm run test:model`, and, once the main run or test:model ends, `npm run test:postgres`; their output
 * is kept and shown once they end.
 * Exits 1 when any suite failed, after the 20 slowest test files, the machine's busy and idle
 * core-seconds, a summary line for each suite, and under it a line for each test that failed.
 */

interface Suite {
  name: string;
  command: string;
  args: string[];
}

interface Outcome {
  name: string;
  ok: boolean;
  seconds: number;
  /** Core-seconds (user + system) of the processes the suite waited for (WITH_CPU_TIMES); null when not read. */
  cpuSeconds: number | null;
  /** Core-seconds of every process the suite started, from its control group; null without one. */
  allCpuSeconds: number | null;
  log?: string;
  /** The failures its vitest runs listed (tests/support/suite-summary-reporter.ts), a line each. */
  failures: string[];
  /** Its vitest runs' test files, with where each one's time went. */
  durations: FileDuration[];
  /** The CPU of each of its tests, where it measures it (the Chromium suite: tests/e2e/cpu-per-test.ts). */
  testCpu: TestCpu[];
}

interface TestCpu {
  file: string;
  test: string;
  coreSeconds: number;
}

interface FileDuration {
  project: string;
  file: string;
  environmentMs: number;
  importMs: number;
  testsMs: number;
}

const MAIN: Suite = {
  name: 'vitest (logic, unit, server, integration)',
  command: path.join(BIN, 'vitest'),
  args: ['run', '--project', 'logic', '--project', 'unit', '--project', 'server', '--project', 'system', '--exclude', '**/*.model.test.*', '--maxWorkers=100%'],
};
/**
 * The Chromium files, one at a time, from the start of the run beside everything else: they are
 * the run's longest chain (about 1,400 s alone, using about 1.6 of the 2 cores), and run last in
 * the main run they waited for every other file of it first.
 */
const CHROMIUM: Suite = { name: 'vitest --project e2e (Chromium)', command: path.join(BIN, 'vitest'), args: ['run', '--project', 'e2e'] };
/** The Arabic catalogue's completeness and terms, after extracting the messages into it. */
const CATALOGUES: Suite = { name: 'npm run i18n:check (catalogues)', command: 'npm', args: ['run', '--silent', 'i18n:check'] };
/** Types, lint and imports: one process at a time, each mostly on one core. */
const CHECK: Suite = { name: 'npm run check:code (types, lint, imports)', command: 'npm', args: ['run', '--silent', 'check:code'] };
/** One worker: the main run, then test:postgres's own vitest, use the rest of the machine. */
const MODEL: Suite = { name: 'npm run test:model', command: 'npm', args: ['run', '--silent', 'test:model', '--', '--maxWorkers=1'] };
/**
 * Started when the main run or the model suite ends, whichever ends first, beside the others.
 * After the model suite, as it ran until 2026-12-03, the two made the run's longest chain (776 +
 * 304 s of a 1,111 s run on a fresh clone, while the main run ended at 723 s); after the main run,
 * as it ran next, the main run and it were (454 + 255 s of a 735 s run at 737e45c, while the
 * model suite had ended at about 400 s and the Chromium suite at about 695).
 */
const POSTGRES: Suite = { name: 'npm run test:postgres', command: 'npm', args: ['run', '--silent', 'test:postgres'] };

const children = new Set<ReturnType<typeof spawn>>();

/**
 * Runs a suite's command ("$3"…) under bash and writes bash's `times` to "$1" when it ends: its
 * second line is the user and system time of the processes the suite started and waited for
 * (vitest's workers, its servers, Chromium's browser), which on 2 cores is what decides how long
 * `npm test` takes (issue 35 item 2). A process whose parent died first is init's to wait for,
 * and its time is not counted: Chromium's renderers when the browser is killed, say, or a
 * PostgreSQL server that pg_ctl started. So, where the machine lets it (cgroup v1's cpuacct,
 * writable: root on this machine), the suite also runs in a control group of its own, "$2", and
 * a third line gives the nanoseconds of CPU every process in it used, whoever its parent. A stop
 * (TERM or INT) is passed to the suite.
 */
const WITH_CPU_TIMES = [
  'out="$1"; group="$2"; shift 2',
  'grouped=""',
  'if [ -n "$group" ] && mkdir -p "$group" 2>/dev/null && echo $$ > "$group/cgroup.procs" 2>/dev/null; then grouped=1; fi',
  '"$@" & suite=$!',
  "trap 'kill -TERM $suite 2>/dev/null' TERM INT",
  'wait $suite; status=$?',
  'while kill -0 $suite 2>/dev/null; do wait $suite; status=$?; done',
  'times > "$out"',
  'if [ -n "$grouped" ]; then cat "$group/cpuacct.usage" >> "$out" 2>/dev/null; fi',
  'exit $status',
].join('\n');

/** Where each suite's control group is made, when the machine has cgroup v1's CPU accounting. */
const CGROUP_PARENT = '/sys/fs/cgroup/cpuacct';
/** The suites' control groups, removed at the end (one still holding a process stays). */
const groups = new Set<string>();

/**
 * The core-seconds of a suite from its `times` file (`0m1.234s 0m0.100s`, its second line), and of
 * its control group (nanoseconds, a third line) when it ran in one, then removes the file.
 */
function readCpuSeconds(file: string): { waited: number | null; all: number | null } {
  try {
    const lines = readFileSync(file, 'utf8').split('\n');
    const times = [...(lines[1] ?? '').matchAll(/(\d+)m([\d.]+)s/g)].map((match) => Number(match[1]) * 60 + Number(match[2]));
    const nanoseconds = /^\d+$/.test(lines[2] ?? '') ? Number(lines[2]) : null;
    return { waited: times.length === 2 ? times[0]! + times[1]! : null, all: nanoseconds === null ? null : nanoseconds / 1e9 };
  } catch {
    return { waited: null, all: null };
  } finally {
    rmSync(file, { force: true });
  }
}

const readLines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

/**
 * Runs a suite to its end; with `log`, its output goes to that file instead of the terminal.
 * Its vitest runs write their failures and file durations into `summaryDir`.
 */
function run(suite: Suite, summaryDir: string, log?: string): Promise<Outcome> {
  const started = Date.now();
  const cpuFile = path.join(os.tmpdir(), `safar-cpu-${process.pid}-${path.basename(summaryDir)}`);
  const group = existsSync(CGROUP_PARENT) ? path.join(CGROUP_PARENT, `safar-${process.pid}-${path.basename(summaryDir)}`) : '';
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', WITH_CPU_TIMES, suite.name, cpuFile, group, suite.command, ...suite.args], {
      cwd: ROOT,
      stdio: log ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      // SAFAR_CPU_GROUP: the suite's control group, whose CPU the Chromium suite reads around each test.
      env: { ...process.env, SAFAR_SUMMARY_DIR: summaryDir, ...(group ? { SAFAR_CPU_GROUP: group } : {}) },
    });
    children.add(child);
    const file = log ? createWriteStream(log) : null;
    if (file) {
      child.stdout?.pipe(file, { end: false });
      child.stderr?.pipe(file, { end: false });
    }
    const done = (ok: boolean) => {
      children.delete(child);
      const cpu = readCpuSeconds(cpuFile);
      if (group) groups.add(group);
      const outcome = {
        name: suite.name,
        ok,
        seconds: (Date.now() - started) / 1000,
        cpuSeconds: cpu.waited,
        allCpuSeconds: cpu.all,
        log,
        failures: readLines(path.join(summaryDir, 'failures')),
        durations: readLines(path.join(summaryDir, 'durations')).map((line) => JSON.parse(line) as FileDuration),
        testCpu: readLines(path.join(summaryDir, 'cpu')).map((line) => JSON.parse(line) as TestCpu),
      };
      // The log is read once the suite ends: it is complete only once the file has it all.
      if (file) file.end(() => resolve(outcome));
      else resolve(outcome);
    };
    child.on('error', () => done(false));
    child.on('close', (code) => done(code === 0));
  });
}

/** Ctrl-C or a stop: the children get it too (test:postgres then removes its cluster). */
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exitCode = 130;
  });
}

/** How many of the slowest files to list: 20, or SAFAR_SLOWEST. */
const SLOWEST = Number(process.env.SAFAR_SLOWEST) || 20;

/**
 * The slowest test files of every suite, and where each one's time went (issue 35 item 2):
 * its environment (happy-dom), its imports and setup, and its tests and hooks (server and browser
 * starts included). A file of the PostgreSQL run is named with its suite. Then the Chromium tests
 * that used the most CPU, where the suite measured it.
 */
function printSlowest(outcomes: Outcome[]): void {
  const files = outcomes.flatMap((outcome) => outcome.durations.map((duration) => ({ ...duration, suite: outcome.name })));
  if (files.length === 0) return;
  const total = (file: FileDuration) => file.environmentMs + file.importMs + file.testsMs;
  const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);
  console.log(`\nThe ${Math.min(SLOWEST, files.length)} slowest test files of ${files.length} (seconds: total = environment + import and setup + tests and hooks):`);
  for (const file of files.sort((a, b) => total(b) - total(a)).slice(0, SLOWEST)) {
    // The main run's and the Chromium suite's projects name themselves; the other suites are named.
    const suite = file.suite === MAIN.name || file.suite === CHROMIUM.name ? '' : `  (${file.suite})`;
    console.log(`  ${seconds(total(file))} = ${seconds(file.environmentMs)} + ${seconds(file.importMs)} + ${seconds(file.testsMs)}  ${file.project} ${file.file}${suite}`);
  }
  // Wall time on a busy machine says how long a test waited; the CPU it used says what it costs.
  const tests = outcomes.flatMap((outcome) => outcome.testCpu);
  if (tests.length === 0) return;
  const sum = tests.reduce((total, test) => total + test.coreSeconds, 0);
  console.log(`\nThe ${Math.min(SLOWEST, tests.length)} Chromium tests of ${tests.length} that used the most CPU (core-seconds of every process of the Chromium suite while the test and its hooks ran; ${sum.toFixed(0)} for all of them):`);
  for (const test of tests.sort((a, b) => b.coreSeconds - a.coreSeconds).slice(0, SLOWEST)) {
    console.log(`  ${test.coreSeconds.toFixed(1).padStart(6)}  ${test.file} > ${test.test.slice(0, 150)}`);
  }
}

/**
 * The main run without the integration tests that run on PostgreSQL alone (tests/postgres/
 * engines.ts), when the PostgreSQL run will have a server to run them on; without one (no
 * binaries, no way to install them, or PG_BIN wrong) it keeps them, on PGlite.
 */
async function withoutPostgresOnlyFiles(suite: Suite): Promise<Suite> {
  const binaries = await findServerBinaries().catch((error: unknown) => ({ missing: error instanceof Error ? error.message : String(error) }));
  if ('missing' in binaries) {
    console.log(`No PostgreSQL (${binaries.missing}): the main run keeps every integration test, on PGlite.\n`);
    return suite;
  }
  const files = postgresOnlyFiles();
  console.log(`${files.length} integration test files run once, on PostgreSQL (npm run test:postgres), not again on PGlite in the main run.\n`);
  return { ...suite, args: [...suite.args, ...files.flatMap((file) => ['--exclude', file])] };
}

/** Busy and idle core-seconds of the whole machine (Linux /proc/stat) from now to the call of the returned function. */
function machineBusy(): () => { busy: number; idle: number; wall: number } | null {
  const read = () => {
    try {
      const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
      // user nice system idle iowait irq softirq steal, in clock ticks (100 a second)
      const idle = fields[3]! + fields[4]!;
      return { idle, busy: fields.slice(0, 8).reduce((sum, value) => sum + value, 0) - idle, at: Date.now() };
    } catch {
      return null;
    }
  };
  const start = read();
  return () => {
    const end = read();
    if (!start || !end) return null;
    return { busy: (end.busy - start.busy) / 100, idle: (end.idle - start.idle) / 100, wall: (end.at - start.at) / 1000 };
  };
}

async function main(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'safar-suites-'));
  // The SPA, the server bundle and the data directory template, built once for every suite (issue
  // 35 item 2): the suites find the SPA's folder in SAFAR_TEST_SPA_DIR, and the bundle and the
  // template in dist-server/ (current now).
  let build: SpaBuild | null = null;
  const busy = machineBusy();
  const catalogues = await run(CATALOGUES, path.join(dir, 'catalogues.summary'), path.join(dir, 'catalogues.log'));
  const check = run(CHECK, path.join(dir, 'check.summary'), path.join(dir, 'check.log'));
  try {
    const buildStarted = Date.now();
    build = await buildOncePerRun();
    process.env[SPA_DIR_VARIABLE] = build.dir;
    console.log(`Built the SPA, the server bundle and the data directory template once for every suite in ${((Date.now() - buildStarted) / 1000).toFixed(1)} s.`);
    const mainSuite = await withoutPostgresOnlyFiles(MAIN);
    const chromium = run(CHROMIUM, path.join(dir, 'chromium.summary'), path.join(dir, 'chromium.log'));
    const model = run(MODEL, path.join(dir, 'model.summary'), path.join(dir, 'model.log'));
    const mainRun = run(mainSuite, path.join(dir, 'main.summary'));
    const postgresRun = Promise.race([mainRun, model]).then(() => run(POSTGRES, path.join(dir, 'postgres.summary'), path.join(dir, 'postgres.log')));
    const main = await mainRun;
    const postgres = await postgresRun;
    const others = [catalogues, await check, await chromium, await model, postgres];
    for (const outcome of others) {
      const when = outcome === catalogues ? 'before the suites' : outcome === postgres ? 'once the main run or test:model had ended' : 'beside the main run';
      console.log(`\n──── ${outcome.name} (ran ${when}) ────\n`);
      process.stdout.write(readFileSync(outcome.log!, 'utf8'));
    }
    printSlowest([main, ...others]);
    const used = busy();
    if (used) console.log(`\nThe machine's ${os.cpus().length} cores while the build, the check and the suites ran: ${used.busy.toFixed(0)} core-seconds busy, ${used.idle.toFixed(0)} idle, in ${used.wall.toFixed(0)} s.`);
    console.log('\nTest suites (core-s: the user and system time of the processes each suite waited for, which leaves out a process left to init, such as a killed browser\'s renderer; in brackets, where the machine has cgroup v1 CPU accounting, that of every process the suite started):');
    for (const outcome of [main, ...others]) {
      const waited = outcome.cpuSeconds === null ? '' : `, ${outcome.cpuSeconds.toFixed(0)} core-s`;
      const cpu = outcome.allCpuSeconds === null ? waited : `${waited} (${outcome.allCpuSeconds.toFixed(0)} with every process it started)`;
      console.log(`  ${outcome.ok ? 'passed' : 'FAILED'}  ${outcome.name}  ${outcome.seconds.toFixed(0)} s${cpu}`);
      // Last, so that the tail of a long log names what failed.
      for (const line of outcome.failures) console.log(`      ✗ ${line}`);
      if (!outcome.ok && outcome.failures.length === 0) console.log(`      ✗ no test named: its output is above, under "──── ${outcome.name} (ran …) ────"`);
    }
    return [main, ...others].every((outcome) => outcome.ok) ? 0 : 1;
  } finally {
    build?.release();
    // Its log is in `dir`: a build that failed does not stop it, so it is waited for.
    await check;
    rmSync(dir, { recursive: true, force: true });
    for (const group of groups) {
      try {
        rmdirSync(group);
      } catch {
        // A process the suite left behind is still in it.
      }
    }
  }
}

process.exitCode = await main();
