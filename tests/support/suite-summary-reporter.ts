import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter for `npm test`'s closing summary (tests/run-suites.ts), on when
 * SAFAR_SUMMARY_DIR names a folder. It appends to two files there:
 * - `failures`: a line per failure (the project, the file, the test's full name and the first
 *   line of its error; a file or suite that failed outside a test, in an import or a hook, gets
 *   its own line), printed last so that the tail of a CI log names what failed;
 * - `durations`: a JSON line per test file with where its time went (environment, import and
 *   setup, tests and hooks), from which the slowest files are printed (issue 35 item 2).
 */
export default class SuiteSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    const dir = process.env.SAFAR_SUMMARY_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    const failures: string[] = [];
    const durations: string[] = [];
    const firstLine = (errors: ReadonlyArray<{ message?: string; name?: string }>) => {
      const error = errors[0];
      return (error?.message ?? error?.name ?? 'failed').split('\n')[0]!.slice(0, 300);
    };
    for (const module of testModules) {
      const file = path.relative(process.cwd(), module.moduleId);
      const where = `${module.project.name} ${file}`;
      if (module.errors().length > 0) failures.push(`${where}: ${firstLine(module.errors())}`);
      for (const suite of module.children.allSuites()) {
        if (suite.errors().length > 0) failures.push(`${where} > ${suite.fullName}: ${firstLine(suite.errors())}`);
      }
      for (const test of module.children.allTests('failed')) failures.push(`${where} > ${test.fullName}: ${firstLine(test.result().errors ?? [])}`);
      const d = module.diagnostic();
      durations.push(JSON.stringify({ project: module.project.name, file, environmentMs: d.environmentSetupDuration, importMs: d.prepareDuration + d.collectDuration + d.setupDuration, testsMs: d.duration }));
    }
    for (const error of unhandledErrors) failures.push(`unhandled error: ${(error.message ?? 'unknown').split('\n')[0]}`);
    if (failures.length > 0) appendFileSync(path.join(dir, 'failures'), `${failures.join('\n')}\n`);
    if (durations.length > 0) appendFileSync(path.join(dir, 'durations'), `${durations.join('\n')}\n`);
  }
}
