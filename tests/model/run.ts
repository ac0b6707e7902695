import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnyStateMachine } from 'xstate';
import { callBackMachine } from '../../machines/call-back.machine';
import { checkoutMachine } from '../../machines/checkout.machine';
import { journeyMachine } from '../../machines/journey.machine';
import { ALWAYS, definedCoverage, type ReachedCoverage } from '../../machines/model-coverage';
import { paymentResultMachine } from '../../machines/payment-result.machine';
import { quotesMachine } from '../../machines/quotes.machine';
import { reviewMachine } from '../../machines/review.machine';
import { travelDetailsMachine } from '../../machines/travel-details.machine';
import { BIN, ROOT } from '../support/server-process';

/**
 * `npm run test:model` (issue 20): runs every model test (the machines' generated paths on live
 * actors, and the journey's on the rendered app), then adds up which states and transitions of
 * each machine those runs reached (machines/model-coverage.ts) and prints, per machine, states
 * reached / defined and transitions reached / defined, then every transition not reached. Exits
 * 1 when a test failed or anything was not reached. Arguments after `--` go to vitest.
 */

const MACHINES: readonly AnyStateMachine[] = [journeyMachine, travelDetailsMachine, quotesMachine, callBackMachine, reviewMachine, checkoutMachine, paymentResultMachine];

/** Vitest's file filter: every *.model.test.* file, in machines/ (unit project) and tests/model/ (model project). */
const MODEL_TEST_FILTER = '.model.test.';

function runModelTests(coverageDir: string, extra: string[]): { ok: boolean; tests: number } {
  const results = path.join(coverageDir, 'vitest.json');
  const run = spawnSync(
    path.join(BIN, 'vitest'),
    ['run', '--project', 'unit', '--project', 'model', MODEL_TEST_FILTER, '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...extra],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, MODEL_COVERAGE_DIR: coverageDir } },
  );
  let tests = 0;
  try {
    const report = JSON.parse(readFileSync(results, 'utf8')) as { numPassedTests: number; numFailedTests: number };
    tests = report.numPassedTests + report.numFailedTests;
  } catch {
    // No report: vitest stopped before writing it; its own output says why.
  }
  return { ok: run.status === 0, tests };
}

type Reached = { states: Set<string>; transitions: Set<string>; events: Set<string> };
const nothingReached = (): Reached => ({ states: new Set(), transitions: new Set(), events: new Set() });

function reachedFrom(dir: string): Map<string, Reached> {
  const union = new Map<string, Reached>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json') && name !== 'vitest.json')) {
    const reached = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as ReachedCoverage;
    for (const [machine, entry] of Object.entries(reached)) {
      const into = union.get(machine) ?? nothingReached();
      entry.states.forEach((state) => into.states.add(state));
      entry.transitions.forEach((transition) => into.transitions.add(transition));
      entry.events.forEach((type) => into.events.add(type));
      union.set(machine, into);
    }
  }
  return union;
}

/**
 * The command's arguments as vitest's: `--path <id>` runs the path with that id alone (each
 * generated path's test name starts with it, machines/model-replay.ts withPathIds); the rest
 * goes to vitest as it is.
 */
function vitestArguments(args: string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') continue;
    if (arg === '--path' || arg.startsWith('--path=')) {
      const id = arg === '--path' ? args[(index += 1)] : arg.slice('--path='.length);
      if (!id || !/^[0-9a-f]{8}$/.test(id)) throw new Error(`--path takes a path's id, eight hex digits as printed before its name (got ${id ?? 'nothing'})`);
      out.push('-t', `^.*${id} `);
      continue;
    }
    out.push(arg);
  }
  return out;
}

const percent = (part: number, whole: number) => (whole === 0 ? '100' : ((100 * part) / whole).toFixed(0));
const pad = (text: string, width: number) => text.padEnd(width);

function main(): number {
  const coverageDir = mkdtempSync(path.join(os.tmpdir(), 'safar-model-coverage-'));
  try {
    const args = vitestArguments(process.argv.slice(2));
    const run = runModelTests(coverageDir, args);
    if (args.includes('-t')) {
      // One path (or a name filter): the tests' result alone; coverage is for the whole run.
      console.log(`\n${run.tests} test(s) run; coverage is added up only when every model test runs.`);
      return run.ok ? 0 : 1;
    }
    const reached = reachedFrom(coverageDir);

    const rows: string[][] = [];
    const missing: string[] = [];
    const unsampled: string[] = [];
    let totals = { states: 0, statesReached: 0, transitions: 0, transitionsReached: 0 };
    for (const machine of MACHINES) {
      const defined = definedCoverage(machine);
      const got = reached.get(machine.id) ?? nothingReached();
      // The event types the machine accepts that no path ever sent: a sample its model lacks.
      // (Not the machine's own done.state events: it raises those itself.)
      const accepted = [...new Set(defined.transitions.map((transition) => transition.event))].filter((type) => type !== ALWAYS && !type.startsWith('xstate.done.state.'));
      const unsent = accepted.filter((type) => !got.events.has(type));
      const statesReached = defined.states.filter((state) => got.states.has(state));
      const transitionsReached = defined.transitions.filter((transition) => got.transitions.has(transition.name));
      rows.push([
        machine.id,
        `${statesReached.length} / ${defined.states.length}`,
        `${transitionsReached.length} / ${defined.transitions.length}`,
        `${percent(transitionsReached.length, defined.transitions.length)} %`,
        `${unsent.length} of ${accepted.length}`,
      ]);
      for (const type of unsent) unsampled.push(`${machine.id}: ${type}`);
      totals = {
        states: totals.states + defined.states.length,
        statesReached: totals.statesReached + statesReached.length,
        transitions: totals.transitions + defined.transitions.length,
        transitionsReached: totals.transitionsReached + transitionsReached.length,
      };
      for (const state of defined.states.filter((id) => !got.states.has(id))) missing.push(`${machine.id}: state ${state}`);
      for (const transition of defined.transitions.filter((entry) => !got.transitions.has(entry.name))) {
        missing.push(`${machine.id}: ${transition.source} on ${transition.event} → ${transition.target}  [${transition.name}]`);
      }
    }
    rows.push([
      'all',
      `${totals.statesReached} / ${totals.states}`,
      `${totals.transitionsReached} / ${totals.transitions}`,
      `${percent(totals.transitionsReached, totals.transitions)} %`,
      `${unsampled.length}`,
    ]);

    const header = ['machine', 'states reached / defined', 'transitions reached / defined', 'transitions', 'event types never sent'];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
    console.log('\nModel coverage');
    console.log(header.map((title, column) => pad(title, widths[column]!)).join('  '));
    console.log(widths.map((width) => '-'.repeat(width)).join('  '));
    for (const row of rows) console.log(row.map((cell, column) => pad(cell, widths[column]!)).join('  '));
    console.log(`paths (tests) run: ${run.tests}${run.ok ? '' : ' (some FAILED, see above)'}`);
    if (unsampled.length > 0) console.log(`\nEvent types no path sent (add a sample to the machine's model):\n  ${unsampled.join('\n  ')}`);
    if (missing.length > 0) console.log(`\nNot reached (${missing.length}):\n  ${missing.join('\n  ')}`);
    return run.ok && missing.length === 0 && unsampled.length === 0 ? 0 : 1;
  } finally {
    rmSync(coverageDir, { recursive: true, force: true });
  }
}

process.exit(main());
