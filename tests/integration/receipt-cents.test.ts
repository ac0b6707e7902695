import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { couponValidateEndpoint } from '../../src/contract/checkout.endpoints';
import type { Language } from '../../src/contract/endpoint';
import { proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import * as t from '../../src/server/db/schema';
import { certificatePath } from '../../src/server/policies/issue-policy';
import { formatMoney } from '../../src/web/i18n/format';
import { completeTraveller } from '../support/review-cases';
import { leadBody, LEBANON, type LeadTestApp } from './lead-fixtures';
import { ADDON, freshBotToken, insertQuote, PLAN } from './order-fixtures';
import { readEml, pdfTextOf } from './outbox-reader';
import { apsResponse, createPaymentTestApp, htmlOf, onlyForm, orderRow, placeOrder, postNotice } from './payment-fixtures';

/**
 * Money from checkout on, to the cent (issue 17 items 2 and 5, RULINGS 26). A family of three on
 * the stamp-fee insurer's plan (provider 3) with two add-ons and PHOENICIA20 (20 % of the plan):
 *   plan 48.35 + add-ons (29.95 + 15.05) − discount 9.67 + VAT 11 % 9.20 + stamp fee 2.00 = 94.88,
 * where whole dollars would read $48 + $45 − $10 + $9 + $2 = $94 against a total of $95. In English
 * and Arabic, the lines shown add up to the total to the cent on the checkout's price summary
 * (the server's totals as the SPA writes them), on the payments page, in the amount the gateway
 * is asked to charge, in the policy e-mail (text and HTML) and on the certificate.
 */

const PLAN_CENTS = 4_835;
const ADDONS = [
  { addonId: ADDON.stampWinter, code: 'winter_sports', cents: 2_995, en: 'Winter sports', ar: 'الرياضات الشتوية' },
  { addonId: ADDON.otherPlan, code: 'adventure_sports', cents: 1_505, en: 'Adventure sports', ar: 'رياضات المغامرة' },
];
// 20 % of 4 835 = 967; 4 835 + 4 500 − 967 = 8 368; 11 % = 920.48 → 920; + 200 = 9 488.
const TOTAL = 9_488;
const LINES = { plan: 4_835, addons: 4_500, discount: 967, vat: 920, stamp: 200 };
const FAMILY = [
  { first: 'Rania', last: 'Haddad', dob: '1985-01-10', relationship: null },
  { first: 'Karim', last: 'Haddad', dob: '1987-02-11', relationship: 1 },
  { first: 'Lina', last: 'Haddad', dob: '2015-03-12', relationship: 3 },
];

let app: LeadTestApp;
beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

/** Without the invisible direction marks. */
const visible = (text: string) => text.replace(/[\u2066-\u2069]/g, '');
/** "$1,234.56", "−$9.67", "USD 9.67" (marks and all) → signed cents; whole dollars do not parse. */
function cents(text: string): number {
  const match = /([\u2212-])?\s*(?:\$|USD )([\d,]+)\.(\d{2})\b/.exec(visible(text));
  if (!match) throw new Error(`no amount to the cent in "${text}"`);
  return (match[1] ? -1 : 1) * (Number(match[2]!.replace(/,/g, '')) * 100 + Number(match[3]));
}
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The family from Lebanon to France, their plan with both add-ons chosen, reviewed: at checkout (stage 3). */
async function familyAtCheckout(lang: Language) {
  const saved = await app.save(
    leadBody({ lang, is_family: true, no_of_traveller: 3, start_date: '2026-12-05', end_date: '2026-12-14', travellers_info: FAMILY.map(({ dob }) => ({ dob })) }),
  );
  const lead = await app.leadRow(saved.uuid);
  const quoteId = await insertQuote(app.db, lead.id, {
    planId: PLAN.stamp,
    insurerId: 3,
    premiumCents: PLAN_CENTS,
    addons: ADDONS.map(({ addonId, code, cents: price }) => ({ addonId, code, cents: price, coveredTravellers: 3, disabled: false })),
  });
  const proceeded = await app.send(proceedReviewEndpoint.path, {
    uuid: saved.uuid,
    policy_id: quoteId,
    addons: ADDONS.map((addon) => addon.addonId),
    bot_token: await freshBotToken(app.send),
  });
  expect(proceeded.status).toBe(200);
  const rows = (await app.travellerRows(lead.id)).filter((row) => row.deletedAt === null);
  for (const [index, traveller] of rows.entries()) {
    const values = completeTraveller(traveller.dob, `RC${lang.toUpperCase()}${String(index + 1).padStart(6, '0')}`, {
      index,
      plan: { providerId: 3, isApiPlan: 1, isFamily: true, sourceId: LEBANON },
    });
    const res = await app.send(saveTravellerInfoEndpoint.path, {
      uuid: saved.uuid,
      insurance_id: 3,
      traveller: { ...values, first_name: FAMILY[index]!.first, last_name: FAMILY[index]!.last, relationship_type_id: FAMILY[index]!.relationship, id: traveller.id },
      lang,
    });
    const json: unknown = await res.json();
    expect({ status: res.status, json }).toMatchObject({ status: 200, json: { data: { error: null } } });
  }
  return { uuid: saved.uuid, leadId: lead.id };
}

describe.each(['en', 'ar'] as const)('a family of three with two add-ons and PHOENICIA20, in %s: the lines add up to the total to the cent everywhere', (lang) => {
  it('checkout price summary, payments page, gateway amount, policy e-mail (text and HTML) and certificate', async () => {
    const family = await familyAtCheckout(lang);

    // Checkout: the server's totals with the coupon, as the price summary writes them.
    const validated = await app.send(couponValidateEndpoint.path, { uuid: family.uuid, promo_code: 'PHOENICIA20', language: lang, insurance_type: 'travel', merchant_reference: null });
    expect(validated.status).toBe(200);
    const totals = v.parse(couponValidateEndpoint.response, await validated.json()).data.totals;
    expect(totals).toMatchObject({ plan_price: LINES.plan, addons_price: LINES.addons, discount: LINES.discount, vat_amount: LINES.vat, stamp_fee: LINES.stamp, total: TOTAL });
    const summary = [
      formatMoney(totals.plan_price, lang, { cents: true }),
      formatMoney(totals.addons_price, lang, { cents: true }),
      formatMoney(totals.discount, lang, { cents: true, minus: true }),
      formatMoney(totals.vat_amount, lang, { cents: true }),
      formatMoney(totals.stamp_fee, lang, { cents: true }),
    ];
    expect(summary.map(visible)).toEqual(['$48.35', '$45.00', '\u2212$9.67', '$9.20', '$2.00']);
    expect(sum(summary.map(cents))).toBe(cents(formatMoney(totals.total, lang, { cents: true })));
    expect(visible(formatMoney(totals.total, lang, { cents: true }))).toBe('$94.88');

    // The order: what the gateway is asked to charge is that total, in minor units.
    const order = await placeOrder(app, family.uuid, { coupon: 'PHOENICIA20', lang });
    expect(order.totalCents).toBe(TOTAL);

    // The payments page: every line to the cent, adding up to the amount and the Pay button.
    const page = await htmlOf(await app.app.request(`/pay/${order.merchantReference}`), 200);
    const rows = [...page.matchAll(/<tr data-kind="(\w+)"><th scope="row">(.*?)<\/th><td>(.*?)<\/td><\/tr>/g)].map((row) => ({ kind: row[1]!, label: row[2]!, amount: row[3]! }));
    expect(rows.map((row) => row.kind)).toEqual(['plan', 'addon', 'addon', 'discount', 'vat', 'stamp']);
    expect(rows.map((row) => row.label).slice(1, 3)).toEqual(ADDONS.map((addon) => addon[lang]));
    expect(visible(rows[3]!.label)).toContain('PHOENICIA20');
    const amount = cents(/<div class="total">.*?<strong>(.*?)<\/strong>/.exec(page)![1]!);
    expect(amount).toBe(TOTAL);
    expect(sum(rows.map((row) => cents(row.amount)))).toBe(amount);
    expect(cents(/<button type="submit" class="primary">(.*?)<\/button>/.exec(page)![1]!)).toBe(TOTAL);
    const form = onlyForm(page);
    expect(form.fields).toMatchObject({ amount: String(TOTAL), currency: 'USD' });

    // The gateway charges it; its notice issues the policy, mailed at once.
    const feedback = await postNotice(app, 'feedback', apsResponse(await orderRow(app, order.merchantReference)));
    expect(feedback.status).toBe(200);
    const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id));
    expect(policy).toBeDefined();
    const [mail] = (await app.db.select().from(t.mailLog).where(eq(t.mailLog.leadId, family.leadId))).filter((row) => row.kind === 'policy');
    const eml = readEml(mail!.file!);

    // The e-mail: amount paid and its lines, the travellers, the plan, the add-ons and the dates.
    for (const part of [eml.text, eml.html]) {
      const shown = visible(part);
      for (const name of ['Rania Haddad', 'Karim Haddad', 'Lina Haddad', ...ADDONS.map((addon) => addon[lang]), 'PHOENICIA20']) expect(shown).toContain(name);
      expect(shown).toContain(lang === 'ar' ? 'خطة 910003' : 'Test Stamp Plan');
      expect(shown).toContain(lang === 'ar' ? 'من 5 كانون الأول 2026 إلى 14 كانون الأول 2026' : '5 December 2026 to 14 December 2026');
    }
    const textLines = eml.text.split(/\r?\n/);
    const heading = textLines.indexOf(lang === 'ar' ? 'تفاصيل الدفع:' : 'What you paid:');
    expect(heading).toBeGreaterThan(0);
    const receipt = textLines.slice(heading + 1);
    const lines = receipt.slice(0, receipt.indexOf(''));
    expect(lines).toHaveLength(7);
    const mailed = lines.map(cents);
    expect(mailed.at(-1)).toBe(TOTAL);
    expect(sum(mailed.slice(0, -1))).toBe(TOTAL);
    const htmlAmounts = [...eml.html.matchAll(/white-space: nowrap[^"]*">(?:<strong>)?([^<]*)</g)].map((match) => cents(match[1]!));
    expect(htmlAmounts).toEqual(mailed);

    // The certificate: the add-ons, the discount with its coupon and the amount paid, to the cent.
    const text = await pdfTextOf(eml.pdf!.bytes);
    const printed = /Premium paid (.*?) Total paid (USD [\d,.]+)/.exec(text);
    expect(printed).not.toBeNull();
    expect(printed![1]).toBe('Plan premium USD 48.35 Winter sports USD 29.95 Adventure sports USD 15.05 Discount (coupon PHOENICIA20) -USD 9.67 VAT (11%) USD 9.20 Stamp fee USD 2.00');
    const certificateLines = [...printed![1]!.matchAll(/-?USD [\d,]+\.\d{2}/g)].map((match) => cents(match[0]));
    expect(sum(certificateLines)).toBe(cents(printed![2]!));
    expect(cents(printed![2]!)).toBe(TOTAL);
    expect(text).toContain('USD 94.88 (VAT included)');
    // The same certificate from its link.
    expect((await app.app.request(certificatePath(policy!.downloadToken))).status).toBe(200);
  });
});
