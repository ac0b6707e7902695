import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUPON_CODES, couponValidateEndpoint, tempCheckoutEndpoint, type CheckoutTotals, type CouponCode } from '../../src/contract/checkout.endpoints';
import { personalDetailsEndpoint } from '../../src/contract/lead.endpoints';
import { proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import * as t from '../../src/server/db/schema';
import { AGENTS } from '../../src/server/db/seed-data';
import { message } from '../../src/server/http/messages';
import { invoiceFigures } from '../../src/server/orders/invoice-store';
import { checkoutTotals } from '../../src/server/orders/totals';
import { RATE_LIMITS } from '../../src/server/rate-limit/rate-limit';
import { completeTraveller } from '../support/review-cases';
import { ARABIC, errorCodes, expectErrorBody, expectErrorEnvelope } from './expect-envelope';
import { createLeadTestApp, FIXED_NOW, leadBody, LEBANON, type LeadTestApp } from './lead-fixtures';
import { ADDON, freshBotToken, insertQuote, insertTestCatalogue, PLAN } from './order-fixtures';

/**
 * Checkout (issue 10): coupon/validate, temp-checkout and the payments page, over the server's one
 * totals module (RULINGS 17–18). The clock is FIXED_NOW (15 March 2026): the demo coupons are
 * valid from 1 January 2026, OLD15 ended in 2025. VAT 11 %, stamp fee $2 (the seed's settings).
 */

type Plan = { planId: number; insurerId: number };
const PLANS = {
  plain: { planId: PLAN.plain, insurerId: 1000 },
  ownVat: { planId: PLAN.ownVat, insurerId: 7 },
  stamp: { planId: PLAN.stamp, insurerId: 3 },
} satisfies Record<string, Plan>;
/** The add-on of each test plan the quote offers at $25.00. */
const ADDON_OF: Record<number, number> = { [PLAN.plain]: ADDON.winter, [PLAN.ownVat]: ADDON.ownVatWinter, [PLAN.stamp]: ADDON.stampWinter };

/** Coupons of these tests only, beside the seeded demo coupons. */
const TEST_COUPONS = [
  // Used as many times as it allows.
  { code: 'USEDUP1', discountType: 1, discountValue: 10, validFrom: '2026-01-01', validTo: '2099-12-31', usageLimit: 1, usedCount: 1 },
  // Disabled by the broker: answers like an unknown code.
  { code: 'OFF1', discountType: 1, discountValue: 10, validFrom: '2026-01-01', validTo: '2099-12-31', active: false },
  // Not valid yet on 15 March 2026.
  { code: 'LATER1', discountType: 1, discountValue: 10, validFrom: '2026-06-01', validTo: '2099-12-31' },
  // 100 % with one use left, for the last-use race.
  { code: 'ONCE100', discountType: 1, discountValue: 100, validFrom: '2026-01-01', validTo: '2099-12-31', usageLimit: 1 },
];

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
  await insertTestCatalogue(app.db);
  await app.db.insert(t.coupons).values(TEST_COUPONS);
});
afterAll(() => app.close());

let passports = 0;
const newPassport = () => `CK${String((passports += 1)).padStart(7, '0')}`;

/**
 * A lead of one traveller with a chosen plan (premium $120.00, optionally its $25.00 add-on),
 * through proceed-review as the SPA does it; with `review` its traveller is saved too, so the lead
 * reaches checkout (stage 3).
 */
async function checkoutLead(plan: Plan, options: { addon?: boolean; review?: boolean; agentId?: number } = {}) {
  const saved = await app.save(leadBody(options.agentId ? { agent_id: options.agentId } : {}));
  const lead = await app.leadRow(saved.uuid);
  const addonId = ADDON_OF[plan.planId]!;
  const quoteId = await insertQuote(app.db, lead.id, {
    ...plan,
    premiumCents: 12_000,
    addons: [{ addonId, code: 'winter_sports', cents: 2_500, coveredTravellers: 1, disabled: false }],
  });
  const proceeded = await app.send(proceedReviewEndpoint.path, {
    uuid: saved.uuid,
    policy_id: quoteId,
    addons: options.addon ? [addonId] : [],
    bot_token: await freshBotToken(app.send),
  });
  expect(proceeded.status).toBe(200);
  if (options.review ?? true) {
    const [traveller] = await app.travellerRows(lead.id);
    const values = completeTraveller(traveller!.dob, newPassport(), { index: 0, plan: { providerId: plan.insurerId, isApiPlan: 1, isFamily: false, sourceId: LEBANON } });
    const res = await app.send(saveTravellerInfoEndpoint.path, { uuid: saved.uuid, insurance_id: plan.insurerId, traveller: { ...values, id: traveller!.id }, lang: 'en' });
    const json: unknown = await res.json();
    expect({ status: res.status, json }).toMatchObject({ status: 200, json: { data: { error: null, leads: { stage: 3 } } } });
  }
  const invoice = (await app.db.select().from(t.invoices).where(eq(t.invoices.leadId, lead.id)))[0]!;
  return { uuid: saved.uuid, sessionId: saved.session_id, lead, invoice };
}

const validate = (uuid: string, code: string, language: 'en' | 'ar' = 'en') =>
  app.send(couponValidateEndpoint.path, { uuid, promo_code: code, language, insurance_type: 'travel', merchant_reference: null });
const checkout = (uuid: string, total: number, extra: Record<string, unknown> = {}) =>
  app.send(tempCheckoutEndpoint.path, { uuid, total_price_vat: total, language: 'en', coupon: null, ...extra });

async function validateOk(uuid: string, code: string) {
  const res = await validate(uuid, code);
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(couponValidateEndpoint.response, json).data;
}

async function checkoutOk(uuid: string, total: number, extra: Record<string, unknown> = {}) {
  const res = await checkout(uuid, total, extra);
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(tempCheckoutEndpoint.response, json).data;
}

async function personalDetails(uuid: string) {
  const res = await app.send(personalDetailsEndpoint.path, { uuid, lang: 'en' });
  expect(res.status).toBe(200);
  return v.parse(personalDetailsEndpoint.response, await res.json()).data.customer;
}

const ordersOf = (leadId: number) => app.db.select().from(t.orders).where(eq(t.orders.leadId, leadId)).orderBy(t.orders.id);
const couponRow = async (code: string) => (await app.db.select().from(t.coupons).where(eq(t.coupons.code, code)))[0]!;
const invoiceStatus = async (leadId: number) => (await app.db.select().from(t.invoices).where(eq(t.invoices.leadId, leadId)))[0]!.status;
const totalsOf = (data: { totals: CheckoutTotals }) => data.totals;

describe('coupon/validate', () => {
  it('SAFAR10 takes 10 % of the plan only; the totals come from the stored invoice, typed with spaces and in lower case', async () => {
    const lead = await checkoutLead(PLANS.plain, { addon: true });
    const data = await validateOk(lead.uuid, ' safar 10 ');
    // 10 % of 12 000 = 1 200; 12 000 + 2 500 − 1 200 = 13 300; VAT 11 % = 1 463; total 14 763.
    expect(data).toEqual({
      code: 'SAFAR10',
      discount_amount: 1_200,
      discount_type_id: 1,
      discount_value: 10,
      totals: { plan_price: 12_000, addons_price: 2_500, discount: 1_200, subtotal: 13_300, vat_percent: 11, vat_amount: 1_463, stamp_fee: 0, total: 14_763 },
    });
    expect(data.totals).toEqual(checkoutTotals(invoiceFigures(lead.invoice), { type: 1, value: 10 }));
  });

  it('SAVE25 takes $25 off plan and add-ons; PHOENICIA20 works on its own insurer, with the stamp fee kept', async () => {
    const plain = await checkoutLead(PLANS.plain);
    // 12 000 − 2 500 = 9 500; VAT 1 045; total 10 545.
    expect(await validateOk(plain.uuid, 'SAVE25')).toMatchObject({
      code: 'SAVE25',
      discount_amount: 2_500,
      discount_type_id: 2,
      discount_value: 2_500,
      totals: { discount: 2_500, subtotal: 9_500, vat_amount: 1_045, total: 10_545 },
    });
    const phoenicia = await checkoutLead(PLANS.stamp);
    // 20 % of 12 000 = 2 400; 9 600 + VAT 1 056 + stamp 200 = 10 856.
    expect(await validateOk(phoenicia.uuid, 'PHOENICIA20')).toMatchObject({
      discount_amount: 2_400,
      totals: { subtotal: 9_600, vat_amount: 1_056, stamp_fee: 200, total: 10_856 },
    });
  });

  it('prices with the VAT stored with the invoice, not the current setting', async () => {
    const lead = await checkoutLead(PLANS.plain);
    await app.db.update(t.settings).set({ value: 15 }).where(eq(t.settings.key, 'vat_percent'));
    try {
      // Still 11 %: 10 800 × 11 % = 1 188.
      expect((await validateOk(lead.uuid, 'SAFAR10')).totals).toMatchObject({ vat_percent: 11, subtotal: 10_800, vat_amount: 1_188, total: 11_988 });
    } finally {
      await app.db.update(t.settings).set({ value: 11 }).where(eq(t.settings.key, 'vat_percent'));
    }
  });

  const REFUSED: [label: string, code: string, expected: CouponCode, plan: Plan][] = [
    ['an empty code', '   ', 'coupon_required', PLANS.plain],
    ['an unknown code', 'NOSUCH1', 'coupon_unknown', PLANS.plain],
    ['an expired code', 'OLD15', 'coupon_expired', PLANS.plain],
    ['a used-up code', 'USEDUP1', 'coupon_used_up', PLANS.plain],
    ["another insurer's code", 'PHOENICIA20', 'coupon_wrong_provider', PLANS.ownVat],
  ];

  it.each(['en', 'ar'] as const)('refuses each bad coupon with its own code and its own message (%s)', async (language) => {
    const leads = new Map<Plan, string>();
    for (const plan of new Set(REFUSED.map((row) => row[3]))) leads.set(plan, (await checkoutLead(plan)).uuid);
    const messages = new Set<string>();
    for (const [label, code, expected, plan] of REFUSED) {
      const body = await expectErrorEnvelope(await validate(leads.get(plan)!, code, language), 422);
      expect({ label, errors: body.data.errors, message: body.message }).toEqual({ label, errors: { promo_code: expected }, message: message(expected, language) });
      expect(ARABIC.test(body.message)).toBe(language === 'ar');
      messages.add(body.message);
    }
    // Every refusal has a message of its own.
    expect(messages.size).toBe(REFUSED.length);
    expect(COUPON_CODES).toEqual(expect.arrayContaining(REFUSED.map((row) => row[2])));
  });

  it('a disabled coupon is unknown, one not valid yet is expired', async () => {
    const lead = await checkoutLead(PLANS.plain);
    expect(await errorCodes(await validate(lead.uuid, 'OFF1'), 422)).toEqual({ promo_code: 'coupon_unknown' });
    expect(await errorCodes(await validate(lead.uuid, 'LATER1'), 422)).toEqual({ promo_code: 'coupon_expired' });
  });

  it('404 for an unknown lead, 409 plan_not_chosen without a plan, 409 lead_in_deal once paid', async () => {
    expect(await errorCodes(await validate(crypto.randomUUID(), 'SAFAR10'), 404)).toEqual({ uuid: 'not_found' });
    const bare = await app.save(leadBody());
    expect(await errorCodes(await validate(bare.uuid, 'SAFAR10'), 409)).toEqual({ uuid: 'plan_not_chosen' });
    const paid = await checkoutLead(PLANS.plain);
    await app.db.update(t.invoices).set({ status: 'paid' }).where(eq(t.invoices.id, paid.invoice.id));
    expect(await errorCodes(await validate(paid.uuid, 'SAFAR10'), 409)).toEqual({ uuid: 'lead_in_deal' });
  });
});

describe('temp-checkout', () => {
  it('refuses a tampered total with 409 totals_changed and the fresh totals, and creates nothing', async () => {
    const lead = await checkoutLead(PLANS.plain, { addon: true });
    const fresh = checkoutTotals(invoiceFigures(lead.invoice), null);
    // 12 000 + 2 500 = 14 500; VAT 1 595; total 16 095.
    expect(fresh.total).toBe(16_095);

    for (const [label, total, coupon, expected] of [
      ['one cent less', 16_094, null, fresh],
      ['zero', 0, null, fresh],
      ['the no-coupon total with SAFAR10 applied', 16_095, 'SAFAR10', checkoutTotals(invoiceFigures(lead.invoice), { type: 1, value: 10 })],
    ] as const) {
      const body = await expectErrorEnvelope(await checkout(lead.uuid, total, { coupon }), 409);
      expect({ label, message: body.message, data: body.data }).toEqual({
        label,
        message: message('totals_changed', 'en'),
        data: { errors: { total_price_vat: 'totals_changed' }, totals: expected },
      });
    }
    expect(await ordersOf(lead.lead.id)).toEqual([]);
    expect(await invoiceStatus(lead.lead.id)).toBe('open');
  });

  it('a 100 % coupon on a plan without add-ons: paid at once, the coupon counted once, the invoice paid, the lead in a deal', async () => {
    const lead = await checkoutLead(PLANS.plain);
    const before = (await couponRow('FREE100')).usedCount;
    const coupon = await validateOk(lead.uuid, 'FREE100');
    expect(coupon.totals).toMatchObject({ discount: 12_000, subtotal: 0, vat_amount: 0, stamp_fee: 0, total: 0 });
    expect((await personalDetails(lead.uuid)).isLeadAlreadyInDeal).toBe(false);

    const data = await checkoutOk(lead.uuid, 0, { coupon: 'FREE100', session_id: lead.sessionId, is_hundred_percent: 1, vat: 0, stamp_fee: 0, url: 'https://x' });
    expect(data).toEqual({ redirect_to_thank_you: true, merchant_reference: expect.stringMatching(/^SAF\d+-[0-9A-Z]+-[0-9A-Z]{12}$/) as unknown, payment_url: null, totals: coupon.totals });

    const [order, ...others] = await ordersOf(lead.lead.id);
    expect(others).toEqual([]);
    expect(order).toMatchObject({
      merchantReference: data.merchant_reference,
      status: 'paid',
      paidAt: new Date(FIXED_NOW),
      couponId: (await couponRow('FREE100')).id,
      planCents: 12_000,
      discountCents: 12_000,
      totalCents: 0,
      clientTotalCents: 0,
      currency: 'USD',
      lang: 'en',
      invoiceId: lead.invoice.id,
    });
    expect((await couponRow('FREE100')).usedCount).toBe(before + 1);
    expect(await invoiceStatus(lead.lead.id)).toBe('paid');
    expect((await personalDetails(lead.uuid)).isLeadAlreadyInDeal).toBe(true);

    // A second attempt (a reload, a second tab) is refused; nothing is counted again.
    expect(await errorCodes(await checkout(lead.uuid, 0, { coupon: 'FREE100' }), 409)).toEqual({ uuid: 'lead_in_deal' });
    expect(await errorCodes(await validate(lead.uuid, 'FREE100'), 409)).toEqual({ uuid: 'lead_in_deal' });
    expect(await ordersOf(lead.lead.id)).toHaveLength(1);
    expect((await couponRow('FREE100')).usedCount).toBe(before + 1);
  });

  it('saving a paid lead again (a shared link, a returning traveller) makes a new lead for the same customer and leaves the paid one as it was paid for', async () => {
    const lead = await checkoutLead(PLANS.plain);
    await checkoutOk(lead.uuid, 0, { coupon: 'FREE100' });
    const paidBefore = await app.leadRow(lead.uuid);
    const stagesBefore = await app.db.select().from(t.leadTrackers).where(eq(t.leadTrackers.leadId, paidBefore.id));

    const again = await app.save(leadBody({ uuid: lead.uuid, session_id: lead.sessionId, end_date: '2026-05-02' }));
    expect(again.uuid).not.toBe(lead.uuid);
    const fresh = await app.leadRow(again.uuid);
    expect(fresh.customerId).toBe(paidBefore.customerId);
    expect(await app.leadRow(lead.uuid)).toEqual(paidBefore);
    expect(await app.db.select().from(t.leadTrackers).where(eq(t.leadTrackers.leadId, paidBefore.id))).toEqual(stagesBefore);
    expect((await personalDetails(lead.uuid)).isLeadAlreadyInDeal).toBe(true);
    expect((await personalDetails(again.uuid)).isLeadAlreadyInDeal).toBe(false);
  });

  it('the last use of a coupon goes to the first order paid; the next checkout is refused coupon_used_up and creates nothing', async () => {
    const first = await checkoutLead(PLANS.plain);
    const second = await checkoutLead(PLANS.plain);
    expect((await validateOk(second.uuid, 'ONCE100')).totals.total).toBe(0);
    await checkoutOk(first.uuid, 0, { coupon: 'ONCE100' });
    expect((await couponRow('ONCE100')).usedCount).toBe(1);
    expect(await errorCodes(await checkout(second.uuid, 0, { coupon: 'ONCE100' }), 422)).toEqual({ promo_code: 'coupon_used_up', coupon: 'coupon_used_up' });
    expect(await ordersOf(second.lead.id)).toEqual([]);
    expect(await invoiceStatus(second.lead.id)).toBe('open');
  });

  it('a total to pay: a pending order per attempt with its own merchant reference and payments page; the coupon is not counted yet', async () => {
    const lead = await checkoutLead(PLANS.plain, { addon: true });
    const before = (await couponRow('SAFAR10')).usedCount;
    const one = await checkoutOk(lead.uuid, 14_763, { coupon: 'safar10' });
    const two = await checkoutOk(lead.uuid, 14_763, { coupon: 'SAFAR10' });
    for (const data of [one, two]) {
      expect(data.redirect_to_thank_you).toBe(false);
      expect(data.payment_url).toBe(`/pay/${data.merchant_reference}`);
      expect(data.merchant_reference).toMatch(/^[A-Za-z0-9_.-]{1,40}$/);
      expect(totalsOf(data)).toMatchObject({ discount: 1_200, total: 14_763 });
    }
    expect(one.merchant_reference).not.toBe(two.merchant_reference);
    const orders = await ordersOf(lead.lead.id);
    expect(orders.map((order) => [order.merchantReference, order.status, order.totalCents, order.paidAt])).toEqual([
      [one.merchant_reference, 'pending', 14_763, null],
      [two.merchant_reference, 'pending', 14_763, null],
    ]);
    expect((await couponRow('SAFAR10')).usedCount).toBe(before);
    expect(await invoiceStatus(lead.lead.id)).toBe('open');
    expect((await personalDetails(lead.uuid)).isLeadAlreadyInDeal).toBe(false);
  });

  it('a 100 % coupon with add-ons, or on provider 3 (stamp fee), still leaves something to pay', async () => {
    const addons = await checkoutLead(PLANS.plain, { addon: true });
    // 2 500 + VAT 275 = 2 775.
    expect((await checkoutOk(addons.uuid, 2_775, { coupon: 'FREE100' })).redirect_to_thank_you).toBe(false);
    const stamp = await checkoutLead(PLANS.stamp);
    // Subtotal 0, VAT 0, stamp fee 200.
    const data = await checkoutOk(stamp.uuid, 200, { coupon: 'FREE100' });
    expect(data).toMatchObject({ redirect_to_thank_you: false, totals: { subtotal: 0, stamp_fee: 200, total: 200 } });
    expect(await invoiceStatus(stamp.lead.id)).toBe('open');
  });

  it('provider 7 is priced with VAT per line', async () => {
    const lead = await checkoutLead(PLANS.ownVat, { addon: true });
    const expected = checkoutTotals(invoiceFigures(lead.invoice), { type: 2, value: 2_500 });
    // 12 000 + 2 500 − 2 500 = 12 000: plan line 9 500 → 1 045, add-on 2 500 → 275; VAT 1 320; total 13 320.
    expect(expected).toMatchObject({ subtotal: 12_000, vat_amount: 1_320, total: 13_320 });
    expect(totalsOf(await checkoutOk(lead.uuid, 13_320, { coupon: 'SAVE25' }))).toEqual(expected);
  });

  it('refuses a bad coupon with its code under promo_code and coupon, in the page\'s language; nothing is created', async () => {
    const lead = await checkoutLead(PLANS.plain);
    for (const language of ['en', 'ar'] as const) {
      const body = await expectErrorEnvelope(await checkout(lead.uuid, 13_320, { coupon: 'OLD15', language }), 422);
      expect(body.data.errors).toEqual({ promo_code: 'coupon_expired', coupon: 'coupon_expired' });
      expect(body.message).toBe(message('coupon_expired', language));
    }
    expect(await errorCodes(await checkout(lead.uuid, 13_320, { coupon: 'PHOENICIA20' }), 422)).toEqual({
      promo_code: 'coupon_wrong_provider',
      coupon: 'coupon_wrong_provider',
    });
    // The total comes first: a made-up total learns nothing about a code, known or not.
    for (const coupon of ['OLD15', 'NOSUCHCODE']) {
      expect(await errorCodes(await checkout(lead.uuid, 10_000, { coupon }), 409)).toEqual({ total_price_vat: 'totals_changed' });
    }
    // An empty coupon is no coupon.
    expect((await checkoutOk(lead.uuid, 13_320, { coupon: '' })).totals.discount).toBe(0);
    expect(await ordersOf(lead.lead.id)).toHaveLength(1);
  });

  it('409 review_incomplete before every traveller is saved, plan_not_chosen without a plan, 404 for an unknown lead', async () => {
    const chosen = await checkoutLead(PLANS.plain, { review: false });
    expect(await errorCodes(await checkout(chosen.uuid, 13_320), 409)).toEqual({ uuid: 'review_incomplete' });
    const bare = await app.save(leadBody());
    expect(await errorCodes(await checkout(bare.uuid, 13_320), 409)).toEqual({ uuid: 'plan_not_chosen' });
    expect(await errorCodes(await checkout(crypto.randomUUID(), 13_320), 404)).toEqual({ uuid: 'not_found' });
    expect(await ordersOf(chosen.lead.id)).toEqual([]);
  });

  it("422 for another agent's id; the lead's own agent is recorded on the order", async () => {
    const [first, second] = AGENTS;
    const lead = await checkoutLead(PLANS.plain, { agentId: first!.id });
    expect(await errorCodes(await checkout(lead.uuid, 13_320, { agent_id: second!.id }), 422)).toEqual({ agent_id: 'agent_mismatch' });
    expect(await errorCodes(await checkout(lead.uuid, 13_320, { agent_id: 99_999 }), 422)).toEqual({ agent_id: 'agent_unknown' });
    await checkoutOk(lead.uuid, 13_320, { agent_id: first!.id });
    expect((await ordersOf(lead.lead.id)).map((order) => order.agentId)).toEqual([first!.id]);
  });
});

describe('get-personal-details for checkout', () => {
  it("answers checkout_totals, the totals module's no-coupon answer (null without a plan), and isLeadAlreadyInDeal", async () => {
    const bare = await app.save(leadBody());
    expect(await personalDetails(bare.uuid)).toMatchObject({ get_invoice: null, checkout_totals: null, isLeadAlreadyInDeal: false });

    for (const plan of [PLANS.plain, PLANS.ownVat, PLANS.stamp]) {
      const lead = await checkoutLead(plan, { addon: true });
      const details = await personalDetails(lead.uuid);
      expect(details.checkout_totals).toEqual(checkoutTotals(invoiceFigures(lead.invoice), null));
      // The same figures as the invoice.
      expect(details.checkout_totals).toMatchObject({
        plan_price: details.get_invoice!.insurance_plan_price,
        subtotal: details.get_invoice!.total_price_without_vat,
        vat_amount: details.get_invoice!.vat_amount,
        stamp_fee: details.get_invoice!.stamp_fee,
        total: details.get_invoice!.total_price_vat,
      });
      expect(details.isLeadAlreadyInDeal).toBe(false);
    }
  });
});

describe('hostile bodies get a 4xx, never a 5xx, and create nothing', () => {
  it('coupon/validate and temp-checkout', async () => {
    const lead = await checkoutLead(PLANS.plain);
    const coupon = (change: Record<string, unknown>) => JSON.stringify({ uuid: lead.uuid, promo_code: 'SAFAR10', language: 'en', ...change });
    const pay = (change: Record<string, unknown>) => JSON.stringify({ uuid: lead.uuid, total_price_vat: 13_320, language: 'en', ...change });
    const cases: [label: string, path: string, text: string, status: number, errors: Record<string, string> | undefined][] = [
      ['a NUL in the code', couponValidateEndpoint.path, coupon({ promo_code: 'SAFAR\u000010' }), 422, { promo_code: 'invalid_characters' }],
      ['a code that is a number', couponValidateEndpoint.path, coupon({ promo_code: 10 }), 422, { promo_code: 'invalid_type' }],
      ['a code that is an object', couponValidateEndpoint.path, coupon({ promo_code: { $ne: '' } }), 422, { promo_code: 'invalid_type' }],
      ['a 1,000-character code', couponValidateEndpoint.path, coupon({ promo_code: 'A'.repeat(1_000) }), 422, { promo_code: 'too_long' }],
      ["SQL in the code", couponValidateEndpoint.path, coupon({ promo_code: "' OR 1=1 --" }), 422, { promo_code: 'coupon_unknown' }],
      ['a uuid that is not one', couponValidateEndpoint.path, coupon({ uuid: "' or 1=1 --" }), 422, { uuid: 'invalid_value' }],
      ['an unknown language', couponValidateEndpoint.path, coupon({ language: 'fr' }), 422, { language: 'invalid_value' }],
      ['a body that is not an object', couponValidateEndpoint.path, 'null', 422, { _: 'invalid_type' }],
      ['invalid JSON', couponValidateEndpoint.path, '{"uuid":', 400, { _: 'invalid_json' }],
      ['a total as text', tempCheckoutEndpoint.path, pay({ total_price_vat: '133.20' }), 422, { total_price_vat: 'invalid_type' }],
      ['a fractional total', tempCheckoutEndpoint.path, pay({ total_price_vat: 13_319.5 }), 422, { total_price_vat: 'out_of_range' }],
      ['a total missing', tempCheckoutEndpoint.path, pay({ total_price_vat: undefined }), 422, { total_price_vat: 'required' }],
      ['an enormous total', tempCheckoutEndpoint.path, pay({ total_price_vat: 1e300 }), 409, { total_price_vat: 'totals_changed' }],
      ['a negative total', tempCheckoutEndpoint.path, pay({ total_price_vat: -13_320 }), 409, { total_price_vat: 'totals_changed' }],
      ['a coupon that is an array', tempCheckoutEndpoint.path, pay({ coupon: ['SAFAR10'] }), 422, { coupon: 'invalid_type' }],
      ['a control character in the coupon', tempCheckoutEndpoint.path, pay({ coupon: 'FREE\u001b100' }), 422, { coupon: 'invalid_characters' }],
      ['an agent beyond PostgreSQL integer', tempCheckoutEndpoint.path, pay({ agent_id: 99_999_999_999 }), 422, { agent_id: 'out_of_range' }],
      ['an array', tempCheckoutEndpoint.path, '[]', 422, { uuid: 'required', total_price_vat: 'required' }],
      ['a 300 KB body', tempCheckoutEndpoint.path, pay({ padding: 'x'.repeat(300 * 1024) }), 413, undefined],
    ];
    for (const [label, path, text, status, errors] of cases) {
      const res = await app.send(path, text);
      const body = expectErrorBody(await res.json(), res.status);
      expect({ label, status: res.status, errors: body.data.errors }).toEqual({ label, status, errors });
    }
    expect(await ordersOf(lead.lead.id)).toEqual([]);
    expect(await invoiceStatus(lead.lead.id)).toBe('open');
  });
});

describe('rate limits', () => {
  const PER_LEAD = RATE_LIMITS.couponAttempts.perLead.limit;

  it(`coupon/validate: ${PER_LEAD} misses per lead, then 429 in the page's language`, async () => {
    const lead = await checkoutLead(PLANS.plain, { review: false });
    for (let i = 0; i < PER_LEAD; i += 1) expect(await errorCodes(await validate(lead.uuid, `GUESS${i}`), 422)).toEqual({ promo_code: 'coupon_unknown' });
    const over = await validate(lead.uuid, 'GUESS99');
    expect(over.headers.get('retry-after')).toBe('600');
    const english = await expectErrorEnvelope(over, 429);
    expect(english).toMatchObject({ message: message('rate_limited', 'en'), data: { errors: { uuid: 'rate_limited' } } });
    const arabic = await expectErrorEnvelope(await validate(lead.uuid, 'GUESS98', 'ar'), 429);
    expect(arabic.message).toBe(message('rate_limited', 'ar'));
    expect(arabic.message).toMatch(ARABIC);
  });

  it('answers that say nothing of a code spend no coupon attempt: an unknown lead (404) and a lead without a plan (409) are never refused', async () => {
    const bare = await app.save(leadBody());
    const unknown = crypto.randomUUID();
    for (let i = 0; i < PER_LEAD * 2; i += 1) {
      expect(await errorCodes(await validate(unknown, `GUESS${i}`), 404)).toEqual({ uuid: 'not_found' });
      expect(await errorCodes(await validate(bare.uuid, `GUESS${i}`), 409)).toEqual({ uuid: 'plan_not_chosen' });
    }
  });

  it('coupon/validate and a temp-checkout naming a coupon spend one shared budget of misses; a temp-checkout without a coupon does not', async () => {
    const lead = await checkoutLead(PLANS.plain);
    // Half the budget through each door; a made-up total with an unknown code is a miss too (its totals carry no discount).
    for (let i = 0; i < PER_LEAD / 2; i += 1) expect((await validate(lead.uuid, `GUESS${i}`)).status).toBe(422);
    for (let i = 0; i < PER_LEAD / 2; i += 1) expect(await errorCodes(await checkout(lead.uuid, 100, { coupon: `GUESS${i}` }), 409)).toEqual({ total_price_vat: 'totals_changed' });
    expect(await errorCodes(await checkout(lead.uuid, 100, { coupon: 'GUESS99' }), 429)).toEqual({ uuid: 'rate_limited' });
    expect(await errorCodes(await validate(lead.uuid, 'GUESS99'), 429)).toEqual({ uuid: 'rate_limited' });
    // Without a coupon, temp-checkout is only under its own limit.
    expect((await checkout(lead.uuid, 100)).status).toBe(409);
  });

  it(`temp-checkout: ${RATE_LIMITS.tempCheckout.perLead.limit} attempts per lead, then 429`, async () => {
    const limited = await createLeadTestApp();
    try {
      const lead = await limited.save(leadBody());
      const attempt = () => limited.send(tempCheckoutEndpoint.path, { uuid: lead.uuid, total_price_vat: 100, language: 'ar' });
      for (let i = 0; i < RATE_LIMITS.tempCheckout.perLead.limit; i += 1) expect((await attempt()).status).toBe(409);
      const over = await expectErrorEnvelope(await attempt(), 429);
      expect(over).toMatchObject({ message: message('rate_limited', 'ar'), data: { errors: { uuid: 'rate_limited' } } });
    } finally {
      await limited.close();
    }
  });
});
