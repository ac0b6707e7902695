import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server-process';
import { SYSTEM_TEST_FILES } from '../support/system-tests';

/** What makes a test file a system test: it starts a process or builds the SPA, directly or through a helper that does. */
const STARTS_A_PROCESS = /\b(startServerProcess|runBroker|holdLockInAnotherProcess|spaBuildForTests|buildOncePerRun)\(|from '\.\.\/support\/server-processes'/;

/** What makes a test file need a module cache of its own: it replaces a module for its imports. */
const MOCKS_A_MODULE = /\bvi\.(mock|doMock|unmock|doUnmock)\(/;

function testFilesUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join(dir, file));
}

describe('the system project (tests/support/system-tests.ts)', () => {
  it('names only test files that exist, so a renamed file cannot drop out of both server and system', () => {
    expect(SYSTEM_TEST_FILES.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
  });

  it('holds every server test file that starts a process or builds the SPA, so npm run test:quick starts none', () => {
    const starting = [...testFilesUnder('src/server'), ...testFilesUnder('tests/integration')].filter((file) => STARTS_A_PROCESS.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(starting.length).toBeGreaterThan(5);
    expect(starting.filter((file) => !(SYSTEM_TEST_FILES as readonly string[]).includes(file))).toEqual([]);
  });

  it('holds every server test file that mocks a module, since the server project shares one module cache across its files', () => {
    const mocking = [...testFilesUnder('src/server'), ...testFilesUnder('tests/integration')].filter((file) => MOCKS_A_MODULE.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(mocking).toContain('tests/integration/disk-full.test.ts');
    expect(mocking.filter((file) => !(SYSTEM_TEST_FILES as readonly string[]).includes(file))).toEqual([]);
  });
});
