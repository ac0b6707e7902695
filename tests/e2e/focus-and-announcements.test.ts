import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import { DESKTOP, MOBILE, browserForThisFile, describeFocus, openPage, visit, type Lang } from './harness';
import { earlierLeadOfThisBrowser, finishAllowing, newTrip, saveLeadThroughApi, screenshot, textIn, typeInto, typed } from './journey-steps';
import { MR, PLAN, buyPlan, choose, reviewFields, travellerOpened } from './review-steps';

/**
 * Issue 21 by keyboard in Chromium (WCAG 2.4.3, 4.1.3, 4.1.2): each dialog gives the focus back
 * to a live, visible element when it closes; Proceed and the coupon buttons keep the focus while
 * they wait; coupon changes and a saved traveller are said in the page's live regions; the stepper,
 * the review's instructions, the checkout's sidebars and the review's selects say what they are.
 * English at 1280 px, Arabic at 375 px.
 */

const browser = browserForThisFile();
const VIEWPORT = { en: DESKTOP, ar: MOBILE } as const;

/** The focused element is not <body>, and shows. */
async function focusIsLive(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const active = document.activeElement;
    return active instanceof HTMLElement && active !== document.body && active.checkVisibility();
  });
}

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);
const spoken = (page: Page, testId: 'announcer' | 'announcer-urgent') => page.getByTestId(testId).evaluate((element) => (element.textContent ?? '').replace(/[\u2066-\u2069]/g, ''));
/** The page's text for a message; English until the Arabic catalogue has it (Lingui shows the source). */
function shownText(lang: Lang, msgid: string): string {
  try {
    return textIn(lang, msgid);
  } catch {
    return msgid;
  }
}
const shownTotal = async (page: Page) => (await page.getByTestId('price-total').innerText()).replace(/[\u2066-\u2069]/g, '');

/** Types a code into the coupon box and presses Enter there; returns the server's answer. */
async function applyByKeyboard(page: Page, code: string) {
  const input = page.getByTestId('coupon-input');
  await input.fill(code);
  await page.getByTestId('coupon-apply').focus();
  const answered = page.waitForResponse((response) => response.url().includes('coupon'));
  await page.keyboard.press('Enter');
  const response = await answered;
  return (await response.json()) as { message: string };
}

describe.each(['en', 'ar'] as const)('focus and announcements in %s', (lang: Lang) => {
  test('review and checkout by keyboard: the stepper, selects and sidebars say what they are; the DOB dialog gives Proceed back; the saved traveller and each coupon change are announced; Apply and Remove keep the focus', async () => {
    const opened = await openPage(browser(), VIEWPORT[lang], 'full');
    const { page } = opened;
    await buyPlan(page, lang, newTrip({ dobs: ['1988-06-15'] }), PLAN.provider1000);
    const f = reviewFields(page, lang);
    await travellerOpened(page, lang, 1);

    // The stepper (shown from 768 px): done steps are buttons that say so; the current step and the later one are not buttons.
    await page.setViewportSize(DESKTOP);
    const step = (id: string) => page.getByTestId(`wizard-step-${id}`);
    const stepFacts = (id: string) => step(id).evaluate((element) => ({ tag: element.tagName, current: element.getAttribute('aria-current'), text: element.textContent }));
    const completed = shownText(lang, '(completed)');
    expect(await stepFacts('travel')).toMatchObject({ tag: 'BUTTON', current: null });
    expect((await stepFacts('travel')).text).toContain(completed);
    expect(await stepFacts('review')).toMatchObject({ tag: 'DIV', current: 'step' });
    expect((await stepFacts('review')).text).not.toContain(completed);
    expect(await stepFacts('purchase')).toMatchObject({ tag: 'DIV', current: null });
    expect(await page.getByRole('navigation').getByRole('button').count()).toBe(2);
    await page.setViewportSize(VIEWPORT[lang]);

    // The instructions are a note, not an alert.
    expect(await f.form.getByRole('alert').count()).toBe(0);
    expect(await f.form.getByRole('note').count()).toBe(1);

    // A select says it is open while its list shows.
    await f.title.focus();
    expect(await f.title.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => f.title.getAttribute('aria-expanded')).toBe('true');
    // It names the list it opened (the build keeps the list's id, dependency-patches.plugin.ts).
    const listId = await f.title.getAttribute('aria-controls');
    expect(await page.locator(`[id="${listId}"]`).getAttribute('role')).toBe('listbox');
    await page.keyboard.press('Escape');
    await expect.poll(() => f.title.getAttribute('aria-expanded')).toBe('false');

    // A date of birth other than the quoted one: Proceed keeps the focus, and gets it back from the dialog.
    await choose(page, f.title, MR[lang]);
    await typeInto(f.passport, 'P0123456');
    await typeInto(f.dob, typed('1987-06-15'));
    await f.proceed.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('dob-error-dialog');
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => focusedTestId(page), { message: 'focus after the DOB dialog' }).toBe('traveller-proceed');
    expect({ live: await focusIsLive(page), focus: await describeFocus(page) }).toMatchObject({ live: true });

    // The right date: the saved traveller is announced with the name as saved.
    const first = await f.first.inputValue();
    await typeInto(f.dob, typed('1988-06-15'));
    await f.proceed.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => spoken(page, 'announcer')).toContain(first);
    await page.waitForURL((url) => url.pathname === '/checkout');
    await page.getByTestId('price-summary').waitFor();

    // The checkout's sidebars are headings under the page's h1.
    for (const msgid of ['Price summary']) {
      expect(await page.getByRole('heading', { level: 2, name: textIn(lang, msgid) }).count()).toBe(1);
    }
    expect(await page.getByRole('heading', { level: 2, name: PLAN.provider1000[lang] }).count()).toBe(1);
    expect(await page.locator('#checkout-travellers-title').evaluate((element) => element.tagName)).toBe('H2');

    // A refused coupon: its reason is said at once, and Apply keeps the focus.
    const full = await shownTotal(page);
    const bad = await applyByKeyboard(page, 'NOSUCH1');
    await expect.poll(() => spoken(page, 'announcer-urgent')).toBe(bad.message);
    expect(await focusedTestId(page)).toBe('coupon-apply');

    // Applied: the focus goes on to Remove; the coupon and the new total are said.
    await applyByKeyboard(page, 'SAFAR10');
    await page.getByTestId('coupon-applied').waitFor();
    await expect.poll(() => focusedTestId(page), { message: 'focus after Apply' }).toBe('coupon-remove');
    expect(await focusIsLive(page)).toBe(true);
    const discounted = await shownTotal(page);
    expect(discounted).not.toBe(full);
    await expect.poll(() => spoken(page, 'announcer')).toContain('SAFAR10');
    expect(await spoken(page, 'announcer')).toContain(discounted);
    await screenshot(page, `focus-coupon-applied-${lang}`);

    // Removed: the focus goes to the emptied box; the plan's total is said again.
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedTestId(page), { message: 'focus after Remove' }).toBe('coupon-input');
    await expect.poll(() => spoken(page, 'announcer')).toContain(full);
    expect(await isFocused(page.getByTestId('coupon-input'))).toBe(true);
    await finishAllowing(opened, [422]);
  });

  test('the existing-leads chooser, closed with Escape, leaves the focus on the page heading', async () => {
    const opened = await openPage(browser(), VIEWPORT[lang], 'full');
    const { page } = opened;
    await earlierLeadOfThisBrowser(opened.context, lang);
    await visit(page, `/traveller-details?lang=${lang}`);
    const dialog = page.getByTestId('recent-leads-dialog');
    await dialog.waitFor({ state: 'visible' });
    await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => focusedTestId(page), { message: 'focus after the chooser' }).toBe('screen-traveller-details');
    expect({ live: await focusIsLive(page), focus: await describeFocus(page) }).toMatchObject({ live: true });
    await finishAllowing(opened);
  });

  test('the system error dialog, closed, leaves the focus on a live element', async () => {
    const opened = await openPage(browser(), VIEWPORT[lang], 'full');
    const { page } = opened;
    // An insurer failure flagged in the quotes (mocked at the edge) opens the dialog.
    const { uuid } = await saveLeadThroughApi();
    await page.route(`**${compareQuotesEndpoint.path}`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: Record<string, unknown> };
      await route.fulfill({ response, json: { ...body, data: { ...body.data, hasError: true } } });
    });
    await visit(page, `/compare-quotes?uuid=${uuid}&lang=${lang}`);
    const dialog = page.getByTestId('system-error-dialog');
    await dialog.waitFor({ state: 'visible' });
    await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => focusIsLive(page), { message: 'focus after the system error dialog' }).toBe(true);
    await finishAllowing(opened);
  });
});
