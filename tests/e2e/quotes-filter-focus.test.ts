import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, browserForThisFile, describeFocus, openPage, visit } from './harness';
import { finishAllowing, saveLeadThroughApi, textIn } from './journey-steps';
import { focusProblem, tabTo } from './keyboard';

/**
 * The Insurers filter in Chromium, by keyboard (issue 21, WCAG 2.4.7): Mantine's MultiSelect
 * keeps the focus on its inner input, which it shrinks to an invisible pixel once an insurer is
 * chosen. The focus must stay shown: after a choice, with the list closed, and after Backspace.
 *
 * SCREENSHOT_DIR=/some/dir also writes the focused toolbar after a choice.
 */

const browser = browserForThisFile();

const CASES = [
  { lang: 'en', viewport: DESKTOP },
  { lang: 'ar', viewport: MOBILE },
] as const;

/** Presses ArrowDown until the list has an active option, then Enter takes it. */
async function chooseFirstOption(page: Page): Promise<void> {
  for (let presses = 0; presses < 5; presses++) {
    await page.keyboard.press('ArrowDown');
    const active = await page.evaluate(() => {
      const id = document.activeElement?.getAttribute('aria-activedescendant');
      return id ? document.getElementById(id) !== null : false;
    });
    if (active) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`ArrowDown opened no option (focus on ${await describeFocus(page)})`);
}

describe('the Insurers filter keeps its focus shown (issue 21)', () => {
  test.each(CASES)('in $lang at $viewport.width px: after a choice, with the list closed, and after Backspace', async ({ lang, viewport }) => {
    const opened = await openPage(browser(), viewport);
    const { page } = opened;
    const { uuid } = await saveLeadThroughApi();
    await visit(page, `/compare-quotes?uuid=${uuid}&lang=${lang}`);
    await page.locator('[data-testid="quote-list"][aria-busy="false"]').waitFor();
    const insurers = page.getByRole('combobox', { name: textIn(lang, 'Insurers') });
    await tabTo(page, insurers, { what: 'Insurers' });
    expect(await focusProblem(page), 'before a choice').toBeNull();

    await chooseFirstOption(page);
    await expect.poll(() => page.getByTestId('quotes-toolbar').locator('.mantine-Pill-root').count()).toBe(1);
    expect(await focusProblem(page), `after a choice, focus on ${await describeFocus(page)}`).toBeNull();
    const dir = process.env.SCREENSHOT_DIR;
    if (dir) await page.getByTestId('quotes-toolbar').screenshot({ path: path.join(dir, `insurers-focus-${lang}-${viewport.width}.png`) });

    await page.keyboard.press('Escape');
    expect(await focusProblem(page), 'with the list closed').toBeNull();

    await page.keyboard.press('Backspace');
    await expect.poll(() => page.getByTestId('quotes-toolbar').locator('.mantine-Pill-root').count()).toBe(0);
    expect(await focusProblem(page), 'after Backspace removed the insurer').toBeNull();
    await finishAllowing(opened);
  });
});
