import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payfortDataEndpoint } from '../../src/contract/payfort.endpoints';
import * as t from '../../src/server/db/schema';
import { message } from '../../src/server/http/messages';
import { verifyApsSignature } from '../../src/server/payments/aps-signature';
import { ORDER_HOLD_MS } from '../../src/server/orders/order-state';
import { testConfig } from '../support/test-app';
import { errorCodes, expectErrorEnvelope } from './expect-envelope';
import { FIXED_NOW, type LeadTestApp } from './lead-fixtures';
import { createPaymentTestApp, htmlOf, onlyForm, pendingOrder, placeOrder, type OrderRow } from './payment-fixtures';

/**
 * payfort-data (spec §7, issue 11 item 2, RULINGS 19): the signed APS redirection PURCHASE form
 * of the lead's own pending order, exactly the one its payments page posts. The signature is
 * checked against the string APS signs, written out here by hand.
 */

let app: LeadTestApp;
const config = testConfig();

beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

const payfortData = (body: unknown) => app.send(payfortDataEndpoint.path, body);

async function formOk(body: Record<string, unknown>) {
  const res = await payfortData(body);
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(payfortDataEndpoint.response, json).data;
}

describe('the lead’s own pending order', () => {
  let order: OrderRow;
  let uuid: string;
  let email: string;
  beforeAll(async () => {
    const placed = await pendingOrder(app, { addon: true });
    order = placed.order;
    uuid = placed.lead.uuid;
    email = (await app.leadRow(uuid)).email;
  });

  it('answers the gateway URL and the PURCHASE fields stored as sent: amount in minor units, USD, the order’s language (whatever language is asked), the lead’s e-mail, the return URL', async () => {
    const data = await formOk({ uuid, merchant_reference: order.merchantReference, language: 'ar' });
    expect(data.url).toBe(config.apsGatewayUrl);
    expect(data.fields).toEqual({
      command: 'PURCHASE',
      access_code: config.apsAccessCode,
      merchant_identifier: config.apsMerchantIdentifier,
      merchant_reference: order.merchantReference,
      amount: String(order.totalCents),
      currency: 'USD',
      language: order.lang,
      customer_email: email,
      return_url: `${config.publicUrl}/payments/aps/return`,
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('signs them as APS does: SHA-256 of request phrase + sorted key=value pairs + request phrase (a worked example)', async () => {
    const { fields } = await formOk({ uuid, merchant_reference: order.merchantReference, language: 'en' });
    const phrase = config.apsRequestPhrase;
    const signed =
      `${phrase}` +
      `access_code=${config.apsAccessCode}` +
      `amount=${order.totalCents}` +
      'command=PURCHASE' +
      'currency=USD' +
      `customer_email=${email}` +
      'language=en' +
      `merchant_identifier=${config.apsMerchantIdentifier}` +
      `merchant_reference=${order.merchantReference}` +
      `return_url=http://safar.test/payments/aps/return` +
      `${phrase}`;
    expect(fields.signature).toBe(createHash('sha256').update(signed, 'utf8').digest('hex'));
    expect(verifyApsSignature(fields, config.apsRequestPhrase)).toBe(true);
    expect(verifyApsSignature({ ...fields, amount: String(order.totalCents + 1) }, config.apsRequestPhrase)).toBe(false);
  });

  it('without a language, in the order’s; the same fields as the payments page posts', async () => {
    const data = await formOk({ uuid: uuid.toUpperCase(), merchant_reference: order.merchantReference });
    expect(data.fields.language).toBe('en');
    const page = onlyForm(await htmlOf(await app.app.request(`/pay/${order.merchantReference}`), 200));
    expect({ url: data.url, fields: data.fields }).toEqual({ url: page.action, fields: page.fields });
  });
});

describe('refusals', () => {
  it('another lead’s order is "not found", with the same answer as a reference that does not exist (RULINGS 24)', async () => {
    const mine = await pendingOrder(app);
    const theirs = await pendingOrder(app);
    const other = await payfortData({ uuid: mine.lead.uuid, merchant_reference: theirs.order.merchantReference, language: 'en' });
    expect(await errorCodes(other, 404)).toEqual({ merchant_reference: 'not_found' });
    const none = await payfortData({ uuid: mine.lead.uuid, merchant_reference: 'SAF1-NOPE-000000000000', language: 'en' });
    expect(await errorCodes(none, 404)).toEqual({ merchant_reference: 'not_found' });
    const unknownLead = await payfortData({ uuid: '00000000-0000-4000-8000-000000000000', merchant_reference: theirs.order.merchantReference });
    expect(await errorCodes(unknownLead, 404)).toEqual({ merchant_reference: 'not_found' });
  });

  it('paid: 409 order_paid, in the language asked', async () => {
    const { lead } = await pendingOrder(app);
    const paid = await placeOrder(app, lead.uuid, { total: 0, coupon: 'FREE100' });
    expect(paid.status).toBe('paid');
    const res = await payfortData({ uuid: lead.uuid, merchant_reference: paid.merchantReference, language: 'ar' });
    const body = await expectErrorEnvelope(res, 409);
    expect(body.data.errors).toEqual({ merchant_reference: 'order_paid' });
    expect(body.message).toBe(message('pay_order_paid', 'ar'));
  });

  it('failed: 409 order_failed; expired (over 24 hours): 409 order_expired', async () => {
    const failed = await pendingOrder(app);
    await app.db.update(t.orders).set({ status: 'failed', failedAt: new Date(FIXED_NOW) }).where(eq(t.orders.id, failed.order.id));
    expect(await errorCodes(await payfortData({ uuid: failed.lead.uuid, merchant_reference: failed.order.merchantReference }), 409)).toEqual({ merchant_reference: 'order_failed' });

    const old = await pendingOrder(app);
    await app.db.update(t.orders).set({ createdAt: new Date(FIXED_NOW - ORDER_HOLD_MS - 1) }).where(eq(t.orders.id, old.order.id));
    expect(await errorCodes(await payfortData({ uuid: old.lead.uuid, merchant_reference: old.order.merchantReference }), 409)).toEqual({ merchant_reference: 'order_expired' });
  });

  it('bad input is a 422 with field codes, an unsigned call a 401; never a 5xx', async () => {
    const { lead, order } = await pendingOrder(app);
    const cases: [body: unknown, errors: Record<string, string>][] = [
      [{ merchant_reference: order.merchantReference }, { uuid: 'required' }],
      [{ uuid: 'not-a-uuid', merchant_reference: order.merchantReference }, { uuid: 'invalid_value' }],
      [{ uuid: lead.uuid }, { merchant_reference: 'required' }],
      [{ uuid: lead.uuid, merchant_reference: 'A'.repeat(41) }, { merchant_reference: 'too_long' }],
      [{ uuid: lead.uuid, merchant_reference: 12 }, { merchant_reference: 'invalid_type' }],
      // A reference APS could not carry is refused by its shape, as payment-status refuses it.
      [{ uuid: lead.uuid, merchant_reference: '../orders/1' }, { merchant_reference: 'invalid_value' }],
      [{ uuid: lead.uuid, merchant_reference: "x' or 1=1" }, { merchant_reference: 'invalid_value' }],
      [{ uuid: lead.uuid, merchant_reference: '' }, { merchant_reference: 'invalid_value' }],
      [{ uuid: lead.uuid, merchant_reference: 'SAF\u0000' }, { merchant_reference: 'invalid_characters' }],
      [{ uuid: lead.uuid, merchant_reference: order.merchantReference, language: 'fr' }, { language: 'invalid_value' }],
    ];
    for (const [body, errors] of cases) {
      expect({ body, errors: await errorCodes(await payfortData(body), 422) }).toEqual({ body, errors });
    }
    const unsigned = await app.app.request(payfortDataEndpoint.path, { method: 'POST', body: JSON.stringify({ uuid: lead.uuid, merchant_reference: order.merchantReference }) });
    expect(unsigned.status).toBe(401);
  });
});
