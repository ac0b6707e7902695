import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DESKTOP, MOBILE, browserForThisFile, describeFocus, finish, openPage, visit } from './harness';
import { fields, screenshot, screenshotBothWidths, textIn } from './journey-steps';

/**
 * The travel details form's widgets by keyboard and screen reader in Chromium, in English and
 * Arabic (issue 21, WCAG 2.2): a destination removed from the middle by keyboard alone, the
 * field's required state as the accessibility tree reads it, the calendar's arrow keys
 * following what the eye sees, and the controls' borders standing 3:1 on the page.
 */

const browser = browserForThisFile();

/** The focused element: a pill's remove button by its name and the pill's country, else its tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return { name: element?.getAttribute('aria-label') ?? element?.tagName ?? null, pill: element?.tagName === 'BUTTON' ? (element.parentElement?.textContent ?? null) : null };
  });

/** The chosen countries' names, in the order of their pills. */
const pills = (field: Locator) => field.evaluate((input) => [...input.parentElement!.querySelectorAll('button')].map((button) => button.parentElement!.textContent));

/** aria-activedescendant of `field`: null, or the role and highlight of the element it names. */
const activeOption = (field: Locator) =>
  field.evaluate((input) => {
    const id = input.getAttribute('aria-activedescendant');
    if (id === null) return null;
    const option = document.getElementById(id);
    return { role: option?.getAttribute('role') ?? 'no element', highlighted: option?.hasAttribute('data-combobox-selected') ?? false };
  });

/** What the browser's accessibility tree says of the combobox named `name`. */
async function comboboxInTree(page: Page, name: string): Promise<{ required: unknown } | undefined> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: { role?: { value: string }; name?: { value: string }; properties?: { name: string; value: { value: unknown } }[] }[];
  };
  const node = nodes.find((candidate) => candidate.role?.value === 'combobox' && candidate.name?.value === name);
  return node && { required: node.properties?.find((property) => property.name === 'required')?.value.value };
}

/** The focused calendar day: its date and where it is drawn. */
const focusedDay = (page: Page) =>
  page.evaluate(() => {
    const day = document.activeElement as HTMLElement;
    const box = day.getBoundingClientRect();
    return { date: day.dataset.date ?? null, x: box.x, y: box.y };
  });

describe.each(['en', 'ar'] as const)('the travel details widgets by keyboard in %s at 375 px', (lang) => {
  test('three countries chosen by keyboard; the middle one is removed by Shift+Tab and Enter, and the focus stays on the pills', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });
    await f.destinations.focus();
    for (let chosen = 1; chosen <= 3; chosen++) {
      // ArrowDown opens the list, then highlights an option (after a choice, nothing is highlighted).
      for (let press = 0; press < 3 && (await activeOption(f.destinations)) === null; press++) await page.keyboard.press('ArrowDown');
      expect(await activeOption(f.destinations)).toEqual({ role: 'option', highlighted: true });
      await page.keyboard.press('Enter');
      await expect.poll(() => pills(f.destinations)).toHaveLength(chosen);
      // Never an element that has gone: the option Enter would choose next, or nothing.
      expect([null, { role: 'option', highlighted: true }]).toContainEqual(await activeOption(f.destinations));
    }
    await page.keyboard.press('Escape');
    await screenshotBothWidths(page, `form-access-destinations-${lang}`);
    const [first, middle, last] = (await pills(f.destinations)) as [string, string, string];

    await page.keyboard.press('Shift+Tab');
    expect((await focused(page)).pill).toBe(last);
    await page.keyboard.press('Shift+Tab');
    const middleButton = await focused(page);
    expect(middleButton.pill).toBe(middle);
    // Named by its country: "Remove France", «إزالة فرنسا».
    expect(middleButton.name).toBe(textIn(lang, 'Remove {country}', { country: middle }));
    await page.keyboard.press('Enter');

    await expect.poll(() => pills(f.destinations)).toEqual([first, last]);
    await expect.poll(async () => (await focused(page)).pill).toBe(last);
    await finish(opened);
  });

  test('the destinations field is read as required in the accessibility tree', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    await fields(page, lang).form.waitFor({ state: 'visible' });
    expect(await comboboxInTree(page, textIn(lang, 'Destinations'))).toEqual({ required: true });
    await finish(opened);
  });

  test('the country-code and destinations lists say they are open, and which list they opened, while it shows', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });
    for (const field of [f.phoneCode, f.destinations]) {
      await field.focus();
      expect(await field.getAttribute('aria-expanded')).toBe('false');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => field.getAttribute('aria-expanded')).toBe('true');
      const listId = await field.getAttribute('aria-controls');
      expect(await page.locator(`[id="${listId}"]`).getAttribute('role')).toBe('listbox');
      await page.keyboard.press('Escape');
      await expect.poll(() => field.getAttribute('aria-expanded')).toBe('false');
    }
    await finish(opened);
  });

  test('a day taken with Enter and a Tab straight after: the calendar is gone and the focus is on the end date', async () => {
    const opened = await openPage(browser(), lang === 'ar' ? MOBILE : DESKTOP);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });
    await page.getByRole('button', { name: textIn(lang, '{label}: calendar', { label: textIn(lang, 'Start date') }), exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.matches('[role="dialog"] button[data-date]') ?? false)).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.locator('[role="dialog"]').count()).toBe(0);
    expect(await f.end.evaluate((input) => input === document.activeElement)).toBe(true);
    await finish(opened);
  });

  test('the calendar’s arrow keys move to the day drawn beside, and ArrowDown goes on into the next month', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });
    await f.start.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focusedDay(page)).date ?? (await describeFocus(page))).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const from = await focusedDay(page);
    await screenshot(page, `form-access-calendar-${lang}-375`);

    const nextKey = lang === 'ar' ? 'ArrowLeft' : 'ArrowRight';
    const previousKey = lang === 'ar' ? 'ArrowRight' : 'ArrowLeft';
    await page.keyboard.press(nextKey);
    const next = await focusedDay(page);
    const dayAfter = new Date(`${from.date}T00:00:00Z`);
    dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
    expect(next.date).toBe(dayAfter.toISOString().slice(0, 10));
    // Beside it in the direction the page reads, or first in the row below when it ends a row.
    const drawnAfter = next.y === from.y ? (lang === 'ar' ? next.x < from.x : next.x > from.x) : next.y > from.y;
    expect(drawnAfter).toBe(true);
    await page.keyboard.press(previousKey);
    expect((await focusedDay(page)).date).toBe(from.date);

    const month = from.date!.slice(0, 7);
    for (let week = 0; week < 6 && (await focusedDay(page)).date!.slice(0, 7) === month; week++) await page.keyboard.press('ArrowDown');
    const after = await focusedDay(page);
    expect(after.date!.slice(0, 7) > month).toBe(true);
    // The calendar shows the new month: the focused day is one of its own, not a greyed neighbour.
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-outside'))).toBe(false);
    await page.keyboard.press('ArrowUp');
    expect((await focusedDay(page)).date!.slice(0, 7)).toBe(month);
    await finish(opened);
  });
});

test('every field, checkbox, radio and segmented choice of the form is outlined at least 3:1 on the page (WCAG 1.4.11)', async () => {
  const opened = await openPage(browser(), DESKTOP);
  const { page } = opened;
  await visit(page, '/traveller-details?lang=en');
  const f = fields(page, 'en');
  await f.form.waitFor({ state: 'visible' });
  // The family checkbox shows once there are two travellers.
  await f.addTraveller.click();
  await f.family.waitFor({ state: 'visible' });
  await screenshot(page, 'form-access-outlines-en-1280');
  const outlines = await page.evaluate(() => {
    const colour = (element: Element | null) => (element ? getComputedStyle(element).borderTopColor : 'missing');
    const form = document.querySelector('[data-testid="travel-details-form"]')!;
    const unchecked = [...form.querySelectorAll('input[type="checkbox"]:not(:checked)')][0] ?? null;
    return {
      text: colour(form.querySelector('input[type="text"], input:not([type])')),
      destinations: colour(form.querySelector('[role="combobox"]')?.closest('[data-variant]') ?? null),
      checkbox: colour(unchecked),
      radio: colour(form.querySelector('.safar-radio-indicator:not([data-checked])')),
      segmented: colour(form.querySelector('[role="radiogroup"]:has(> div > input[type="radio"] + label)')),
      page: getComputedStyle(document.body).backgroundColor,
    };
  });
  const rgb = (css: string) => (/rgba?\((\d+), (\d+), (\d+)/.exec(css) ?? []).slice(1).map(Number);
  const luminance = (css: string) => {
    const [r, g, b] = rgb(css).map((c) => c / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: string, b: string) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light! + 0.05) / (dark! + 0.05);
  };
  const { page: background, ...controls } = outlines;
  for (const [control, colour] of Object.entries(controls)) expect(contrast(colour, background), `${control}: ${colour} on ${background}`).toBeGreaterThanOrEqual(3);
  await finish(opened);
});
