import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';

/**
 * The CPU each Chromium test cost (issue 35 item 2), for `npm test`'s closing summary: when
 * tests/run-suites.ts runs the Chromium suite in a control group of its own (cgroup v1's cpuacct,
 * named in SAFAR_CPU_GROUP) and collects summaries (SAFAR_SUMMARY_DIR), it appends a JSON line per
 * test to `cpu` there: the core-seconds every process of the suite used while the test and its
 * hooks ran (Chromium's browser, renderers and GPU, the servers, vitest). The suite runs one test
 * at a time, so the figure is the test's own; a file's beforeAll (its own server's start) is not
 * in any test's. Off (no hooks) in any other run. A figure it cannot read or write is left out of
 * the summary; it never fails a test.
 */
const group = process.env.SAFAR_CPU_GROUP;
const dir = process.env.SAFAR_SUMMARY_DIR;

function coreSeconds(): number | null {
  try {
    return Number(readFileSync(path.join(group!, 'cpuacct.usage'), 'utf8')) / 1e9;
  } catch {
    return null;
  }
}

if (group && dir) {
  let started: number | null = null;
  beforeEach(() => {
    started = coreSeconds();
  });
  // Registered before the files' own hooks, so it runs after their afterEach (contexts closed).
  afterEach(() => {
    const ended = coreSeconds();
    if (started === null || ended === null) return;
    const { testPath, currentTestName } = expect.getState();
    const line = { file: path.relative(process.cwd(), testPath ?? ''), test: currentTestName ?? '', coreSeconds: ended - started };
    try {
      // The folder is made by the first writer: the summary reporter makes it only at the run's end.
      mkdirSync(dir, { recursive: true });
      appendFileSync(path.join(dir, 'cpu'), `${JSON.stringify(line)}\n`);
    } catch {
      // Left out of the summary.
    }
  });
}
