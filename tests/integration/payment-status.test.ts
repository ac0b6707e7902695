import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { paymentStatusEndpoint, type PaymentStatusData } from '../../src/contract/payment.endpoints';
import { proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import * as t from '../../src/server/db/schema';
import { message } from '../../src/server/http/messages';
import { completeTraveller } from '../support/review-cases';
import { testConfig } from '../support/test-app';
import { ARABIC, errorCodes, expectErrorEnvelope } from './expect-envelope';
import { createLeadTestApp, FIXED_NOW, leadBody, LEBANON, type LeadTestApp } from './lead-fixtures';
import { freshBotToken, insertQuote, insertTestCatalogue, PLAN } from './order-fixtures';

/**
 * payment-status (issue 11 item 4): what /payment-result and /thank-you-p read. Leads are taken
 * to checkout through the API and their first order placed with temp-checkout; the other states
 * an order reaches through the gateway (declined, cancelled, paid with its policy) are written
 * with Drizzle, since the return handler that writes them is tested on its own.
 */

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
  await insertTestCatalogue(app.db);
});
afterAll(() => app.close());

/** Plan premium $120.00, VAT 11 %: $133.20, nothing else. */
const PLAIN_TOTAL = 13_320;
const PUBLIC_URL = testConfig().publicUrl;

let passports = 0;
let references = 0;
const newReference = () => `PS-TEST-${String((references += 1)).padStart(4, '0')}`;

/** A lead of one traveller at checkout (plan chosen, traveller reviewed), with its first order placed. */
async function leadWithOrder() {
  const saved = await app.save(leadBody());
  const lead = await app.leadRow(saved.uuid);
  const quoteId = await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
  const proceeded = await app.send(proceedReviewEndpoint.path, { uuid: saved.uuid, policy_id: quoteId, addons: [], bot_token: await freshBotToken(app.send) });
  expect(proceeded.status).toBe(200);
  const [traveller] = await app.travellerRows(lead.id);
  const passport = `PS${String((passports += 1)).padStart(7, '0')}`;
  const values = completeTraveller(traveller!.dob, passport, { index: 0, plan: { providerId: 1000, isApiPlan: 1, isFamily: false, sourceId: LEBANON } });
  const reviewed = await app.send(saveTravellerInfoEndpoint.path, { uuid: saved.uuid, insurance_id: 1000, traveller: { ...values, id: traveller!.id }, lang: 'en' });
  expect(reviewed.status).toBe(200);
  const placed = await placeOrder(saved.uuid, PLAIN_TOTAL);
  expect(placed.redirect_to_thank_you).toBe(false);
  const [order] = await app.db.select().from(t.orders).where(eq(t.orders.merchantReference, placed.merchant_reference));
  return { uuid: saved.uuid, lead, order: order! };
}

async function placeOrder(uuid: string, total: number, coupon: string | null = null) {
  const res = await app.send(tempCheckoutEndpoint.path, { uuid, total_price_vat: total, language: 'en', coupon });
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(tempCheckoutEndpoint.response, json).data;
}

type OrderRow = typeof t.orders.$inferSelect;

/** Another attempt of the same lead and invoice, as the gateway left it. */
async function insertOrder(base: OrderRow, fields: Partial<typeof t.orders.$inferInsert>): Promise<OrderRow> {
  const { id: _id, createdAt: _created, ...copy } = base;
  const [row] = await app.db
    .insert(t.orders)
    .values({ ...copy, merchantReference: newReference(), status: 'pending', paidAt: null, fortId: null, responseCode: null, responseMessage: null, failedAt: null, ...fields })
    .returning();
  // A 'refund' order's capture is on the refunds list, as the payment notice records it.
  if (row!.status === 'refund') {
    await app.db.insert(t.refunds).values({
      orderId: row!.id,
      merchantReference: row!.merchantReference,
      fortId: `FORT-${row!.id}`,
      amountCents: row!.totalCents,
      currency: row!.currency,
      reason: row!.refundReason ?? 'paid_twice',
    });
  }
  return row!;
}

/** Marks an order paid and issues its policy, as the return handler would. */
async function payWithPolicy(order: OrderRow, policyNumber: string, token: string) {
  const paidAt = new Date(FIXED_NOW + 60_000);
  await app.db.update(t.orders).set({ status: 'paid', paidAt, fortId: `FORT-${order.id}`, responseCode: '14000', responseMessage: 'Success' }).where(eq(t.orders.id, order.id));
  await app.db.insert(t.policies).values({ orderId: order.id, leadId: order.leadId, policyNumber, downloadToken: token, issuedAt: paidAt });
  return paidAt;
}

const ask = (body: Record<string, unknown>) => app.send(paymentStatusEndpoint.path, body);

async function statusOk(uuid: string, reference?: string | null, language: 'en' | 'ar' = 'en'): Promise<PaymentStatusData> {
  const res = await ask({ uuid, language, ...(reference === undefined ? {} : { merchant_reference: reference }) });
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(paymentStatusEndpoint.response, json).data;
}

describe('payment-status: one order in each state', () => {
  it('an order placed at temp-checkout and not answered yet is pending, at the amount the server computed', async () => {
    const { uuid, order } = await leadWithOrder();
    expect(await statusOk(uuid, order.merchantReference)).toEqual({
      merchant_reference: order.merchantReference,
      status: 'pending',
      amount: PLAIN_TOTAL,
      currency: 'USD',
      reason: null,
      policy: null,
      paid_at: null,
      refund: null,
    });
  });

  it.each([
    ['the bank declined (status 13)', '13003', 'declined'],
    ['another status 13 code', '13010', 'declined'],
    ['the customer cancelled (00072)', '00072', 'cancelled'],
    ['a refused request (status 00, not 072)', '00016', 'other'],
    ['no response code kept', null, 'other'],
  ] as const)('a failed order names why: %s', async (_label, responseCode, reason) => {
    const { uuid, order } = await leadWithOrder();
    await app.db.update(t.orders).set({ status: 'failed', responseCode, failedAt: new Date(FIXED_NOW) }).where(eq(t.orders.id, order.id));
    expect(await statusOk(uuid, order.merchantReference)).toMatchObject({ status: 'failed', reason, policy: null, paid_at: null, amount: PLAIN_TOTAL });
  });

  it('a paid order answers its policy number and the absolute address of its certificate', async () => {
    const { uuid, order } = await leadWithOrder();
    const token = 'tok-paid-0001_abcdefghijklmnopqrstuvwxyz';
    const paidAt = await payWithPolicy(order, 'SFR-26-PAIDTEST', token);
    const [row] = await app.db.select({ pageToken: t.policies.pageToken }).from(t.policies).where(eq(t.policies.orderId, order.id));
    const pageToken = row!.pageToken;
    // The policy page's token is the database's own draw, 64 hex digits, never the certificate's.
    expect(pageToken).toMatch(/^[0-9a-f]{64}$/);
    expect(await statusOk(uuid, order.merchantReference)).toEqual({
      merchant_reference: order.merchantReference,
      status: 'paid',
      amount: PLAIN_TOTAL,
      currency: 'USD',
      reason: null,
      policy: { policy_number: 'SFR-26-PAIDTEST', certificate_url: `${PUBLIC_URL}/policies/${token}/certificate.pdf`, policy_page: `/policy/${pageToken}` },
      paid_at: paidAt.toISOString(),
      refund: null,
    });
  });

  it('a 100 % order placed at temp-checkout is paid with its policy, read with the uuid alone (/thank-you-p)', async () => {
    const saved = await app.save(leadBody());
    const lead = await app.leadRow(saved.uuid);
    const quoteId = await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
    expect((await app.send(proceedReviewEndpoint.path, { uuid: saved.uuid, policy_id: quoteId, addons: [], bot_token: await freshBotToken(app.send) })).status).toBe(200);
    const [traveller] = await app.travellerRows(lead.id);
    const values = completeTraveller(traveller!.dob, 'PS9000001', { index: 0, plan: { providerId: 1000, isApiPlan: 1, isFamily: false, sourceId: LEBANON } });
    expect((await app.send(saveTravellerInfoEndpoint.path, { uuid: saved.uuid, insurance_id: 1000, traveller: { ...values, id: traveller!.id }, lang: 'en' })).status).toBe(200);
    const placed = await placeOrder(saved.uuid, 0, 'FREE100');
    expect(placed.redirect_to_thank_you).toBe(true);

    const data = await statusOk(saved.uuid);
    const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.leadId, lead.id));
    expect(data).toEqual({
      merchant_reference: placed.merchant_reference,
      status: 'paid',
      amount: 0,
      currency: 'USD',
      reason: null,
      policy: { policy_number: policy!.policyNumber, certificate_url: `${PUBLIC_URL}/policies/${policy!.downloadToken}/certificate.pdf`, policy_page: `/policy/${policy!.pageToken}` },
      paid_at: new Date(FIXED_NOW).toISOString(),
      refund: null,
    });
    expect(data.policy!.policy_number).toMatch(/^SFR-26-[0-9A-Z]{8}$/);
  });
});

describe('payment-status: which order without a reference', () => {
  it("answers the lead's paid order, even when a later attempt exists; without one, its latest attempt", async () => {
    const { uuid, order: first } = await leadWithOrder();
    const declined = await insertOrder(first, { status: 'failed', responseCode: '13003' });
    // No paid order: the latest attempt (the declined one), not the first.
    expect(await statusOk(uuid)).toMatchObject({ merchant_reference: declined.merchantReference, status: 'failed', reason: 'declined' });
    expect(await statusOk(uuid, null)).toMatchObject({ merchant_reference: declined.merchantReference });

    const retried = await insertOrder(first, {});
    expect(await statusOk(uuid)).toMatchObject({ merchant_reference: retried.merchantReference, status: 'pending' });

    await payWithPolicy(retried, 'SFR-26-RETRIED1', 'tok-retried-0001_abcdefghijklmnopqrstuvw');
    const later = await insertOrder(first, {});
    // A later (stray) attempt does not hide the paid order and its policy.
    expect(await statusOk(uuid)).toMatchObject({ merchant_reference: retried.merchantReference, status: 'paid', policy: { policy_number: 'SFR-26-RETRIED1' } });
    // Once the lead is paid for, any attempt asked about answers the order holding the policy.
    expect(await statusOk(uuid, later.merchantReference)).toMatchObject({ merchant_reference: retried.merchantReference, status: 'paid', policy: { policy_number: 'SFR-26-RETRIED1' } });
    expect(await statusOk(uuid, declined.merchantReference)).toMatchObject({ merchant_reference: retried.merchantReference, status: 'paid', refund: null });
  });

  it('paid twice: every question answers the order holding the policy, with the second payment in refund; a voided or refunded attempt of an unpaid lead says why', async () => {
    const { uuid, order: first } = await leadWithOrder();
    const voided = await insertOrder(first, { status: 'void', voidReason: 'trip_changed' });
    expect(await statusOk(uuid, voided.merchantReference)).toMatchObject({ status: 'failed', reason: 'changed', policy: null, refund: null });
    const refunded = await insertOrder(first, { status: 'refund', refundReason: 'order_void', paidAt: new Date(FIXED_NOW) });
    expect(await statusOk(uuid, refunded.merchantReference)).toMatchObject({
      status: 'failed',
      reason: 'refund',
      policy: null,
      paid_at: null,
      refund: { merchant_reference: refunded.merchantReference, amount: refunded.totalCents, currency: 'USD' },
    });

    const paid = await insertOrder(first, {});
    await payWithPolicy(paid, 'SFR-26-TWICE001', 'tok-twice-0001_abcdefghijklmnopqrstuvwxy');
    const second = await insertOrder(first, { status: 'refund', refundReason: 'paid_twice', paidAt: new Date(FIXED_NOW) });
    const expected = {
      merchant_reference: paid.merchantReference,
      status: 'paid',
      policy: { policy_number: 'SFR-26-TWICE001' },
      refund: { merchant_reference: second.merchantReference, amount: second.totalCents, currency: 'USD' },
    };
    expect(await statusOk(uuid)).toMatchObject(expected);
    expect(await statusOk(uuid, second.merchantReference)).toMatchObject(expected);
    expect(await statusOk(uuid, paid.merchantReference)).toMatchObject(expected);
  });
});

describe('payment-status: refusals (4xx with a message and field codes, never 5xx)', () => {
  it("another lead's order asked with this lead's uuid is 404, exactly like an unknown reference", async () => {
    const mine = await leadWithOrder();
    const theirs = await leadWithOrder();
    await payWithPolicy(theirs.order, 'SFR-26-THEIRS01', 'tok-theirs-0001_abcdefghijklmnopqrstuvwx');

    const foreign = await expectErrorEnvelope(await ask({ uuid: mine.uuid, merchant_reference: theirs.order.merchantReference, language: 'en' }), 404);
    const unknown = await expectErrorEnvelope(await ask({ uuid: mine.uuid, merchant_reference: 'PS-NO-SUCH-ORDER', language: 'en' }), 404);
    expect(foreign).toEqual(unknown);
    expect(foreign).toEqual({ status: 404, message: message('not_found', 'en'), data: { errors: { merchant_reference: 'not_found' } } });
    // Nothing of the other lead's policy leaks, and its owner still reads it.
    expect(JSON.stringify(foreign)).not.toContain('SFR-26-THEIRS01');
    expect(await statusOk(theirs.uuid, theirs.order.merchantReference)).toMatchObject({ status: 'paid', policy: { policy_number: 'SFR-26-THEIRS01' } });
  });

  it('an unknown lead is 404 on its uuid; a lead with no order yet is 404 on the reference, in the asked language', async () => {
    expect(await errorCodes(await ask({ uuid: crypto.randomUUID(), language: 'en' }), 404)).toEqual({ uuid: 'not_found' });
    const bare = await app.save(leadBody());
    const body = await expectErrorEnvelope(await ask({ uuid: bare.uuid, language: 'ar' }), 404);
    expect(body.data.errors).toEqual({ merchant_reference: 'not_found' });
    expect(body.message).toBe(message('not_found', 'ar'));
    expect(ARABIC.test(body.message)).toBe(true);
  });

  it('reads an upper-cased uuid (a mail client changed the case) as the same lead', async () => {
    const { uuid, order } = await leadWithOrder();
    expect(await statusOk(uuid.toUpperCase(), order.merchantReference)).toMatchObject({ merchant_reference: order.merchantReference });
  });

  it.each([
    ['no uuid', { language: 'en' }, { uuid: 'required' }],
    ['a uuid that is not one', { uuid: '42', language: 'en' }, { uuid: 'invalid_value' }],
    ['a uuid that is a number', { uuid: 42, language: 'en' }, { uuid: 'invalid_type' }],
    ['a reference with a slash', { merchant_reference: '../orders/1', language: 'en' }, { merchant_reference: 'invalid_value' }],
    ['a reference with a space', { merchant_reference: 'PS 1', language: 'en' }, { merchant_reference: 'invalid_value' }],
    ['an empty reference', { merchant_reference: '', language: 'en' }, { merchant_reference: 'invalid_value' }],
    ['a reference of 41 characters', { merchant_reference: 'A'.repeat(41), language: 'en' }, { merchant_reference: 'too_long' }],
    ['a reference that is a number', { merchant_reference: 12, language: 'en' }, { merchant_reference: 'invalid_type' }],
    ['no language', { merchant_reference: 'PS-1' }, { language: 'required' }],
    ['an unknown language', { merchant_reference: 'PS-1', language: 'fr' }, { language: 'invalid_value' }],
    ['a control character in the reference', { merchant_reference: 'PS-\u00001', language: 'en' }, { merchant_reference: 'invalid_characters' }],
  ] as const)('refuses %s with 422 and its field code', async (_label, body, expected) => {
    // The cases about the reference and the language send a well-formed uuid; the uuid cases their own (or none).
    const about = Object.keys(expected)[0];
    const res = await ask(about === 'uuid' ? body : { uuid: crypto.randomUUID(), ...body });
    expect(await errorCodes(res, 422)).toEqual(expected);
  });

  it('a reference of exactly 40 allowed characters is a well-formed question (404 when no such order)', async () => {
    const { uuid } = await leadWithOrder();
    expect(await errorCodes(await ask({ uuid, merchant_reference: `${'Az09_.-'.repeat(5)}ABCDE`, language: 'en' }), 404)).toEqual({ merchant_reference: 'not_found' });
  });

  it('refuses an unsigned request with 401', async () => {
    const res = await app.app.request(paymentStatusEndpoint.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uuid: crypto.randomUUID(), language: 'en' }),
    });
    expect(res.status).toBe(401);
  });
});
