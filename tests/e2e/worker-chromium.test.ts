import { expect, test } from 'vitest';
import { chromiumOfThisProcess } from '../support/chromium';

/**
 * The Chromium suite's files share their worker's one browser (tests/support/chromium.ts). One
 * that is gone (crashed, or closed by a file) must not fail every file after it: the next caller
 * gets a new one.
 */
test('the worker keeps one Chromium for every file, and replaces it once it is gone', async () => {
  const first = await chromiumOfThisProcess();
  expect(await chromiumOfThisProcess()).toBe(first);
  await first.close();
  const second = await chromiumOfThisProcess();
  expect(second).not.toBe(first);
  expect(second.isConnected()).toBe(true);
  const context = await second.newContext();
  await context.close();
});
