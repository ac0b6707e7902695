import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { MOBILE, otherLanguage, openPage, visit, browserForThisFile, type Lang } from './harness';
import { COUNTRY, fields, finishAllowing, newTrip, quotesOfNewLead, typeInto } from './journey-steps';

/**
 * Issue 8 rows 11, 12 and 13 in Chromium, in English and Arabic at 375 px: the country search
 * ranks the country meant first in either language, amounts keep "$" and "+" on the left of
 * their digits in right-to-left lines, the language switch keeps what was typed, and the
 * instant-policy badge is not cut on a phone.
 */

const browser = browserForThisFile();

const UNITED_STATES = { en: 'United States of America', ar: 'الولايات المتحدة' } as const;

/** The options the open destination list shows, in order. */
async function shownOptions(page: Page): Promise<string[]> {
  const options = page.getByRole('option');
  await options.first().waitFor({ state: 'visible' });
  return (await options.allInnerTexts()).map((text) => text.trim());
}

/** Types into the destinations search without leaving it. */
async function searchDestinations(page: Page, lang: Lang, text: string): Promise<void> {
  const { destinations } = fields(page, lang);
  await destinations.click();
  await destinations.fill('');
  await destinations.pressSequentially(text, { delay: 20 });
}

/**
 * Where each of "+", "$" and the first digit is drawn, left to right, inside `element`'s text:
 * the visual order a reader sees, whatever the order of the characters in the DOM.
 */
function visualOrder(element: Locator): Promise<{ plus: number | null; dollar: number; digit: number }> {
  return element.evaluate((root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const left = (char: RegExp): number | null => {
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        const index = text.search(char);
        if (index >= 0) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          walker.currentNode = root;
          return range.getBoundingClientRect().left;
        }
      }
      walker.currentNode = root;
      return null;
    };
    const dollar = left(/\$/);
    const digit = left(/\d/);
    if (dollar === null || digit === null) throw new Error(`no amount in ${JSON.stringify(root.textContent)}`);
    return { plus: left(/\+/), dollar, digit };
  });
}

describe.each(['en', 'ar'] as const)('issue 8 rows 11–13 in %s at 375 px', (lang) => {
  test('row 11: "فرن" lists France first and Enter picks it; "امريكا" and the Latin name find their country', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });

    await searchDestinations(page, lang, 'فرن');
    await expect.poll(async () => (await shownOptions(page))[0]).toBe(COUNTRY[lang]);
    await page.keyboard.press('Enter');
    await expect.poll(() => f.form.getByText(COUNTRY[lang], { exact: true }).count()).toBeGreaterThan(0);
    await page.keyboard.press('Escape');

    await searchDestinations(page, lang, 'امريكا');
    await expect.poll(async () => (await shownOptions(page))[0]).toBe(UNITED_STATES[lang]);
    await page.keyboard.press('Escape');

    // The Latin name in the Arabic interface, the Arabic name in the English one.
    await searchDestinations(page, lang, lang === 'ar' ? 'Germ' : 'ألمان');
    await expect.poll(async () => (await shownOptions(page))[0]).toBe(lang === 'ar' ? 'ألمانيا' : 'Germany');
    await page.keyboard.press('Escape');
    await finishAllowing(opened);
  });

  test('row 13(d): the language switch keeps the typed name, e-mail and phone across its reload', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });
    const trip = newTrip({ name: 'Karim Haddad' });
    await typeInto(f.name, trip.name);
    await typeInto(f.email, trip.email);
    await typeInto(f.phone, trip.phone);

    const other = otherLanguage(lang);
    const reloaded = page.waitForEvent('load');
    await page.getByTestId('language-switch').click();
    await reloaded;
    await page.locator(`html[lang="${other}"]`).waitFor({ state: 'attached' });
    const g = fields(page, other);
    await g.form.waitFor({ state: 'visible' });
    await expect.poll(() => g.name.inputValue()).toBe(trip.name);
    expect(await g.email.inputValue()).toBe(trip.email);
    expect(await g.phone.inputValue()).toBe(trip.phone);
    await finishAllowing(opened);
  });

  test('issue 21: the typed phone number lines up with the name above it (right in Arabic, left in English), still written left to right', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });
    await typeInto(f.name, 'Karim Haddad');
    await typeInto(f.phone, '71123456');
    // The side the typed text is drawn on, from the browser's computed direction and alignment.
    const side = (field: Locator) =>
      field.evaluate((input) => {
        const { direction, textAlign } = getComputedStyle(input);
        const right = textAlign === 'right' || (textAlign === 'start' && direction === 'rtl') || (textAlign === 'end' && direction === 'ltr');
        return { direction, side: right ? 'right' : 'left' };
      });
    expect(await side(f.phone)).toEqual({ direction: 'ltr', side: lang === 'ar' ? 'right' : 'left' });
    expect((await side(f.name)).side).toBe(lang === 'ar' ? 'right' : 'left');
    await finishAllowing(opened);
  });

  test('row 12 and row 13(a): an add-on price reads "+$30" and a total "$31" left to right; the instant-policy badge is not cut', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await quotesOfNewLead(page, lang);
    const card = page.getByTestId('quote-card').first();
    await card.waitFor({ state: 'visible' });

    // Row 12: "$" left of the digits in the total, "+" then "$" then digits in an add-on's price.
    const total = await visualOrder(card.getByTestId('quote-total'));
    expect(total.dollar).toBeLessThan(total.digit);
    const addonId = await card.locator('[data-testid="addon-checkbox"]').first().getAttribute('id');
    const addonLabel = page.locator(`label[for="${addonId}"]`);
    const price = await visualOrder(addonLabel);
    expect(price.plus).not.toBeNull();
    expect(price.plus!).toBeLessThan(price.dollar);
    expect(price.dollar).toBeLessThan(price.digit);
    expect((await addonLabel.innerText()).replace(/[\u2066-\u2069]/g, '')).toMatch(/\(\+\$\d[\d,]*\)/);

    // Row 13(a): the badge and its text fit: nothing is clipped, and it stays inside the card.
    const badge = page.getByTestId('instant-policy-badge').first();
    await badge.waitFor({ state: 'visible' });
    expect((await badge.innerText()).trim()).not.toBe('');
    const fit = await badge.evaluate((element) => {
      const label = element.querySelector<HTMLElement>('.mantine-Badge-label') ?? element;
      const box = element.getBoundingClientRect();
      const cardBox = element.closest('article')!.getBoundingClientRect();
      return {
        badge: element.scrollWidth <= element.clientWidth,
        label: label.scrollWidth <= label.clientWidth && label.scrollHeight <= label.clientHeight + 1,
        inside: box.left >= cardBox.left - 0.5 && box.right <= cardBox.right + 0.5,
      };
    });
    expect(fit).toEqual({ badge: true, label: true, inside: true });
    await finishAllowing(opened);
  });
});
