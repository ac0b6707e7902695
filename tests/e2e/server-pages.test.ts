import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { payMessagePageHtml } from '../../src/server/payments/pay-page';
import { policyMailFacts } from '../support/policy-mail-facts';
import { policyMail } from '../../src/server/mail/policy-mail';
import { CARD_SCRIPT, cardPageHtml, SANDBOX_CARD_SCRIPT_PATH } from '../../src/server/payments/sandbox-pages';
import type { CardError, CardField } from '../../src/server/payments/sandbox-gateway';
import { browserForThisFile, MOBILE, type Lang } from './harness';
import { axeViolations, screenshotBothWidths } from './journey-steps';

/**
 * The server's own pages in Chromium (issue 21): the sandbox card page checks its fields itself,
 * in its own language, and lands keyboard and screen-reader users on its error summary; a payment
 * reference stays on one line, left to right, on a narrow Arabic page. The pages are the server's
 * HTML and script as built by sandbox-pages.ts and pay-page.ts, served at a test origin.
 */

const browser = browserForThisFile();

const ORIGIN = 'https://safar.test';
const CARD_PATH = '/sandbox/aps/pay/session-1';
const REFERENCE = 'SAF42-MFX3K2A1-7QZC0P4M8R2D';
const request = (lang: Lang) => ({ merchant_reference: REFERENCE, amount: '9457', currency: 'USD', language: lang });
const html = (body: string) => ({ status: 200, contentType: 'text/html; charset=utf-8', body });

/**
 * A page at the given width whose card page and card.js come from the server's builders; a post of
 * the card form is counted and answered with the page again, refusing what `refused` says.
 */
async function cardPage(lang: Lang, width: number, refused: Partial<Record<CardField, CardError>>) {
  const context = await browser().newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  const posts: string[] = [];
  await page.route(`${ORIGIN}${SANDBOX_CARD_SCRIPT_PATH}`, (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: CARD_SCRIPT }));
  await page.route(`${ORIGIN}${CARD_PATH}`, (route) => {
    if (route.request().method() === 'POST') {
      posts.push(route.request().postData() ?? '');
      return route.fulfill(html(cardPageHtml({ request: request(lang), action: CARD_PATH, errors: refused })));
    }
    return route.fulfill(html(cardPageHtml({ request: request(lang), action: CARD_PATH })));
  });
  await page.goto(`${ORIGIN}${CARD_PATH}`);
  return { page, posts };
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe.each(['en', 'ar'] as const)('the sandbox card page in %s', (lang) => {
  test('Pay on an empty form reaches the page\'s own checks (no browser bubble), and the error summary it returns takes focus and leads to the fields', async () => {
    const refused = { card_number: 'required', expiry_date: 'required', card_security_code: 'required', card_holder_name: 'required' } as const;
    const { page, posts } = await cardPage(lang, MOBILE.width, refused);
    await page.locator('button[value="pay"]').click();
    // With the browser's validation on, Chromium would stop here with "Please fill out this field." and post nothing.
    await expect.poll(() => posts.length).toBeGreaterThan(0);
    await page.locator('#card-errors').waitFor();
    await expect.poll(() => focusedId(page)).toBe('card-errors');

    const links = page.locator('#card-errors a');
    expect(await links.count()).toBe(4);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#f-card_number');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedId(page)).toBe('f-card_number');
    await links.nth(3).click();
    await expect.poll(() => focusedId(page)).toBe('f-card_holder_name');

    expect(await axeViolations(page)).toEqual([]);
    await screenshotBothWidths(page, `sandbox-card-errors-${lang}`);
  });
});

/** The horizontal centre of each character of the element's text, in order. */
function characterCentres(page: Page, selector: string): Promise<number[]> {
  return page.evaluate((css) => {
    const node = document.querySelector(css)?.firstChild;
    if (!node?.textContent) return [];
    return [...node.textContent].map((_, index) => {
      const range = document.createRange();
      range.setStart(node, index);
      range.setEnd(node, index + 1);
      const rect = range.getBoundingClientRect();
      return rect.left + rect.width / 2;
    });
  }, selector);
}

describe('a payment reference on the failed-payment page in Arabic', () => {
  test.each([320, MOBILE.width])('stays on one line, within the page, and reads left to right, its hyphens in place, at %i px', async (width) => {
    const context = await browser().newContext({ viewport: { width, height: 700 } });
    const page = await context.newPage();
    await page.route(`${ORIGIN}/pay/${REFERENCE}`, (route) =>
      route.fulfill(html(payMessagePageHtml({ lang: 'ar', title: 'pay_failed', text: 'pay_failed_text', facts: [['pay_order_amount', '$94.57'], ['pay_reference', REFERENCE]] }))),
    );
    await page.goto(`${ORIGIN}/pay/${REFERENCE}`);
    const reference = page.locator('dd:last-of-type > *');
    expect(await reference.innerText()).toBe(REFERENCE);
    expect(await reference.evaluate((element) => element.getClientRects().length)).toBe(1);
    // Nor does the page scroll sideways to show it.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const centres = await characterCentres(page, 'dd:last-of-type > *');
    expect(centres).toHaveLength(REFERENCE.length);
    expect(centres.every((centre, index) => index === 0 || centre > centres[index - 1]!)).toBe(true);
    if (width === MOBILE.width) await screenshotBothWidths(page, 'pay-failed-reference-ar');
  });
});

describe('the policy e-mail on a phone (issue 37 item 5)', () => {
  test.each(['en', 'ar'] as const)('in %s fits 375 px: the certificate is a button, not a raw URL that widened it to 714 px', async (lang) => {
    const context = await browser().newContext({ viewport: { width: MOBILE.width, height: 800 } });
    const page = await context.newPage();
    const mail = policyMail(
      lang,
      policyMailFacts({
        link: `${ORIGIN}/policies/Zq3V8kP1xW7rT2yN5mB9cD4fG6hJ0sL3aE8uI1oQ2wR/certificate.pdf`,
        pageLink: `${ORIGIN}/policy/${'5e'.repeat(32)}`,
      }),
    );
    await page.route(`${ORIGIN}/mail`, (route) => route.fulfill(html(mail.html)));
    await page.goto(`${ORIGIN}/mail`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(MOBILE.width);
    expect(await page.locator('a[href$="/certificate.pdf"]').evaluate((element) => getComputedStyle(element).display)).toBe('inline-block');
    // The policy page's link (issue 37 item 2) is a button too, inside the screen.
    const pageButton = page.locator(`a[href="${ORIGIN}/policy/${'5e'.repeat(32)}"]`);
    expect(await pageButton.evaluate((element) => getComputedStyle(element).display)).toBe('inline-block');
    expect(await pageButton.evaluate((element) => element.getBoundingClientRect().right <= window.innerWidth && element.getBoundingClientRect().left >= 0)).toBe(true);
    await screenshotBothWidths(page, `policy-mail-${lang}`);
    await context.close();
  });
});
