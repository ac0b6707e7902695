import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import * as v from 'valibot';
import { compareQuotesEndpoint, proceedReviewEndpoint, type Quote } from '../../src/contract/quote.endpoints';
import { DESKTOP, MOBILE, baseUrl, browserForThisFile, openPage, pathAndQuery, readStorage, visit, type Lang } from './harness';
import { earlierLeadOfThisBrowser, fields, finishAllowing, saveLeadThroughApi, screenshot } from './journey-steps';

/**
 * Issue 8 rows 3, 5 and 8 in Chromium against the real server, in English and Arabic:
 * add-ons ticked on a card stay ticked through the compare table (toggled there too, sent by
 * Proceed, kept by Back and by a reload), odd paths, and the dialogs' widths. Rows 4 and 10
 * (insurance_type in the address, the call-back form prefilled from what was typed) are
 * traveller-details.screen.test.tsx's, in both languages (docs/testing.md lists why).
 *
 * SCREENSHOT_DIR=/some/dir also writes screenshots of the compare table (en/ar, 375/1280 px).
 */

const browser = browserForThisFile();

const cards = (page: Page) => page.getByTestId('quote-card');
/** "$1,234" (isolated or not) → 1234. */
const dollars = (text: string) => Number(text.replace(/[^\d]/g, ''));
const wholeDollars = (cents: number) => Math.round(cents / 100);

/** Opens the lead's quote list and returns the quotes the server answered. */
async function openQuotes(page: Page, lang: Lang, uuid: string): Promise<Quote[]> {
  const answered = page.waitForResponse((response) => response.url().endsWith(compareQuotesEndpoint.path));
  await visit(page, `/compare-quotes?uuid=${uuid}&lang=${lang}`);
  const quotes = v.parse(compareQuotesEndpoint.response, await (await answered).json()).data.quotes;
  await expect.poll(() => cards(page).count()).toBe(quotes.length);
  return quotes;
}

/** A plan's column head in the table, in compare order (two insurers may share a plan name). */
const column = (page: Page, index: number) => page.getByTestId('offers-plan').nth(index);
/** A plan's add-on checkbox in the table, by its accessible name "<add-on>, <plan>: …". */
const tableAddon = (page: Page, lang: Lang, quote: Quote, code: string): Locator => {
  const addon = quote.addon.find((candidate) => candidate.code === code)!;
  const label = lang === 'ar' ? addon.label_ar : addon.label;
  const separator = lang === 'ar' ? '،' : ',';
  const provider = lang === 'ar' ? quote.provider.name_ar : quote.provider.name;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page
    .getByTestId('offers-table')
    .getByRole('checkbox', { name: new RegExp(`^${escape(label)}${separator} ${escape(provider)} ${escape(quote.wizard_plan_name)}:`) });
};

describe.each(['en', 'ar'] as const)('compare table add-ons and the spec rules still missing, in %s', (lang) => {
  test('row 3: add-ons ticked on a card stay ticked in the compare table, toggle there with the total, survive Back and a reload, and Proceed sends them to the invoice', async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    const { uuid } = await saveLeadThroughApi();
    const quotes = await openQuotes(page, lang, uuid);

    // Tick trip cancellation on a plan that offers both add-ons: its card total moves.
    const enabled = (candidate: Quote, code: string) => candidate.addon.some((addon) => addon.code === code && !addon.disabled_addon);
    const quote = quotes.find((candidate) => enabled(candidate, 'trip_cancellation') && enabled(candidate, 'winter_sports'))!;
    const other = quotes.find((candidate) => candidate.id !== quote.id)!;
    const cardOf = (id: number) => page.locator(`[data-testid="quote-card"][data-quote-id="${id}"]`);
    const card = cardOf(quote.id);
    const cancellation = quote.addon.find((addon) => addon.code === 'trip_cancellation')!;
    const winter = quote.addon.find((addon) => addon.code === 'winter_sports')!;
    await card.locator('[data-testid="addon-checkbox"][data-code="trip_cancellation"]').check();
    const cardTotal = wholeDollars(quote.premium + cancellation.value);
    await expect.poll(async () => dollars(await card.getByTestId('quote-total').innerText())).toBe(cardTotal);

    // Compare it with the second plan.
    await card.getByTestId('compare-checkbox').check();
    await cardOf(other.id).getByTestId('compare-checkbox').check();
    await page.getByTestId('compare-open').click();
    await page.waitForURL((url) => url.pathname === '/compare-offers');
    await page.getByTestId('offers-table').waitFor({ state: 'visible' });

    // The table shows the card's total and the tick; toggling winter sports there moves it.
    const total = () => column(page, 0).getByTestId('quote-total').innerText().then(dollars);
    expect(await total()).toBe(cardTotal);
    expect(await tableAddon(page, lang, quote, 'trip_cancellation').isChecked()).toBe(true);
    await tableAddon(page, lang, quote, 'winter_sports').check();
    await expect.poll(total).toBe(wholeDollars(quote.premium + cancellation.value + winter.value));
    await tableAddon(page, lang, quote, 'winter_sports').uncheck();
    await expect.poll(total).toBe(cardTotal);
    await tableAddon(page, lang, quote, 'winter_sports').check();
    const withBoth = wholeDollars(quote.premium + cancellation.value + winter.value);
    await expect.poll(total).toBe(withBoth);
    await screenshot(page, `compare-offers-${lang}-1280`);
    await page.setViewportSize(MOBILE);
    await screenshot(page, `compare-offers-${lang}-375`);
    await page.setViewportSize(DESKTOP);

    // Back: the list keeps the compared plans and both ticks on the card.
    await page.getByTestId('offers-back').click();
    await page.waitForURL((url) => url.pathname === '/compare-quotes');
    await expect.poll(() => page.getByTestId('compare-tray-item').count()).toBe(2);
    const back = cardOf(quote.id);
    expect(await back.locator('[data-testid="addon-checkbox"][data-code="trip_cancellation"]').isChecked()).toBe(true);
    expect(await back.locator('[data-testid="addon-checkbox"][data-code="winter_sports"]').isChecked()).toBe(true);
    expect(dollars(await back.getByTestId('quote-total').innerText())).toBe(withBoth);

    // Into the table again, and a reload of it: still ticked.
    await page.getByTestId('compare-open').click();
    await page.waitForURL((url) => url.pathname === '/compare-offers');
    await page.reload();
    await page.getByTestId('offers-table').waitFor({ state: 'visible' });
    expect(await total()).toBe(withBoth);
    expect(await tableAddon(page, lang, quote, 'trip_cancellation').isChecked()).toBe(true);

    // Proceed sends both add-ons, and the server's invoice carries them.
    const captured: { body: { addons: number[]; policy_id: number } | null } = { body: null };
    await page.route(`**${proceedReviewEndpoint.path}`, async (route, request) => {
      captured.body = JSON.parse(request.postData() ?? '{}') as { addons: number[]; policy_id: number };
      await route.continue();
    });
    const answered = page.waitForResponse((response) => response.url().endsWith(proceedReviewEndpoint.path));
    await column(page, 0).getByTestId('offers-proceed').click();
    const response = await answered;
    expect(response.status()).toBe(200);
    const sent = captured.body;
    if (!sent) throw new Error('proceed-review was not sent');
    expect(sent.policy_id).toBe(quote.id);
    expect([...sent.addons].sort()).toEqual([cancellation.id, winter.id].sort());
    const { invoice } = v.parse(proceedReviewEndpoint.response, await response.json()).data;
    expect(invoice.policy_addons.map((addon) => addon.code).sort()).toEqual(['trip_cancellation', 'winter_sports']);
    expect(invoice.total_price_without_vat).toBe(quote.premium + cancellation.value + winter.value);
    await page.waitForURL((url) => url.pathname === '/review-details');
    await finishAllowing(opened);
  });

  test('row 5: //traveller-details?state=new and //x?state=new show the travel details form, with no page error', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    for (const odd of ['//traveller-details', '//x', '///compare-quotes']) {
      await visit(page, `${baseUrl()}${odd}?state=new&lang=${lang}`);
      await fields(page, lang).form.waitFor({ state: 'visible' });
      expect(new URL(page.url()).origin).toBe(new URL(baseUrl()).origin);
      expect(pathAndQuery(page)).toBe(`/traveller-details?lang=${lang}`);
    }
    await finishAllowing(opened);
  });

  test('row 8: the system error dialog is 40 % of the screen at 1280 px, the chooser 650 px, both 90 % at 375 px', async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    const widthOf = async (testId: string) => (await page.getByTestId(testId).boundingBox())!.width;
    const near = (actual: number, expected: number) => expect(Math.abs(actual - expected), `${actual} px, expected ${expected} px`).toBeLessThanOrEqual(2);

    // The quotes flagged as failed open the system error dialog (an insurer failure, mocked at the edge).
    const { uuid } = await saveLeadThroughApi();
    await page.route(`**${compareQuotesEndpoint.path}`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: Record<string, unknown> };
      await route.fulfill({ response, json: { ...body, data: { ...body.data, hasError: true } } });
    });
    await visit(page, `/compare-quotes?uuid=${uuid}&lang=${lang}`);
    await page.getByTestId('system-error-dialog').waitFor({ state: 'visible' });
    await expect.poll(() => widthOf('system-error-dialog')).toBeGreaterThan(0);
    near(await widthOf('system-error-dialog'), DESKTOP.width * 0.4);
    await page.setViewportSize(MOBILE);
    await expect.poll(async () => Math.round(await widthOf('system-error-dialog'))).toBe(Math.round(MOBILE.width * 0.9));
    await page.unroute(`**${compareQuotesEndpoint.path}`);

    // The chooser of earlier leads on this device.
    await page.setViewportSize(DESKTOP);
    await earlierLeadOfThisBrowser(opened.context, lang);
    await visit(page, `/traveller-details?lang=${lang}`);
    await page.getByTestId('recent-leads-dialog').waitFor({ state: 'visible' });
    await expect.poll(async () => Math.round(await widthOf('recent-leads-dialog'))).toBe(650);
    await page.setViewportSize(MOBILE);
    await expect.poll(async () => Math.round(await widthOf('recent-leads-dialog'))).toBe(Math.round(MOBILE.width * 0.9));
    expect((await readStorage(page, ['device_uuid'])).device_uuid).toBeTruthy();
    await finishAllowing(opened);
  });
});
