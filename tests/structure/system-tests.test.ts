import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/server-process';
import { SYSTEM_TEST_FILES } from '../support/system-tests';

describe('the system project (tests/support/system-tests.ts)', () => {
  it('names only test files that exist, so a renamed file cannot drop out of both server and system', () => {
    expect(SYSTEM_TEST_FILES.filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
  });
});
