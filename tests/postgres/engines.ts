import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/server-process';
import { SYSTEM_TEST_FILES } from '../support/system-tests';

/**
 * Which database engine each integration test file runs on in `npm test` (issue 35 item 2).
 *
 * The integration tests (tests/integration/) run once on PostgreSQL, in `npm run test:postgres`,
 * when PostgreSQL can be started. The main run of `npm test` then leaves them out: before, it ran
 * all of them a second time on PGlite, 808 s of a fresh clone's run. PGlite is still tested where
 * it is what runs: the server processes, data directories, threads, backups and locks of the
 * system tests, every Chromium test (a server on an embedded data directory), the files below
 * whose parts or variants are PGlite's own, and `npm run test:quick`, which runs every server test
 * on PGlite. Without PostgreSQL, the main run keeps every file, on PGlite.
 */

/**
 * Integration test files left out of the PostgreSQL run: they never open the test database (they
 * test PGlite itself, or no database at all), so running them again would prove nothing about
 * PostgreSQL. Parts of other files that need PGlite itself carry a `describe.runIf(!onPostgres)`
 * with the reason in their name.
 */
export const NOT_ON_POSTGRES: Record<string, string> = {
  'tests/integration/postgres.test.ts': 'the node-postgres driver over pglite-socket (the wire protocol on PGlite)',
  'tests/integration/process.test.ts': 'the server process on an embedded PGlite data directory',
  'tests/integration/broker-admin.test.ts': 'the broker CLI beside a server process on an embedded PGlite data directory',
  'tests/integration/broker-backup.test.ts': 'backup and restore of an embedded PGlite data directory',
  'tests/integration/data-dir-lock.test.ts': 'the lock of an embedded PGlite data directory, against a second server and the CLI',
  'tests/integration/production-start.test.ts': 'production starts of the server and the CLI on an embedded PGlite data directory',
  'tests/integration/private-files.test.ts': "the modes of an embedded PGlite data directory's files and folders",
  'tests/integration/embedded-load.test.ts': 'a server process under load on an embedded PGlite data directory',
  'tests/integration/test-db-pool.test.ts': "the reuse of PGlite test databases (on PostgreSQL each test gets a database of its own)",
  'tests/integration/bundle-size.test.ts': 'the SPA build, which uses no database',
  'tests/integration/soak-waves.test.ts': "the soak's arithmetic, which uses no database",
};

/**
 * Server test files the PostgreSQL run runs that the main run keeps too: part of them is PGlite's
 * own (a `describe.runIf(!onPostgres)`), or a variant is. (The system tests the PostgreSQL run
 * runs, tests/support/system-tests.ts, stay in the main run as well: there they start servers on
 * embedded data directories.)
 */
export const ON_BOTH_ENGINES: Record<string, string> = {
  'tests/integration/mail-outbox.test.ts': 'a crash between the commit and the mail is a PGlite dump reopened',
};

const SYSTEM = new Set<string>(SYSTEM_TEST_FILES);

/** The integration test files that run on PostgreSQL alone when the PostgreSQL run can start. */
export function postgresOnlyFiles(): string[] {
  return readdirSync(path.join(ROOT, 'tests/integration'))
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `tests/integration/${name}`)
    .filter((file) => !(file in NOT_ON_POSTGRES) && !(file in ON_BOTH_ENGINES) && !SYSTEM.has(file))
    .sort();
}
