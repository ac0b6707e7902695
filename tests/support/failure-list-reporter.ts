import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * A vitest reporter that appends one line per failure to the file `SAFAR_FAILURES_FILE` names:
 * the project, the file, the test's full name and the first line of its error; a file or a
 * suite that failed outside a test (an import, a hook) gets its own line. `npm test`
 * (tests/run-suites.ts) prints these lines last, so the tail of a CI log names what failed even
 * when the suites' own output above it was cut.
 */
export default class FailureListReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    const file = process.env.SAFAR_FAILURES_FILE;
    if (!file) return;
    const lines: string[] = [];
    const firstLine = (errors: ReadonlyArray<{ message?: string; name?: string }>) => {
      const error = errors[0];
      return (error?.message ?? error?.name ?? 'failed').split('\n')[0]!.slice(0, 300);
    };
    for (const module of testModules) {
      const where = `${module.project.name} ${path.relative(process.cwd(), module.moduleId)}`;
      if (module.errors().length > 0) lines.push(`${where}: ${firstLine(module.errors())}`);
      for (const suite of module.children.allSuites()) {
        if (suite.errors().length > 0) lines.push(`${where} > ${suite.fullName}: ${firstLine(suite.errors())}`);
      }
      for (const test of module.children.allTests('failed')) lines.push(`${where} > ${test.fullName}: ${firstLine(test.result().errors ?? [])}`);
    }
    for (const error of unhandledErrors) lines.push(`unhandled error: ${(error.message ?? 'unknown').split('\n')[0]}`);
    if (lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
  }
}
