// `npm run test:mutation` (issue 35 item 4): tests/mutation/run.ts runs Stryker once per machine,
// naming it in MUTATION_MACHINE. Each run mutates that machine and the guards and actions it
// imports, and runs only that machine's tests (its machine tests and its model tests) against
// every mutant: a machine is built when its module loads, so every mutant in it is "static" and
// runs every test Stryker is given. tests/mutation/report.ts prints the score per machine and
// every surviving mutant.
import { MACHINES } from './tests/mutation/machines.mjs';

const name = process.env.MUTATION_MACHINE ?? '';
const machine = MACHINES[name];
if (!machine) throw new Error(`MUTATION_MACHINE must name one of: ${Object.keys(MACHINES).join(', ')} (npm run test:mutation sets it)`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'tests/mutation/vitest.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner', './tests/mutation/equivalent-ignorer.mjs'],
  // Mutants that cannot change behaviour, each with its reason (equivalent-ignorer.mjs).
  ignorers: ['machine-equivalents'],
  mutate: machine.mutate,
  coverageAnalysis: 'perTest',
  reporters: ['progress-append-only', 'json'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  // The project's tsconfig is not rewritten: the mutants run under vitest, which strips types itself.
  tsconfigFile: 'tests/mutation/no-tsconfig.json',
  tempDirName: `.stryker-tmp/${name}`,
  cleanTempDir: 'always',
  concurrency: 2,
  timeoutMS: 30_000,
  thresholds: { high: 90, low: 90, break: null },
  warnings: { slow: false },
};
