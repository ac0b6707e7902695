import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { couponValidateEndpoint } from '../../src/contract/checkout.endpoints';
import { personalDetailsEndpoint } from '../../src/contract/lead.endpoints';
import { leadAtCheckoutOverHttp, signedSender } from '../integration/server-journey-fixtures';
import { DESKTOP, MOBILE, baseUrl, browserForThisFile, finish, openPage, visit, type Lang } from './harness';
import { axeViolations, callApi, finishAllowing, pageSigningKey, screenshotBothWidths, textIn } from './journey-steps';

/**
 * Checkout in Chromium against the real server (issue 10): coupons the broker seeded (demo
 * coupons in the README), the server's totals, the 100 % path to /thank-you-p with the order paid
 * in the database, and the agent's view without payment. (The way out to the payments page is
 * walked by tests/e2e/keyboard-purchase.test.ts and the model-path sample.)
 */

const browser = browserForThisFile();

/** "$1,234" or "−$12" (isolated or not) → 1234 / 12. */
const dollars = (text: string) => Number(text.replace(/[^\d]/g, ''));

async function shownTotal(page: Page): Promise<number> {
  return dollars(await page.getByTestId('price-total').innerText());
}

/** Types a code into the coupon box and applies it; returns the server's answer to the page. */
async function applyCoupon(page: Page, code: string) {
  const input = page.getByTestId('coupon-input');
  await input.fill('');
  await input.pressSequentially(code);
  const answered = page.waitForResponse((response) => response.url().endsWith(couponValidateEndpoint.path));
  await page.getByTestId('coupon-apply').click();
  const response = await answered;
  return { status: response.status(), body: (await response.json()) as { message: string } };
}

/**
 * A single traveller to France who bought the provider-1000 plan (no add-ons) and gave their
 * details, taken there through the API as the SPA does it (an agent's lead with `agent_id` in
 * `query`), then /checkout opened in the page. The steps before it are walked in Chromium by the
 * review files, the keyboard walks and the model-path sample.
 */
async function toCheckout(page: Page, lang: Lang, query = ''): Promise<string> {
  const agent = new URLSearchParams(query).get('agent_id');
  const send = signedSender(baseUrl(), await pageSigningKey());
  const uuid = await leadAtCheckoutOverHttp(send, { lang, providerId: 1000, ...(agent ? { agentId: Number(agent) } : {}) });
  await visit(page, `/checkout?uuid=${uuid}&lang=${lang}${query}`);
  await page.getByTestId('price-summary').waitFor();
  return uuid;
}

describe.each(['en', 'ar'] as const)('checkout in %s', (lang) => {
  test('a bad coupon shows the server message in red, a good one lowers the total, Remove restores it, and a 100 % coupon on a plan without add-ons ends at /thank-you-p with the order paid', async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    const uuid = await toCheckout(page, lang);
    expect(await axeViolations(page)).toEqual([]);
    await screenshotBothWidths(page, `checkout-${lang}`);
    const full = await shownTotal(page);
    expect(full).toBeGreaterThan(0);
    // The terms are agreed by default, so Proceed is enabled.
    expect(await page.getByTestId('terms-checkbox').isChecked()).toBe(true);
    expect(await page.getByTestId('checkout-pay').isEnabled()).toBe(true);

    // Spaces typed into the box are dropped.
    const bad = await applyCoupon(page, 'NO SUCH 1');
    expect(await page.getByTestId('coupon-input').inputValue()).toBe('NOSUCH1');
    expect(bad.status).toBe(422);
    // The box's own message (the urgent announcer says the same words, for a while, elsewhere).
    const couponBox = page.getByTestId('coupon-box');
    const message = couponBox.getByText(bad.body.message, { exact: true });
    await message.waitFor();
    expect(await message.evaluate((element) => getComputedStyle(element).color)).toMatch(/rgb\((2\d\d|1\d\d), \d{1,2}, \d{1,2}\)/);
    expect(await shownTotal(page)).toBe(full);

    const good = await applyCoupon(page, 'SAFAR10');
    expect(good.status).toBe(200);
    await page.getByTestId('coupon-applied').waitFor();
    expect(await page.getByTestId('coupon-applied').innerText()).toContain(textIn(lang, 'Coupon applied'));
    await expect.poll(() => shownTotal(page)).toBeLessThan(full);
    expect(await page.getByTestId('price-discount').innerText()).toMatch(/^\u2066?\u2212\$\d/);
    expect(await couponBox.getByText(bad.body.message, { exact: true }).count()).toBe(0);
    await screenshotBothWidths(page, `checkout-coupon-${lang}`);

    await page.getByTestId('coupon-remove').click();
    await expect.poll(() => shownTotal(page)).toBe(full);
    expect(await page.getByTestId('coupon-input').inputValue()).toBe('');

    await applyCoupon(page, 'FREE100');
    await expect.poll(() => shownTotal(page)).toBe(0);
    await page.getByTestId('checkout-pay').click();
    await page.waitForURL((url) => url.pathname === '/thank-you-p');
    await page.getByTestId('order-confirmed').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('thankyou'))).toBe('1');
    // The server holds the order as paid: the lead is in a deal and cannot be bought again.
    const after = await callApi(personalDetailsEndpoint, { uuid, lang });
    expect(after.customer.isLeadAlreadyInDeal).toBe(true);
    await finishAllowing(opened, [422]);
  });
});

describe('checkout, once in each direction of the journey', () => {
  test('an agent sees the share buttons and neither the terms nor a pay button', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await toCheckout(page, 'en', '&agent_id=101');
    await page.getByTestId('share-whatsapp').waitFor();
    expect(await page.getByTestId('pay-panel').count()).toBe(0);
    expect(await page.getByTestId('checkout-pay').count()).toBe(0);
    expect(await page.getByTestId('terms-checkbox').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await finish(opened);
  });
  test("issue 17: the agent's Arabic WhatsApp link carries the language and the applied coupon; the customer opens the same total with the coupon applied", async () => {
    const agent = await openPage(browser(), DESKTOP);
    await toCheckout(agent.page, 'ar', '&agent_id=101');
    const full = await shownTotal(agent.page);
    expect((await applyCoupon(agent.page, 'SAFAR10')).status).toBe(200);
    await expect.poll(() => shownTotal(agent.page)).toBeLessThan(full);
    const agentTotal = await agent.page.getByTestId('price-total').innerText();
    const whatsapp = agent.page.getByTestId('share-whatsapp');
    await expect.poll(async () => decodeURIComponent((await whatsapp.getAttribute('href')) ?? '')).toContain('coupon=SAFAR10');
    const text = new URL((await whatsapp.getAttribute('href'))!).searchParams.get('text')!;
    const link = new URL(text.match(/https?:\/\/\S+/)![0]);
    expect(link.pathname).toBe('/checkout');
    expect(link.searchParams.get('lang')).toBe('ar');
    expect(link.searchParams.get('coupon')).toBe('SAFAR10');
    expect(link.searchParams.has('agent_id')).toBe(false);
    await finishAllowing(agent);

    // The customer, in a fresh browser, opens the link: Arabic, the coupon applied, the agent's total.
    const customer = await openPage(browser(), MOBILE);
    await customer.page.goto(`${link.pathname}${link.search}`);
    await customer.page.getByTestId('coupon-applied').waitFor();
    expect(await customer.page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await customer.page.getByTestId('coupon-input').inputValue()).toBe('SAFAR10');
    expect(await customer.page.getByTestId('price-total').innerText()).toBe(agentTotal);
    await screenshotBothWidths(customer.page, 'checkout-coupon-from-link-ar');
    await finishAllowing(customer);
  });
});
