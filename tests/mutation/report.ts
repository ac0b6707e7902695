import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/server-process';

/**
 * `npm run test:mutation`'s summary (issue 35 item 4): the JSON report of each machine's Stryker
 * run (tests/mutation/run.ts) read back, the mutation score of each machine, and every mutant
 * that survived or that no test reached, with where it is and what it changed.
 */

const REPORTS = path.join(ROOT, 'reports/mutation');
export const GOAL = 90;

interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: string;
  statusReason?: string;
  location: { start: { line: number; column: number } };
}

interface Report {
  files: Record<string, { mutants: Mutant[] }>;
}

/** Detected: killed by a test, or a timeout (an infinite loop the mutant made). Undetected: survived, or no test ran it. */
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/** Each machine's score from its run's report (`reports/mutation/<machine>.json`). */
export function scores(reports: ReadonlyMap<string, Report>) {
  const byMachine = new Map<string, { detected: number; undetected: number; survivors: string[]; equivalent: Map<string, number> }>();
  for (const [machine, report] of reports) {
    const entry = byMachine.get(machine) ?? { detected: 0, undetected: 0, survivors: [], equivalent: new Map<string, number>() };
    for (const [file, { mutants }] of Object.entries(report.files)) {
      for (const mutant of mutants) {
        if (DETECTED.has(mutant.status)) entry.detected += 1;
        if (mutant.status === 'Ignored') {
          const reason = mutant.statusReason ?? 'ignored';
          entry.equivalent.set(reason, (entry.equivalent.get(reason) ?? 0) + 1);
        }
        if (UNDETECTED.has(mutant.status)) {
          entry.undetected += 1;
          const at = `${path.relative(ROOT, path.resolve(ROOT, file))}:${mutant.location.start.line}:${mutant.location.start.column}`;
          entry.survivors.push(`${at} ${mutant.mutatorName}${mutant.status === 'NoCoverage' ? ' (no test ran it)' : ''}: ${(mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 100)}`);
        }
      }
    }
    byMachine.set(machine, entry);
  }
  return [...byMachine]
    .map(([machine, entry]) => ({ machine, ...entry, score: (100 * entry.detected) / Math.max(1, entry.detected + entry.undetected) }))
    .sort((a, b) => a.machine.localeCompare(b.machine));
}

/** Prints the score of each named machine and its surviving mutants; true when every one reached the goal. */
export function printScores(machines: readonly string[]): boolean {
  const missing = machines.filter((machine) => !existsSync(path.join(REPORTS, `${machine}.json`)));
  const reports = new Map(
    machines.filter((machine) => !missing.includes(machine)).map((machine) => [machine, JSON.parse(readFileSync(path.join(REPORTS, `${machine}.json`), 'utf8')) as Report]),
  );
  const rows = scores(reports);
  console.log('\nMutation score per machine (killed or timed out, of all mutants a test could have caught):');
  for (const row of rows) {
    console.log(`${row.score >= GOAL ? 'PASS' : 'FAIL'}  ${row.machine.padEnd(16)} ${row.score.toFixed(1).padStart(5)} %  (${row.detected} of ${row.detected + row.undetected}; goal ${GOAL} %)`);
  }
  for (const machine of missing) console.log(`FAIL  ${machine.padEnd(16)} no report: its Stryker run did not finish`);
  for (const row of rows.filter((r) => r.equivalent.size > 0)) {
    console.log(`\nLeft out of ${row.machine}'s score as equivalent:`);
    for (const [reason, count] of row.equivalent) console.log(`  ${count} × ${reason}`);
  }
  for (const row of rows.filter((r) => r.survivors.length > 0)) {
    console.log(`\nSurviving in ${row.machine} (${row.survivors.length}):`);
    for (const line of row.survivors) console.log(`  ${line}`);
  }
  return missing.length === 0 && rows.every((row) => row.score >= GOAL);
}
