/**
 * The server's system tests: files that start the server or the broker CLI as processes, open
 * embedded data directories on disk, run PGlite's worker threads, or build the SPA. Together they
 * took about half of the server tests' time (324 of 650 s, one worker, issue 35), so they form a
 * vitest project of their own, `system`, which `npm test` runs and `npm run test:quick` leaves
 * out. A file that starts a process (the server, the broker CLI, a lock holder) or builds the SPA
 * must be here, and tests/structure/system-tests.test.ts fails naming one that is not; PGlite's
 * threads and template copies are here for their time. So is a file that mocks a module
 * (vi.mock): the server project shares one module cache across its files (vite.config.ts), where
 * a mock would miss modules an earlier file loaded and leak into later ones; this project keeps
 * each file's modules its own.
 */
export const SYSTEM_TEST_FILES = [
  'tests/integration/process.test.ts',
  'tests/integration/broker-admin.test.ts',
  'tests/integration/broker-backup.test.ts',
  'tests/integration/production-start.test.ts',
  'tests/integration/data-dir-lock.test.ts',
  'tests/integration/private-files.test.ts',
  'tests/integration/embedded-load.test.ts',
  'tests/integration/serving-while-opening.test.ts',
  'tests/integration/database-outage.test.ts',
  'tests/integration/log-privacy.test.ts',
  'tests/integration/bundle-size.test.ts',
  'src/server/db/pglite-thread.test.ts',
  'src/server/db/embedded-template.test.ts',
  'src/server/db/embedded-lock.test.ts',
  'tests/integration/disk-full.test.ts',
] as const;
