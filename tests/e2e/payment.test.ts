import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { extractText } from 'unpdf';
import { describe, expect, test } from 'vitest';
import { todayIso } from '../../src/contract/dates';
import { openConfiguredDatabase } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { message } from '../../src/server/http/messages';
import { DESKTOP, MOBILE, browserForThisFile, finish, openPage, serverOfThisFile, visit, type Lang } from './harness';
import { axeViolations, emlWhere, fields, fillTrip, newTrip, quotesOfNewLead, quotesOpened, screenshotBothWidths, typeInto } from './journey-steps';
import { MR, MRS, PLAN, choose, reviewFields, travellerOpened } from './review-steps';
import { payWithCard, resultShown } from './sandbox-steps';

/**
 * The whole journey as a new customer takes it (issue 11), in Chromium against a real server of
 * this file's own, so that the last test can open its database: travel details → quotes →
 * compare → buy now → review of two travellers → checkout with a coupon → the payments page →
 * the sandbox gateway's card form → /payment-result with the policy, its PDF and its e-mail.
 * SCREENSHOT_DIR=/some/dir also writes the payments page, the gateway and the result (en/ar,
 * 375/1280 px).
 */

const browser = browserForThisFile();
const server = serverOfThisFile();

/** The APS test card (RULINGS 20), typed as people do, in groups. */
const GOOD_CARD = '4005 5500 0000 0001';
/** A well-formed card the sandbox declines. */
const DECLINED_CARD = '4000 0000 0000 0002';

/** Leads paid in this file, with how many orders each should hold at the end. */
const journeys: { uuid: string; orders: number; travellers: string[] }[] = [];

const year = Number(todayIso().slice(0, 4));
const TRAVELLER_2 = { first: 'Karim', last: 'Haddad' };

/** Two adults to France. */
const twoAdults = () => newTrip({ dobs: [`${year - 36}-04-12`, `${year - 38}-09-30`] });

/** Travel details for two adults to France, typed in the form, then the quote list; returns the lead's uuid. */
async function quotesForTwo(page: Page, lang: Lang): Promise<string> {
  await visit(page, `/traveller-details?lang=${lang}`);
  await fillTrip(page, lang, twoAdults());
  await fields(page, lang).proceed.click();
  const { uuid } = await quotesOpened(page);
  return uuid!;
}

/** Ticks two plans (Europe Flex first) for the compare table, opens it and buys Europe Flex from it. */
async function compareAndBuy(page: Page, lang: Lang): Promise<void> {
  const cards = page.getByTestId('quote-card');
  const flex = cards.filter({ has: page.getByText(PLAN.provider1000[lang], { exact: true }) }).first();
  await flex.getByTestId('compare-checkbox').check();
  await cards.filter({ hasNot: page.getByText(PLAN.provider1000[lang], { exact: true }) }).first().getByTestId('compare-checkbox').check();
  await page.getByTestId('compare-open').click();
  await page.waitForURL((url) => url.pathname === '/compare-offers');
  await page.getByTestId('offers-table').waitFor({ state: 'visible' });
  await page.getByTestId('offers-plan').filter({ hasText: PLAN.provider1000[lang] }).getByTestId('offers-proceed').click();
  await page.waitForURL((url) => url.pathname === '/review-details');
}

/** Europe Flex asks for the title and passport of each traveller, and the names of the second. */
async function reviewTwo(page: Page, lang: Lang, passports: [string, string]): Promise<void> {
  const f = reviewFields(page, lang);
  await travellerOpened(page, lang, 1);
  await choose(page, f.title, MRS[lang]);
  await typeInto(f.passport, passports[0]);
  await f.proceed.click();
  await travellerOpened(page, lang, 2);
  await choose(page, f.title, MR[lang]);
  await typeInto(f.first, TRAVELLER_2.first);
  await typeInto(f.last, TRAVELLER_2.last);
  await typeInto(f.passport, passports[1]);
  await f.proceed.click();
  await page.waitForURL((url) => url.pathname === '/checkout');
  await page.getByTestId('price-summary').waitFor();
}

/** Applies a coupon on the checkout page and waits for the lower total. */
async function applyCoupon(page: Page, code: string): Promise<void> {
  const before = await page.getByTestId('price-total').innerText();
  await page.getByTestId('coupon-input').pressSequentially(code);
  await page.getByTestId('coupon-apply').click();
  await page.getByTestId('coupon-applied').waitFor();
  await expect.poll(() => page.getByTestId('price-total').innerText()).not.toBe(before);
}

/** Proceed on checkout: the browser leaves the SPA for /pay/<merchant reference>. */
async function toPaymentsPage(page: Page): Promise<string> {
  await page.getByTestId('checkout-pay').click();
  await page.waitForURL((url) => /^\/pay\/[A-Za-z0-9_.-]+$/.test(url.pathname));
  return new URL(page.url()).pathname.split('/')[2]!;
}


/** The text of a PDF. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(bytes, { mergePages: true });
  return text;
}

describe.each(['en', 'ar'] as const)('the whole journey in %s', (lang) => {
  test('travel details → quotes → compare → buy now → review of 2 travellers → checkout with SAFAR10 → payments page → the sandbox test card → /payment-result with the policy number; the PDF downloads with both names and the e-mail carries it', async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    const uuid = await quotesForTwo(page, lang);
    await compareAndBuy(page, lang);
    const passports: [string, string] = lang === 'en' ? ['EN1234567', 'EN7654321'] : ['AR1234567', 'AR7654321'];
    await reviewTwo(page, lang, passports);
    await applyCoupon(page, 'SAFAR10');
    const total = await page.getByTestId('price-total').innerText();

    // The payments page: the order as frozen at checkout, in the page's language.
    const reference = await toPaymentsPage(page);
    expect(await page.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
    const payText = await page.locator('main').innerText();
    expect(payText).toContain(PLAN.provider1000[lang]);
    expect(payText).toContain(`${TRAVELLER_2.first} ${TRAVELLER_2.last}`);
    expect(payText.replace(/[\u2066-\u2069]/g, '')).toContain(total.replace(/[\u2066-\u2069]/g, ''));
    expect(await axeViolations(page)).toEqual([]);
    await screenshotBothWidths(page, `pay-page-${lang}`);

    // The sandbox gateway says what it is, then takes the test card.
    await page.locator('form button[type="submit"]').first().click();
    await page.waitForURL((url) => url.pathname.startsWith('/sandbox/aps/'));
    expect(await page.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
    expect((await page.locator('body').innerText()).replace(/\s/g, '')).toContain('4005550000000001');
    expect(await axeViolations(page)).toEqual([]);
    await screenshotBothWidths(page, `gateway-${lang}`);
    await payWithCard(page, GOOD_CARD);

    // Back in the SPA: the policy, its number and its certificate.
    await resultShown(page, 'paid');
    const policyNumber = (await page.getByTestId('policy-number').innerText()).trim();
    expect(policyNumber).toMatch(/^SFR-\d{2}-[0-9A-Z]{8}$/);
    expect(new URL(page.url()).searchParams.get('ref')).toBe(reference);
    expect(await page.evaluate(() => localStorage.getItem('thankyou'))).toBe('1');
    expect(await axeViolations(page)).toEqual([]);
    await screenshotBothWidths(page, `payment-result-${lang}`);

    const names = ['RANIA', 'HADDAD', TRAVELLER_2.first.toUpperCase()];
    const downloading = page.waitForEvent('download');
    await page.getByTestId('certificate-download').click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${policyNumber}.pdf`);
    // Read through a stream: the browser is the run's shared Chromium, connected remotely, where
    // a download has no local path.
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const certificate = await pdfText(new Uint8Array(Buffer.concat(chunks)));
    for (const text of [policyNumber, ...passports, PLAN.provider1000.en]) expect(certificate).toContain(text);
    for (const name of names) expect(certificate.toUpperCase()).toContain(name);

    // The e-mail with the certificate attached, in the customer's language.
    const naming = (eml: string) => eml.includes(`${policyNumber}.pdf`);
    await expect.poll(() => emlWhere(server.mailOutbox, naming, 'latin1').length, { message: 'e-mails naming the certificate file' }).toBe(1);
    const mail = emlWhere(server.mailOutbox, naming, 'latin1')[0];
    expect(mail).toMatch(/Content-Type: application\/pdf/i);
    const attachment = /Content-Type: application\/pdf[\s\S]*?\r\n\r\n([A-Za-z0-9+/=\r\n]+)/i.exec(mail!)?.[1] ?? '';
    const attached = await pdfText(new Uint8Array(Buffer.from(attachment.replace(/\s+/g, ''), 'base64')));
    expect(attached).toContain(policyNumber);

    journeys.push({ uuid, orders: 1, travellers: [passports[0], passports[1]] });
    await finish(opened);
  });
});

describe('a declined card', () => {
  test('shows the failure in Arabic; "Try again" returns to checkout and the next attempt, with a new merchant reference, is paid', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    // The lead saved through the API (the whole journey above types it in the form).
    const { uuid } = await quotesOfNewLead(page, 'ar', twoAdults());
    const card = page.getByTestId('quote-card').filter({ has: page.getByText(PLAN.provider1000.ar, { exact: true }) });
    await card.getByTestId('buy-now').click();
    await page.waitForURL((url) => url.pathname === '/review-details');
    await reviewTwo(page, 'ar', ['DC1234567', 'DC7654321']);
    const first = await toPaymentsPage(page);
    await page.locator('form button[type="submit"]').first().click();
    await page.waitForURL((url) => url.pathname.startsWith('/sandbox/aps/'));
    await payWithCard(page, DECLINED_CARD);

    await resultShown(page, 'failed');
    expect(await axeViolations(page)).toEqual([]);
    await screenshotBothWidths(page, 'payment-failed-ar');
    await page.getByTestId('payment-try-again').click();
    await page.waitForURL((url) => url.pathname === '/checkout');
    await page.getByTestId('price-summary').waitFor();

    const second = await toPaymentsPage(page);
    expect(second).not.toBe(first);
    await page.locator('form button[type="submit"]').first().click();
    await page.waitForURL((url) => url.pathname.startsWith('/sandbox/aps/'));
    await payWithCard(page, GOOD_CARD);
    await resultShown(page, 'paid');
    expect(new URL(page.url()).searchParams.get('ref')).toBe(second);

    // A reload shows the same policy: the outcome is the server's, not the page's memory.
    const policyNumber = await page.getByTestId('policy-number').innerText();
    await page.reload();
    await page.getByTestId('payment-paid').waitFor();
    expect(await page.getByTestId('policy-number').innerText()).toBe(policyNumber);

    journeys.push({ uuid, orders: 2, travellers: ['DC1234567', 'DC7654321'] });
    await finish(opened);
  });
});

describe('Back from /payment-result (issue 17 item 9)', () => {
  test('after paying with the test card, Back lands on a GET page (the payments page saying "already paid" with the certificate), never on Chromium\'s "Confirm Form Resubmission"', async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    // The lead saved through the API (the whole journey above types it in the form).
    const { uuid } = await quotesOfNewLead(page, 'en', twoAdults());
    const card = page.getByTestId('quote-card').filter({ has: page.getByText(PLAN.provider1000.en, { exact: true }) });
    await card.getByTestId('buy-now').click();
    await page.waitForURL((url) => url.pathname === '/review-details');
    await reviewTwo(page, 'en', ['BK1234567', 'BK7654321']);
    const reference = await toPaymentsPage(page);
    await page.locator('form button[type="submit"]').first().click();
    // The card page is a GET of the session's own address (Post/Redirect/Get).
    await page.waitForURL((url) => /^\/sandbox\/aps\/pay\/[A-Za-z0-9_-]{32}$/.test(url.pathname));
    // Each page from here on is asked for once, as it loads: card.js and return.js post in the
    // background, and the answer names the next page (204) instead of redirecting their fetch to it.
    const pages: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === '/payment-result' || pathname.startsWith('/sandbox/aps/pay/')) {
        pages.push(`${request.method()} ${request.resourceType()} ${pathname.replace(/[A-Za-z0-9_-]{32}$/, ':id')}`);
      }
    });
    await payWithCard(page, GOOD_CARD);
    await resultShown(page, 'paid');
    expect(pages).toEqual(['POST fetch /sandbox/aps/pay/:id', 'GET document /sandbox/aps/pay/:id', 'GET document /payment-result']);

    // Every document request of the way back is a GET: nothing is posted again.
    const posted: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.method() !== 'GET') posted.push(`${request.method()} ${request.url()}`);
    });
    const back = await page.goBack({ waitUntil: 'load' });
    expect(back, 'Back loads a page (ERR_CACHE_MISS, the resubmission prompt, rejects)').not.toBeNull();
    expect(back!.request().method()).toBe('GET');
    expect(back!.status()).toBe(200);
    expect(page.url()).not.toMatch(/^chrome-error:/);
    expect(new URL(page.url()).pathname).toBe(`/pay/${reference}`);
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/confirm form resubmission/i);
    expect(text).toContain(message('pay_already_paid', 'en'));
    expect(await page.getByTestId('pay-certificate').getAttribute('href')).toMatch(/^\/policies\/[A-Za-z0-9_-]+\/certificate\.pdf$/);
    expect(await page.locator('form').count()).toBe(0);
    await screenshotBothWidths(page, 'pay-page-already-paid-en');

    // Forward returns to the result, still without posting anything.
    await page.goForward({ waitUntil: 'load' });
    await resultShown(page, 'paid');
    expect(posted).toEqual([]);

    journeys.push({ uuid, orders: 1, travellers: ['BK1234567', 'BK7654321'] });
    await finish(opened);
  });
});

test('the database holds, for each journey, its orders (one paid) and exactly one policy', async () => {
  expect(journeys).toHaveLength(4);
  await server.stop();
  const database = await openConfiguredDatabase({ databaseUrl: '', dataDir: server.dataDir });
  try {
    const { db } = database;
    for (const journey of journeys) {
      const [lead] = await db.select().from(t.leads).where(eq(t.leads.uuid, journey.uuid));
      const orders = await db.select().from(t.orders).where(eq(t.orders.leadId, lead!.id));
      expect(orders).toHaveLength(journey.orders);
      const paid = orders.filter((order) => order.status === 'paid');
      // One paid order; any other attempt is the declined one.
      expect(orders.map((order) => order.status).sort()).toEqual(journey.orders === 2 ? ['failed', 'paid'] : ['paid']);
      const policies = await db.select().from(t.policies).where(inArray(t.policies.orderId, orders.map((order) => order.id)));
      expect(policies).toHaveLength(1);
      expect(policies[0]!.orderId).toBe(paid[0]!.id);
      expect(policies[0]!.mailedAt).not.toBeNull();
      const [invoice] = await db.select().from(t.invoices).where(eq(t.invoices.leadId, lead!.id));
      expect(invoice!.status).toBe('paid');
      const passports = (await db.select().from(t.leadTravellers).where(and(eq(t.leadTravellers.leadId, lead!.id), isNull(t.leadTravellers.deletedAt)))).map((row) => row.passport);
      expect(passports.sort()).toEqual([...journey.travellers].sort());
    }
  } finally {
    await database.close();
  }
});
