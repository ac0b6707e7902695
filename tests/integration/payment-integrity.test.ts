import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponValidateEndpoint, tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { paymentStatusEndpoint, type PaymentStatusData } from '../../src/contract/payment.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import { runBrokerArgs } from '../../src/server/admin/broker-commands';
import { listOrders } from '../../src/server/orders/order-admin';
import * as t from '../../src/server/db/schema';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import { addCoupon, disableCoupon } from '../../src/server/orders/coupon-admin';
import { ORDER_HOLD_MS, type RefundReason } from '../../src/server/orders/order-state';
import { listRefunds } from '../../src/server/orders/refunds';
import { apsSignature, verifyApsSignature } from '../../src/server/payments/aps-signature';
import { loadCertificateByPolicyId } from '../../src/server/policies/certificate-data';
import { completeTraveller } from '../support/review-cases';
import { testConfig } from '../support/test-app';
import { errorCodes } from './expect-envelope';
import { FIXED_NOW, LEBANON, TODAY, type LeadTestApp } from './lead-fixtures';
import { ADDON, insertQuote, PLAN } from './order-fixtures';
import {
  APS_DECLINED,
  apsResponse,
  chooseQuote,
  createPaymentTestApp,
  leadAtCheckout,
  newFortId,
  orderRow,
  pendingOrder,
  placeOrder,
  postNotice,
  type ApsOverrides,
  type CheckoutLead,
  type OrderRow,
  type TravellerNames,
} from './payment-fixtures';

/**
 * Payment integrity (issue 16): each attack of the issue replayed through the real signed API
 * (add-customer-lead, proceed-review, save-traveller-info, temp-checkout, payment-status) and the
 * real notice routes (the gateway's return and feedback), showing it no longer does harm:
 * - an order is a contract: a lead changed after checkout voids its pending orders, a payment
 *   still arriving for one is refunded, and a certificate says what the order bought;
 * - a notice whose signature verifies but which was re-split into other pairs is refused;
 * - a limited coupon is never used more often than its limit, whatever the concurrency;
 * - a withdrawn coupon voids its pending orders;
 * - a lead paid twice gets one policy, and the second payment is shown and listed as a refund.
 * The clock is FIXED_NOW; responses are built and signed the way APS builds them (payment-fixtures.ts).
 */

let app: LeadTestApp;

beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

/* ------------------------------------------------------------------------------------------- */
/* Shared helpers                                                                               */
/* ------------------------------------------------------------------------------------------- */

const RESPONSE_PHRASE = testConfig().apsResponsePhrase;

const orderById = async (id: number) => (await app.db.select().from(t.orders).where(eq(t.orders.id, id)))[0]!;
const policiesOf = (orderId: number) => app.db.select().from(t.policies).where(eq(t.policies.orderId, orderId));
const resultsOf = (reference: string) => app.db.select().from(t.paymentResults).where(eq(t.paymentResults.merchantReference, reference));
const noticesOf = (reference: string) =>
  app.db.select().from(t.paymentNotices).where(eq(t.paymentNotices.merchantReference, reference)).orderBy(t.paymentNotices.id);
const invoiceStatus = async (id: number) => (await app.db.select().from(t.invoices).where(eq(t.invoices.id, id)))[0]!.status;
const couponRow = async (code: string) => (await app.db.select().from(t.coupons).where(eq(t.coupons.code, code)))[0]!;
const ordersOfLead = (leadId: number) => app.db.select().from(t.orders).where(eq(t.orders.leadId, leadId)).orderBy(t.orders.id);
const setOrder = (order: OrderRow, values: Partial<OrderRow>) => app.db.update(t.orders).set(values).where(eq(t.orders.id, order.id));

/** Error lines written from now on (the app's logError sink). */
function errorsFrom(): () => ErrorLogLine[] {
  const start = app.errors.length;
  return () => app.errors.slice(start);
}

/** The error lines of some events only. */
const linesOf = (lines: ErrorLogLine[], ...events: string[]) => lines.filter((line) => events.includes(line.event));

async function expectRedirect(res: Response, location: string) {
  expect({ status: res.status, location: res.headers.get('location') }).toEqual({ status: 303, location });
}

async function expectFeedbackOk(res: Response) {
  expect({ status: res.status, text: await res.text() }).toEqual({ status: 200, text: 'OK' });
}

/**
 * Posts the gateway's success for `order` as its direct feedback (answered 200 like every genuine
 * notice, whatever it buys) and answers the fields posted.
 */
async function payByFeedback(order: OrderRow, overrides: ApsOverrides = {}): Promise<Record<string, string>> {
  const fields = apsResponse(order, overrides);
  await expectFeedbackOk(await postNotice(app, 'feedback', fields));
  return fields;
}

/** The order is paid and holds the one policy; answers that policy's id. */
async function expectPaidWithPolicy(order: OrderRow): Promise<number> {
  expect((await orderById(order.id)).status).toBe('paid');
  const policies = await policiesOf(order.id);
  expect(policies).toHaveLength(1);
  return policies[0]!.id;
}

/**
 * The gateway took money for `order` that buys nothing: the order is 'refund' with `reason` and
 * the gateway's answer, it has no policy, and exactly one payment_refund_due line names it.
 */
async function expectRefunded(order: OrderRow, reason: RefundReason, paid: Record<string, string>, lines: ErrorLogLine[]) {
  expect(await orderById(order.id)).toMatchObject({
    status: 'refund',
    refundReason: reason,
    paidAt: new Date(FIXED_NOW),
    fortId: paid.fort_id,
    responseCode: '14000',
  });
  expect(await policiesOf(order.id)).toEqual([]);
  expect(linesOf(lines, 'payment_refund_due')).toEqual([
    { event: 'payment_refund_due', order_id: order.id, reason, notice_id: expect.any(Number) as number },
  ]);
  // And on the broker's refunds list, with what a REFUND names.
  expect(await refundsOf(order.id)).toEqual([
    expect.objectContaining({ merchantReference: order.merchantReference, fortId: paid.fort_id, amountCents: order.totalCents, currency: 'USD', reason }),
  ]);
}

const refundsOf = (orderId: number) => app.db.select().from(t.refunds).where(eq(t.refunds.orderId, orderId)).orderBy(t.refunds.id);

let passports = 0;
const newPassport = () => `PI${String((passports += 1)).padStart(7, '0')}`;

/**
 * save-traveller-info for every live traveller of the lead, as the review page does: one name
 * per traveller (the first the principal), each keeping the passport it was saved with.
 */
async function reviewTravellers(lead: Pick<CheckoutLead, 'uuid' | 'leadId'>, names: TravellerNames[]) {
  const travellers = (await app.travellerRows(lead.leadId)).filter((row) => row.deletedAt === null);
  expect(travellers).toHaveLength(names.length);
  for (const [index, traveller] of travellers.entries()) {
    const values = completeTraveller(traveller.dob, traveller.passport ?? newPassport(), {
      index,
      plan: { providerId: 1000, isApiPlan: 1, isFamily: false, sourceId: LEBANON },
    });
    const res = await app.send(saveTravellerInfoEndpoint.path, {
      uuid: lead.uuid,
      insurance_id: 1000,
      traveller: { ...values, first_name: names[index]!.first, last_name: names[index]!.last, id: traveller.id },
      lang: 'en',
    });
    const json: unknown = await res.json();
    expect({ status: res.status, json }).toMatchObject({ status: 200, json: { data: { error: null } } });
  }
}

/** payment-status as /payment-result asks it (signed), with or without the attempt's reference. */
async function paymentStatus(uuid: string, reference: string | null = null): Promise<PaymentStatusData> {
  const res = await app.send(paymentStatusEndpoint.path, { uuid, merchant_reference: reference, language: 'en' });
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(paymentStatusEndpoint.response, json).data;
}

/** A coupon the broker adds: 10 % off, from today, `limit` uses. */
const addLimitedCoupon = (code: string, limit: number) => addCoupon(app.db, { code, type: 'percent', value: '10', limit: String(limit) }, TODAY);

const RANIA: TravellerNames = { first: 'Rania', last: 'Haddad' };
const KARIM: TravellerNames = { first: 'Karim', last: 'Haddad' };

/* ------------------------------------------------------------------------------------------- */
/* 1. An order is a contract: a lead changed after checkout                                    */
/* ------------------------------------------------------------------------------------------- */

describe('an order is a contract: a lead changed between checkout and payment', () => {
  it('stale-form swap: order A placed for one traveller, the lead re-quoted for two on a dearer plan, then A paid: A is refunded (order_void) and issues nothing; order B for the new details pays, and its certificate names what B priced', async () => {
    const lead = await leadAtCheckout(app);
    const orderA = await placeOrder(app, lead.uuid);
    const successA = apsResponse(orderA);

    // The trip saved again: two travellers, a longer trip.
    await app.save({
      ...lead.body,
      uuid: lead.uuid,
      session_id: lead.sessionId,
      end_date: '2026-04-20',
      no_of_traveller: 2,
      travellers_info: [{ dob: '1985-01-10' }, { dob: '1988-02-11', first_name: KARIM.first, last_name: KARIM.last, relationship_type_id: 2 }],
    });
    expect(await orderById(orderA.id)).toMatchObject({ status: 'void', voidReason: 'trip_changed', voidedAt: new Date(FIXED_NOW) });
    // A dearer quote for the new details, with the winter add-on, chosen and reviewed.
    const dearer = await insertQuote(app.db, lead.leadId, {
      planId: PLAN.plain,
      insurerId: 1000,
      premiumCents: 20_000,
      addons: [{ addonId: ADDON.winter, code: 'winter_sports', cents: 5_000, coveredTravellers: 2, disabled: false }],
    });
    await chooseQuote(app, lead.uuid, dearer, true);
    await reviewTravellers(lead, [RANIA, KARIM]);

    // A's old success arrives: the money buys nothing.
    const errors = errorsFrom();
    await expectFeedbackOk(await postNotice(app, 'feedback', successA));
    await expectRefunded(orderA, 'order_void', successA, errors());
    expect((await orderById(orderA.id)).voidReason).toBe('trip_changed');
    expect(await invoiceStatus(orderA.invoiceId)).toBe('open');
    expect(await app.db.select().from(t.policies).where(eq(t.policies.leadId, lead.leadId))).toEqual([]);

    // Order B, for what the lead now holds, pays and issues the policy B priced.
    const orderB = await placeOrder(app, lead.uuid);
    expect(orderB.totalCents).toBeGreaterThan(orderA.totalCents);
    expect(orderB.contract!.price).toMatchObject({ planCents: 20_000, addonsCents: 5_000, totalCents: orderB.totalCents });
    expect(orderB.contract!.addons.map((addon) => addon.addonId)).toEqual([ADDON.winter]);
    await payByFeedback(orderB);
    const certificate = await loadCertificateByPolicyId(app.db, await expectPaidWithPolicy(orderB));
    expect(certificate).toMatchObject({
      order: { merchantReference: orderB.merchantReference, totalCents: orderB.totalCents },
      plan: { nameEn: 'Test Plain Plan' },
      trip: { startDate: '2026-04-01', endDate: '2026-04-20' },
    });
    expect(certificate!.travellers.map(({ firstName, lastName }) => [firstName, lastName])).toEqual([
      [RANIA.first, RANIA.last],
      [KARIM.first, KARIM.last],
    ]);
    expect(await invoiceStatus(orderB.invoiceId)).toBe('paid');
  });

  it('another plan choice (the add-on added) between placing and paying voids the order (plan_changed); its payment is refunded and issues nothing', async () => {
    const lead = await leadAtCheckout(app);
    const orderA = await placeOrder(app, lead.uuid);
    const successA = apsResponse(orderA);

    await chooseQuote(app, lead.uuid, lead.quoteId, true);
    expect(await orderById(orderA.id)).toMatchObject({ status: 'void', voidReason: 'plan_changed' });

    const errors = errorsFrom();
    await expectFeedbackOk(await postNotice(app, 'feedback', successA));
    await expectRefunded(orderA, 'order_void', successA, errors());
    expect(await invoiceStatus(orderA.invoiceId)).toBe('open');

    // The add-on is only bought by an order placed for it.
    const orderB = await placeOrder(app, lead.uuid);
    expect(orderB.totalCents).toBeGreaterThan(orderA.totalCents);
    await payByFeedback(orderB);
    await expectPaidWithPolicy(orderB);
    expect((await orderById(orderB.id)).contract!.addons.map((addon) => addon.addonId)).toEqual([ADDON.winter]);
  });

  it('a traveller renamed at review between placing and paying voids the order (traveller_changed); its payment is refunded and issues nothing', async () => {
    const lead = await leadAtCheckout(app);
    const orderA = await placeOrder(app, lead.uuid);
    const successA = apsResponse(orderA);

    await reviewTravellers(lead, [{ first: 'Rima', last: RANIA.last }]);
    expect(await orderById(orderA.id)).toMatchObject({ status: 'void', voidReason: 'traveller_changed' });

    const errors = errorsFrom();
    await expectFeedbackOk(await postNotice(app, 'feedback', successA));
    await expectRefunded(orderA, 'order_void', successA, errors());
    expect(await invoiceStatus(orderA.invoiceId)).toBe('open');
    expect(await app.db.select().from(t.policies).where(eq(t.policies.leadId, lead.leadId))).toEqual([]);
  });

  it("a certificate reads the order's contract: travellers and trip changed by hand in the database after payment still show what was bought", async () => {
    const { lead, order } = await pendingOrder(app, { names: [RANIA, KARIM] });
    await payByFeedback(order);
    const policyId = await expectPaidWithPolicy(order);

    await app.db.update(t.leadTravellers).set({ firstName: 'Mallory', lastName: 'Intruder' }).where(eq(t.leadTravellers.leadId, lead.leadId));
    await app.db.update(t.leads).set({ endDate: '2026-06-30' }).where(eq(t.leads.id, lead.leadId));

    const certificate = await loadCertificateByPolicyId(app.db, policyId);
    expect(certificate!.travellers.map(({ firstName, lastName }) => [firstName, lastName])).toEqual([
      [RANIA.first, RANIA.last],
      [KARIM.first, KARIM.last],
    ]);
    expect(certificate!.trip).toMatchObject({ startDate: '2026-04-01', endDate: '2026-04-10' });
  });
});

/* ------------------------------------------------------------------------------------------- */
/* 2. Re-split notices: a signature that verifies is not enough                                 */
/* ------------------------------------------------------------------------------------------- */

describe('a re-split notice (its signature still verifies) is refused and applies nothing', () => {
  it('a genuine refusal re-split into status=14: the feedback gets 400, the return names no uuid, the order stays pending, nothing is applied, recorded invalid or mismatch', async () => {
    const { order } = await pendingOrder(app);
    // The gateway refuses a tampered request (signature mismatch) and echoes what it was sent,
    // the attacker's phone_number included, under the response phrase.
    const echoed = Object.fromEntries(Object.entries(order.purchaseFields!).filter(([key]) => key !== 'return_url'));
    const refusal: Record<string, string> = {
      ...echoed,
      phone_number: '1status=14zz=',
      response_code: '00008',
      response_message: 'Signature mismatch',
      status: '00',
    };
    const signature = apsSignature(refusal, RESPONSE_PHRASE);
    // The same signed string cut into other pairs: phone_number=1, status=14, zz=<the gateway's tail>.
    const { phone_number: _phone, response_code: code, response_message: text, status, ...rest } = refusal;
    const resplit = { ...rest, phone_number: '1', status: '14', zz: `response_code=${code}response_message=${text}status=${status}`, signature };
    expect(verifyApsSignature(resplit, RESPONSE_PHRASE)).toBe(true);
    const errors = errorsFrom();

    const feedback = await postNotice(app, 'feedback', resplit);
    expect(feedback.status).toBe(400);
    await expectRedirect(await postNotice(app, 'return', resplit), '/payment-result?lang=en');

    expect(await orderById(order.id)).toEqual(order);
    expect(await resultsOf(order.merchantReference)).toEqual([]);
    expect(await policiesOf(order.id)).toEqual([]);
    expect(await invoiceStatus(order.invoiceId)).toBe('open');
    const verdicts = (await noticesOf(order.merchantReference)).map((row) => row.verdict);
    expect(verdicts).toHaveLength(2);
    for (const verdict of verdicts) expect(['invalid', 'mismatch']).toContain(verdict);
    expect(linesOf(errors(), 'payment_notice_refused')).toHaveLength(2);
  });

  it.each([
    ['expiry_date', (fields: Record<string, string>) => ({ expiry_date: `${fields.expiry_date}fort_id=${fields.fort_id}` })],
    ['eci', (fields: Record<string, string>) => ({ eci: `${fields.eci}expiry_date=${fields.expiry_date}fort_id=${fields.fort_id}`, expiry_date: undefined })],
  ] as const)(
    'a genuine success pays once; a copy re-split with fort_id folded into %s is refused: one payment_results row, no refund due',
    async (_into, fold) => {
      const { order } = await pendingOrder(app);
      const genuine = await payByFeedback(order);
      const policyId = await expectPaidWithPolicy(order);

      const folded: Record<string, string | undefined> = { ...genuine, fort_id: undefined, ...fold(genuine) };
      const resplit: Record<string, string> = {};
      for (const [key, value] of Object.entries(folded)) if (value !== undefined) resplit[key] = value;
      expect(resplit).not.toHaveProperty('fort_id');
      expect(verifyApsSignature(resplit, RESPONSE_PHRASE)).toBe(true);
      const errors = errorsFrom();

      expect((await postNotice(app, 'feedback', resplit)).status).toBe(400);
      await expectRedirect(await postNotice(app, 'return', resplit), '/payment-result?lang=en');

      expect(await resultsOf(order.merchantReference)).toEqual([expect.objectContaining({ fortId: genuine.fort_id, status: '14' })]);
      expect(await orderById(order.id)).toMatchObject({ status: 'paid', fortId: genuine.fort_id });
      expect((await policiesOf(order.id)).map((policy) => policy.id)).toEqual([policyId]);
      expect(linesOf(errors(), 'payment_refund_due')).toEqual([]);
      expect(await refundsOf(order.id)).toEqual([]);
      expect(linesOf(errors(), 'payment_notice_refused').map((line) => 'verdict' in line && line.verdict)).toEqual(['invalid', 'invalid']);
    },
  );
});

/* ------------------------------------------------------------------------------------------- */
/* 3. Coupon uses are held at placement and never exceed the limit                              */
/* ------------------------------------------------------------------------------------------- */

describe('a limited coupon is never used past its limit', () => {
  it('20 checkouts at once on a coupon limited to 5: exactly 5 orders placed, 15 refused coupon_used_up; the 5 paid at once: used_count 5, 5 policies', async () => {
    await addLimitedCoupon('RUSH5', 5);
    const leads: CheckoutLead[] = [];
    for (let index = 0; index < 20; index += 1) leads.push(await leadAtCheckout(app));
    // Every lead has the same plan and price: the total with the coupon, as coupon-validate gives it.
    const validated = await app.send(couponValidateEndpoint.path, {
      uuid: leads[0]!.uuid,
      promo_code: 'RUSH5',
      language: 'en',
      insurance_type: 'travel',
      merchant_reference: null,
    });
    const total = v.parse(couponValidateEndpoint.response, await validated.json()).data.totals.total;

    const answers = await Promise.all(
      leads.map((lead) => app.send(tempCheckoutEndpoint.path, { uuid: lead.uuid, total_price_vat: total, language: 'en', coupon: 'RUSH5' })),
    );

    const outcomes = await Promise.all(answers.map(async (res) => ({ status: res.status, json: (await res.json()) as unknown })));
    const placedReferences = outcomes
      .filter((outcome) => outcome.status === 200)
      .map((outcome) => v.parse(tempCheckoutEndpoint.response, outcome.json).data.merchant_reference);
    const refusals = outcomes.filter((outcome) => outcome.status !== 200);
    expect({ placed: placedReferences.length, refused: refusals.length }).toEqual({ placed: 5, refused: 15 });
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ status: 422, json: { status: 422, data: { errors: { promo_code: 'coupon_used_up', coupon: 'coupon_used_up' } } } });
    }
    const placed = await Promise.all(placedReferences.map((reference) => orderRow(app, reference)));
    const coupon = await couponRow('RUSH5');
    expect((await app.db.select().from(t.orders).where(eq(t.orders.couponId, coupon.id))).map((order) => order.status)).toEqual(Array(5).fill('pending'));

    await Promise.all(placed.map((order) => payByFeedback(order)));
    expect((await couponRow('RUSH5')).usedCount).toBe(5);
    for (const order of placed) await expectPaidWithPolicy(order);
  });

  it('an order whose hold ran out, on a coupon someone else has since used up: its late payment is refunded coupon_used_up and used_count stays at the limit; with room left it is honoured', async () => {
    await addLimitedCoupon('LATE1', 1);
    const late = await pendingOrder(app, { coupon: 'LATE1' });
    const other = await leadAtCheckout(app);
    // While the order holds the coupon's one use, nobody else gets it.
    const held = await app.send(tempCheckoutEndpoint.path, { uuid: other.uuid, total_price_vat: late.order.totalCents, language: 'en', coupon: 'LATE1' });
    expect(await errorCodes(held, 422)).toEqual({ promo_code: 'coupon_used_up', coupon: 'coupon_used_up' });

    // An hour and a second later the hold is gone: the other lead takes and pays the last use.
    await setOrder(late.order, { createdAt: new Date(FIXED_NOW - ORDER_HOLD_MS - 1_000) });
    const otherOrder = await placeOrder(app, other.uuid, { coupon: 'LATE1' });
    await payByFeedback(otherOrder);
    await expectPaidWithPolicy(otherOrder);
    expect((await couponRow('LATE1')).usedCount).toBe(1);

    const errors = errorsFrom();
    const paid = await payByFeedback(late.order);
    // After its hour the order no longer held a use: the coupon's last one went to the other lead.
    await expectRefunded(late.order, 'coupon_used_up', paid, errors());
    expect((await couponRow('LATE1')).usedCount).toBe(1);
    expect(await invoiceStatus(late.order.invoiceId)).toBe('open');

    // The customer who was on the gateway's page at the hour, on a coupon with room: paid, counted.
    await addLimitedCoupon('LATE2', 2);
    const slow = await pendingOrder(app, { coupon: 'LATE2' });
    await setOrder(slow.order, { createdAt: new Date(FIXED_NOW - ORDER_HOLD_MS - 1_000) });
    await payByFeedback(slow.order);
    await expectPaidWithPolicy(slow.order);
    expect((await couponRow('LATE2')).usedCount).toBe(1);
  });

  it('a declined order (its use released) paid later, after others used the coupon up: refunded coupon_used_up, used_count never past the limit', async () => {
    await addLimitedCoupon('RETRY1', 1);
    const first = await pendingOrder(app, { coupon: 'RETRY1' });
    await expectFeedbackOk(await postNotice(app, 'feedback', apsResponse(first.order, APS_DECLINED)));
    expect((await orderById(first.order.id)).status).toBe('failed');

    const other = await leadAtCheckout(app);
    const otherOrder = await placeOrder(app, other.uuid, { coupon: 'RETRY1' });
    await payByFeedback(otherOrder);
    expect((await couponRow('RETRY1')).usedCount).toBe(1);

    // The first attempt's bank says yes after all (a new fort_id): the coupon has no room left.
    const errors = errorsFrom();
    const paid = await payByFeedback(first.order, { fort_id: newFortId() });
    await expectRefunded(first.order, 'coupon_used_up', paid, errors());
    expect((await couponRow('RETRY1')).usedCount).toBe(1);
    expect(await invoiceStatus(first.order.invoiceId)).toBe('open');
  });

  it('a lead holds one coupon use at most: a checkout with another coupon (or none) releases the earlier hold, so a second customer gets both 1-use coupons in turn; the released order paid later is refunded coupon_used_up', async () => {
    await addLimitedCoupon('HOLDA1', 1);
    await addLimitedCoupon('HOLDB1', 1);
    const hoarder = await pendingOrder(app, { coupon: 'HOLDA1' });
    const other = await leadAtCheckout(app);
    const tryCoupon = (code: string) => app.send(tempCheckoutEndpoint.path, { uuid: other.uuid, total_price_vat: hoarder.order.totalCents, language: 'en', coupon: code });
    // While the hoarder's newest order uses HOLDA1, it holds that use.
    expect(await errorCodes(await tryCoupon('HOLDA1'), 422)).toEqual({ promo_code: 'coupon_used_up', coupon: 'coupon_used_up' });

    // The hoarder checks out again with HOLDB1: HOLDA1 is released, HOLDB1 held.
    const second = await placeOrder(app, hoarder.lead.uuid, { coupon: 'HOLDB1' });
    expect(await orderById(hoarder.order.id)).toMatchObject({ status: 'pending' });
    expect(await errorCodes(await tryCoupon('HOLDB1'), 422)).toEqual({ promo_code: 'coupon_used_up', coupon: 'coupon_used_up' });
    const othersOrder = await placeOrder(app, other.uuid, { coupon: 'HOLDA1' });
    expect(othersOrder.discountCents).toBeGreaterThan(0);

    // Once more without a coupon: HOLDB1 is released too.
    await placeOrder(app, hoarder.lead.uuid);
    const third = await leadAtCheckout(app);
    expect((await placeOrder(app, third.uuid, { coupon: 'HOLDB1' })).discountCents).toBeGreaterThan(0);

    // The hoarder's first order is paid after all while the other customer's order holds the
    // released use: it no longer holds one itself, so it is refunded and the use stays theirs.
    const errors = errorsFrom();
    const paid = await payByFeedback(hoarder.order);
    await expectRefunded(hoarder.order, 'coupon_used_up', paid, errors());
    expect((await couponRow('HOLDA1')).usedCount).toBe(0);
    await payByFeedback(othersOrder);
    await expectPaidWithPolicy(othersOrder);
    expect((await couponRow('HOLDA1')).usedCount).toBe(1);
    expect((await orderById(second.id)).status).toBe('pending');
  });
});

/* ------------------------------------------------------------------------------------------- */
/* 4. A withdrawn coupon                                                                        */
/* ------------------------------------------------------------------------------------------- */

describe('a disabled coupon voids the pending orders that use it', () => {
  it('disableCoupon voids the order (coupon_withdrawn): its payments page answers 410 and a payment for it is refunded (order_void), used_count unchanged', async () => {
    await addLimitedCoupon('WITHDRAW10', 5);
    const { order } = await pendingOrder(app, { coupon: 'WITHDRAW10' });
    expect(order.discountCents).toBeGreaterThan(0);

    expect(await disableCoupon(app.db, 'WITHDRAW10', FIXED_NOW)).toMatchObject({ active: false, voided_orders: 1 });
    expect(await orderById(order.id)).toMatchObject({ status: 'void', voidReason: 'coupon_withdrawn' });
    expect((await app.app.request(`/pay/${order.merchantReference}`)).status).toBe(410);

    const errors = errorsFrom();
    const paid = await payByFeedback(order);
    await expectRefunded(order, 'order_void', paid, errors());
    expect((await couponRow('WITHDRAW10')).usedCount).toBe(0);
    expect(await invoiceStatus(order.invoiceId)).toBe('open');
  });
});

/* ------------------------------------------------------------------------------------------- */
/* 5. Two tabs, two payments                                                                    */
/* ------------------------------------------------------------------------------------------- */

describe('a lead paid twice', () => {
  it('two orders of one lead both paid: one policy; the second is refund (paid_twice), named by payment-status whichever attempt is asked, and listed for the broker', async () => {
    const first = await pendingOrder(app);
    const second = await placeOrder(app, first.lead.uuid);

    await payByFeedback(first.order);
    const errors = errorsFrom();
    const paidSecond = await payByFeedback(second);

    await expectPaidWithPolicy(first.order);
    await expectRefunded(second, 'paid_twice', paidSecond, errors());
    expect(await app.db.select().from(t.policies).where(eq(t.policies.leadId, first.lead.leadId))).toHaveLength(1);
    expect((await ordersOfLead(first.lead.leadId)).map((order) => order.status)).toEqual(['paid', 'refund']);

    const [policy] = await policiesOf(first.order.id);
    const refund = { merchant_reference: second.merchantReference, amount: second.totalCents, currency: 'USD' };
    for (const asked of [null, first.order.merchantReference, second.merchantReference]) {
      expect({ asked, status: await paymentStatus(first.lead.uuid, asked) }).toEqual({
        asked,
        status: expect.objectContaining({
          merchant_reference: first.order.merchantReference,
          status: 'paid',
          policy: expect.objectContaining({ policy_number: policy!.policyNumber }) as unknown,
          refund,
        }) as unknown,
      });
    }

    const refunds = await listOrders(app.db, { status: 'refund' });
    expect(refunds).toContainEqual(
      expect.objectContaining({ merchant_reference: second.merchantReference, status: 'refund', reason: 'paid_twice', policy_number: null }),
    );
  });

  it('a forced second success of one paid order (the same reference, another fort_id: two tabs on one payment page): the order stays paid with its one policy, the capture is a refund due (charged_again) with its fort_id and amount, on the refunds list, and payment-status names it', async () => {
    const { lead, order } = await pendingOrder(app);
    const paid = await payByFeedback(order);
    const policyId = await expectPaidWithPolicy(order);
    const errors = errorsFrom();
    const again = await payByFeedback(order);
    // Its copy through the browser's return records nothing more.
    await expectRedirect(await postNotice(app, 'return', again), `/payment-result?uuid=${lead.uuid}&ref=${order.merchantReference}&lang=en`);

    expect(await orderById(order.id)).toMatchObject({ status: 'paid', fortId: paid.fort_id });
    expect((await policiesOf(order.id)).map((policy) => policy.id)).toEqual([policyId]);
    expect(linesOf(errors(), 'payment_refund_due')).toEqual([
      { event: 'payment_refund_due', order_id: order.id, reason: 'charged_again', notice_id: expect.any(Number) as number },
    ]);
    expect(await refundsOf(order.id)).toEqual([
      expect.objectContaining({ merchantReference: order.merchantReference, fortId: again.fort_id, amountCents: order.totalCents, currency: 'USD', reason: 'charged_again' }),
    ]);
    expect((await listRefunds(app.db)).find((item) => item.fort_id === again.fort_id)).toMatchObject({
      merchant_reference: order.merchantReference,
      amount_cents: order.totalCents,
      reason: 'charged_again',
      order_status: 'paid',
    });
    expect(await paymentStatus(lead.uuid, order.merchantReference)).toMatchObject({
      status: 'paid',
      refund: { merchant_reference: order.merchantReference, amount: order.totalCents, currency: 'USD' },
    });
    // `npm run broker -- refunds`: the capture on one line, with what an APS REFUND names.
    const table = await runBrokerArgs(app.db, ['refunds'], FIXED_NOW);
    expect(table.code).toBe(0);
    expect(table.out.split('\n')[0]).toMatch(/^reference\s+fort_id\s+amount\s+why\s+recorded\s+order\s+policy\s+refund\s+answer$/);
    expect(table.out.split('\n').find((line) => line.includes(again.fort_id!))).toMatch(
      new RegExp(`^${order.merchantReference}\\s+${again.fort_id}\\s+\\$${(order.totalCents / 100).toFixed(2)}\\s+charged_again\\s+\\S+\\s+paid\\s+SFR-\\S+\\s+due\\s+—$`),
    );
    expect((await runBrokerArgs(app.db, ['refunds', '--json'], FIXED_NOW)).json).toEqual(await listRefunds(app.db));
  });
});
