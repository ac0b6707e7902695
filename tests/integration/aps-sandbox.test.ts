import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/server/app';
import * as t from '../../src/server/db/schema';
import type { AppEnv } from '../../src/server/http/app-env';
import { message } from '../../src/server/http/messages';
import { verifyApsSignature } from '../../src/server/payments/aps-signature';
import { BACKGROUND_POST_HEADER, NEXT_LOCATION_HEADER } from '../../src/server/payments/see-other';
import { testConfig } from '../support/test-app';
import { FIXED_NOW, type LeadTestApp } from './lead-fixtures';
import { createPaymentTestApp, htmlOf, onlyForm, orderRow, pendingOrder, placeOrder, postForm, TEST_CARD, type OrderRow, type PageForm } from './payment-fixtures';
import { WAIT_GUARD_MS } from '../support/wait-guard';

/**
 * The embedded APS sandbox gateway (issue 11 item 3, RULINGS 20), driven as a browser drives it:
 * the payments page's Pay form is posted to it, its card form is filled in and posted, and its
 * answer is a form to return_url. The direct transaction feedback is queued in the outbox with
 * the answer and delivered by the feedback worker (nudged after the answer; its retries, backoff
 * and restarts are in sandbox-feedback-outbox.test.ts) through `gatewayFetch`, which these tests
 * replace with a spy that records each call and then forwards it into the app. The clock is FIXED_NOW (15 March 2026): 03/26 is still a valid expiry, 02/26 not.
 */

const config = testConfig();
/** Valid (Luhn) but not the test card: declined. */
const OTHER_CARD = { ...TEST_CARD, card_number: '4000 0000 0000 0002' };

interface FeedbackCall {
  url: string;
  method: string | undefined;
  contentType: string | null;
  fields: Record<string, string>;
  /** The app's answer once forwarded. */
  status?: number;
}

let app: LeadTestApp;
const feedbackCalls: FeedbackCall[] = [];

/** The gateway's outgoing HTTP: recorded, then answered by the app itself. */
const feedbackSpy: typeof fetch = async (input, init) => {
  const call: FeedbackCall = {
    url: String(input),
    method: init?.method,
    contentType: new Headers(init?.headers).get('content-type'),
    fields: Object.fromEntries(new URLSearchParams(String(init?.body ?? ''))),
  };
  feedbackCalls.push(call);
  const res = await app.app.request(String(input), init);
  call.status = res.status;
  return res;
};

beforeAll(async () => {
  app = await createPaymentTestApp({ gatewayFetch: feedbackSpy });
});
afterAll(() => app.close());

const feedbackFor = (reference: string) => feedbackCalls.filter((call) => call.fields.merchant_reference === reference);
/** Waits until the sandbox's feedback for `reference` was answered (it is sent without waiting). */
async function answeredFeedback(reference: string): Promise<FeedbackCall> {
  await vi.waitFor(() => expect(feedbackFor(reference).at(-1)?.status).toBeDefined(), { timeout: WAIT_GUARD_MS });
  return feedbackFor(reference).at(-1)!;
}

/** A session's page: /sandbox/aps/pay/<32-character one-time id>. */
const SESSION_PATH = /^\/sandbox\/aps\/pay\/[A-Za-z0-9_-]{32}$/;

/**
 * A POST the sandbox answers as Post/Redirect/Get does (issue 17 item 9): 303 See Other to a
 * session page, not cached; then that page, fetched with GET as the browser follows.
 */
async function followSeeOther(res: Response, sandbox: Pick<Hono<AppEnv>, 'request'> = app.app): Promise<{ location: string; html: string }> {
  expect(res.status).toBe(303);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const location = res.headers.get('location') ?? '';
  expect(location).toMatch(SESSION_PATH);
  return { location, html: await htmlOf(await sandbox.request(location), 200) };
}

/** Posts the payments page's Pay form to the gateway (changed by `change`): the page the browser lands on. */
async function postPurchase(order: OrderRow, change: (fields: Record<string, string>) => Record<string, string> = (fields) => fields) {
  const pay = onlyForm(await htmlOf(await app.app.request(`/pay/${order.merchantReference}`), 200));
  return { pay, ...(await followSeeOther(await postForm(app, pay.action, change(pay.fields)))) };
}

/** The payments page's Pay form, posted to the gateway as the browser does: the card page and its form. */
async function openCardPage(order: OrderRow, lang?: 'en' | 'ar') {
  const pay = onlyForm(await htmlOf(await app.app.request(`/pay/${order.merchantReference}${lang ? `?lang=${lang}` : ''}`), 200));
  expect(pay.action).toBe('http://safar.test/sandbox/aps/paymentPage');
  const { location, html } = await followSeeOther(await postForm(app, pay.action, pay.fields));
  return { html, form: onlyForm(html), request: pay.fields, location };
}

/** Posts the card form with what was typed and the button pressed; the page it redirects to (its own address). */
async function submitCard(form: PageForm, typed: Record<string, string>, action: 'pay' | 'cancel' = 'pay') {
  expect(form.action).toMatch(SESSION_PATH);
  const { location, html } = await followSeeOther(await postForm(app, form.action, { ...form.fields, ...typed, action }));
  expect(location).toBe(form.action);
  return html;
}

/** The answer page's auto-submitted form to return_url. */
function returnForm(html: string): PageForm {
  const form = onlyForm(html);
  expect(form.id).toBe('aps-return');
  expect(form.method).toBe('post');
  expect(html).toContain('<script src="/sandbox/aps/return.js" defer></script>');
  expect(html).toContain(message('sandbox_return_button', 'en'));
  return form;
}

describe('the card page', () => {
  it('opens from the Pay form: says sandbox in its title and banner, names the test card, shows the reference and the exact amount', async () => {
    const { order } = await pendingOrder(app, { addon: true });
    const { html, form, request } = await openCardPage(order);
    expect(html).toMatch(/<title>[^<]*sandbox[^<]*<\/title>/i);
    expect(html).toContain(message('sandbox_banner_title', 'en'));
    expect(html).toContain(message('sandbox_banner_text', 'en'));
    expect(html).toContain('4005 5500 0000 0001');
    expect(html).toContain(order.merchantReference);
    expect(html).toContain(`USD ${(order.totalCents / 100).toFixed(2)}`);
    for (const name of ['card_number', 'expiry_date', 'card_security_code', 'card_holder_name']) expect(html).toContain(`<label for="f-${name}">`);
    // The request stays with the sandbox, in the database under the session's one-time id; the form carries none of it.
    expect(form.fields).toEqual({});
    const [session] = await app.db.select().from(t.apsSandboxSessions).where(eq(t.apsSandboxSessions.id, form.action.split('/').at(-1)!));
    expect(session).toMatchObject({ request, returnUrl: request.return_url, lang: 'en', response: null });
  });

  it('in Arabic when the request says language=ar: rtl, and the sandbox named in Arabic', async () => {
    const { order } = await pendingOrder(app, { lang: 'ar' });
    const { html } = await openCardPage(order);
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain(message('sandbox_title', 'ar'));
    expect(html).toContain(message('sandbox_banner_title', 'ar'));
  });

  it('bad card input: the page again (200) with an error next to each field and the typed values kept, not the CVV; nothing sent anywhere', async () => {
    const { order } = await pendingOrder(app);
    const { form } = await openCardPage(order);
    const typed = { card_number: '4005 5500 0000 0002', expiry_date: '02/26', card_security_code: '12', card_holder_name: '' };
    const html = await submitCard(form, typed);
    expect(html).toContain(message('sandbox_errors_summary', 'en'));
    expect(html).toContain(message('sandbox_error_card_checksum', 'en'));
    expect(html).toContain(message('sandbox_error_expired', 'en'));
    expect(html).toContain(message('sandbox_error_cvv', 'en'));
    expect(html).toContain(message('sandbox_error_required', 'en'));
    expect(html).toContain('value="4005 5500 0000 0002"');
    expect(html).toContain('value="02/26"');
    expect(html).not.toContain('value="12"');
    const again = onlyForm(html);
    expect(again.action).toBe(form.action);
    expect(again.fields).toEqual({});
    expect(feedbackFor(order.merchantReference)).toEqual([]);
  });
});

describe('the answer', () => {
  it('the test card: a form to return_url whose fields verify with the RESPONSE phrase, status 14 / 14000; the feedback spy saw the same fields POSTed to /payments/aps/feedback', async () => {
    const { order } = await pendingOrder(app);
    const { form, request } = await openCardPage(order);
    // Typed with Arabic-Indic digits, as an Arabic keyboard types them.
    const html = await submitCard(form, { ...TEST_CARD, card_number: '٤٠٠٥ ٥٥٠٠ ٠٠٠٠ ٠٠٠١' });
    expect(html).toContain(message('sandbox_return_success', 'en'));
    const back = returnForm(html);
    expect(back.action).toBe(request.return_url);
    expect(back.fields).toMatchObject({
      command: 'PURCHASE',
      access_code: config.apsAccessCode,
      merchant_identifier: config.apsMerchantIdentifier,
      merchant_reference: order.merchantReference,
      amount: String(order.totalCents),
      currency: 'USD',
      language: 'en',
      customer_email: request.customer_email,
      status: '14',
      response_code: '14000',
      response_message: 'Success',
      payment_option: 'VISA',
      eci: 'ECOMMERCE',
      card_number: '400555******0001',
      expiry_date: '2905',
      card_holder_name: 'Rania Haddad',
      authorization_code: expect.stringMatching(/^\d{6}$/),
      fort_id: expect.stringMatching(/^\d{18}$/),
      customer_ip: expect.any(String),
    });
    expect(verifyApsSignature(back.fields, config.apsResponsePhrase)).toBe(true);
    expect(verifyApsSignature(back.fields, config.apsRequestPhrase)).toBe(false);

    const feedback = await answeredFeedback(order.merchantReference);
    expect(feedbackFor(order.merchantReference)).toHaveLength(1);
    expect(feedback).toMatchObject({ url: 'http://safar.test/payments/aps/feedback', method: 'POST', contentType: 'application/x-www-form-urlencoded' });
    expect(feedback.fields).toEqual(back.fields);
  });

  it('another valid card: status 13 / 13666 Transaction declined, a fort_id, no authorization code; the same fields as feedback', async () => {
    const { order } = await pendingOrder(app);
    const { form } = await openCardPage(order);
    const html = await submitCard(form, OTHER_CARD);
    expect(html).toContain(message('sandbox_return_declined', 'en'));
    const back = returnForm(html);
    expect(back.fields).toMatchObject({ status: '13', response_code: '13666', response_message: 'Transaction declined', fort_id: expect.stringMatching(/^\d{18}$/), card_number: '400000******0002' });
    expect(back.fields).not.toHaveProperty('authorization_code');
    expect(verifyApsSignature(back.fields, config.apsResponsePhrase)).toBe(true);
    expect((await answeredFeedback(order.merchantReference)).fields).toEqual(back.fields);
  });

  it('Cancel (whatever the card fields hold): status 00 / 00072 Transaction canceled by user, no fort_id', async () => {
    const { order } = await pendingOrder(app);
    const { form } = await openCardPage(order);
    const html = await submitCard(form, { card_number: 'not a card' }, 'cancel');
    expect(html).toContain(message('sandbox_return_cancelled', 'en'));
    const back = returnForm(html);
    expect(back.fields).toMatchObject({ status: '00', response_code: '00072', response_message: 'Transaction canceled by user', merchant_reference: order.merchantReference });
    expect(back.fields).not.toHaveProperty('fort_id');
    expect(verifyApsSignature(back.fields, config.apsResponsePhrase)).toBe(true);
    await answeredFeedback(order.merchantReference);
  });

  it('a session pays once: the card form posted again (a double click) shows the same answer, no new transaction, no second feedback', async () => {
    const { order } = await pendingOrder(app);
    const { form } = await openCardPage(order);
    const first = returnForm(await submitCard(form, OTHER_CARD)).fields;
    await answeredFeedback(order.merchantReference);
    const again = returnForm(await submitCard(form, TEST_CARD)).fields;
    expect(again).toEqual(first);
    // A reload of the session page (a GET) is the same answer too.
    expect(returnForm(await htmlOf(await app.app.request(form.action), 200)).fields).toEqual(first);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(feedbackFor(order.merchantReference)).toHaveLength(1);
  });

  it('the card form posted twice at the same moment (a double click card.js did not stop): one answer, one transaction, one feedback', async () => {
    const { order } = await pendingOrder(app);
    const { form } = await openCardPage(order);
    const [first, second] = await Promise.all([
      postForm(app, form.action, { ...TEST_CARD, action: 'pay' }),
      postForm(app, form.action, { ...OTHER_CARD, action: 'pay' }),
    ]);
    const answers = await Promise.all([followSeeOther(first), followSeeOther(second)]);
    expect(answers.map((answer) => answer.location)).toEqual([form.action, form.action]);
    const [one, other] = answers.map((answer) => returnForm(answer.html).fields);
    expect(other).toEqual(one);
    await answeredFeedback(order.merchantReference);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(feedbackFor(order.merchantReference)).toHaveLength(1);
    const queued = await app.db.select().from(t.outbox).where(eq(t.outbox.queue, 'aps-feedback'));
    expect(queued.filter((row) => (row.payload as { fields: Record<string, string> }).fields.merchant_reference === order.merchantReference)).toHaveLength(1);
  });
});

/** Successes the merchant applied for a reference (payment_results with status 14). */
const successesOf = async (reference: string) =>
  (await app.db.select().from(t.paymentResults).where(eq(t.paymentResults.merchantReference, reference))).filter((row) => row.status === '14');
/** Sessions the sandbox opened for a reference's PURCHASE (refusals keep no request). */
const sessionsOf = async (reference: string) =>
  (await app.db.select().from(t.apsSandboxSessions)).filter((session) => session.request.merchant_reference === reference);

/** A refusal of a second PURCHASE: back to return_url, status 00 / 00007, signed, no transaction. */
function expectDuplicateRefusal(html: string, reference: string, returnUrl: string | undefined): PageForm {
  expect(html).toContain(message('sandbox_return_duplicate', 'en'));
  expect(html).toContain(message('sandbox_return_duplicate_text', 'en'));
  expect(html).not.toContain('id="aps-card"');
  const back = returnForm(html);
  expect(back.action).toBe(returnUrl);
  expect(back.fields).toMatchObject({ status: '00', response_code: '00007', response_message: 'Duplicate order number', merchant_reference: reference });
  expect(back.fields).not.toHaveProperty('fort_id');
  expect(verifyApsSignature(back.fields, config.apsResponsePhrase)).toBe(true);
  return back;
}

describe('one PURCHASE per merchant reference, as APS (issue 33 item 3)', () => {
  it('a second tab posts the same Pay form while the first card page is open: refused 00007 back to return_url; the first session still pays, once', async () => {
    const { order } = await pendingOrder(app);
    const first = await openCardPage(order);
    // The second tab: the same page, the same signed form.
    const second = await followSeeOther(await postForm(app, config.apsGatewayUrl, first.request));
    const refusal = expectDuplicateRefusal(second.html, order.merchantReference, first.request.return_url);
    // The browser hands the refusal to the merchant; nothing is charged and no feedback goes out for it.
    expect((await postForm(app, refusal.action, refusal.fields)).status).toBe(303);
    expect(feedbackFor(order.merchantReference)).toEqual([]);

    const paidForm = returnForm(await submitCard(first.form, TEST_CARD));
    const paid = paidForm.fields;
    expect((await postForm(app, paidForm.action, paid)).status).toBe(303);
    await answeredFeedback(order.merchantReference);
    expect(await orderRow(app, order.merchantReference)).toMatchObject({ status: 'paid', fortId: paid.fort_id });
    expect((await successesOf(order.merchantReference)).map((row) => row.fortId)).toEqual([paid.fort_id]);
    expect(await sessionsOf(order.merchantReference)).toHaveLength(1);
    expect(await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id))).toHaveLength(1);
  });

  it.each([
    ['declined', OTHER_CARD, 'failed'],
    ['paid', TEST_CARD, 'paid'],
  ] as const)('after its payment was %s, the same Pay form posted again (Back, a kept page) is refused 00007: no card page, no second transaction', async (_outcome, card, status) => {
    const { order } = await pendingOrder(app);
    const { form, request } = await openCardPage(order);
    const answered = returnForm(await submitCard(form, card));
    const answer = answered.fields;
    expect((await postForm(app, answered.action, answer)).status).toBe(303);
    await answeredFeedback(order.merchantReference);
    const settled = await orderRow(app, order.merchantReference);
    expect(settled).toMatchObject({ status, fortId: answer.fort_id });

    const again = await followSeeOther(await postForm(app, config.apsGatewayUrl, request));
    const refusal = expectDuplicateRefusal(again.html, order.merchantReference, request.return_url);
    expect((await postForm(app, refusal.action, refusal.fields)).status).toBe(303);
    expect(await orderRow(app, order.merchantReference)).toMatchObject({ status, fortId: answer.fort_id });
    expect(await successesOf(order.merchantReference)).toHaveLength(status === 'paid' ? 1 : 0);
    expect(await sessionsOf(order.merchantReference)).toHaveLength(1);
    expect(feedbackFor(order.merchantReference)).toHaveLength(1);
  });

  it('two posts of one Pay form at the same moment (a double click without script): one card page, one refusal', async () => {
    const { order } = await pendingOrder(app);
    const pay = onlyForm(await htmlOf(await app.app.request(`/pay/${order.merchantReference}`), 200));
    const pages = await Promise.all([postForm(app, pay.action, pay.fields), postForm(app, pay.action, pay.fields)].map(async (res) => (await followSeeOther(await res)).html));
    const cardPages = pages.filter((html) => html.includes('id="aps-card"'));
    expect(cardPages).toHaveLength(1);
    expectDuplicateRefusal(pages.find((html) => !html.includes('id="aps-card"'))!, order.merchantReference, pay.fields.return_url);
    expect(await sessionsOf(order.merchantReference)).toHaveLength(1);
    expect(await app.db.select().from(t.apsSandboxReferences).where(eq(t.apsSandboxReferences.merchantReference, order.merchantReference))).toHaveLength(1);
  });

  it('a request the sandbox refuses for what it is (tampered) does not use the reference up: the genuine form then opens the card page', async () => {
    const { order } = await pendingOrder(app);
    const { html } = await postPurchase(order, (fields) => ({ ...fields, amount: '100' }));
    expect(returnForm(html).fields).toMatchObject({ response_code: '00008' });
    const { form } = await openCardPage(order);
    expect(form.id).toBe('aps-card');
  });

  it('the reference outlives its session: a day later, when the session is pruned, the form is still refused', async () => {
    const { order } = await pendingOrder(app);
    const { request, location } = await openCardPage(order);
    const id = location.split('/').at(-1)!;
    await app.db.update(t.apsSandboxSessions).set({ createdAt: new Date(FIXED_NOW - 25 * 60 * 60 * 1000) }).where(eq(t.apsSandboxSessions.id, id));
    const again = await followSeeOther(await postForm(app, config.apsGatewayUrl, request));
    expect(await app.db.select().from(t.apsSandboxSessions).where(eq(t.apsSandboxSessions.id, id))).toEqual([]);
    expectDuplicateRefusal(again.html, order.merchantReference, request.return_url);
  });
});

describe('requests the sandbox refuses', () => {
  it('a tampered request (amount changed on the way): back to return_url with status 00, 00008 Signature mismatch, signed; no card page, no feedback', async () => {
    const { order } = await pendingOrder(app);
    const { pay, html } = await postPurchase(order, (fields) => ({ ...fields, amount: '100' }));
    expect(html).toContain(message('sandbox_return_refused', 'en'));
    const back = returnForm(html);
    expect(back.action).toBe(pay.fields.return_url);
    expect(back.fields).toMatchObject({ status: '00', response_code: '00008', response_message: 'Signature mismatch', merchant_reference: order.merchantReference });
    expect(back.fields).not.toHaveProperty('fort_id');
    expect(verifyApsSignature(back.fields, config.apsResponsePhrase)).toBe(true);
    expect(feedbackFor(order.merchantReference)).toEqual([]);
  });

  it('the card form cannot change the request: fields posted beside the card are ignored, the request kept at paymentPage is answered', async () => {
    const { order } = await pendingOrder(app);
    const { form } = await openCardPage(order);
    const { html } = await followSeeOther(await postForm(app, form.action, { 'request.amount': '1', amount: '1', ...TEST_CARD, action: 'pay' }));
    expect(returnForm(html).fields).toMatchObject({ status: '14', amount: String(order.totalCents) });
    await answeredFeedback(order.merchantReference);
  });

  it('an unknown session id, or one left unpaid for over an hour: a 404 page that says sandbox, no form', async () => {
    for (const path of ['/sandbox/aps/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/sandbox/aps/pay/not-an-id']) {
      for (const method of ['GET', 'POST']) {
        const html = await htmlOf(await app.app.request(path, { method, body: method === 'POST' ? 'action=pay' : undefined }), 404);
        expect(html).toContain(message('sandbox_session_unknown_text', 'en'));
        expect(html).not.toContain('<form');
      }
    }
    const { order } = await pendingOrder(app);
    const { form } = await openCardPage(order);
    const id = form.action.split('/').at(-1)!;
    await app.db.update(t.apsSandboxSessions).set({ createdAt: new Date(FIXED_NOW - 61 * 60 * 1000) }).where(eq(t.apsSandboxSessions.id, id));
    expect(await htmlOf(await app.app.request(form.action), 404)).toContain(message('sandbox_session_unknown_text', 'en'));
    expect((await postForm(app, form.action, { ...TEST_CARD, action: 'pay' })).status).toBe(404);
    expect(feedbackFor(order.merchantReference)).toEqual([]);
  });

  it('a missing field: 00001 Missing parameter', async () => {
    const { order } = await pendingOrder(app);
    const { html } = await postPurchase(order, ({ customer_email: _omitted, ...rest }) => rest);
    expect(returnForm(html).fields).toMatchObject({ status: '00', response_code: '00001', response_message: 'Missing parameter' });
  });

  it('no usable return_url or another merchant: a 400 page that says sandbox, nothing sent; a GET: 405', async () => {
    const { order } = await pendingOrder(app);
    const pay = onlyForm(await htmlOf(await app.app.request(`/pay/${order.merchantReference}`), 200));
    const changes: Record<string, string>[] = [{ return_url: 'javascript:alert(1)' }, { return_url: '' }, { access_code: 'someoneElse' }, { merchant_identifier: 'other' }];
    for (const change of changes) {
      const html = await htmlOf(await postForm(app, pay.action, { ...pay.fields, ...change }), 400);
      expect(html).toContain(message('sandbox_bad_request', 'en'));
      expect(html).toContain(message('sandbox_title', 'en'));
      expect(html).not.toContain('<form');
    }
    expect(await htmlOf(await postForm(app, pay.action, {}), 400)).toContain(message('sandbox_no_return_url_text', 'en'));
    expect(feedbackFor(order.merchantReference)).toEqual([]);
    const opened = await app.app.request('/sandbox/aps/paymentPage');
    expect(opened.status).toBe(405);
    expect(opened.headers.get('allow')).toBe('POST');
  });

  it('serves return.js as a script of this origin, which submits the return form', async () => {
    const res = await app.app.request('/sandbox/aps/return.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const script = await res.text();
    expect(script).toContain("getElementById('aps-return')");
    expect(script).toContain('.submit()');
    // Issue 17 item 9: a same-origin return is posted in the background and the page replaced, never by itself on Back.
    expect(script).toContain(`'${BACKGROUND_POST_HEADER}': '1'`);
    expect(script).toContain('location.replace(next)');
    expect(script).toContain("'back_forward'");
  });

  it('serves card.js, which the card page loads to post its form without adding a history entry', async () => {
    const res = await app.app.request('/sandbox/aps/card.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    const script = await res.text();
    expect(script).toContain("getElementById('aps-card')");
    expect(script).toContain(`'${BACKGROUND_POST_HEADER}': '1'`);
    expect(script).toContain('location.replace(next)');
    // Issue 33 item 3: a card page restored from the back/forward cache (no-store does not keep it out) is reloaded.
    expect(script).toContain("window.addEventListener('pageshow'");
    expect(script).toContain('if (event.persisted) location.reload();');
    const { order } = await pendingOrder(app);
    const { html, form } = await openCardPage(order);
    expect(form.id).toBe('aps-card');
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script src="/sandbox/aps/card.js" defer>']);
  });

  it('is not mounted when a real gateway is configured (APS_GATEWAY_URL set): 404', async () => {
    const real = createApp({
      db: app.db,
      config: testConfig({ apsGatewayUrl: 'https://sbcheckout.payfort.com/FortAPI/paymentPage', apsSandbox: false }),
      staticDir: null,
      now: () => FIXED_NOW,
      logError: () => {},
    });
    expect((await real.request('/sandbox/aps/paymentPage', { method: 'POST', body: 'a=1' })).status).toBe(404);
    expect((await real.request('/sandbox/aps/pay', { method: 'POST', body: 'a=1' })).status).toBe(404);
    expect((await real.request('/sandbox/aps/return.js')).status).toBe(404);
  });
});

describe('the whole chain', () => {
  it('payments page → sandbox card page → test card → return: 303 to /payment-result, the order paid with one policy; the feedback changes nothing more', async () => {
    const { lead, order } = await pendingOrder(app);
    const { form } = await openCardPage(order);
    const back = returnForm(await submitCard(form, TEST_CARD));
    const returned = await postForm(app, back.action, back.fields);
    expect(returned.status).toBe(303);
    const location = new URL(returned.headers.get('location') ?? '', 'http://safar.test');
    expect(location.pathname).toBe('/payment-result');
    expect(Object.fromEntries(location.searchParams)).toEqual({ uuid: lead.uuid, ref: order.merchantReference, lang: 'en' });
    expect(await answeredFeedback(order.merchantReference)).toMatchObject({ status: 200 });
    const paid = await orderRow(app, order.merchantReference);
    expect(paid).toMatchObject({ status: 'paid', fortId: back.fields.fort_id, responseCode: '14000' });
    expect(await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id))).toHaveLength(1);
  });

  it('posted in the background by card.js and return.js: 204 naming the next page (the 303\'s address), so the script does not fetch that page before it loads it', async () => {
    const { lead, order } = await pendingOrder(app);
    const { form } = await openCardPage(order);
    const background = (action: string, fields: Record<string, string>) =>
      app.app.request(action, {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', [BACKGROUND_POST_HEADER]: '1' },
      });
    const nextOf = async (res: Response) => {
      expect({ status: res.status, body: await res.text(), cache: res.headers.get('cache-control'), location: res.headers.get('location') }).toEqual({
        status: 204,
        body: '',
        cache: 'no-store',
        location: null,
      });
      return res.headers.get(NEXT_LOCATION_HEADER) ?? '';
    };

    // The card form: the session's own page, now showing the answer.
    const cardNext = await nextOf(await background(form.action, { ...form.fields, ...TEST_CARD, action: 'pay' }));
    expect(cardNext).toBe(form.action);
    const back = returnForm(await htmlOf(await app.app.request(cardNext), 200));

    // The sandbox's feedback pays the order beside the browser's return.
    await answeredFeedback(order.merchantReference);
    const paid = await orderRow(app, order.merchantReference);
    expect(paid).toMatchObject({ status: 'paid', responseCode: '14000' });

    // A forged return in the background (the amount changed after signing) is refused as a plain
    // post is: the result page without the lead, and the order untouched.
    expect(await nextOf(await background(back.action, { ...back.fields, amount: '1' }))).toBe('/payment-result?lang=en');
    expect(await orderRow(app, order.merchantReference)).toEqual(paid);

    // The return: the result page of the paid order, with its lead.
    const next = new URL(await nextOf(await background(back.action, back.fields)), 'http://safar.test');
    expect(next.pathname).toBe('/payment-result');
    expect(Object.fromEntries(next.searchParams)).toEqual({ uuid: lead.uuid, ref: order.merchantReference, lang: 'en' });
    // Replayed in the background: the same page, still one policy.
    expect(await nextOf(await background(back.action, back.fields))).toBe(`${next.pathname}${next.search}`);
    expect(await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id))).toHaveLength(1);

    // Without the header (the gateway's return, a browser without script): 303 as before.
    const again = await postForm(app, back.action, back.fields);
    expect({ status: again.status, location: again.headers.get('location') }).toEqual({ status: 303, location: `${next.pathname}${next.search}` });
  });

  it('a declined card, then "Try again" (a new order from checkout) with the test card: the second order is paid', async () => {
    const { lead, order } = await pendingOrder(app);
    const declined = returnForm(await submitCard((await openCardPage(order)).form, OTHER_CARD));
    expect((await postForm(app, declined.action, declined.fields)).status).toBe(303);
    await answeredFeedback(order.merchantReference);
    expect((await orderRow(app, order.merchantReference)).status).toBe('failed');
    const retry = await placeOrder(app, lead.uuid);
    expect(retry.merchantReference).not.toBe(order.merchantReference);
    const paid = returnForm(await submitCard((await openCardPage(retry)).form, TEST_CARD));
    expect((await postForm(app, paid.action, paid.fields)).status).toBe(303);
    expect((await orderRow(app, retry.merchantReference)).status).toBe('paid');
  });
});
