import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, TEXTS, describeFocus, expectNoProblems, finish, openPage, otherLanguage, readStorage, sharedPage, visit, browserForThisFile, type OpenPage } from './harness';
import { axeViolations } from './journey-steps';

const browser = browserForThisFile();

/**
 * Puts the keyboard at the very top of the document, as for a visitor who has not tabbed yet:
 * the body takes focus for a moment, so the next Tab goes to the first focusable element.
 */
async function focusDocumentStart(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.body.tabIndex = -1;
    document.body.focus();
    document.body.removeAttribute('tabindex');
  });
}

/** Presses Tab until the element with the given data-testid has focus; returns how many presses it took, or null. */
async function tabUntilTestId(page: Page, testId: string, maxPresses = 15): Promise<number | null> {
  for (let presses = 1; presses <= maxPresses; presses++) {
    await page.keyboard.press('Tab');
    const reached = await page.evaluate((id) => document.activeElement?.getAttribute('data-testid') === id, testId);
    if (reached) return presses;
  }
  return null;
}

/**
 * The axe checks of every Chromium file rest on axeViolations (journey-steps.ts): it must report
 * what axe finds, and refuse a page with a frame it would not check.
 */
test('axeViolations reports an unlabelled field and grey-on-white text, and refuses a page with a cross-origin frame', async () => {
  const opened = await openPage(browser(), DESKTOP);
  const { page } = opened;
  await visit(page, '/?lang=en');
  await page.evaluate(() => {
    const main = document.querySelector('main')!;
    // Ids, so axe names them the same way whatever else the page holds at that moment.
    main.insertAdjacentHTML('beforeend', '<input id="axe-probe-input" type="text"><p id="axe-probe-text" style="color:#ccc;background:#fff">faint</p>');
  });
  const violations = await axeViolations(page);
  expect(violations).toEqual(expect.arrayContaining([expect.stringMatching(/^label .*#axe-probe-input/), expect.stringMatching(/^color-contrast .*#axe-probe-text/)]));
  await page.evaluate(() => document.querySelector('main')!.insertAdjacentHTML('beforeend', '<iframe title="other" src="data:text/html,other"></iframe>'));
  await expect.poll(() => page.frames()[1]?.url() ?? '').toMatch(/^(?!about:blank$)./);
  await expect(axeViolations(page)).rejects.toThrow('does not check cross-origin frames');
  // Closed without finish(): the frame added here may be refused by the page's CSP, which
  // finish() would rightly count as a page error.
  await opened.context.close();
});

describe.each(['en', 'ar'] as const)('accessibility in %s', (lang) => {
  const texts = TEXTS[lang];
  const shell = async (viewport: { width: number; height: number }): Promise<OpenPage> => {
    const opened = await openPage(browser(), viewport);
    await visit(opened.page, `/?lang=${lang}`);
    return opened;
  };
  // axe at 1280 px and the skip link from the top of the document only read the page and move
  // the focus: one page serves them (each skip-link check puts the keyboard at the top first).
  const desktop = sharedPage(() => shell(DESKTOP));

  test.each([MOBILE, DESKTOP])('axe reports no violations on the shell at $width px', async (viewport) => {
    const opened = viewport === DESKTOP ? await desktop() : await shell(viewport);
    await opened.page.waitForLoadState('networkidle');
    const violations = await axeViolations(opened.page);
    expect(violations, `axe violations:\n${violations.join('\n')}`).toEqual([]);
    expectNoProblems(opened);
  });

  test('the first Tab after the page loads reaches the "Skip to main content" link (nothing has taken focus past it)', async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    await visit(page, `/?lang=${lang}`);
    await page.keyboard.press('Tab');
    expect(await describeFocus(page)).toBe(`<a> ${texts.skipLink}`);
    await finish(opened);
  });

  test('from the top of the document the skip link is the first Tab stop, and it is shown on screen when focused', async () => {
    const opened = await desktop();
    const { page } = opened;
    await focusDocumentStart(page);
    await page.keyboard.press('Tab');
    expect(await describeFocus(page)).toBe(`<a> ${texts.skipLink}`);
    const box = await page.locator('a.skip-link').boundingBox();
    expect(box, 'skip link box').not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expectNoProblems(opened);
  });

  test('Enter on the skip link moves focus to <main>', async () => {
    const opened = await desktop();
    const { page } = opened;
    await focusDocumentStart(page);
    await page.keyboard.press('Tab');
    expect(await describeFocus(page)).toBe(`<a> ${texts.skipLink}`);
    await page.keyboard.press('Enter');
    const focusInMain = await page
      .waitForFunction(() => document.querySelector('main')?.contains(document.activeElement) ?? false, undefined)
      .then(
        () => true,
        () => false,
      );
    expect(focusInMain, `focus is on ${await describeFocus(page)}, not in <main>`).toBe(true);
    expectNoProblems(opened);
  });

  test.each([MOBILE, DESKTOP])('at $width px the language switch is reachable with Tab and Enter switches the language', async (viewport) => {
    const opened = await openPage(browser(), viewport);
    const { page } = opened;
    await visit(page, `/?lang=${lang}`);
    await focusDocumentStart(page);
    const presses = await tabUntilTestId(page, 'language-switch');
    expect(presses, 'Tab presses to reach the language switch').not.toBeNull();
    await page.keyboard.press('Enter');
    const notice = page.getByRole('status').filter({ hasText: TEXTS[otherLanguage(lang)].switchingNotice });
    await notice.waitFor({ state: 'visible' });
    expect((await readStorage(page, ['language'])).language).toBe(otherLanguage(lang));
    await page.waitForFunction((dir) => document.documentElement.dir === dir, TEXTS[otherLanguage(lang)].dir);
    await finish(opened);
  });
});
