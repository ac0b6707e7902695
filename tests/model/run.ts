import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnyStateMachine } from 'xstate';
import { callBackMachine } from '../../machines/call-back/call-back.machine';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';
import { journeyMachine } from '../../machines/journey.machine';
import { ALWAYS, PATHS_NAMED, definedCoverage, type DefinedTransition, type FileCoverage } from '../../machines/model-tooling/model-coverage';
import { paymentResultMachine } from '../../machines/payment-result/payment-result.machine';
import { quotesMachine } from '../../machines/quotes/quotes.machine';
import { reviewMachine } from '../../machines/review/review.machine';
import { travelDetailsMachine } from '../../machines/travel-details/travel-details.machine';
import { BIN, ROOT } from '../support/server-process';

/**
 * `npm run test:model` (issue 20): runs every model test (the machines' generated paths on live
 * actors, and the journey's on the rendered app), then adds up which states and transitions of
 * each machine those runs reached (machines/model-tooling/model-coverage.ts) and prints, per machine, states
 * reached / defined and transitions reached / defined, then every transition not reached. Exits
 * 1 when a test failed or anything was not reached. `--path <id>` runs one generated path
 * alone; `--report` also writes reports/model-coverage/ (summary.json and index.html); other
 * arguments go to vitest.
 */

const MACHINES: readonly AnyStateMachine[] = [journeyMachine, travelDetailsMachine, quotesMachine, callBackMachine, reviewMachine, checkoutMachine, paymentResultMachine];

/**
 * Transitions the rendered app cannot take, each with its reason: reviewed, shown apart, and
 * kept honest (an entry the app does take, or that names no transition, fails the command like
 * any other transition not taken on the rendered app).
 */
const NOT_ON_SCREEN: Readonly<Record<string, string>> = {
  'quotes.starting always #2': 'no lead: the journey never shows the quote pages without one, so no quotes actor starts there (machines/quotes/quotes.model.test.ts covers it)',
  'review.starting always #2': 'no lead: the journey never shows /review-details without one, so no review actor starts there (machines/review/review.model.test.ts covers it)',
  'checkout.starting always #2': 'no lead: the journey never shows /checkout without one, so no checkout actor starts there (machines/checkout/checkout.model.test.ts covers it)',
};

/** Vitest's file filter: every *.model.test.* file, in machines/ (logic project) and tests/model/ (model project). */
const MODEL_TEST_FILTER = '.model.test.';

/**
 * Every core unless the arguments say otherwise (`-- --maxWorkers=1`, as `npm test` runs it beside
 * its main run): vitest's default leaves one core for itself, which on 2 cores runs one file at a time.
 */
const workers = (extra: string[]) => (extra.some((arg) => arg.startsWith('--maxWorkers')) ? [] : ['--maxWorkers=100%']);

function runModelTests(coverageDir: string, extra: string[]): { ok: boolean; tests: number } {
  const results = path.join(coverageDir, 'vitest.json');
  const run = spawnSync(
    path.join(BIN, 'vitest'),
    ['run', '--project', 'logic', '--project', 'model', MODEL_TEST_FILTER, ...workers(extra), '--reporter=default', '--reporter=json', ...(process.env.SAFAR_SUMMARY_DIR ? ['--reporter=./tests/support/suite-summary-reporter.ts'] : []), `--outputFile.json=${results}`, ...extra],
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

type Reached = { states: Set<string>; transitions: Set<string>; events: Set<string>; paths: Set<string>; onScreen: Set<string>; by: Map<string, Set<string>> };
const nothingReached = (): Reached => ({ states: new Set(), transitions: new Set(), events: new Set(), paths: new Set(), onScreen: new Set(), by: new Map() });

function reachedFrom(dir: string): Map<string, Reached> {
  const union = new Map<string, Reached>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json') && name !== 'vitest.json')) {
    const { rendered, machines } = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as FileCoverage;
    for (const [machine, entry] of Object.entries(machines)) {
      const into = union.get(machine) ?? nothingReached();
      entry.states.forEach((state) => into.states.add(state));
      entry.transitions.forEach((transition) => into.transitions.add(transition));
      // Transitions taken on the rendered app: the screens and the API client ran with the machine.
      if (rendered) entry.transitions.forEach((transition) => into.onScreen.add(transition));
      entry.events.forEach((type) => into.events.add(type));
      entry.paths.forEach((id) => into.paths.add(id));
      for (const [key, ids] of Object.entries(entry.by)) {
        const named = into.by.get(key) ?? new Set<string>();
        ids.forEach((id) => named.size < PATHS_NAMED && named.add(id));
        into.by.set(key, named);
      }
      union.set(machine, into);
    }
  }
  return union;
}

/**
 * The command's arguments as vitest's: `--path <id>` runs the path with that id alone (each
 * generated path's test name starts with it, machines/model-tooling/model-replay.ts withPathIds); the rest
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

interface MachineReport {
  machine: string;
  states: { id: string; reached: boolean; paths: string[] }[];
  transitions: (DefinedTransition & { reached: boolean; onScreen: boolean; paths: string[] })[];
  /** How many generated paths ran an actor of the machine. */
  paths: number;
  eventTypesNeverSent: string[];
}

const REPORT_DIR = path.join(ROOT, 'reports/model-coverage');

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char]!);

/**
 * `--report`: reports/model-coverage/summary.json (every machine's states and transitions,
 * whether reached and by which paths) and index.html, the same as a page to read. Answers the
 * page's path.
 */
function writeReport(summary: { tests: number; ok: boolean; machines: MachineReport[] }): string {
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(path.join(REPORT_DIR, 'summary.json'), JSON.stringify({ generatedAt: new Date().toISOString(), ...summary }, null, 2));
  const replay = (ids: string[]) => ids.map((id) => `<code title="npm run test:model -- --path ${id}">${id}</code>`).join(' ') || '—';
  const mark = (reached: boolean) => (reached ? '<td class="ok">reached</td>' : '<td class="no">NOT reached</td>');
  const sections = summary.machines.map((entry) => {
    const states = entry.states.map((state) => `<tr><td>${escapeHtml(state.id)}</td>${mark(state.reached)}<td>${replay(state.paths)}</td></tr>`).join('');
    const transitions = entry.transitions
      .map(
        (transition) =>
          `<tr><td>${escapeHtml(transition.source)}</td><td>${escapeHtml(transition.event)}</td><td>${escapeHtml(transition.target)}</td>${mark(transition.reached)}<td>${transition.onScreen ? 'yes' : 'no'}</td><td>${replay(transition.paths)}</td></tr>`,
      )
      .join('');
    const reachedStates = entry.states.filter((state) => state.reached).length;
    const reachedTransitions = entry.transitions.filter((transition) => transition.reached).length;
    return `<section><h2 id="${entry.machine}">${entry.machine}: states ${reachedStates} / ${entry.states.length}, transitions ${reachedTransitions} / ${entry.transitions.length}, ${entry.paths} paths</h2>
<table><caption>States</caption><thead><tr><th>state</th><th>reached</th><th>paths (replay with --path)</th></tr></thead><tbody>${states}</tbody></table>
<table><caption>Transitions</caption><thead><tr><th>from</th><th>on</th><th>to</th><th>reached</th><th>on screen</th><th>paths (replay with --path)</th></tr></thead><tbody>${transitions}</tbody></table></section>`;
  });
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Safar model coverage</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;max-width:80rem}table{border-collapse:collapse;margin:1rem 0;width:100%}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:start;vertical-align:top}caption{text-align:start;font-weight:600}.ok{color:#1b5e20}.no{color:#b00020;font-weight:600}code{margin-inline-end:.5rem}</style></head>
<body><h1>Model coverage</h1><p>${summary.tests} paths run${summary.ok ? '' : ' (some failed)'}. Generated by <code>npm run test:model -- --report</code>.</p>
<nav>${summary.machines.map((entry) => `<a href="#${entry.machine}">${entry.machine}</a>`).join(' · ')}</nav>${sections.join('')}</body></html>`;
  const page = path.join(REPORT_DIR, 'index.html');
  writeFileSync(page, html);
  return page;
}

const percent = (part: number, whole: number) => (whole === 0 ? '100' : ((100 * part) / whole).toFixed(0));
const pad = (text: string, width: number) => text.padEnd(width);

function main(): number {
  const coverageDir = mkdtempSync(path.join(os.tmpdir(), 'safar-model-coverage-'));
  try {
    const report = process.argv.includes('--report');
    const args = vitestArguments(process.argv.slice(2).filter((arg) => arg !== '--report'));
    const run = runModelTests(coverageDir, args);
    if (args.includes('-t')) {
      // One path (or a name filter): the tests' result alone; coverage is for the whole run.
      console.log(`\n${run.tests} test(s) run; coverage is added up only when every model test runs.`);
      return run.ok ? 0 : 1;
    }
    const reached = reachedFrom(coverageDir);

    const rows: string[][] = [];
    const machines: MachineReport[] = [];
    const missing: string[] = [];
    const unsampled: string[] = [];
    const offScreen: string[] = [];
    const reviewedOffScreen: string[] = [];
    const staleReviews = new Set(Object.keys(NOT_ON_SCREEN));
    let totals = { states: 0, statesReached: 0, transitions: 0, transitionsReached: 0, onScreen: 0 };
    for (const machine of MACHINES) {
      const defined = definedCoverage(machine);
      const got = reached.get(machine.id) ?? nothingReached();
      // The event types the machine accepts that no path ever sent: a sample its model lacks.
      // (Not the machine's own done.state events: it raises those itself.)
      const accepted = [...new Set(defined.transitions.map((transition) => transition.event))].filter((type) => type !== ALWAYS && !type.startsWith('xstate.done.state.'));
      const unsent = accepted.filter((type) => !got.events.has(type));
      const statesReached = defined.states.filter((state) => got.states.has(state));
      const transitionsReached = defined.transitions.filter((transition) => got.transitions.has(transition.name));
      const onScreen = defined.transitions.filter((transition) => got.onScreen.has(transition.name));
      for (const transition of defined.transitions.filter((entry) => !got.onScreen.has(entry.name))) {
        const reason = NOT_ON_SCREEN[transition.name];
        if (reason) {
          staleReviews.delete(transition.name);
          reviewedOffScreen.push(`${machine.id}: ${transition.name}: ${reason}`);
        } else {
          offScreen.push(`${machine.id}: ${transition.source} on ${transition.event} → ${transition.target}  [${transition.name}]`);
        }
      }
      const reviewedHere = defined.transitions.filter((entry) => !got.onScreen.has(entry.name) && NOT_ON_SCREEN[entry.name]).length;
      rows.push([
        machine.id,
        `${statesReached.length} / ${defined.states.length}`,
        `${transitionsReached.length} / ${defined.transitions.length}`,
        `${percent(transitionsReached.length, defined.transitions.length)} %`,
        `${onScreen.length} / ${defined.transitions.length}${reviewedHere ? ` (+${reviewedHere} reviewed)` : ''}`,
        `${got.paths.size}`,
        `${unsent.length} of ${accepted.length}`,
      ]);
      for (const type of unsent) unsampled.push(`${machine.id}: ${type}`);
      const pathsOf = (key: string) => [...(got.by.get(key) ?? [])];
      machines.push({
        machine: machine.id,
        states: defined.states.map((state) => ({ id: state, reached: got.states.has(state), paths: pathsOf(state) })),
        transitions: defined.transitions.map((transition) => ({
          ...transition,
          reached: got.transitions.has(transition.name),
          onScreen: got.onScreen.has(transition.name),
          paths: pathsOf(transition.name),
        })),
        paths: got.paths.size,
        eventTypesNeverSent: unsent,
      });
      totals = {
        states: totals.states + defined.states.length,
        statesReached: totals.statesReached + statesReached.length,
        transitions: totals.transitions + defined.transitions.length,
        transitionsReached: totals.transitionsReached + transitionsReached.length,
        onScreen: totals.onScreen + onScreen.length,
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
      `${totals.onScreen} / ${totals.transitions}`,
      '',
      `${unsampled.length}`,
    ]);

    const header = ['machine', 'states reached / defined', 'transitions reached / defined', 'transitions', 'of them on screen', 'paths', 'event types never sent'];
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
    console.log('\nModel coverage');
    console.log(header.map((title, column) => pad(title, widths[column]!)).join('  '));
    console.log(widths.map((width) => '-'.repeat(width)).join('  '));
    for (const row of rows) console.log(row.map((cell, column) => pad(cell, widths[column]!)).join('  '));
    console.log(`paths (tests) run: ${run.tests}${run.ok ? '' : ' (some FAILED, see above)'}`);
    if (report) console.log(`\nReport: ${writeReport({ tests: run.tests, ok: run.ok, machines })}`);
    if (unsampled.length > 0) console.log(`\nEvent types no path sent (add a sample to the machine's model):\n  ${unsampled.join('\n  ')}`);
    if (missing.length > 0) console.log(`\nNot reached (${missing.length}):\n  ${missing.join('\n  ')}`);
    if (reviewedOffScreen.length > 0) console.log(`\nNot on the rendered app, reviewed (tests/model/run.ts NOT_ON_SCREEN):\n  ${reviewedOffScreen.join('\n  ')}`);
    if (offScreen.length > 0) console.log(`\nNot taken on the rendered app (${offScreen.length}):\n  ${offScreen.join('\n  ')}`);
    if (staleReviews.size > 0) console.log(`\nReviewed as not on the rendered app, but taken there or not defined (remove from NOT_ON_SCREEN):\n  ${[...staleReviews].join('\n  ')}`);
    return run.ok && missing.length === 0 && unsampled.length === 0 && offScreen.length === 0 && staleReviews.size === 0 ? 0 : 1;
  } finally {
    rmSync(coverageDir, { recursive: true, force: true });
  }
}

try {
  process.exit(main());
} catch (error) {
  // A mistyped argument: say what is wrong, without a stack trace.
  console.error(`test:model: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}
