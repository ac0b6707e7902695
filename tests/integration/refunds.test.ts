import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBrokerArgs } from '../../src/server/admin/broker-commands';
import * as t from '../../src/server/db/schema';
import { APS_SANDBOX_API_PATH } from '../../src/server/config';
import { extractText, getDocumentProxy } from 'unpdf';
import { tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { NAME_MAX_LENGTH } from '../../src/contract/travel-details.rules';
import { listRefunds, RefundRequestError, requestRefund } from '../../src/server/orders/refunds';
import { cancelPolicy, CancelPolicyError } from '../../src/server/policies/cancel-policy';
import { countOrders, listOrders } from '../../src/server/orders/order-admin';
import { MAX_ATTEMPTS } from '../../src/server/mail/outbox';
import { refundRequestFields } from '../../src/server/payments/aps-refund';
import { apsSignature } from '../../src/server/payments/aps-signature';
import { testConfig } from '../support/test-app';
import { FIXED_NOW, leadBody, type LeadTestApp } from './lead-fixtures';
import { apsResponse, createPaymentTestApp, leadAtCheckout, newFortId, orderRow, payOnCardPage, pendingOrder, placeOrder, postNotice, type OrderRow } from './payment-fixtures';

/**
 * Refunds through the gateway (issue 36 item 4). A lead paid twice on the embedded sandbox's card
 * page leaves a capture that bought nothing (a refunds row, due). `npm run broker -- refunds pay`
 * (runBrokerArgs, as the CLI and the admin endpoint run it) marks it requested and queues an APS
 * REFUND in the outbox; the aps-refund worker (drained by hand here) sends it to the sandbox's
 * paymentApi, which gives the capture back once, and the answer makes the refund refunded, the
 * order refunded and queues the customer's e-mail in the order's language. The attacks: two
 * requests at the same moment, an answer lost on the way (the REFUND sent again), a forged
 * answer, and the sandbox's own refusals.
 */

let clock = FIXED_NOW;
let app: LeadTestApp;
/** When set, the gateway's answer to the next REFUND is replaced (the network at the edge). */
let answerOverride: ((real: Response) => Promise<Response>) | null = null;
const refundCalls: Record<string, string>[] = [];

/** REFUNDs that never reach the gateway from now on (the network at the edge is down). */
let unreachable = 0;

const gatewayFetch: typeof fetch = async (input, init) => {
  const url = String(input);
  if (url.endsWith(APS_SANDBOX_API_PATH) && unreachable > 0) {
    unreachable -= 1;
    throw new TypeError('fetch failed');
  }
  const res = await app.app.request(url, init);
  if (!url.endsWith(APS_SANDBOX_API_PATH)) return res;
  refundCalls.push(JSON.parse(String(init?.body)) as Record<string, string>);
  const override = answerOverride;
  answerOverride = null;
  return override ? override(res) : res;
};

beforeAll(async () => {
  app = await createPaymentTestApp({ now: () => clock, gatewayFetch });
});
afterAll(() => app.close());

const CONTEXT = { actor: 'cli:broker', canSendRefunds: true };
const refundRow = async (reference: string) => (await app.db.select().from(t.refunds).where(eq(t.refunds.merchantReference, reference)))[0]!;
const captureOf = async (fortId: string) => (await app.db.select().from(t.apsSandboxCaptures).where(eq(t.apsSandboxCaptures.fortId, fortId)))[0]!;
const refundJobs = () => app.db.select().from(t.outbox).where(eq(t.outbox.queue, 'aps-refund'));
const refundMails = (leadId: number) =>
  app.db
    .select()
    .from(t.outbox)
    .where(and(eq(t.outbox.queue, 'mail'), eq(t.outbox.kind, 'refund')))
    .then((rows) => rows.filter((row) => (row.payload as { leadId?: number }).leadId === leadId));

/** A lead with two orders both paid on the sandbox's card page: the first holds the policy, the second is a refund due (paid_twice). */
async function paidTwice(lang: 'en' | 'ar' = 'en'): Promise<{ leadId: number; second: OrderRow; fortId: string }> {
  const first = await pendingOrder(app, { lang });
  const second = await placeOrder(app, first.lead.uuid, { lang });
  await payOnCardPage(app, first.order);
  const paid = await payOnCardPage(app, second);
  // The sandbox's feedback settles both (the test app's worker drains when nudged); wait on it, not on a clock.
  await app.app.feedbackWorker.drain();
  expect((await orderRow(app, second.merchantReference)).status).toBe('refund');
  expect(await refundRow(second.merchantReference)).toMatchObject({ status: 'due', reason: 'paid_twice', fortId: paid.fort_id, amountCents: second.totalCents });
  return { leadId: first.lead.leadId, second, fortId: paid.fort_id! };
}

describe('refunds pay, through the embedded sandbox', () => {
  it.each(['en', 'ar'] as const)(
    'in %s: the second payment of a lead paid twice is given back once: REFUND signed with the request phrase, answered 06; the refund refunded, the order refunded, the customer e-mailed in their language, the list shows it',
    async (lang) => {
      const { leadId, second, fortId } = await paidTwice(lang);
      const jobsBefore = (await refundJobs()).length;
      const run = await runBrokerArgs(app.db, ['refunds', 'pay', second.merchantReference], clock, CONTEXT);
      expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
      expect(run.out).toContain(`Requested the refund of $${(second.totalCents / 100).toFixed(2)} for ${second.merchantReference}`);
      const requested = await refundRow(second.merchantReference);
      expect(requested).toMatchObject({ status: 'requested', refundCents: second.totalCents, requestedBy: 'cli:broker', maintenanceReference: expect.stringMatching(/^R\d+-[0-9a-f]{12}$/) });

      const calls = refundCalls.length;
      await app.app.refundWorker.drain();
      expect(refundCalls.slice(calls)).toEqual([
        refundRequestFields({ ...requested, refundCents: second.totalCents }, requested.maintenanceReference!, lang, testConfig()),
      ]);
      expect(refundCalls.at(-1)!.signature).toBe(apsSignature({ ...refundCalls.at(-1)!, signature: undefined }, testConfig().apsRequestPhrase));
      expect(await refundRow(second.merchantReference)).toMatchObject({ status: 'refunded', responseCode: '06000', responseMessage: 'Success', answeredAt: new Date(clock) });
      expect((await orderRow(app, second.merchantReference)).status).toBe('refunded');
      expect(await captureOf(fortId)).toMatchObject({ amountCents: second.totalCents, refundedCents: second.totalCents });

      const [mail, ...more] = await refundMails(leadId);
      expect(more).toEqual([]);
      const payload = mail!.payload as { to: string; subject: string; text: string };
      const amount = `$${(second.totalCents / 100).toFixed(2)}`;
      // In Arabic the amount sits in a left-to-right isolate, so it reads "$58.00", never "58.00$".
      const expected = {
        en: { subject: 'Safar has refunded your payment', lines: [`We have refunded ${amount} to the card you paid with.`, 'Your trip was paid twice; this refunds the second payment. Your policy stays valid.'] },
        ar: { subject: 'أعاد «سفر» المبلغ الذي دفعته', lines: [`أعدنا \u2066${amount}\u2069 إلى البطاقة التي دفعت بها.`, 'دُفع ثمن رحلتك مرتين، وهذا المبلغ هو الدفعة الثانية. بوليصتك تبقى سارية.'] },
      }[lang];
      expect(payload.subject).toBe(expected.subject);
      for (const line of expected.lines) expect(payload.text).toContain(line);
      expect(payload.text).toContain(second.merchantReference);

      expect((await listRefunds(app.db)).find((item) => item.merchant_reference === second.merchantReference)).toMatchObject({
        status: 'refunded',
        refund_cents: second.totalCents,
        order_status: 'refunded',
        answer: '06000 Success',
      });
      // The audit log holds the request: who, what, which, before and after.
      expect(((await runBrokerArgs(app.db, ['audit', '--json'], clock, CONTEXT)).json as unknown[])[0]).toEqual({
        at: new Date(clock).toISOString(),
        actor: 'cli:broker',
        action: 'refunds.pay',
        target: second.merchantReference,
        before: [{ fort_id: fortId, status: 'due', refund_cents: null }],
        after: { status: 'requested', refund_cents: second.totalCents, maintenance_reference: requested.maintenanceReference },
      });
      // The broker's outbox view names the REFUND by its maintenance reference.
      const mailList = await runBrokerArgs(app.db, ['mail', '--json'], clock, CONTEXT);
      expect(mailList.json).toContainEqual(expect.objectContaining({ kind: 'aps-refund', reference: requested.maintenanceReference, to: 'APS REFUND', status: 'sent' }));
      // Asked again: refused, and nothing is sent.
      const again = await runBrokerArgs(app.db, ['refunds', 'pay', second.merchantReference], clock, CONTEXT);
      expect(again.code).toBe(2);
      expect(again.err).toContain(`${second.merchantReference} was refunded already`);
      expect(await refundJobs()).toHaveLength(jobsBefore + 1);
    },
  );

  it('a further capture of an order refunded already (a late success with another fort_id) is a new refund due, charged_again: no policy, the order stays refunded', async () => {
    const { second } = await paidTwice();
    await requestRefund(app.db, second, { requestedBy: 'cli:broker', canSend: true }, clock);
    await app.app.refundWorker.drain();
    expect((await orderRow(app, second.merchantReference)).status).toBe('refunded');
    const late = apsResponse(second, { fort_id: newFortId() });
    expect((await postNotice(app, 'feedback', late)).status).toBe(200);
    expect((await orderRow(app, second.merchantReference)).status).toBe('refunded');
    expect(await app.db.select().from(t.policies).where(eq(t.policies.orderId, second.id))).toEqual([]);
    expect(await app.db.select().from(t.refunds).where(and(eq(t.refunds.merchantReference, second.merchantReference), eq(t.refunds.fortId, late.fort_id!)))).toEqual([
      expect.objectContaining({ reason: 'charged_again', status: 'due', amountCents: second.totalCents }),
    ]);
  });

  it('twenty requests for one refund at the same moment: one is taken, the rest are refused; one REFUND reaches the gateway and the capture is given back once', async () => {
    const { second, fortId } = await paidTwice();
    const jobsBefore = (await refundJobs()).length;
    const settled = await Promise.allSettled(Array.from({ length: 20 }, () => requestRefund(app.db, second, { requestedBy: 'cli:broker', canSend: true }, clock)));
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of settled.filter((result) => result.status === 'rejected')) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(RefundRequestError);
    expect(await refundJobs()).toHaveLength(jobsBefore + 1);
    const calls = refundCalls.length;
    await app.app.refundWorker.drain();
    await app.app.refundWorker.drain();
    expect(refundCalls.length - calls).toBe(1);
    expect(await captureOf(fortId)).toMatchObject({ refundedCents: second.totalCents });
  });

  it('the answer lost on the way back (the network at the edge): the REFUND is sent again after the backoff under the same maintenance reference, and the sandbox gives nothing back twice', async () => {
    const { second, fortId } = await paidTwice();
    await requestRefund(app.db, second, { requestedBy: 'cli:broker', canSend: true }, clock);
    const maintenanceReference = (await refundRow(second.merchantReference)).maintenanceReference;
    answerOverride = async (real) => {
      // The gateway refunded (its answer was computed and recorded), but the answer never arrives.
      await real.body?.cancel();
      throw new TypeError('fetch failed');
    };
    const calls = refundCalls.length;
    await app.app.refundWorker.drain();
    expect(await captureOf(fortId)).toMatchObject({ refundedCents: second.totalCents });
    const [job] = (await refundJobs()).filter((row) => (row.payload as { maintenanceReference?: string }).maintenanceReference === maintenanceReference);
    expect(job).toMatchObject({ status: 'pending', attempts: 1, lastError: 'no answer (TypeError)' });
    expect((await refundRow(second.merchantReference)).status).toBe('requested');

    clock += 60_000;
    await app.app.refundWorker.drain();
    expect(refundCalls.slice(calls).map((call) => call.maintenance_reference)).toEqual([maintenanceReference, maintenanceReference]);
    expect(await captureOf(fortId)).toMatchObject({ refundedCents: second.totalCents });
    expect(await refundRow(second.merchantReference)).toMatchObject({ status: 'refunded', responseCode: '06000' });
  });

  it('a gateway out of reach for every attempt (the network at the edge): the REFUND is given up, the refund stays requested; mail retry sends it again under the same maintenance reference and it goes through', async () => {
    const { second, fortId } = await paidTwice();
    await requestRefund(app.db, second, { requestedBy: 'cli:broker', canSend: true }, clock);
    const { maintenanceReference } = await refundRow(second.merchantReference);
    unreachable = MAX_ATTEMPTS;
    // Each attempt after the last one's backoff (at most 30 minutes); the clock goes back after, as
    // the signed requests of the tests after this one are made at the fixed clock.
    const start = clock;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      await app.app.refundWorker.drain();
      clock += 31 * 60_000;
    }
    clock = start;
    const [job] = (await refundJobs()).filter((row) => (row.payload as { maintenanceReference?: string }).maintenanceReference === maintenanceReference);
    expect(job).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'no answer (TypeError)' });
    expect((await refundRow(second.merchantReference)).status).toBe('requested');
    expect(app.errors.at(-1)).toMatchObject({ route: 'aps-refund', error: 'ApsRefundGaveUp (no answer (TypeError))' });

    const pending = await runBrokerArgs(app.db, ['mail', 'retry', String(job!.id)], clock, CONTEXT);
    expect(pending.out).toBe(`Outbox row ${job!.id} is pending again with its attempts back: the server's worker sends it now (at its next start if it is stopped).`);
    const again = await runBrokerArgs(app.db, ['mail', 'retry', String(job!.id)], clock, CONTEXT);
    expect(again.err.split('\n')[0]).toBe(`Outbox row ${job!.id} is pending: only a failed row is retried.`);
    await app.app.refundWorker.drain();
    expect(refundCalls.at(-1)!.maintenance_reference).toBe(maintenanceReference);
    expect(await refundRow(second.merchantReference)).toMatchObject({ status: 'refunded' });
    expect(await captureOf(fortId)).toMatchObject({ refundedCents: second.totalCents });
    expect(((await runBrokerArgs(app.db, ['audit', '--json'], clock, CONTEXT)).json as unknown[])[0]).toMatchObject({
      action: 'mail.retry',
      target: `outbox ${job!.id}`,
      before: { status: 'failed', attempts: MAX_ATTEMPTS, last_error: 'no answer (TypeError)' },
      after: { status: 'pending', attempts: 0 },
    });
  });

  it('an answer not signed with the response phrase is not taken: the refund stays requested and the REFUND is tried again', async () => {
    const { second } = await paidTwice();
    await requestRefund(app.db, second, { requestedBy: 'cli:broker', canSend: true }, clock);
    answerOverride = async (real) => {
      const fields = (await real.json()) as Record<string, string>;
      return Response.json({ ...fields, status: '06', signature: apsSignature(fields, 'not-the-response-phrase') });
    };
    await app.app.refundWorker.drain();
    expect((await refundRow(second.merchantReference)).status).toBe('requested');
    const [job] = (await refundJobs()).filter((row) => row.status === 'pending');
    expect(job).toMatchObject({ attempts: 1, lastError: 'answer not signed' });
    clock += 60_000;
    await app.app.refundWorker.drain();
    expect((await refundRow(second.merchantReference)).status).toBe('refunded');
  });

  it('a capture given back in the gateway already (the back office): the sandbox answers 07, the refund is refused with its message, and the broker may ask again', async () => {
    const { second, fortId } = await paidTwice();
    await app.db.update(t.apsSandboxCaptures).set({ refundedCents: second.totalCents }).where(eq(t.apsSandboxCaptures.fortId, fortId));
    await requestRefund(app.db, second, { requestedBy: 'cli:broker', canSend: true }, clock);
    await app.app.refundWorker.drain();
    expect(await refundRow(second.merchantReference)).toMatchObject({ status: 'refused', responseCode: '07000', responseMessage: 'Refund failed: more than is left to refund' });
    expect((await orderRow(app, second.merchantReference)).status).toBe('refund');
    const table = await runBrokerArgs(app.db, ['refunds'], clock, CONTEXT);
    expect(table.out).toMatch(new RegExp(`${second.merchantReference}.*refused.*07000 Refund failed: more than is left to refund`));
    const again = await runBrokerArgs(app.db, ['refunds', 'pay', second.merchantReference], clock, CONTEXT);
    expect(again.code).toBe(0);
    expect((await refundRow(second.merchantReference)).status).toBe('requested');
  });

  it('refuses what it cannot do, with the reason: no refund due under the reference, no way to send one, bad arguments', async () => {
    const { order } = await pendingOrder(app);
    await payOnCardPage(app, order);
    await app.app.feedbackWorker.drain();
    const paid = await runBrokerArgs(app.db, ['refunds', 'pay', order.merchantReference], clock, CONTEXT);
    expect({ code: paid.code, err: paid.err.split('\n')[0] }).toEqual({ code: 2, err: `No refund is due for ${order.merchantReference}.` });
    const { second } = await paidTwice();
    const unsendable = await runBrokerArgs(app.db, ['refunds', 'pay', second.merchantReference], clock, { actor: 'cli:broker', canSendRefunds: false });
    expect(unsendable.err).toContain('Refunds cannot be sent: APS_API_URL is not set beside a real gateway (APS_GATEWAY_URL).');
    expect((await refundRow(second.merchantReference)).status).toBe('due');
    for (const [argv, said] of [
      [['refunds', 'pay'], 'refunds pay takes one merchant reference.'],
      [['refunds', 'pay', 'A', 'B'], 'refunds pay takes one merchant reference.'],
      [['refunds', 'pay', 'A', '--fort-id', 'x1'], '--fort-id needs the digits of a fort_id.'],
      [['refunds', 'pay', 'A', '--amount', '5'], 'Unknown argument "--amount".'],
    ] as const) {
      const run = await runBrokerArgs(app.db, argv, clock, CONTEXT);
      expect({ argv, code: run.code, first: run.err.split('\n')[0] }).toEqual({ argv, code: 2, first: said });
    }
  });
});

describe('policies cancel (RULINGS 29): the certificate says CANCELLED, the premium comes back less the fee, the customer is e-mailed', () => {
  const FEE = 1_000;
  const policyOf = async (orderId: number) => (await app.db.select().from(t.policies).where(eq(t.policies.orderId, orderId)))[0]!;
  const mailsOf = async (leadId: number, kind: string) =>
    (await app.db.select().from(t.outbox).where(and(eq(t.outbox.queue, 'mail'), eq(t.outbox.kind, kind)))).filter((row) => (row.payload as { leadId?: number }).leadId === leadId);
  const certificateText = async (token: string) => {
    const res = await app.app.request(`/policies/${token}/certificate.pdf`);
    expect(res.status).toBe(200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await res.arrayBuffer())), { mergePages: true });
    return text.replace(/\s+/g, ' ');
  };

  it('in ar, before the start date, visa refused: cancelled at once; the REFUND asks the total less the $10.00 fee and is answered 06; the order stays paid; the cancellation and refund e-mails are in Arabic', async () => {
    const { lead, order } = await pendingOrder(app, { lang: 'ar' });
    const paid = await payOnCardPage(app, order);
    await app.app.feedbackWorker.drain();
    const policy = await policyOf(order.id);
    expect(await certificateText(policy.downloadToken)).not.toContain('CANCELLED');

    const run = await runBrokerArgs(app.db, ['policies', 'cancel', policy.policyNumber.toLowerCase(), '--reason', 'visa_refused'], clock, CONTEXT);
    expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
    const refundCents = order.totalCents - FEE;
    expect(run.out).toContain(`Cancelled ${policy.policyNumber}: its certificate now says CANCELLED, its premium less the $10.00 cancellation fee, $${(refundCents / 100).toFixed(2)}, is being refunded`);
    expect(await policyOf(order.id)).toMatchObject({ cancelledAt: new Date(clock), cancelReason: 'visa_refused', cancelNote: null, cancelledBy: 'cli:broker' });
    expect(await certificateText(policy.downloadToken)).toContain('CANCELLED on 15 March 2026 (the visa was refused). This policy gives no cover.');

    expect(((await runBrokerArgs(app.db, ['audit', '--json'], clock, CONTEXT)).json as unknown[])[0]).toMatchObject({
      actor: 'cli:broker',
      action: 'policies.cancel',
      target: policy.policyNumber,
      before: { cancelled: false },
      after: { cancelled: true, reason: 'visa_refused', note: null, refund_cents: refundCents, fee_cents: FEE },
    });
    const [cancelMail] = await mailsOf(lead.leadId, 'policy-cancelled');
    expect((cancelMail!.payload as { text: string }).text).toContain(`بناءً على طلبك، أُلغيت بوليصتك \u2066${policy.policyNumber}\u2069 ولم تعد تغطيك.`);
    expect((cancelMail!.payload as { text: string }).text).toContain('السبب: رُفض طلب تأشيرتك.');

    await app.app.refundWorker.drain();
    expect(await refundRow(order.merchantReference)).toMatchObject({ reason: 'policy_cancelled', status: 'refunded', amountCents: order.totalCents, refundCents, fortId: paid.fort_id });
    expect(refundCalls.at(-1)).toMatchObject({ merchant_reference: order.merchantReference, fort_id: paid.fort_id, amount: String(refundCents), language: 'ar' });
    expect(await captureOf(paid.fort_id!)).toMatchObject({ refundedCents: refundCents });
    expect((await orderRow(app, order.merchantReference)).status).toBe('paid');
    const [refundMail] = await mailsOf(lead.leadId, 'refund');
    expect((refundMail!.payload as { text: string }).text).toContain('أُلغيت بوليصتك، وهذا المبلغ هو قسطها المُعاد.');
    expect((refundMail!.payload as { text: string }).text).toContain('يُحتفظ برسم الإلغاء وقدره \u2066$10.00\u2069.');

    const again = await runBrokerArgs(app.db, ['policies', 'cancel', policy.policyNumber, '--reason', 'other'], clock, CONTEXT);
    expect({ code: again.code, first: again.err.split('\n')[0] }).toEqual({ code: 2, first: `${policy.policyNumber} was cancelled already (${new Date(clock).toISOString()}).` });
  });

  it('a cancellation refund the gateway refused, asked again, asks the premium less the fee again, never the whole capture', async () => {
    const { order } = await pendingOrder(app);
    const paid = await payOnCardPage(app, order);
    await app.app.feedbackWorker.drain();
    const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id));
    // The whole capture given back in the back office already: the REFUND is refused (07).
    await app.db.update(t.apsSandboxCaptures).set({ refundedCents: order.totalCents }).where(eq(t.apsSandboxCaptures.fortId, paid.fort_id!));
    await cancelPolicy(app.db, { policyNumber: policy!.policyNumber, reason: 'trip_cancelled', note: null }, { cancelledBy: 'cli:broker', canSendRefunds: true }, clock);
    await app.app.refundWorker.drain();
    expect(await refundRow(order.merchantReference)).toMatchObject({ status: 'refused', refundCents: order.totalCents - FEE });
    const again = await runBrokerArgs(app.db, ['refunds', 'pay', order.merchantReference], clock, CONTEXT);
    expect(again.out).toContain(`Requested the refund of $${((order.totalCents - FEE) / 100).toFixed(2)} for ${order.merchantReference}`);
    expect(await refundRow(order.merchantReference)).toMatchObject({ status: 'requested', refundCents: order.totalCents - FEE });
    await app.app.refundWorker.drain();
    expect(refundCalls.at(-1)).toMatchObject({ merchant_reference: order.merchantReference, amount: String(order.totalCents - FEE) });
  });

  it("after the start date only with the broker's note; two cancellations at once: one is taken, one refund is requested", async () => {
    const { order } = await pendingOrder(app);
    await payOnCardPage(app, order);
    await app.app.feedbackWorker.drain();
    const { policyNumber } = await policyOf(order.id);
    const started = Date.parse('2026-04-01T08:00:00Z');
    const refused = await runBrokerArgs(app.db, ['policies', 'cancel', policyNumber, '--reason', 'trip_cancelled'], started, CONTEXT);
    expect(refused.err.split('\n')[0]).toBe(`${policyNumber} started on 2026-04-01: a cancellation after the start needs the broker's note (--note "why").`);
    const request = { policyNumber, reason: 'trip_cancelled' as const, note: 'Flight cancelled by the airline; insurer agreed by phone.' };
    const settled = await Promise.allSettled([0, 1].map(() => cancelPolicy(app.db, request, { cancelledBy: 'cli:broker', canSendRefunds: true }, started)));
    expect(settled.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((settled.find((result) => result.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(CancelPolicyError);
    expect(await policyOf(order.id)).toMatchObject({ cancelNote: request.note, cancelReason: 'trip_cancelled' });
    expect(await app.db.select().from(t.refunds).where(eq(t.refunds.orderId, order.id))).toEqual([expect.objectContaining({ status: 'requested', refundCents: order.totalCents - FEE })]);
  });

  it('a policy paid with a 100 % coupon is cancelled with nothing to refund and no REFUND sent; bad arguments are refused with the reason', async () => {
    const lead = await leadAtCheckout(app);
    const res = await app.send(tempCheckoutEndpoint.path, { uuid: lead.uuid, total_price_vat: 0, language: 'en', coupon: 'FREE100' });
    expect(res.status).toBe(200);
    const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.leadId, lead.leadId));
    const jobs = (await refundJobs()).length;
    const run = await runBrokerArgs(app.db, ['policies', 'cancel', policy!.policyNumber, '--reason', 'other'], clock, { actor: 'cli:broker', canSendRefunds: false });
    expect(run.out).toBe(`Cancelled ${policy!.policyNumber}: its certificate now says CANCELLED, nothing was paid by card, so nothing is refunded, and the customer is e-mailed.`);
    expect(await refundJobs()).toHaveLength(jobs);
    const [mail] = await mailsOf(lead.leadId, 'policy-cancelled');
    expect((mail!.payload as { text: string }).text).toContain('There is no payment by card to refund.');
    for (const [argv, said] of [
      [['policies', 'cancel', 'SFR-26-NOSUCH00', '--reason', 'other'], 'No policy is numbered SFR-26-NOSUCH00.'],
      [['policies', 'cancel', policy!.policyNumber], '--reason is one of visa_refused, trip_cancelled, other.'],
      [['policies', 'cancel', '--reason', 'other'], 'policies cancel takes one policy number.'],
      [['policies', 'cancel', 'X', '--reason', 'other', '--refund', '5'], 'Unknown argument "--refund".'],
      [['policies'], 'policies takes cancel POLICY_NUMBER --reason R [--note TEXT].'],
    ] as const) {
      const refusedRun = await runBrokerArgs(app.db, argv, clock, CONTEXT);
      expect({ argv, code: refusedRun.code, first: refusedRun.err.split('\n')[0] }).toEqual({ argv, code: 2, first: said });
    }
  });
});

describe('agents: listed with their work, added and disabled, each change audited', () => {
  it('a new agent gets the next id; their lead and paid order are counted; once disabled their link refuses new leads', async () => {
    const added = await runBrokerArgs(app.db, ['agents', 'add', '--name', 'Nadim Saad', '--email', 'Nadim@Agency.example'], clock, CONTEXT);
    const agentId = Number(/Added agent (\d+)/.exec(added.out)?.[1]);
    expect(added.out).toBe(`Added agent ${agentId}, Nadim Saad <nadim@agency.example>: their links carry agent_id=${agentId}.`);
    const { order } = await pendingOrder(app, { agentId });
    await payOnCardPage(app, order);
    await app.app.feedbackWorker.drain();
    const listed = (await runBrokerArgs(app.db, ['agents', '--json'], clock, CONTEXT)).json as { id: number }[];
    expect(listed.find((agent) => agent.id === agentId)).toEqual({
      id: agentId,
      name: 'Nadim Saad',
      email: 'nadim@agency.example',
      active: true,
      created: new Date(clock).toISOString(),
      leads: 1,
      shares: 0,
      paid_orders: 1,
    });
    expect(Math.max(...listed.map((agent) => agent.id))).toBe(agentId);

    expect((await runBrokerArgs(app.db, ['agents', 'disable', String(agentId)], clock, CONTEXT)).code).toBe(0);
    const refused = await app.send(addCustomerLeadEndpoint.path, leadBody({ agent_id: agentId }));
    expect({ status: refused.status, errors: ((await refused.json()) as { data: { errors?: unknown } }).data.errors }).toMatchObject({ status: 422, errors: { agent_id: 'agent_unknown' } });
    const audit = ((await runBrokerArgs(app.db, ['audit', '--json'], clock, CONTEXT)).json as { action: string; before: unknown; after: unknown }[]).slice(0, 2);
    expect(audit).toEqual([
      expect.objectContaining({ action: 'agents.disable', target: `agent ${agentId}`, before: { active: true }, after: { active: false } }),
      expect.objectContaining({ action: 'agents.add', target: 'Nadim@Agency.example', before: null, after: { id: agentId, name: 'Nadim Saad', email: 'nadim@agency.example', active: true } }),
    ]);
    for (const [argv, said] of [
      [['agents', 'add', '--name', 'نديم', '--email', 'x@y.example'], `--name must be a name in Latin letters, spaces, ".", "_", one "'" and one "-", at most ${NAME_MAX_LENGTH} characters (got "نديم").`],
      [['agents', 'add', '--name', 'Nadim Saad', '--email', 'nadim'], '--email must be an e-mail address (got "nadim").'],
      [['agents', 'disable', '999999'], 'No agent has the id 999999.'],
      [['agents', 'disable', 'x'], 'agents disable takes one agent id (a number).'],
    ] as const) {
      const run = await runBrokerArgs(app.db, argv, clock, CONTEXT);
      expect({ argv, code: run.code, first: run.err.split('\n')[0] }).toEqual({ argv, code: 2, first: said });
    }
  });
});

describe('orders: searched by reference, policy number, e-mail or phone and by day; one order shown whole', () => {
  it('finds a paid order every way the broker may ask, and shows its contract, notices, refund, policy and e-mails', async () => {
    const { lead, order } = await pendingOrder(app);
    // Two more attempts of the same lead, left unpaid, for the paging below.
    const second = await placeOrder(app, lead.uuid);
    const third = await placeOrder(app, lead.uuid);
    await payOnCardPage(app, order);
    await app.app.feedbackWorker.drain();
    await app.app.mailWorker.drain();
    const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id));
    const leadRow = await app.leadRow(lead.uuid);
    const national = leadRow.completePhoneNumber.replace('+961', '');
    const found = async (...args: string[]) =>
      ((await runBrokerArgs(app.db, ['orders', ...args, '--json'], clock, CONTEXT)).json as { merchant_reference: string }[]).map((item) => item.merchant_reference);
    for (const search of [order.merchantReference, policy!.policyNumber.toLowerCase(), leadRow.email.toUpperCase(), `0${national}`, `+961 ${national}`, `0${national}`.replace(/\d/g, (digit) => '٠١٢٣٤٥٦٧٨٩'[Number(digit)]!)]) {
      expect({ search, found: await found('--search', search, '--status', 'paid') }).toEqual({ search, found: [order.merchantReference] });
    }
    expect(await found('--search', order.merchantReference, '--status', 'pending')).toEqual([]);
    expect(await found('--search', order.merchantReference, '--status', 'paid', '--from', '2026-03-15', '--to', '2026-03-15')).toEqual([order.merchantReference]);
    expect(await found('--search', order.merchantReference, '--from', '2026-03-16')).toEqual([]);
    expect(await found('--search', 'nobody@nowhere.example')).toEqual([]);
    // A reference's digits are not a phone number: a customer whose phone ends with them is not
    // found by the reference, only by the number.
    const withDigits = await pendingOrder(app);
    await app.db.update(t.orders).set({ merchantReference: 'SAF-70123456-QZ' }).where(eq(t.orders.id, withDigits.order.id));
    const phoneOwner = await pendingOrder(app);
    await app.db.update(t.leads).set({ completePhoneNumber: '+96170123456' }).where(eq(t.leads.uuid, phoneOwner.lead.uuid));
    expect(await found('--search', 'SAF-70123456-QZ')).toEqual(['SAF-70123456-QZ']);
    expect(await found('--search', '70 123 456')).toEqual([phoneOwner.order.merchantReference]);

    // A page at a time, with the count the console's table shows: the lead's three orders, newest first.
    const byEmail = { search: leadRow.email };
    expect(await countOrders(app.db, byEmail)).toBe(3);
    expect((await listOrders(app.db, byEmail, 2, 0)).map((item) => item.merchant_reference)).toEqual([third.merchantReference, second.merchantReference]);
    expect((await listOrders(app.db, byEmail, 2, 2)).map((item) => item.merchant_reference)).toEqual([order.merchantReference]);
    expect(await countOrders(app.db, { ...byEmail, status: 'paid' })).toBe(1);

    const shown = (await runBrokerArgs(app.db, ['orders', 'show', order.merchantReference, '--json'], clock, CONTEXT)).json as Record<string, unknown>;
    expect(shown).toMatchObject({
      order: { merchant_reference: order.merchantReference, status: 'paid', amount_cents: order.totalCents, lead_uuid: lead.uuid, policy_number: policy!.policyNumber },
      contract: expect.objectContaining({ travellers: expect.any(Array) as unknown, price: expect.objectContaining({ totalCents: order.totalCents }) as unknown }) as unknown,
      notices: [expect.objectContaining({ source: 'feedback', verdict: 'applied', status: '14', response_code: '14000' })],
      refunds: [],
      policy: { number: policy!.policyNumber, certificate_path: `/policies/${policy!.downloadToken}/certificate.pdf`, cancelled: null },
      mails: [expect.objectContaining({ kind: 'policy', to: leadRow.email })],
    });
    // Reading a customer's full details is written to the audit log, with who read them.
    expect(((await runBrokerArgs(app.db, ['audit', '--json'], clock, CONTEXT)).json as unknown[])[0]).toEqual({
      at: new Date(clock).toISOString(),
      actor: 'cli:broker',
      action: 'orders.show',
      target: order.merchantReference,
      before: null,
      after: null,
    });
    const text = (await runBrokerArgs(app.db, ['orders', 'show', order.merchantReference], clock, CONTEXT)).out;
    for (const heading of ['Gateway notices', 'Refunds', 'Policy', 'E-mails']) expect(text).toContain(`\n${heading}\n`);
    expect(text).toMatch(/Refunds\n {2}none/);
    const unknown = await runBrokerArgs(app.db, ['orders', 'show', 'SAFAR-NOSUCH'], clock, CONTEXT);
    expect(unknown.err.split('\n')[0]).toBe('No order has the merchant reference SAFAR-NOSUCH.');
    expect((await runBrokerArgs(app.db, ['orders', '--from', '15/03/2026'], clock, CONTEXT)).err.split('\n')[0]).toBe('--from must be a date as YYYY-MM-DD (got "15/03/2026").');
  });
});

describe("the sandbox's REFUND command (paymentApi)", () => {
  const config = testConfig();
  /** A REFUND as a merchant signs it, with `change` applied before signing. */
  function refundBody(capture: { reference: string; fortId: string; amount: number }, change: Record<string, string | undefined> = {}) {
    const fields: Record<string, string | undefined> = {
      command: 'REFUND',
      access_code: config.apsAccessCode,
      merchant_identifier: config.apsMerchantIdentifier,
      merchant_reference: capture.reference,
      fort_id: capture.fortId,
      amount: String(capture.amount),
      currency: 'USD',
      language: 'en',
      ...change,
    };
    const present = Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
    return { ...present, signature: apsSignature(present, config.apsRequestPhrase) };
  }
  const post = async (body: unknown) => {
    const res = await app.app.request(APS_SANDBOX_API_PATH, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Record<string, string>;
    // Every answer is signed with the response phrase.
    expect(answer.signature).toBe(apsSignature(answer, config.apsResponsePhrase));
    return answer;
  };

  it('gives a capture back in parts up to what it took, refuses more (07), and answers a maintenance reference once', async () => {
    const { order } = await pendingOrder(app);
    const paid = await payOnCardPage(app, order);
    const capture = { reference: order.merchantReference, fortId: paid.fort_id!, amount: 1000 };
    expect(await post(refundBody(capture, { maintenance_reference: 'M-1' }))).toMatchObject({ status: '06', response_code: '06000', maintenance_reference: 'M-1', amount: '1000' });
    // The same maintenance reference again: the same answer, nothing more given back.
    expect(await post(refundBody(capture, { maintenance_reference: 'M-1' }))).toMatchObject({ status: '06' });
    expect((await captureOf(paid.fort_id!)).refundedCents).toBe(1000);
    const rest = order.totalCents - 1000;
    expect(await post(refundBody({ ...capture, amount: rest + 1 }, { maintenance_reference: 'M-2' }))).toMatchObject({ status: '07', response_message: 'Refund failed: more than is left to refund' });
    expect(await post(refundBody({ ...capture, amount: rest }, { maintenance_reference: 'M-3' }))).toMatchObject({ status: '06' });
    expect((await captureOf(paid.fort_id!)).refundedCents).toBe(order.totalCents);
  });

  it('refuses an unknown capture or a reference that is not its own (07), a bad signature (00008), a missing or malformed field (00001, 00002) and a body that is not JSON', async () => {
    const { order } = await pendingOrder(app);
    const paid = await payOnCardPage(app, order);
    const capture = { reference: order.merchantReference, fortId: paid.fort_id!, amount: 100 };
    expect(await post(refundBody({ ...capture, fortId: '1999999999999999999' }))).toMatchObject({ status: '07', response_message: 'Refund failed: no such transaction' });
    expect(await post(refundBody({ ...capture, reference: 'SAFAR-OTHER-1' }))).toMatchObject({ status: '07', response_message: 'Refund failed: no such transaction' });
    expect(await post(refundBody(capture, { currency: 'EUR' }))).toMatchObject({ status: '07', response_message: 'Refund failed: another currency' });
    expect(await post({ ...refundBody(capture), amount: '99999' })).toMatchObject({ status: '00', response_code: '00008' });
    expect(await post(refundBody(capture, { fort_id: undefined }))).toMatchObject({ status: '00', response_code: '00001' });
    expect(await post(refundBody(capture, { amount: '1.50' }))).toMatchObject({ status: '00', response_code: '00002' });
    expect(await post(refundBody(capture, { merchant_identifier: 'someoneelse' }))).toMatchObject({ status: '00', response_code: '00002' });
    expect(await post('{not json')).toMatchObject({ status: '00', response_code: '00001' });
    expect(await post([1, 2])).toMatchObject({ status: '00', response_code: '00001' });
    expect((await captureOf(paid.fort_id!)).refundedCents).toBe(0);
  });
});
