import path from 'node:path';
import { describe, expect, inject, test } from 'vitest';
import type { Page, Request, Route } from 'playwright-core';
import * as v from 'valibot';
import { addDays, todayIso } from '../../src/contract/dates';
import { proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { signedHeaders } from '../support/signed-request';
import { DESKTOP, MOBILE, openPage, readStorage, visit, browserForThisFile } from './harness';
import { axeViolations, emlWhere, fields, fillTrip, finishAllowing, newTrip, quotesOfNewLead, textIn } from './journey-steps';

/**
 * The quotes step in Chromium against the real server: a family of three to France sees
 * quotes, changes a price with an add-on, compares three plans (a fourth is refused) and
 * proceeds from the compare table to review, while the browser claims another price that the
 * server ignores. Also: a traveller too old for any plan, and an agent's shares. (An insurer
 * that is down is the integration tests' and the quotes screen's: docs/testing.md.)
 */

const browser = browserForThisFile();

/** A family of three (41, 39 and 11 years old next month) to France, starting in 10 days. */
function familyTrip() {
  const today = todayIso();
  const year = Number(today.slice(0, 4));
  return newTrip({
    start: addDays(today, 10),
    end: addDays(today, 20),
    dobs: [`${year - 41}-01-10`, `${year - 39}-02-11`, `${year - 11}-03-12`],
    family: true,
  });
}

const cards = (page: Page) => page.getByTestId('quote-card');

/** "$1,234" → 1234. */
const dollars = (text: string) => Number(text.replace(/[^\d]/g, ''));

/**
 * Rewrites the browser's proceed-review body before it leaves, as a tampering client would:
 * the premium it claims becomes $1, re-signed with the key the page itself carries, so the
 * server sees a valid request whose money figures are wrong.
 */
async function claimPremiumOfOneDollar(page: Page): Promise<{ sent: () => Record<string, unknown> | null }> {
  const signingKey = await page.evaluate(() => {
    const content = document.querySelector('meta[name="safar-config"]')?.getAttribute('content') ?? '{}';
    return (JSON.parse(content) as { signingKey: string }).signingKey;
  });
  let sent: Record<string, unknown> | null = null;
  await page.route(`**${proceedReviewEndpoint.path}`, async (route: Route, request: Request) => {
    const body = JSON.parse(request.postData() ?? '{}') as Record<string, unknown>;
    sent = { ...body, selected_premium: 1 };
    const text = JSON.stringify(sent);
    await route.continue({ postData: text, headers: { ...request.headers(), ...(await signedHeaders(signingKey, text)) } });
  });
  return { sent: () => sent };
}

describe.each(['en', 'ar'] as const)('quotes in %s', (lang) => {
  test('a family of three to France: an add-on moves the price, 3 plans compare (a 4th is refused), Proceed in the table opens review at the server price', async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    const { quotes } = await quotesOfNewLead(page, lang, familyTrip());
    expect(quotes.length).toBeGreaterThanOrEqual(4);
    await expect.poll(() => cards(page).count()).toBe(quotes.length);
    expect(await page.getByTestId('quotes-count').innerText()).toContain(String(quotes.length));

    // Winter sports on the first plan raises its total by the add-on's price.
    const first = cards(page).first();
    const firstId = Number(await first.getAttribute('data-quote-id'));
    const firstQuote = quotes.find((quote) => quote.id === firstId)!;
    const winter = firstQuote.addon.find((addon) => addon.code === 'winter_sports' && !addon.disabled_addon)!;
    const before = dollars(await first.getByTestId('quote-total').innerText());
    expect(before).toBe(Math.round(firstQuote.premium / 100));
    await first.locator(`[data-testid="addon-checkbox"][data-code="winter_sports"]`).check();
    await expect.poll(async () => dollars(await first.getByTestId('quote-total').innerText())).toBe(Math.round((firstQuote.premium + winter.value) / 100));

    // Compare: at 2 the tray asks for one more; 3 fit; a 4th is refused.
    const compare = (index: number) => cards(page).nth(index).getByTestId('compare-checkbox');
    await compare(0).check();
    await compare(1).check();
    const tray = page.getByTestId('compare-tray');
    await tray.waitFor({ state: 'visible' });
    expect(await tray.getByTestId('compare-add-another').isVisible()).toBe(true);
    await compare(2).check();
    await expect.poll(() => tray.getByTestId('compare-tray-item').count()).toBe(3);
    await compare(3).click();
    await page.getByTestId('compare-refused').waitFor({ state: 'visible' });
    expect(await tray.getByTestId('compare-tray-item').count()).toBe(3);
    expect(await compare(3).isChecked()).toBe(false);

    await tray.getByTestId('compare-open').click();
    await page.waitForURL((url) => url.pathname === '/compare-offers');
    const stored: unknown = JSON.parse((await readStorage(page, ['compare_data'])).compare_data ?? 'null');
    expect((stored as { compareIds: string[] }).compareIds).toHaveLength(3);
    await page.getByTestId('offers-table').waitFor({ state: 'visible' });
    expect(await page.getByTestId('offers-plan').count()).toBe(3);
    expect(await page.getByTestId('offers-row-highlight').count()).toBeGreaterThanOrEqual(7);
    expect(await axeViolations(page)).toEqual([]);

    // Proceed on the first compared plan, while the request claims a premium of $1.
    const tampering = await claimPremiumOfOneDollar(page);
    const answered = page.waitForResponse((response) => response.url().endsWith(proceedReviewEndpoint.path));
    await page.getByTestId('offers-proceed').first().click();
    const response = await answered;
    expect(response.status()).toBe(200);
    const { invoice, leads } = v.parse(proceedReviewEndpoint.response, await response.json()).data;
    const sent = tampering.sent()!;
    expect(sent.selected_premium).toBe(1);
    const chosen = quotes.find((quote) => quote.id === sent.policy_id)!;
    const addonCents = chosen.addon.filter((addon) => (sent.addons as number[]).includes(addon.id)).reduce((sum, addon) => sum + addon.value, 0);
    expect(invoice.insurance_plan_price).toBe(chosen.premium);
    expect(invoice.total_price_without_vat).toBe(chosen.premium + addonCents);
    expect(invoice.total_price_vat).toBeGreaterThan(invoice.total_price_without_vat);
    expect(leads.stage).toBe(2);
    await page.waitForURL((url) => url.pathname === '/review-details');
    expect((await readStorage(page, ['traveller_index'])).traveller_index).toBe('0');
    await finishAllowing(opened);
  });

  test('at 375 px the list and the benefits drawer fit the screen, with the compare box (issue 21: compare on phones), and axe finds nothing', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await quotesOfNewLead(page, lang, familyTrip());
    await cards(page).first().waitFor();
    expect(await cards(page).first().getByTestId('compare-checkbox').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await cards(page).first().getByTestId('open-benefits').click();
    const drawer = page.getByTestId('benefits-drawer-body');
    await drawer.waitFor({ state: 'visible' });
    expect(await drawer.innerText()).not.toBe('');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await finishAllowing(opened);
  });
});

describe('quotes when things go wrong', () => {
  test('a traveller older than every plan allows lands on /thank-you, and asks for a call back with the details already filled in', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, '/traveller-details?lang=ar');
    const trip = newTrip({ dobs: ['1932-05-01'] });
    await fillTrip(page, 'ar', trip);
    await fields(page, 'ar').proceed.click();
    await page.waitForURL((url) => url.pathname === '/thank-you');
    await page.getByTestId('screen-thank-you').waitFor();
    expect(await page.locator('main').innerText()).toContain(textIn('ar', 'We cannot quote your trip online, so our team will call you shortly on the number you gave us.'));
    expect(await axeViolations(page)).toEqual([]);

    // The short wizard: the contact details come prefilled, and sending them ends on /call-back.
    await page.locator('main').getByRole('button', { name: textIn('ar', 'Call me on another number') }).click();
    await page.waitForURL((url) => url.pathname === '/request-call-back');
    const form = page.getByTestId('call-back-form');
    await form.waitFor({ state: 'visible' });
    expect(await fields(page, 'ar').phone.inputValue()).toBe(trip.phone);
    expect(await fields(page, 'ar').email.inputValue()).toBe(trip.email);
    await form.getByRole('button', { name: textIn('ar', 'Call me back') }).click();
    await page.waitForURL((url) => url.pathname === '/call-back');
    await page.getByTestId('screen-call-back').waitFor();
    expect(await page.locator('main').innerText()).toContain(textIn('ar', 'Thank you for your call-back request'));
    expect(await axeViolations(page)).toEqual([]);
    await finishAllowing(opened);
  });
});

describe('agent mode', () => {
  test('with agent_id the quotes offer a WhatsApp share to the customer and an e-mail share that writes an .eml to the outbox', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    const trip = newTrip({ dobs: ['1988-06-01'] });
    await quotesOfNewLead(page, 'en', trip, '&agent_id=101');
    const whatsapp = page.getByTestId('share-whatsapp');
    await whatsapp.waitFor({ state: 'visible' });
    const href = (await whatsapp.getAttribute('href')) ?? '';
    expect(href).toMatch(new RegExp(`^https://wa\\.me/961${trip.phone}\\?text=`));
    expect(decodeURIComponent(href.split('text=')[1] ?? '')).toContain('/compare-quotes?uuid=');

    const outbox = path.join(inject('dataDir'), 'outbox');
    const toCustomer = (eml: string) => eml.includes(`To: ${trip.email}`);
    expect(emlWhere(outbox, toCustomer)).toEqual([]);
    await page.getByTestId('share-email').click();
    await page.getByTestId('share-email-toast').waitFor({ state: 'visible' });
    await expect.poll(() => emlWhere(outbox, toCustomer).length).toBe(1);
    expect(emlWhere(outbox, toCustomer)[0]).toContain('compare-quotes');
    await finishAllowing(opened);
  });

});
