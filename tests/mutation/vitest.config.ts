import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { MACHINES } from './machines.mjs';

/**
 * The tests Stryker runs against each mutant (`npm run test:mutation`, issue 35 item 4): the
 * tests of the machine named in MUTATION_MACHINE (tests/mutation/machines.mjs), which are pure
 * and run on node.
 */
const machine = MACHINES[process.env.MUTATION_MACHINE ?? ''];
if (!machine) throw new Error('MUTATION_MACHINE names no machine of tests/mutation/machines.mjs');

export default defineConfig({
  root: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..'),
  test: {
    include: machine.tests,
    environment: 'node',
    testTimeout: 60_000,
  },
});
