import { eq } from 'drizzle-orm';
import { chromium, type Browser, type Page } from 'playwright-core';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { paymentStatusEndpoint } from '../../src/contract/payment.endpoints';
import { openConfiguredDatabase } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { message } from '../../src/server/http/messages';
import { CHROMIUM_ARGS, findChromium } from '../support/chromium';
import { leadAtCheckoutOverHttp, signedSender } from '../integration/server-journey-fixtures';
import { DESKTOP, MOBILE, baseUrl, browserForThisFile, finish, openPage, serverOfThisFile, type Lang, type OpenPage } from './harness';
import { axeViolations, callApi, pageSigningKey, screenshotBothWidths } from './journey-steps';
import { payWithCard, resultShown } from './sandbox-steps';

/**
 * Issue 33 item 3 in Chromium, against a real server of this file's own (its database is read at
 * the end): one order opened in two tabs takes one payment, the other tab's Pay is refused by the
 * gateway (00007 Duplicate order number, as APS refuses a merchant reference it has seen); and
 * Back after a declined card shows what the order has become, never a live Pay button, whether
 * the browser keeps pages in its back/forward cache (as Chromium does for customers, no-store
 * pages included) or not (as playwright-core starts it: --disable-back-forward-cache). The
 * orders are placed through the signed API, as the checkout screen places them.
 * SCREENSHOT_DIR=/some/dir also writes the gateway's refusal page, the second tab's result and
 * the payments page after Back (en/ar, 375/1280 px).
 */

/** Chromium as playwright-core starts it: no back/forward cache. */
const browser = browserForThisFile();
const server = serverOfThisFile();

/** Chromium as customers have it: pages, no-store ones too, kept in the back/forward cache. */
let cachingBrowser: Browser | undefined;
beforeAll(async () => {
  cachingBrowser = await chromium.launch({ executablePath: await findChromium(), args: [...CHROMIUM_ARGS], ignoreDefaultArgs: ['--disable-back-forward-cache'] });
});
afterAll(async () => {
  await cachingBrowser?.close();
});

/** The APS test card (RULINGS 20), typed in groups. */
const GOOD_CARD = '4005 5500 0000 0001';
/** The card of the issue: well formed, declined by the sandbox. */
const DECLINED_CARD = '4111 1111 1111 1111';

/** A sandbox session's address: its card page, or once answered (or refused) the page handing the answer on. */
const SESSION_PAGE = /^\/sandbox\/aps\/pay\/[A-Za-z0-9_-]{32}$/;

/** References paid or declined in this file, with how many successes each must hold at the end. */
const references: { reference: string; successes: number }[] = [];

/** A lead of one adult at checkout and its order, placed in `lang` as temp-checkout places it: the reference to pay. */
async function orderToPay(lang: Lang): Promise<{ uuid: string; reference: string }> {
  const send = signedSender(baseUrl(), await pageSigningKey());
  const uuid = await leadAtCheckoutOverHttp(send);
  const place = async (total: number) => {
    const res = await send(tempCheckoutEndpoint.path, { uuid, total_price_vat: total, language: lang, coupon: null });
    return { status: res.status, json: (await res.json()) as { data: { merchant_reference?: string; totals?: { total: number } } } };
  };
  // The page sends the total it showed; the server answers 409 with its own, which the page then sends.
  const first = await place(1);
  const placed = first.status === 409 ? await place(first.json.data.totals!.total) : first;
  expect(placed.status).toBe(200);
  const data = v.parse(tempCheckoutEndpoint.response, placed.json).data;
  expect(data.redirect_to_thank_you).toBe(false);
  return { uuid, reference: data.merchant_reference };
}


/** Where the page is now: the gateway's card form, the SPA's result, or neither yet (on the way). */
async function whereNow(page: Page): Promise<'card page' | 'result' | null> {
  if (new URL(page.url()).pathname === '/payment-result') return 'result';
  try {
    return (await page.locator('#aps-card').count()) > 0 ? 'card page' : null;
  } catch {
    // The page navigated while it was asked.
    return null;
  }
}

/**
 * Where Pay on the payments page leads: the gateway's card form, or (refused) back to the SPA's
 * result through the session page that hands the refusal on, whose address is a card page's.
 */
async function afterPay(page: Page): Promise<'card page' | 'result'> {
  await expect.poll(() => whereNow(page), { interval: 100 }).not.toBeNull();
  return (await whereNow(page))!;
}

const statusOf = (uuid: string, reference: string) => callApi(paymentStatusEndpoint, { uuid, merchant_reference: reference, language: 'en' });

/** Records a second page's console errors, page errors and CSP violations with the first's. */
async function secondTab(opened: OpenPage): Promise<Page> {
  const page = await opened.context.newPage();
  page.on('console', (entry) => entry.type() === 'error' && opened.problems.push(`console error (second tab): ${entry.text()}`));
  page.on('pageerror', (error) => opened.problems.push(`page error (second tab): ${error.message}`));
  return page;
}

describe.each(['en', 'ar'] as const)('two tabs on one order, in %s', (lang) => {
  test('both press Pay: one gets the card page and pays with the test card, the other is refused by the gateway and charged nothing; the order holds one payment', async () => {
    const { uuid, reference } = await orderToPay(lang);
    const opened = await openPage(browser(), DESKTOP);
    const first = opened.page;
    const second = await secondTab(opened);
    for (const tab of [first, second]) {
      await tab.goto(`/pay/${reference}`);
      await tab.locator('#pay-form button[type="submit"]').waitFor();
    }
    // The gateway's refusal page flashes by (return.js hands it on at once): its address, to look at it below.
    const refusalPages: string[] = [];
    second.on('request', (request) => {
      if (request.isNavigationRequest() && SESSION_PAGE.test(new URL(request.url()).pathname)) refusalPages.push(request.url());
    });

    await first.locator('#pay-form button[type="submit"]').click();
    expect(await afterPay(first)).toBe('card page');
    await second.locator('#pay-form button[type="submit"]').click();
    expect(await afterPay(second), 'the second Pay for one merchant reference opens no card page').toBe('result');
    await resultShown(second, 'failed');
    await screenshotBothWidths(second, `pay-twice-second-tab-result-${lang}`);

    await payWithCard(first, GOOD_CARD);
    await resultShown(first, 'paid');
    expect(await statusOf(uuid, reference)).toMatchObject({ status: 'paid', refund: null });

    // The refusal as the gateway shows it, in the order's language, held still: its return.js, which
    // hands it on at once, is answered empty here.
    expect(refusalPages).toHaveLength(1);
    const still = await browser().newContext({ viewport: MOBILE });
    try {
      const page = await still.newPage();
      await page.route('**/sandbox/aps/return.js', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
      await page.goto(refusalPages[0]!);
      expect(await page.locator('html').getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect((await page.locator('h1').innerText()).trim()).toBe(message('sandbox_return_duplicate', lang));
      expect(await page.locator('main').innerText()).toContain('00007 Duplicate order number');
      expect(await page.locator('#aps-card').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await screenshotBothWidths(page, `pay-twice-refusal-${lang}`);
    } finally {
      await still.close();
    }

    references.push({ reference, successes: 1 });
    await finish(opened);
  });
});

describe.each([
  ['with the back/forward cache (Chromium as customers have it)', 'bfcache', () => cachingBrowser!],
  ['without it', 'no-bfcache', () => browser()],
] as const)('Back after a declined card, %s', (_label, slug, chromiumOf) => {
  test('the payments page shows the attempt failed, with no Pay button; its old form posted again opens no card page and pays nothing', async () => {
    const { uuid, reference } = await orderToPay('en');
    const opened = await openPage(chromiumOf(), MOBILE);
    const { page } = opened;
    await page.goto(`/pay/${reference}`);
    const pay = page.locator('#pay-form');
    // What the page had in it: a copy kept anywhere (a cache, a second tab, a saved page) posts just this.
    const kept = {
      action: (await pay.getAttribute('action'))!,
      fields: await pay.locator('input[type="hidden"]').evaluateAll((inputs) => inputs.map((input) => [(input as HTMLInputElement).name, (input as HTMLInputElement).value] as const)),
    };
    await pay.locator('button[type="submit"]').click();
    expect(await afterPay(page)).toBe('card page');
    await payWithCard(page, DECLINED_CARD);
    await resultShown(page, 'failed');

    await page.goBack({ waitUntil: 'commit' });
    expect(new URL(page.url()).pathname).toBe(`/pay/${reference}`);
    // A page restored as it was left would still say "Pay …" with its form: it must turn into the server's answer.
    await page.locator('h1', { hasText: message('pay_failed', 'en') }).waitFor();
    expect(await page.locator('main').innerText()).toContain(message('pay_failed_text', 'en'));
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.getByRole('button').count()).toBe(0);
    await screenshotBothWidths(page, `pay-twice-back-after-decline-${slug}`);

    // The old form, posted again: the gateway refuses the reference it has seen.
    await page.evaluate(({ action, fields }) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = action;
      for (const [name, value] of fields) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    }, kept);
    expect(await afterPay(page), 'a second PURCHASE for the declined reference opens no card page').toBe('result');
    await resultShown(page, 'failed');
    expect(await statusOf(uuid, reference)).toMatchObject({ status: 'failed', reason: 'declined', refund: null });

    references.push({ reference, successes: 0 });
    await finish(opened);
  });
});

test('Pay clicked twice before the gateway answered opens the card page, not the gateway\'s refusal of a second post', async () => {
  const { reference } = await orderToPay('en');
  const opened = await openPage(browser(), DESKTOP);
  const { page } = opened;
  await page.goto(`/pay/${reference}`);
  // A slow line: the gateway's answer to the first post reaches the browser only after the second
  // click, as on a phone. Both posts, if the page sent two, reach the server in click order.
  let firstAnswered!: () => void;
  const answered = new Promise<void>((resolve) => (firstAnswered = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const posts: number[] = [];
  await page.route('**/sandbox/aps/paymentPage', async (route) => {
    posts.push(posts.length + 1);
    const response = await route.fetch({ maxRedirects: 0 });
    firstAnswered();
    await released;
    // A navigation the browser dropped for a newer one cannot be answered any more.
    await route.fulfill({ response }).catch(() => {});
  });
  const box = (await page.locator('#pay-form button[type="submit"]').boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.click(x, y);
  await answered;
  await page.mouse.click(x, y);
  release();
  expect(await afterPay(page)).toBe('card page');
  expect(posts).toEqual([1]);
  await page.unroute('**/sandbox/aps/paymentPage');
  await payWithCard(page, GOOD_CARD);
  await resultShown(page, 'paid');
  references.push({ reference, successes: 1 });
  await finish(opened);
});

test('the database holds, for each reference, one sandbox session and at most one success, on an order that kept its first fort_id', async () => {
  expect(references).toHaveLength(5);
  await server.stop();
  const database = await openConfiguredDatabase({ databaseUrl: '', dataDir: server.dataDir });
  try {
    const { db } = database;
    const sessions = await db.select().from(t.apsSandboxSessions);
    for (const { reference, successes } of references) {
      const [order] = await db.select().from(t.orders).where(eq(t.orders.merchantReference, reference));
      const results = await db.select().from(t.paymentResults).where(eq(t.paymentResults.merchantReference, reference));
      const paid = results.filter((result) => result.status === '14');
      expect({ reference, successes: paid.length }).toEqual({ reference, successes });
      expect({ reference, status: order!.status }).toEqual({ reference, status: successes === 1 ? 'paid' : 'failed' });
      // A paid order keeps the fort_id of its one success; a declined one the decline's (the refusal had none).
      const decisive = results.find((result) => result.status === (successes === 1 ? '14' : '13'));
      expect({ reference, fortId: order!.fortId }).toEqual({ reference, fortId: decisive?.fortId });
      expect({ reference, sessions: sessions.filter((session) => session.request.merchant_reference === reference).length }).toEqual({ reference, sessions: 1 });
    }
  } finally {
    await database.close();
  }
});
