import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dollarsAndCents } from '../../src/contract/money';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { createApp } from '../../src/server/app';
import * as t from '../../src/server/db/schema';
import { message } from '../../src/server/http/messages';
import { verifyApsSignature } from '../../src/server/payments/aps-signature';
import { ORDER_HOLD_MS } from '../../src/server/orders/order-state';
import { PAY_PAGE_SCRIPT_PATH } from '../../src/server/payments/pay-page';
import { purchaseFields } from '../../src/server/payments/purchase-fields';
import { testConfig, writeBuiltPages } from '../support/test-app';
import { createTestDatabase } from '../support/test-db';
import { ARABIC } from './expect-envelope';
import { FIXED_NOW, type LeadTestApp } from './lead-fixtures';
import {
  APS_DECLINED,
  apsResponse,
  chooseQuote,
  createPaymentTestApp,
  formsOf,
  htmlOf,
  onlyForm,
  orderRow,
  pendingOrder,
  placeOrder,
  postNotice,
  type OrderRow,
} from './payment-fixtures';

/**
 * The payments page /pay/<merchant reference> (issue 11 item 1, RULINGS 19): what a pending order
 * shows and the gateway form it posts, and the clear page of every other state, in English and
 * Arabic, never a 500, never JSON, never cached. The clock is FIXED_NOW (15 March 2026).
 */

let app: LeadTestApp;
const config = testConfig();

beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string> = {}) => Promise.resolve(app.app.request(url, { headers }));
/** The script elements of a page: only the payments page's own file may be one (issue 33 item 3). */
const scriptTags = (html: string) => html.match(/<script\b[^>]*>/gi);
const PAY_SCRIPT_TAGS = [`<script src="${PAY_PAGE_SCRIPT_PATH}" defer>`];
const insurer1000 = async () => (await app.db.select().from(t.insurers).where(eq(t.insurers.id, 1000)))[0]!;
const setOrder = (order: OrderRow, values: Partial<OrderRow>) => app.db.update(t.orders).set(values).where(eq(t.orders.id, order.id));

describe('a pending order', () => {
  let order: OrderRow;
  let uuid: string;
  let email: string;
  beforeAll(async () => {
    const placed = await pendingOrder(app, { names: [{ first: 'Rania', last: 'Haddad' }, { first: 'Karim', last: "O'Brien" }], addon: true });
    order = placed.order;
    uuid = placed.lead.uuid;
    email = (await app.leadRow(uuid)).email;
  });

  it('in English: insurer, plan and coverage, both travellers, trip dates, the frozen amount, the reference and Pay', async () => {
    const res = await get(`/pay/${order.merchantReference}`);
    const html = await htmlOf(res, 200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(html).toContain(message('pay_heading', 'en'));
    expect(html).toContain((await insurer1000()).nameEn);
    expect(html).toContain('Test Plain Plan · Schengen Essential');
    expect(html).toContain('Rania Haddad');
    // Escaped as HTML, as every value from the database is.
    expect(html).toContain('Karim O&#39;Brien');
    expect(html).toContain('1 Apr 2026 – 10 Apr 2026');
    // The total the order froze at checkout, to the cent, as the gateway charges it (RULINGS 26).
    expect(order.totalCents).toBeGreaterThan(0);
    expect(html).toContain(`Pay <bdi class="ltr">$${dollarsAndCents(order.totalCents)}</bdi>`);
    expect(html).toContain(order.merchantReference);
    expect(html).toContain(message('pay_processor_note', 'en'));
    expect(html).toContain(message('pay_sandbox_note', 'en'));
  });

  it('posts the gateway form: action APS_GATEWAY_URL, PURCHASE fields signed with the request phrase, amount = orders.total_cents', async () => {
    const html = await htmlOf(await get(`/pay/${order.merchantReference}`), 200);
    const form = onlyForm(html);
    expect(form.method).toBe('post');
    expect(form.action).toBe(config.apsGatewayUrl);
    expect(form.fields).toEqual({
      command: 'PURCHASE',
      access_code: config.apsAccessCode,
      merchant_identifier: config.apsMerchantIdentifier,
      merchant_reference: order.merchantReference,
      amount: String(order.totalCents),
      currency: 'USD',
      language: 'en',
      customer_email: email,
      return_url: 'http://safar.test/payments/aps/return',
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(verifyApsSignature(form.fields, config.apsRequestPhrase)).toBe(true);
    expect(verifyApsSignature(form.fields, config.apsResponsePhrase)).toBe(false);
    expect(form.fields).toEqual(purchaseFields({ order, config, lang: 'en', email, returnUrl: 'http://safar.test/payments/aps/return' }));
  });

  it('in Arabic (?lang=ar): rtl, the insurer and plan in Arabic, the same amount; the form is the request stored as sent (the order\'s language) and still signed', async () => {
    const html = await htmlOf(await get(`/pay/${order.merchantReference}?lang=ar`), 200);
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain(message('pay_heading', 'ar'));
    expect(html).toContain((await insurer1000()).nameAr);
    expect(html).toContain('شنغن الأساسية');
    expect(html).toContain('Rania Haddad');
    expect(html).toContain(`$${dollarsAndCents(order.totalCents)}`);
    expect(html).toMatch(/نيسان 2026/);
    const form = onlyForm(html);
    expect(form.fields.language).toBe(order.lang);
    expect(form.fields.amount).toBe(String(order.totalCents));
    expect(verifyApsSignature(form.fields, config.apsRequestPhrase)).toBe(true);
  });

  it("an order placed in Arabic opens in Arabic without ?lang; the lead's uuid is printed nowhere, and no script or handler is inline: the one script is a file of this origin", async () => {
    const arabic = await pendingOrder(app, { lang: 'ar' });
    const html = await htmlOf(await get(`/pay/${arabic.order.merchantReference}`), 200);
    expect(html).toContain('dir="rtl"');
    expect(html).toMatch(ARABIC);
    for (const [label, page] of [['ar', html], ['en', await (await get(`/pay/${order.merchantReference}`)).text()]] as const) {
      expect({ label, uuid: page.includes(label === 'ar' ? arabic.lead.uuid : uuid) }).toEqual({ label, uuid: false });
      expect(scriptTags(page)).toEqual(PAY_SCRIPT_TAGS);
      expect(page).not.toMatch(/<script[^>]*>[^<]/i);
      expect(page).not.toMatch(/\son[a-z]+=/i);
    }
  });

  it('a real gateway configured: the form goes there and the page does not call itself a sandbox', async () => {
    const gateway = 'https://sbcheckout.payfort.com/FortAPI/paymentPage';
    const real = createApp({ db: app.db, config: testConfig({ apsGatewayUrl: gateway, apsSandbox: false }), staticDir: null, now: () => FIXED_NOW, logError: () => {} });
    const res = await real.request(`/pay/${order.merchantReference}`);
    const html = await htmlOf(res, 200);
    expect(onlyForm(html).action).toBe(gateway);
    expect(html).not.toContain(message('pay_sandbox_note', 'en'));
    // The browser may post there: CSP form-action names the gateway's origin.
    expect(res.headers.get('content-security-policy')).toMatch(/form-action 'self' https:\/\/sbcheckout\.payfort\.com/);
  });

  it('a name that reached the database by hand is escaped, never markup', async () => {
    const hostile = await pendingOrder(app);
    const contract = hostile.order.contract!;
    const travellers = contract.travellers.map((traveller) => ({ ...traveller, firstName: '<img src=x onerror=alert(1)>', lastName: '"><script>alert(2)</script>' }));
    await app.db.update(t.orders).set({ contract: { ...contract, travellers } }).where(eq(t.orders.id, hostile.order.id));
    const html = await htmlOf(await get(`/pay/${hostile.order.merchantReference}`), 200);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(html).not.toContain('<img');
    expect(scriptTags(html)).toEqual(PAY_SCRIPT_TAGS);
  });
});

describe('orders that cannot be paid: a clear page, no form', () => {
  it('paid (a 100 % coupon): "already paid" with the amount and reference', async () => {
    const { lead } = await pendingOrder(app);
    // FREE100 leaves only add-ons payable; this lead chose none, so the order is paid at once.
    const free = await placeOrder(app, lead.uuid, { total: 0, coupon: 'FREE100' });
    expect(free.status).toBe('paid');
    const html = await htmlOf(await get(`/pay/${free.merchantReference}`), 200);
    expect(html).toContain(message('pay_already_paid', 'en'));
    expect(html).toContain(free.merchantReference);
    expect(formsOf(html)).toEqual([]);
  });

  it("pending, but the lead's trip was paid through another attempt since: \"already paid\", so nobody pays twice", async () => {
    const { lead, order } = await pendingOrder(app);
    const free = await placeOrder(app, lead.uuid, { total: 0, coupon: 'FREE100' });
    expect(free.status).toBe('paid');
    expect((await orderRow(app, order.merchantReference)).status).toBe('pending');
    const html = await htmlOf(await get(`/pay/${order.merchantReference}?lang=ar`), 200);
    expect(html).toContain(message('pay_already_paid', 'ar'));
    expect(formsOf(html)).toEqual([]);
  });

  it('failed (declined or cancelled): says it did not go through and links back to its checkout (issue 37 item 5), in both languages', async () => {
    const { lead, order } = await pendingOrder(app);
    await setOrder(order, { status: 'failed', failedAt: new Date(FIXED_NOW) });
    for (const lang of ['en', 'ar'] as const) {
      const html = await htmlOf(await get(`/pay/${order.merchantReference}?lang=${lang}`), 200);
      expect(html).toContain(message('pay_failed', lang));
      expect(html).toContain(message('pay_failed_text', lang));
      expect(html).toContain(`<a href="/checkout?uuid=${lead.uuid}&amp;lang=${lang}" data-testid="pay-back-to-checkout">${message('pay_back_to_checkout', lang)}</a>`);
      expect(formsOf(html)).toEqual([]);
    }
  });

  it('issue 17 item 10: a failed attempt\'s page, after a later attempt of the lead paid, says "already paid" and links the policy certificate, in both languages', async () => {
    const { lead, order } = await pendingOrder(app);
    expect((await postNotice(app, 'return', apsResponse(order, APS_DECLINED))).status).toBe(303);
    expect((await orderRow(app, order.merchantReference)).status).toBe('failed');
    const retry = await placeOrder(app, lead.uuid);
    expect((await postNotice(app, 'return', apsResponse(retry))).status).toBe(303);
    expect((await orderRow(app, retry.merchantReference)).status).toBe('paid');
    const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.orderId, retry.id));
    const certificate = `/policies/${policy!.downloadToken}/certificate.pdf`;

    for (const lang of ['en', 'ar'] as const) {
      const html = await htmlOf(await get(`/pay/${order.merchantReference}?lang=${lang}`), 200);
      expect(html).toContain(message('pay_already_paid', lang));
      expect(html).toContain(message('pay_already_paid_issued_text', lang));
      expect(html).not.toContain(message('pay_failed', lang));
      // This attempt is not "to pay" any more: its amount is the order's.
      expect(html).toContain(message('pay_order_amount', lang));
      expect(html).not.toContain(message('pay_amount', lang));
      expect(html).toContain(`<a href="${certificate}" data-testid="pay-certificate">${message('pay_certificate_link', lang)}</a>`);
      expect(html).not.toContain(lead.uuid);
      expect(formsOf(html)).toEqual([]);
    }
    // The link opens the certificate of the policy the later attempt bought.
    const pdf = await get(certificate);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    // The paid attempt's own page links it too.
    expect(await htmlOf(await get(`/pay/${retry.merchantReference}`), 200)).toContain(`href="${certificate}"`);
  });

  it('expired: placed more than 24 hours ago is 410 "expired"; 23 hours 59 minutes ago still shows the form', async () => {
    const { order } = await pendingOrder(app);
    await setOrder(order, { createdAt: new Date(FIXED_NOW - ORDER_HOLD_MS + 60_000) });
    expect(onlyForm(await htmlOf(await get(`/pay/${order.merchantReference}`), 200)).action).toBe(config.apsGatewayUrl);
    await setOrder(order, { createdAt: new Date(FIXED_NOW - ORDER_HOLD_MS - 1_000) });
    const html = await htmlOf(await get(`/pay/${order.merchantReference}`), 410);
    expect(html).toContain(message('pay_expired', 'en'));
    expect(formsOf(html)).toEqual([]);
  });

  it('expired: the lead chose the add-on after the order was placed, so its frozen amount no longer buys what it holds', async () => {
    const { lead, order } = await pendingOrder(app);
    await chooseQuote(app, lead.uuid, lead.quoteId, true);
    const html = await htmlOf(await get(`/pay/${order.merchantReference}`), 410);
    expect(html).toContain(message('pay_expired', 'en'));
    // Checkout again: a new order for the new figures has its form.
    const again = await placeOrder(app, lead.uuid);
    expect(again.totalCents).toBeGreaterThan(order.totalCents);
    expect(onlyForm(await htmlOf(await get(`/pay/${again.merchantReference}`), 200)).fields.amount).toBe(String(again.totalCents));
  });

  it('expired: the travel details were saved again (a re-quote) after the order was placed', async () => {
    const { lead, order } = await pendingOrder(app);
    const res = await app.send(addCustomerLeadEndpoint.path, { ...lead.body, uuid: lead.uuid, session_id: lead.sessionId, end_date: '2026-04-12' });
    expect(res.status).toBe(200);
    expect(await htmlOf(await get(`/pay/${order.merchantReference}`), 410)).toContain(message('pay_expired', 'en'));
  });
});

describe('never kept by the browser (issue 33 item 3)', () => {
  it('every /pay page, whatever the order\'s state, answers no-store and loads the script that reloads it when restored from the back/forward cache', async () => {
    const { order } = await pendingOrder(app);
    const failed = await pendingOrder(app);
    await setOrder(failed.order, { status: 'failed', failedAt: new Date(FIXED_NOW) });
    const pages: [string, number][] = [
      [`/pay/${order.merchantReference}`, 200],
      [`/pay/${failed.order.merchantReference}?lang=ar`, 200],
      ['/pay/SAF1-NOPE-000000000000', 404],
    ];
    for (const [url, status] of pages) {
      const res = await get(url);
      // htmlOf holds every page to Cache-Control: no-store.
      const html = await htmlOf(res, status);
      expect({ url, scripts: scriptTags(html) }).toEqual({ url, scripts: PAY_SCRIPT_TAGS });
    }
  });

  it('serves that script from this origin, allowed by the page\'s CSP without unsafe-inline: it reloads a restored page and posts the Pay form once', async () => {
    const page = await get(`/pay/${(await pendingOrder(app)).order.merchantReference}`);
    const csp = page.headers.get('content-security-policy') ?? '';
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc.split(/\s+/)).toContain("'self'");
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(onlyForm(await page.text()).id).toBe('pay-form');

    const res = await get(PAY_PAGE_SCRIPT_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const script = await res.text();
    expect(script).toContain("window.addEventListener('pageshow'");
    expect(script).toContain('if (event.persisted) location.reload();');
    expect(script).toContain("getElementById('pay-form')");
    expect(script).toContain('event.preventDefault()');
  });
});

describe('unknown and malformed references', () => {
  it('a 404 page in the asked language, never JSON, never echoing what was typed', async () => {
    const urls = [
      '/pay/SAF1-NOPE-000000000000',
      '/pay/%00',
      '/pay/%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      '/pay/<script>alert(1)</script>',
      `/pay/${'A'.repeat(500)}`,
      `/pay/${'A'.repeat(41)}`,
      '/pay/',
      '/pay',
      '/pay/a/b',
      "/pay/x'%20or%201=1",
      '/pay/%E0%A4%A',
    ];
    for (const url of urls) {
      const res = await get(url);
      const html = await htmlOf(res, 404);
      expect({ url, found: html.includes(message('pay_not_found', 'en')) }).toEqual({ url, found: true });
      expect({ url, scripts: scriptTags(html) }).toEqual({ url, scripts: PAY_SCRIPT_TAGS });
    }
    expect(await htmlOf(await get('/pay/SAF1-NOPE-000000000000?lang=ar'), 404)).toContain(message('pay_not_found', 'ar'));
    expect(await htmlOf(await get('/pay/SAF1-NOPE-000000000000', { 'accept-language': 'ar-LB' }), 404)).toContain('dir="rtl"');
  });

  it('the database away: a 503 page in the asked language and one error line of facts, not a 500', async () => {
    const broken = await createTestDatabase();
    await broken.close();
    const errors: unknown[] = [];
    const down = createApp({ db: broken.db, config, staticDir: null, now: () => FIXED_NOW, logError: (line) => errors.push(line) });
    const html = await htmlOf(await down.request('/pay/SAF1-ABC-000000000000?lang=ar'), 503);
    expect(html).toContain(message('pay_unavailable', 'ar'));
    expect(errors).toEqual([expect.objectContaining({ event: 'error', method: 'GET', route: '/pay/:merchantReference' })]);
  });

  it('is not swallowed by the SPA fallback when the app serves the built SPA', async () => {
    const { order } = await pendingOrder(app);
    const staticDir = path.join(mkdtempSync(path.join(tmpdir(), 'safar-pay-')), 'www');
    mkdirSync(staticDir);
    writeBuiltPages(staticDir, () => '<!doctype html><html><head></head><body>SPA</body></html>');
    const withSpa = createApp({ db: app.db, config, staticDir, now: () => FIXED_NOW, logError: () => {} });
    const page = await withSpa.request(`/pay/${order.merchantReference}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(message('pay_heading', 'en'));
    const unknown = await withSpa.request('/pay/SAF1-NOPE-000000000000');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('SPA');
    expect(await (await withSpa.request('/checkout')).text()).toContain('SPA');
  });
});
