import type { Locator, Page } from 'playwright-core';
import * as v from 'valibot';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, test } from 'vitest';
import { tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { requestCallBackEndpoint } from '../../src/contract/quote.endpoints';
import { runBroker } from '../integration/broker-cli-process';
import { leadAtCheckoutOverHttp, signedSender, type Send } from '../integration/server-journey-fixtures';
import { totpCode } from '../support/totp';
import { DESKTOP, MOBILE, baseUrl, browserForThisFile, finish, openPage, serverOfThisFile, type Lang, type OpenPage } from './harness';
import { axeViolations, pageSigningKey, screenshotBothWidths } from './journey-steps';
import { payWithCard, resultShown } from './sandbox-steps';

/**
 * The broker's console in Chromium (issue 36, Done when), against a server of this file's own:
 * an admin made with `npm run broker -- users add` sets a password and TOTP from the setup link
 * (codes computed from the key the page shows, as an authenticator app does), signs in again with
 * password and code, and creates a coupon; a customer pays with it; the order is found in Orders
 * with its contract and policy; the certificate is sent again and the Mail screen shows it sent;
 * a second payment of one lead is refunded through the sandbox from Refunds; another policy is
 * cancelled before its start and its certificate says CANCELLED. In Arabic on a phone, a staff
 * member works a call-back to closed, cannot open Refunds, and the admin's audit log shows each
 * step. Axe runs on every console screen. SCREENSHOT_DIR=/dir writes each at 375 and 1280 px.
 */

const browser = browserForThisFile();
const server = serverOfThisFile();
const PASSWORD = 'a long console passphrase';
const GOOD_CARD = '4005 5500 0000 0001';

/** Each account's authenticator key, and the codes it has spent (a code opens one sign-in). */
const keys = new Map<string, { uri: string; used: Set<string> }>();

/** A code of the account's authenticator no sign-in used yet: this period's, or the next's. */
function freshCode(email: string): string {
  const key = keys.get(email)!;
  for (const steps of [0, 1, -1]) {
    const code = totpCode(key.uri, Date.now(), steps);
    if (!key.used.has(code)) {
      key.used.add(code);
      return code;
    }
  }
  throw new Error('every code of the window was used');
}

async function typeCode(page: Page, email: string): Promise<void> {
  await page.getByTestId('totp-code').fill(freshCode(email));
  await page.getByTestId('totp-submit').click();
}

/** Checks a console screen: axe finds nothing at 375 and 1280 px, and (SCREENSHOT_DIR) it is kept at both widths. */
async function looked(page: Page, name: string): Promise<void> {
  const start = page.viewportSize()!;
  // At the test's width and the other one: the phone's menu is a drawer, the desktop's a sidebar.
  for (const size of [start, start.width === MOBILE.width ? DESKTOP : MOBILE]) {
    await page.setViewportSize(size);
    expect({ screen: name, width: size.width, violations: await axeViolations(page) }).toEqual({ screen: name, width: size.width, violations: [] });
  }
  await page.setViewportSize(start);
  await screenshotBothWidths(page, `console-${name}`);
}

/** `users add` on the running server (through its admin endpoint): the setup link it printed. */
async function setupLink(email: string, role: 'admin' | 'staff'): Promise<string> {
  const run = await runBroker(server.dataDir, ['users', 'add', email, '--role', role]);
  const link = /https?:\/\/\S+\/broker\/setup\?token=[A-Za-z0-9_-]+/.exec(run.stdout)?.[0] ?? null;
  expect({ code: run.code, link, stdout: run.stdout, stderr: run.stderr }).toMatchObject({ code: 0, link: expect.any(String) });
  return link!;
}

/** Opens the setup link, sets the password and the authenticator, and lands on Today. */
async function setUp(opened: OpenPage, email: string, role: 'admin' | 'staff', lang: Lang): Promise<void> {
  const { page } = opened;
  await page.goto(await setupLink(email, role));
  if (lang === 'ar') await switchToArabic(page);
  await page.getByTestId('new-password').fill(PASSWORD);
  await page.getByTestId('repeat-password').fill(PASSWORD);
  await looked(page, `setup-password-${lang}`);
  await page.getByTestId('password-submit').click();
  await page.getByTestId('totp-qr').waitFor();
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
  expect(await page.getByTestId('backup-codes').locator('li').count()).toBe(10);
  await looked(page, `setup-authenticator-${lang}`);
  keys.set(email, { uri: `otpauth://totp/Safar:${encodeURIComponent(email)}?secret=${secret}`, used: new Set() });
  await typeCode(page, email);
  await page.getByTestId('funnel-table').waitFor();
}

async function switchToArabic(page: Page): Promise<void> {
  await page.getByTestId('language-switch').click();
  await expect.poll(() => page.locator('html').getAttribute('dir')).toBe('rtl');
}

/** Signs in with password then code, in a new context at `viewport`. */
async function signIn(email: string, viewport: { width: number; height: number }, lang: Lang): Promise<OpenPage> {
  const opened = await openPage(browser(), viewport);
  const { page } = opened;
  await page.goto(`${baseUrl()}/broker/login`);
  if (lang === 'ar') await switchToArabic(page);
  await page.getByTestId('login-email').waitFor();
  await looked(page, `sign-in-${lang}`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('totp-code').waitFor();
  await looked(page, `sign-in-code-${lang}`);
  await typeCode(page, email);
  await page.getByTestId('funnel-table').waitFor();
  return opened;
}

async function nav(page: Page, screen: string, ready: string): Promise<void> {
  const link = page.getByTestId(`nav-${screen}`);
  if (!(await link.isVisible())) await page.getByRole('button', { name: /menu|القائمة/i }).first().click();
  await link.click();
  await page.getByTestId(ready).waitFor();
}

async function choose(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  await select.click();
  await page.getByRole('option', { name: option }).click();
}

/** The customer's side, through the signed API and the sandbox's card page. */
let send: Send;
async function sender(): Promise<Send> {
  send ??= signedSender(baseUrl(), await pageSigningKey());
  return send;
}

/** Places an order for the lead, as the checkout screen does (the server's total, sent back). */
async function placeOrder(uuid: string, coupon: string | null = null): Promise<string> {
  const post = await sender();
  const place = async (total: number) => {
    const res = await post(tempCheckoutEndpoint.path, { uuid, total_price_vat: total, language: 'en', coupon });
    return { status: res.status, json: (await res.json()) as { data: { totals?: { total: number } } } };
  };
  const first = await place(1);
  const placed = first.status === 409 ? await place(first.json.data.totals!.total) : first;
  expect({ status: placed.status, json: placed.json }).toMatchObject({ status: 200 });
  return v.parse(tempCheckoutEndpoint.response, placed.json).data.merchant_reference;
}

/** Opens an order's payments page in a tab of its own and goes on to the sandbox's card page. */
async function cardPage(opened: OpenPage, reference: string): Promise<Page> {
  const page = await opened.context.newPage();
  await page.goto(`/pay/${reference}`);
  await page.locator('#pay-form button[type="submit"]').click();
  await page.locator('#aps-card').waitFor();
  return page;
}

/** Pays on a card page with the sandbox's test card. */
async function payOn(page: Page): Promise<void> {
  await payWithCard(page, GOOD_CARD);
  await resultShown(page, 'paid');
  await page.close();
}

const pay = async (opened: OpenPage, reference: string) => payOn(await cardPage(opened, reference));

/** Opens an order's page from the Orders search, waiting until the server shows `status`. */
async function openOrder(page: Page, reference: string, status?: RegExp): Promise<void> {
  await nav(page, 'orders', 'orders-table');
  await page.getByTestId('orders-search').fill(reference);
  await page.getByTestId('orders-search-submit').click();
  await page.getByTestId(`order-link-${reference}`).click();
  await page.getByTestId('order-summary').waitFor();
  if (status) {
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByTestId('order-summary').waitFor();
        return page.getByTestId('order-summary').innerText();
      })
      .toMatch(status);
  }
}

describe('the broker console, end to end', () => {
  test('en at 1280 px: an admin from the CLI sets up, creates a coupon a customer pays with, resends its certificate, refunds a second payment and cancels a policy', async () => {
    const admin = 'maya@broker.test';
    // The console's pages are never indexed and carry the customer's pages' security headers.
    const served = await fetch(`${baseUrl()}/broker/login`);
    const spa = await fetch(`${baseUrl()}/`);
    expect({ status: served.status, robots: served.headers.get('x-robots-tag'), frames: served.headers.get('x-frame-options'), csp: served.headers.get('content-security-policy') }).toEqual({
      status: 200,
      robots: 'noindex, nofollow',
      frames: 'DENY',
      csp: spa.headers.get('content-security-policy'),
    });
    expect(await served.text()).toMatch(/<meta name="robots" content="noindex, nofollow"/);
    // A console file that is not there is a 404, never a page cached for a year under its name.
    const missing = await fetch(`${baseUrl()}/broker/assets/no-such-file.js`);
    expect({ status: missing.status, cache: missing.headers.get('cache-control') }).toEqual({ status: 404, cache: expect.not.stringContaining('immutable') });
    const setup = await openPage(browser(), DESKTOP);
    await setUp(setup, admin, 'admin', 'en');
    await finish(setup);

    const opened = await signIn(admin, DESKTOP, 'en');
    const { page } = opened;
    await looked(page, 'today-en');

    // A coupon, created in the console.
    await nav(page, 'coupons', 'coupons-table');
    await page.getByTestId('coupon-code').fill('CONSOLE15');
    await page.getByTestId('coupon-value').fill('15');
    await page.getByTestId('coupon-limit').fill('5');
    await page.getByTestId('coupon-create').click();
    await page.getByTestId('result-success').waitFor();
    await expect.poll(() => page.getByTestId('coupons-table').innerText()).toContain('CONSOLE15');
    await looked(page, 'coupons-en');

    // A customer pays with it; the order is in Orders with its contract and policy.
    const couponLead = await leadAtCheckoutOverHttp(await sender());
    const couponOrder = await placeOrder(couponLead, 'CONSOLE15');
    await pay(opened, couponOrder);
    await openOrder(page, couponOrder, /paid/i);
    expect(await page.getByTestId('order-contract-json').innerText()).toContain('CONSOLE15');
    await page.getByTestId('certificate-link').waitFor();
    const policyNumber = (await page.getByTestId('certificate-link').innerText()).trim();
    await looked(page, 'order-en');

    // Its certificate again: the Mail screen shows both sent.
    await page.getByTestId('resend-certificate').click();
    await page.getByTestId('result-success').waitFor();
    await nav(page, 'mail', 'mail-table');
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByTestId('mail-table').locator('tbody tr').first().waitFor();
        const rows = await page.getByTestId('mail-table').locator('tbody tr').allInnerTexts();
        return rows.filter((row) => row.includes(policyNumber) && /sent/i.test(row)).length;
      })
      .toBe(2);
    await looked(page, 'mail-en');

    // A lead paid twice: the second payment is under Refunds, refunded through the sandbox.
    const twiceLead = await leadAtCheckoutOverHttp(await sender());
    // Two tabs at the card page (the customer went back to checkout in another tab): both pay.
    const firstTab = await cardPage(opened, await placeOrder(twiceLead));
    const secondOrder = await placeOrder(twiceLead);
    const secondTab = await cardPage(opened, secondOrder);
    await payOn(firstTab);
    await payOn(secondTab);
    await nav(page, 'refunds', 'refunds-table');
    const refundButton = page.locator(`[data-testid^="refund-${secondOrder}-"]`);
    await expect.poll(async () => {
      await page.reload();
      await page.getByTestId('refunds-table').waitFor();
      return refundButton.count();
    }).toBe(1);
    await looked(page, 'refunds-en');
    await refundButton.click();
    await page.getByTestId('confirm-action').waitFor();
    await looked(page, 'refund-confirm-en');
    await page.getByTestId('confirm-action').click();
    await page.getByTestId('result-success').waitFor();
    await openOrder(page, secondOrder, /refunded/i);
    await nav(page, 'mail', 'mail-table');
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByTestId('mail-table').locator('tbody tr').first().waitFor();
        return (await page.getByTestId('mail-table').innerText()).match(/refund/gi)?.length ?? 0;
      })
      .toBeGreaterThan(0);

    // Another policy cancelled before its start: the certificate says CANCELLED, the premium less the fee goes back.
    const cancelLead = await leadAtCheckoutOverHttp(await sender());
    const cancelOrder = await placeOrder(cancelLead);
    await pay(opened, cancelOrder);
    await openOrder(page, cancelOrder, /paid/i);
    await page.getByTestId('cancel-policy').click();
    await choose(page, page.getByTestId('cancel-reason'), /visa refused/i);
    await looked(page, 'cancel-policy-en');
    await page.getByTestId('cancel-confirm').click();
    await page.getByTestId('result-success').waitFor();
    await expect.poll(async () => {
      await page.reload();
      await page.getByTestId('order-refunds').waitFor();
      return page.getByTestId('order-refunds').innerText();
    }).toMatch(/policy_cancelled|cancel/i);
    const certificate = await page.request.get(await page.getByTestId('certificate-link').getAttribute('href').then((href) => new URL(href!, baseUrl()).href));
    expect(certificate.status()).toBe(200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await certificate.body())), { mergePages: true });
    expect(text).toContain('CANCELLED');

    // The audit log has each change under the admin's name.
    await nav(page, 'audit', 'audit-table');
    const audit = await page.getByTestId('audit-table').innerText();
    for (const action of ['coupons.add', 'orders.show', 'mail.resend', 'refunds.pay', 'policies.cancel']) expect(audit).toContain(action);
    expect(audit).toContain(`console:${admin}`);
    await looked(page, 'audit-en');
    for (const [screen, ready] of [['agents', 'agents-table'], ['users', 'users-table'], ['call-backs', 'call-backs-table']] as const) {
      await nav(page, screen, ready);
      await looked(page, `${screen}-en`);
    }
    await finish(opened);
  });

  test('ar at 375 px: a staff member works a call-back to closed and cannot open Refunds; the audit log shows each step', async () => {
    const staff = 'sami@broker.test';
    const post = await sender();
    const lead = await leadAtCheckoutOverHttp(post, { lang: 'ar' });
    const asked = await post(requestCallBackEndpoint.path, { name: 'Karim Khoury', email: 'karim@example.com', phone_country_code: '+961', phone_number: '3123456', uuid: lead, reason: 'customer_request', lang: 'ar' });
    expect(asked.status).toBe(200);
    const callBackId = v.parse(requestCallBackEndpoint.response, await asked.json()).data.call_back_id;

    const setup = await openPage(browser(), MOBILE);
    await setUp(setup, staff, 'staff', 'ar');
    const { page } = setup;
    await looked(page, 'today-ar');

    await nav(page, 'call-backs', 'call-backs-table');
    await page.getByTestId(`call-back-open-${callBackId}`).click();
    await page.getByTestId('call-back-detail').waitFor();
    expect(await page.getByTestId('call-back-tel').getAttribute('href')).toBe('tel:+9613123456');
    expect(await page.getByTestId('call-back-whatsapp').getAttribute('href')).toContain('https://wa.me/9613123456');
    await looked(page, 'call-back-ar');
    for (const [status, note] of [[/تم التواصل|contacted/i, 'اتصلت به، يريد عرضًا عائليًا'], [/مغلق|closed/i, 'أُرسل العرض وأُغلق الطلب']] as const) {
      await choose(page, page.getByTestId('call-back-status'), status);
      await page.getByTestId('call-back-assignee').fill('Sami');
      await page.getByTestId('call-back-note').fill(note);
      await page.getByTestId('call-back-save').click();
      await page.getByTestId('result-success').waitFor();
      await expect.poll(() => page.getByTestId('call-back-notes').innerText()).toContain(note);
    }

    // Refunds is not in a staff member's menu, and its address answers "no access".
    expect(await page.getByTestId('nav-refunds').count()).toBe(0);
    await page.goto(`${baseUrl()}/broker/refunds`);
    await page.getByTestId('no-access').waitFor();
    await looked(page, 'no-access-ar');
    await finish(setup);

    // The admin reads the staff member's steps in the audit log, in Arabic on a phone.
    const opened = await signIn('maya@broker.test', MOBILE, 'ar');
    await nav(opened.page, 'audit', 'audit-table');
    const audit = await opened.page.getByTestId('audit-table').innerText();
    expect(audit.match(new RegExp(`console:${staff}`, 'g'))?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(audit).toContain('call-backs.set');
    expect(audit).toContain(`call-back ${callBackId}`);
    await looked(opened.page, 'audit-ar');
    for (const [screen, ready] of [['orders', 'orders-table'], ['refunds', 'refunds-table'], ['coupons', 'coupons-table'], ['mail', 'mail-table']] as const) {
      await nav(opened.page, screen, ready);
      await looked(opened.page, `${screen}-ar`);
    }
    await finish(opened);
  });
});
