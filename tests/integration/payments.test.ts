import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import { listRefunds } from '../../src/server/orders/refunds';
import { testConfig } from '../support/test-app';
import { APS_FEEDBACK_PATH, APS_RETURN_PATH } from '../../src/server/routes/payments.routes';
import { FIXED_NOW, type LeadTestApp } from './lead-fixtures';
import {
  APS_CANCELLED,
  APS_DECLINED,
  apsResponse,
  createPaymentTestApp,
  newFortId,
  pendingOrder,
  placeOrder,
  postNotice,
  postRaw,
  type NoticeKind,
  type PendingOrder,
} from './payment-fixtures';

/**
 * The return and feedback handlers (issue 11 item 4, RULINGS 20): every notice is verified
 * (APS signature with the response phrase, access code, merchant, amount, currency, reference),
 * applied at most once per merchant reference + fort_id whatever the order, number or timing of
 * the copies, and recorded raw. Orders are placed through the signed API (payment-fixtures.ts);
 * responses are built and signed the way APS signs them. The policy delivery is the app's own.
 */

let app: LeadTestApp;

beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

const orderRow = async (id: number) => (await app.db.select().from(t.orders).where(eq(t.orders.id, id)))[0]!;
const policiesOf = (orderId: number) => app.db.select().from(t.policies).where(eq(t.policies.orderId, orderId));
const resultsOf = (reference: string) => app.db.select().from(t.paymentResults).where(eq(t.paymentResults.merchantReference, reference));
const noticesOf = (orderId: number) => app.db.select().from(t.paymentNotices).where(eq(t.paymentNotices.orderId, orderId)).orderBy(t.paymentNotices.id);
/** Policy certificate mails written for a lead (the app's own delivery, outbox transport). */
const policyMails = async (leadId: number) => (await app.db.select().from(t.mailLog).where(eq(t.mailLog.leadId, leadId))).filter((row) => row.kind === 'policy');
const couponUses = async (code: string) => (await app.db.select().from(t.coupons).where(eq(t.coupons.code, code)))[0]!.usedCount;
const invoiceStatus = async (id: number) => (await app.db.select().from(t.invoices).where(eq(t.invoices.id, id)))[0]!.status;
const newNotices = async (sinceId: number) => (await app.db.select().from(t.paymentNotices).orderBy(t.paymentNotices.id)).filter((row) => row.id > sinceId);
const lastNoticeId = async () => (await app.db.select({ id: t.paymentNotices.id }).from(t.paymentNotices)).reduce((max, row) => Math.max(max, row.id), 0);

/** Where a genuine return sends the browser: the SPA's result page for this lead and attempt. */
const genuineResult = (pending: PendingOrder, lang = 'en') =>
  `/payment-result?uuid=${pending.lead.uuid}&ref=${pending.order.merchantReference}&lang=${lang}`;

/** Error lines written from now on (the app's logError sink). */
function errorsFrom(): () => ErrorLogLine[] {
  const start = app.errors.length;
  return () => app.errors.slice(start);
}

async function expectRedirect(res: Response, location: string) {
  expect({ status: res.status, location: res.headers.get('location') }).toEqual({ status: 303, location });
  expect(res.headers.get('cache-control')).toBe('no-store');
}

async function expectFeedbackOk(res: Response) {
  expect({ status: res.status, text: await res.text() }).toEqual({ status: 200, text: 'OK' });
}

/** The order is as checkout left it: pending, no gateway answer, no policy, nothing applied or counted. */
async function expectUntouched(pending: PendingOrder, coupon?: { code: string; uses: number }) {
  expect(await orderRow(pending.order.id)).toEqual(pending.order);
  expect(await policiesOf(pending.order.id)).toEqual([]);
  expect(await resultsOf(pending.order.merchantReference)).toEqual([]);
  expect(await invoiceStatus(pending.order.invoiceId)).toBe('open');
  if (coupon) expect(await couponUses(coupon.code)).toBe(coupon.uses);
}

describe('a result is applied once', () => {
  it('the return posted twice and the feedback once: one policy, one result row, the order paid, SAFAR10 counted once', async () => {
    const pending = await pendingOrder(app, { coupon: 'SAFAR10', addon: true });
    const uses = await couponUses('SAFAR10');
    const errors = errorsFrom();
    const fields = apsResponse(pending.order);

    await expectRedirect(await postNotice(app, 'return', fields), genuineResult(pending));
    await expectRedirect(await postNotice(app, 'return', fields), genuineResult(pending));
    await expectFeedbackOk(await postNotice(app, 'feedback', fields));

    expect(await orderRow(pending.order.id)).toEqual({
      ...pending.order,
      status: 'paid',
      paidAt: new Date(FIXED_NOW),
      fortId: fields.fort_id,
      responseCode: '14000',
      responseMessage: 'Success',
    });
    expect(await policiesOf(pending.order.id)).toEqual([expect.objectContaining({ leadId: pending.lead.leadId, issuedAt: new Date(FIXED_NOW), mailedAt: new Date(FIXED_NOW) })]);
    // Delivered once, by the notice that issued it.
    expect(await policyMails(pending.lead.leadId)).toHaveLength(1);
    expect(await resultsOf(pending.order.merchantReference)).toEqual([
      expect.objectContaining({ orderId: pending.order.id, fortId: fields.fort_id, status: '14', responseCode: '14000', responseMessage: 'Success' }),
    ]);
    expect(await couponUses('SAFAR10')).toBe(uses + 1);
    expect(await invoiceStatus(pending.order.invoiceId)).toBe('paid');
    // Every copy is kept raw, with what was done with it.
    expect((await noticesOf(pending.order.id)).map((row) => [row.source, row.verdict, row.merchantReference, row.fortId, row.payload])).toEqual([
      ['return', 'applied', pending.order.merchantReference, fields.fort_id, fields],
      ['return', 'repeated', pending.order.merchantReference, fields.fort_id, fields],
      ['feedback', 'repeated', pending.order.merchantReference, fields.fort_id, fields],
    ]);
    expect(errors()).toEqual([]);
  });

  it('ten copies at once, returns and feedbacks mixed (Promise.all): one policy, one result row, the coupon counted once', async () => {
    const pending = await pendingOrder(app, { coupon: 'SAFAR10' });
    const uses = await couponUses('SAFAR10');
    const fields = apsResponse(pending.order);
    const kinds: NoticeKind[] = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? 'return' : 'feedback'));

    const answers = await Promise.all(kinds.map((kind) => postNotice(app, kind, fields)));

    for (const [index, res] of answers.entries()) {
      if (kinds[index] === 'return') await expectRedirect(res, genuineResult(pending));
      else await expectFeedbackOk(res);
    }
    expect(await policiesOf(pending.order.id)).toHaveLength(1);
    expect(await policyMails(pending.lead.leadId)).toHaveLength(1);
    expect(await resultsOf(pending.order.merchantReference)).toHaveLength(1);
    expect(await couponUses('SAFAR10')).toBe(uses + 1);
    expect((await orderRow(pending.order.id)).status).toBe('paid');
    const verdicts = (await noticesOf(pending.order.id)).map((row) => row.verdict).sort();
    expect(verdicts).toEqual(['applied', ...Array<string>(9).fill('repeated')]);
  });

  it('the feedback before the return: one policy; the return afterwards is "repeated" and still sends the browser to the result with the uuid', async () => {
    const pending = await pendingOrder(app, { lang: 'ar' });
    const fields = apsResponse(pending.order);

    await expectFeedbackOk(await postNotice(app, 'feedback', fields));
    const policy = await policiesOf(pending.order.id);
    expect(policy).toHaveLength(1);

    await expectRedirect(await postNotice(app, 'return', fields), genuineResult(pending, 'ar'));
    expect(await policiesOf(pending.order.id)).toEqual(policy);
    expect((await noticesOf(pending.order.id)).map((row) => [row.source, row.verdict])).toEqual([
      ['feedback', 'applied'],
      ['return', 'repeated'],
    ]);
  });

  it('a declined card fails the order (no policy, coupon not counted); a later success with another fort_id pays it; a failure after that never un-pays', async () => {
    const pending = await pendingOrder(app, { coupon: 'SAFAR10' });
    const uses = await couponUses('SAFAR10');

    const declined = apsResponse(pending.order, APS_DECLINED);
    // A genuine failure is still the customer's: the result page shows it for this lead.
    await expectRedirect(await postNotice(app, 'return', declined), genuineResult(pending));
    expect(await orderRow(pending.order.id)).toEqual({
      ...pending.order,
      status: 'failed',
      failedAt: new Date(FIXED_NOW),
      fortId: declined.fort_id,
      responseCode: APS_DECLINED.response_code,
      responseMessage: APS_DECLINED.response_message,
    });
    expect(await policiesOf(pending.order.id)).toEqual([]);
    expect(await couponUses('SAFAR10')).toBe(uses);
    expect(await invoiceStatus(pending.order.invoiceId)).toBe('open');

    const paid = apsResponse(pending.order);
    await expectFeedbackOk(await postNotice(app, 'feedback', paid));
    expect(await orderRow(pending.order.id)).toMatchObject({ status: 'paid', paidAt: new Date(FIXED_NOW), fortId: paid.fort_id, responseCode: '14000' });
    expect(await policiesOf(pending.order.id)).toHaveLength(1);
    expect(await couponUses('SAFAR10')).toBe(uses + 1);

    const lateFailure = apsResponse(pending.order, { ...APS_DECLINED, fort_id: newFortId() });
    await expectFeedbackOk(await postNotice(app, 'feedback', lateFailure));
    expect(await orderRow(pending.order.id)).toMatchObject({ status: 'paid', fortId: paid.fort_id, responseCode: '14000' });
    expect(await policiesOf(pending.order.id)).toHaveLength(1);
    expect(await resultsOf(pending.order.merchantReference)).toHaveLength(3);
  });

  it('a cancel without fort_id fails the order once: its copies are keyed by the empty fort_id', async () => {
    const pending = await pendingOrder(app);
    const cancelled = apsResponse(pending.order, APS_CANCELLED);
    expect(cancelled).not.toHaveProperty('fort_id');

    await expectRedirect(await postNotice(app, 'return', cancelled), genuineResult(pending));
    await expectFeedbackOk(await postNotice(app, 'feedback', cancelled));

    expect(await orderRow(pending.order.id)).toMatchObject({ status: 'failed', fortId: null, responseCode: '00072' });
    expect(await resultsOf(pending.order.merchantReference)).toEqual([expect.objectContaining({ fortId: '', status: '00' })]);
    expect((await noticesOf(pending.order.id)).map((row) => row.verdict)).toEqual(['applied', 'repeated']);
  });

  it('paid twice for one lead (two tabs, or one attempt under two fort_ids): one policy; the second attempt is marked refund (paid_twice); a second fort_id of the paid order (charged_again) leaves it paid; both captures are on the refunds list with fort_id, amount and reason', async () => {
    const first = await pendingOrder(app, { coupon: 'SAFAR10' });
    // A second attempt of the same lead (another tab), placed before the first was paid.
    const second = { lead: first.lead, order: await placeOrder(app, first.lead.uuid, { coupon: 'SAFAR10' }) };
    const uses = await couponUses('SAFAR10');
    const errors = errorsFrom();

    const paidFirst = apsResponse(first.order);
    await expectFeedbackOk(await postNotice(app, 'feedback', paidFirst));
    // The second attempt's return still shows the customer their lead's result.
    const paidSecond = apsResponse(second.order);
    await expectRedirect(await postNotice(app, 'return', paidSecond), genuineResult(second));
    const paidAgain = apsResponse(first.order, { fort_id: newFortId() });
    await expectFeedbackOk(await postNotice(app, 'feedback', paidAgain));
    // The same capture again (the return after the feedback) records nothing more.
    await expectRedirect(await postNotice(app, 'return', paidAgain), genuineResult(first));

    expect(await policiesOf(first.order.id)).toHaveLength(1);
    expect(await policiesOf(second.order.id)).toEqual([]);
    // The second attempt's money was taken for nothing: the broker refunds it.
    expect(await orderRow(second.order.id)).toMatchObject({ status: 'refund', refundReason: 'paid_twice', paidAt: new Date(FIXED_NOW), responseCode: '14000' });
    expect(await orderRow(first.order.id)).toMatchObject({ status: 'paid', fortId: paidFirst.fort_id });
    expect(await couponUses('SAFAR10')).toBe(uses + 1);
    expect(errors()).toEqual([
      { event: 'payment_refund_due', order_id: second.order.id, reason: 'paid_twice', notice_id: expect.any(Number) as number },
      { event: 'payment_refund_due', order_id: first.order.id, reason: 'charged_again', notice_id: expect.any(Number) as number },
    ]);
    const ours = new Set([first.order.merchantReference, second.order.merchantReference]);
    const at = new Date(FIXED_NOW).toISOString();
    expect((await listRefunds(app.db)).filter((item) => ours.has(item.merchant_reference))).toEqual([
      { merchant_reference: first.order.merchantReference, fort_id: paidAgain.fort_id, amount_cents: first.order.totalCents, currency: 'USD', reason: 'charged_again', recorded: at, order_status: 'paid', policy_number: expect.stringMatching(/^SFR-/) as string, status: 'due', refund_cents: null, answer: null },
      { merchant_reference: second.order.merchantReference, fort_id: paidSecond.fort_id, amount_cents: second.order.totalCents, currency: 'USD', reason: 'paid_twice', recorded: at, order_status: 'refund', policy_number: null, status: 'due', refund_cents: null, answer: null },
    ]);
  });

  it('accepts the response as a multipart form too', async () => {
    const pending = await pendingOrder(app);
    const form = new FormData();
    for (const [key, value] of Object.entries(apsResponse(pending.order))) form.append(key, value);
    await expectFeedbackOk(await postRaw(app, 'feedback', form));
    expect(await policiesOf(pending.order.id)).toHaveLength(1);
  });
});

describe('a forged or mismatched response changes nothing and is logged', () => {
  it('a wrong signature: the return goes to the result page without a uuid, the feedback gets 400; the order stays pending; recorded bad_signature', async () => {
    const pending = await pendingOrder(app, { coupon: 'SAFAR10' });
    const uses = await couponUses('SAFAR10');
    const since = await lastNoticeId();
    const errors = errorsFrom();
    const forged = apsResponse(pending.order, {}, { phrase: 'not-the-response-phrase' });

    await expectRedirect(await postNotice(app, 'return', forged), '/payment-result?lang=en');
    const feedback = await postNotice(app, 'feedback', forged);
    expect(feedback.status).toBe(400);
    expect(await feedback.text()).toMatch(/bad_signature/);

    await expectUntouched(pending, { code: 'SAFAR10', uses });
    const notices = await newNotices(since);
    expect(notices.map((row) => [row.source, row.verdict, row.orderId, row.merchantReference, row.payload])).toEqual([
      ['return', 'bad_signature', null, pending.order.merchantReference, forged],
      ['feedback', 'bad_signature', null, pending.order.merchantReference, forged],
    ]);
    // One line per refusal, facts only: no reference, e-mail, name or payload.
    expect(errors()).toEqual(
      notices.map((row) => ({ event: 'payment_notice_refused', source: row.source, verdict: 'bad_signature', notice_id: row.id })),
    );
  });

  it('a field changed after signing, a missing or empty signature, or the request phrase: bad_signature', async () => {
    const pending = await pendingOrder(app);
    const since = await lastNoticeId();
    const declined = apsResponse(pending.order, APS_DECLINED);
    const cases: [label: string, fields: Record<string, string>][] = [
      ['a declined result turned into a success', { ...declined, status: '14', response_code: '14000' }],
      ['a field added', { ...apsResponse(pending.order), token_name: 'extra' }],
      ['no signature', Object.fromEntries(Object.entries(apsResponse(pending.order)).filter(([key]) => key !== 'signature'))],
      ['an empty signature', apsResponse(pending.order, {}, { signature: '' })],
      ['signed with the request phrase', apsResponse(pending.order, {}, { phrase: testConfig().apsRequestPhrase })],
    ];
    for (const [label, fields] of cases) {
      const res = await postNotice(app, 'feedback', fields);
      expect({ label, status: res.status }).toEqual({ label, status: 400 });
    }
    expect((await newNotices(since)).map((row) => row.verdict)).toEqual(Array<string>(cases.length).fill('bad_signature'));
    await expectUntouched(pending);
  });

  it('an amount or currency changed and re-signed with the right phrase, or another merchant account: mismatch, nothing changes', async () => {
    const pending = await pendingOrder(app, { coupon: 'SAFAR10', lang: 'ar' });
    const uses = await couponUses('SAFAR10');
    const since = await lastNoticeId();
    const errors = errorsFrom();
    const cases: [label: string, fields: Record<string, string>, orderId: number | null][] = [
      ['one cent less', apsResponse(pending.order, { amount: String(pending.order.totalCents - 1) }), pending.order.id],
      ['in dollars, not cents', apsResponse(pending.order, { amount: String(pending.order.totalCents / 100) }), pending.order.id],
      ['no amount', apsResponse(pending.order, { amount: undefined }), pending.order.id],
      ['another currency', apsResponse(pending.order, { currency: 'EUR' }), pending.order.id],
      ['another access code', apsResponse(pending.order, { access_code: 'someoneElsesAccess' }), null],
      ['another merchant identifier', apsResponse(pending.order, { merchant_identifier: 'other' }), null],
    ];
    for (const [label, fields] of cases) {
      const returned = await postNotice(app, 'return', fields);
      expect({ label, status: returned.status, location: returned.headers.get('location') }).toEqual({ label, status: 303, location: '/payment-result?lang=ar' });
      const feedback = await postNotice(app, 'feedback', fields);
      expect({ label, status: feedback.status }).toEqual({ label, status: 400 });
    }
    await expectUntouched(pending, { code: 'SAFAR10', uses });
    const notices = await newNotices(since);
    expect(notices.map((row) => [row.verdict, row.orderId])).toEqual(cases.flatMap(([, , orderId]) => [['mismatch', orderId], ['mismatch', orderId]]));
    expect(errors().map((line) => line.event === 'payment_notice_refused' && line.verdict)).toEqual(Array<string>(cases.length * 2).fill('mismatch'));
  });

  it('a reference that names no order: unknown_order, recorded with its reference cut to 40 characters', async () => {
    const since = await lastNoticeId();
    const errors = errorsFrom();
    const reference = `SAF999999-${'X'.repeat(50)}`;
    const fields = apsResponse({ merchantReference: reference, totalCents: 13_320, currency: 'USD', lang: 'en' });
    await expectRedirect(await postNotice(app, 'return', fields), '/payment-result?lang=en');
    expect((await postNotice(app, 'feedback', apsResponse({ merchantReference: 'SAF1-NOPE-0000', totalCents: 100, currency: 'USD', lang: 'ar' }))).status).toBe(400);
    expect((await newNotices(since)).map((row) => [row.verdict, row.orderId, row.merchantReference])).toEqual([
      ['unknown_order', null, reference.slice(0, 40)],
      ['unknown_order', null, 'SAF1-NOPE-0000'],
    ]);
    expect(errors()).toEqual([
      expect.objectContaining({ event: 'payment_notice_refused', source: 'return', verdict: 'unknown_order' }),
      expect.objectContaining({ event: 'payment_notice_refused', source: 'feedback', verdict: 'unknown_order' }),
    ]);
  });
});

describe('bodies that are not payment responses get a 4xx, never a 5xx', () => {
  it('JSON, empty, no content type, 10,000 fields, NUL and other control characters, a key sent twice, a file, a field too long', async () => {
    const pending = await pendingOrder(app);
    const since = await lastNoticeId();
    const fields = apsResponse(pending.order);
    const form = (entries: [string, string][]) => new URLSearchParams(entries).toString();
    const withFile = new FormData();
    for (const [key, value] of Object.entries(fields)) withFile.append(key, value);
    withFile.append('receipt', new Blob(['%PDF-1.4']), 'receipt.pdf');
    const FORM = 'application/x-www-form-urlencoded';

    const cases: [label: string, body: string | FormData, contentType: string | undefined][] = [
      ['JSON', JSON.stringify(fields), 'application/json'],
      ['JSON sent as a form', JSON.stringify(fields), FORM],
      ['empty', '', FORM],
      ['no content type', form(Object.entries(fields)), undefined],
      ['plain text', form(Object.entries(fields)), 'text/plain'],
      ['10,000 fields', form(Array.from({ length: 10_000 }, (_, index) => [`f${index}`, 'x'])), FORM],
      ['a NUL in a value', form(Object.entries(apsResponse(pending.order, { customer_email: 'a\u0000@example.com' }))), FORM],
      ['a raw NUL byte', `${form(Object.entries(fields))}&x=\u0000`, FORM],
      ['a control character in a key', form([...Object.entries(fields), ['ev\u001bil', '1']]), FORM],
      ['a key sent twice', form([...Object.entries(fields), ['status', '13']]), FORM],
      ['a file part', withFile, undefined],
      ['a field of 2,001 characters', form([...Object.entries(fields), ['note', 'x'.repeat(2_001)]]), FORM],
      ['multipart without a boundary', form(Object.entries(fields)), 'multipart/form-data'],
    ];
    for (const kind of ['return', 'feedback'] as const) {
      for (const [label, body, contentType] of cases) {
        const res = await postRaw(app, kind, body, contentType);
        expect({ kind, label, status: res.status }).toEqual({ kind, label, status: 400 });
      }
    }
    const big = await postRaw(app, 'feedback', form([['x', 'y'.repeat(300 * 1024)]]), FORM);
    expect(big.status).toBe(413);

    await expectUntouched(pending);
    const notices = await newNotices(since);
    expect(notices.map((row) => row.verdict)).toEqual(Array<string>(cases.length * 2).fill('malformed'));
    // Kept as text that can be stored and read: control characters replaced.
    const nul = notices.find((row) => row.payload._body?.endsWith('&x=\ufffd'));
    expect(nul?.payload._content_type).toBe(FORM);
  });
});

describe('a database failure', () => {
  it('answers 503 so the gateway retries, with one error line that names the route and the failure only', async () => {
    const broken = await createPaymentTestApp();
    const pending = await pendingOrder(broken);
    await broken.close();
    const fields = apsResponse(pending.order);

    for (const [kind, route] of [['feedback', APS_FEEDBACK_PATH], ['return', APS_RETURN_PATH]] as const) {
      const before = broken.errors.length;
      const res = await postNotice(broken, kind, fields);
      expect({ kind, status: res.status }).toEqual({ kind, status: 503 });
      const lines = broken.errors.slice(before);
      expect(lines).toEqual([expect.objectContaining({ event: 'error', request_id: res.headers.get('x-request-id'), method: 'POST', route, error: expect.any(String) as string })]);
      // The failure's class and SQLSTATE at most: never its message, which may quote the payload.
      expect(Object.keys(lines[0]!).every((key) => ['event', 'request_id', 'method', 'route', 'error', 'code'].includes(key))).toBe(true);
    }
  });
});
