import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { BIN, ROOT } from '../support/server-process';
import { MACHINES } from './machines.mjs';
import { printScores } from './report';

/**
 * `npm run test:mutation [machine…]` (issue 35 item 4): Stryker once per machine of
 * tests/mutation/machines.mjs (all of them, or those named), each with only that machine's tests,
 * then the score per machine and every surviving mutant (report.ts). Exits 1 when a run failed or
 * a machine scores under the goal. Not part of `npm test`: it takes about as long as the suite.
 */
const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = asked.filter((name) => !(name in MACHINES));
if (unknown.length) {
  console.error(`Unknown machine ${unknown.join(', ')}; the machines are: ${Object.keys(MACHINES).join(', ')}`);
  process.exit(2);
}
const names = asked.length ? asked : Object.keys(MACHINES);

let runsOk = true;
for (const name of names) {
  const started = Date.now();
  console.log(`\n──── ${name}: Stryker on ${MACHINES[name]!.mutate.join(', ')} ────`);
  rmSync(path.join(ROOT, 'reports/mutation', `${name}.json`), { force: true });
  const run = spawnSync(path.join(BIN, 'stryker'), ['run'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, MUTATION_MACHINE: name } });
  console.log(`──── ${name}: ${run.status === 0 ? 'done' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s ────`);
  if (run.status !== 0) runsOk = false;
}
const scoresOk = printScores(names);
process.exit(runsOk && scoresOk ? 0 : 1);
