import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  latestLeadByIdEndpoint,
  latestLeadByUuidEndpoint,
  sendEmailByPageEndpoint,
} from '../../src/contract/quote.endpoints';
import * as t from '../../src/server/db/schema';
import { createTestApp, testConfig } from '../support/test-app';
import { ARABIC, errorCodes } from './expect-envelope';
import { FIXED_NOW, leadBody } from './lead-fixtures';
import { insertQuote, insertTestCatalogue, PLAN } from './order-fixtures';
import { addCustomerLeadEndpoint, type AddCustomerLeadRequest } from '../../src/contract/lead.endpoints';

/** Agent mode (RULINGS 14–15, 22): the e-mail share writes a real message, and the lead reads carry the WhatsApp text. */

const outboxDir = mkdtempSync(path.join(tmpdir(), 'safar-share-outbox-'));
let app: Awaited<ReturnType<typeof createTestApp>>;
let tick = 0;
const send = (p: string, body: unknown) => app.post(p, body, { nowMs: FIXED_NOW + (tick += 1) });

beforeAll(async () => {
  app = await createTestApp({ now: () => FIXED_NOW, config: testConfig({ outboxDir, publicUrl: 'https://safar.example' }) });
  await insertTestCatalogue(app.db);
});
afterAll(() => app.close());

async function saveLead(overrides: Partial<AddCustomerLeadRequest> = {}) {
  const res = await send(addCustomerLeadEndpoint.path, leadBody(overrides));
  const { data } = v.parse(addCustomerLeadEndpoint.response, await res.json());
  const [row] = await app.db.select().from(t.leads).where(eq(t.leads.uuid, data.uuid));
  return row!;
}

const emlFiles = () => readdirSync(outboxDir).filter((file) => file.endsWith('.eml'));


/** The invoice of the plain plan at $120.00 + 11 % VAT = $133.20, as proceed-review stores it. */
function plainPlanInvoice(leadId: number, quoteId: number, quoteRefNo: string) {
  return {
    leadId,
    quoteId,
    quoteRefNo,
    insurerId: 1000,
    planId: PLAN.plain,
    planPriceCents: 12_000,
    addons: [],
    totalWithoutVatCents: 12_000,
    vatPercent: 11,
    vatCents: 1_320,
    stampFeeCents: 0,
    totalWithVatCents: 13_320,
  };
}

describe('send-email-by-page', () => {
  it('writes an .eml for the customer with the link (always under PUBLIC_URL) and the plans, and logs it', async () => {
    const lead = await saveLead();
    await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
    // Sent from another origin: only the path and query are kept, under the configured PUBLIC_URL.
    const link = `https://elsewhere.example/compare-quotes?uuid=${lead.uuid}&agent_id=101`;
    // The agent is left out (the customer is not in agent mode) and the text's language is named.
    const expectedLink = `https://safar.example/compare-quotes?uuid=${lead.uuid}&lang=en`;
    const before = emlFiles();

    const res = await send(sendEmailByPageEndpoint.path, { uuid: lead.uuid, pagename: 'compare-quotes', agent_id: 101, link });
    expect(res.status).toBe(200);
    expect(v.parse(sendEmailByPageEndpoint.response, await res.json()).data).toEqual({ sent: true });

    const added = emlFiles().filter((file) => !before.includes(file));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^20260315T100000Z-share-compare-quotes-\d+\.eml$/);
    const eml = readFileSync(path.join(outboxDir, added[0]!), 'utf8');
    expect(eml).toMatch(new RegExp(`^To: ${lead.email}`, 'm'));
    expect(eml).toMatch(/^Subject: Your travel insurance quotes from Safar/m);
    expect(eml).toMatch(/^From: Safar <care@safar\.example>/m);
    // Quoted-printable may fold long lines: unfold before looking for the link.
    const unfolded = eml.replace(/=\r\n/g, '').replace(/=3D/g, '=');
    expect(unfolded).toContain(expectedLink);
    expect(unfolded).not.toContain('elsewhere.example');
    expect(unfolded).not.toContain('agent_id');
    expect(unfolded).toContain('Test Plain Plan');
    expect(eml).toMatch(/Content-Type: text\/html/);

    const logs = await app.db.select().from(t.mailLog).where(eq(t.mailLog.leadId, lead.id));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ kind: 'share-compare-quotes', toAddress: lead.email, subject: 'Your travel insurance quotes from Safar' });
    expect(logs[0]!.file).toBe(path.join(outboxDir, added[0]!));
  });

  it('writes in Arabic for a customer whose lead is in Arabic, prices still "$120" as everywhere else', async () => {
    const lead = await saveLead({ lang: 'ar' });
    await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
    const res = await send(sendEmailByPageEndpoint.path, { uuid: lead.uuid, pagename: 'review-details', link: 'https://safar.example/review-details' });
    expect(res.status).toBe(200);
    const [log] = await app.db.select().from(t.mailLog).where(eq(t.mailLog.leadId, lead.id));
    expect(log?.subject).toMatch(ARABIC);
    const decoded = decodeMailBodies(readFileSync(log!.file!, 'utf8'));
    expect(decoded).toContain('$120');
    expect(decoded).not.toMatch(/[\u0660-\u0669]/);
  });

  it('404 for an unknown lead, 422 for an unknown agent, and writes nothing', async () => {
    const lead = await saveLead();
    const before = emlFiles().length;
    const unknown = await send(sendEmailByPageEndpoint.path, {
      uuid: '0b7c2a57-8d3e-4c43-9a57-7e3f1c3c2d11',
      pagename: 'compare-quotes',
      link: 'https://safar.example/x',
    });
    expect(unknown.status).toBe(404);
    const agent = await send(sendEmailByPageEndpoint.path, { uuid: lead.uuid, pagename: 'checkout', agent_id: 99_999, link: 'https://safar.example/x' });
    expect(await errorCodes(agent, 422)).toEqual({ agent_id: 'agent_unknown' });
    const badLink = await send(sendEmailByPageEndpoint.path, { uuid: lead.uuid, pagename: 'checkout', link: 'javascript:alert(1)' });
    expect(await errorCodes(badLink, 422)).toHaveProperty('link');
    expect(emlFiles().length).toBe(before);
  });
});

describe('get-latest-leads-by-lead-id and by-uuid', () => {
  it('answer the customer, the lead, the WhatsApp text with the link, and whether the lead is in a deal', async () => {
    const lead = await saveLead();
    const byId = await send(latestLeadByIdEndpoint.path, { lead_id: lead.id, session_id: lead.sessionId });
    expect(byId.status).toBe(200);
    const idData = v.parse(latestLeadByIdEndpoint.response, await byId.json()).data;
    expect(idData.customer.get_customer).toMatchObject({ id: lead.customerId, email: lead.email });
    expect(idData.customer.lead_details).toMatchObject({ uuid: lead.uuid, destination_id: lead.destinationIds });
    expect(idData.whatapp_template).toBe(
      `Hello Rania, here are the travel insurance plans we picked for your trip on Safar: https://safar.example/compare-quotes?uuid=${lead.uuid}&lang=en`,
    );
    expect(idData.isLeadAlreadyInDeal).toBe(false);

    const link = 'https://safar.example/compare-offers?uuid=abc';
    const byUuid = await send(latestLeadByUuidEndpoint.path, { uuid: lead.uuid, link, lang: 'ar' });
    const uuidData = v.parse(latestLeadByUuidEndpoint.response, await byUuid.json()).data;
    expect(uuidData.customer.get_customer).toEqual(idData.customer.get_customer);
    expect(uuidData.customer.lead_details).toMatchObject({ id: lead.id, uuid: lead.uuid, destination_country: 'فرنسا' });
    expect(uuidData.whatapp_template).toMatch(ARABIC);
    // The link names the lead it reads (not whatever uuid was sent) and the text's language.
    expect(uuidData.whatapp_template).toContain(`https://safar.example/compare-offers?uuid=${lead.uuid}&lang=ar`);
  });

  it('say isLeadAlreadyInDeal only once the invoice is no longer open', async () => {
    const lead = await saveLead();
    const quoteId = await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
    await app.db.insert(t.invoices).values(plainPlanInvoice(lead.id, quoteId, `SAF-TEST-${lead.id}`));
    const inDeal = async () =>
      v.parse(latestLeadByUuidEndpoint.response, await (await send(latestLeadByUuidEndpoint.path, { uuid: lead.uuid })).json()).data.isLeadAlreadyInDeal;
    expect(await inDeal()).toBe(false);
    await app.db.update(t.invoices).set({ status: 'paid' }).where(eq(t.invoices.leadId, lead.id));
    expect(await inDeal()).toBe(true);
  });

  it('404 for an unknown lead id or uuid', async () => {
    expect((await send(latestLeadByIdEndpoint.path, { lead_id: 2_000_000_000 })).status).toBe(404);
    expect((await send(latestLeadByUuidEndpoint.path, { uuid: '0b7c2a57-8d3e-4c43-9a57-7e3f1c3c2d11' })).status).toBe(404);
  });
});

describe('agent links and texts per shared page (issue 17)', () => {
  const SHARE_COUPONS = [
    { code: 'SHARE10', discountType: 1, discountValue: 10, validFrom: '2026-01-01', validTo: '2099-12-31' },
    { code: 'SHAREOLD', discountType: 1, discountValue: 10, validFrom: '2025-01-01', validTo: '2025-12-31' },
  ];
  beforeAll(async () => {
    await app.db.insert(t.coupons).values(SHARE_COUPONS);
  });

  /** A lead (in `lang`) with quotes and a chosen plan: $120.00 premium + 11 % VAT = $133.20. */
  async function leadWithChosenPlan(lang: 'en' | 'ar') {
    const lead = await saveLead({ lang });
    const quoteId = await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
    await insertQuote(app.db, lead.id, { planId: PLAN.levant, insurerId: 1000, premiumCents: 15_000 });
    await app.db.insert(t.invoices).values(plainPlanInvoice(lead.id, quoteId, `SAF-SHARE-${lead.id}`));
    // The lead was saved with its tracker at stage 1: its plan is chosen and its travellers reviewed.
    await app.db.update(t.leadTrackers).set({ stage: 3 }).where(eq(t.leadTrackers.leadId, lead.id));
    return lead;
  }

  async function whatsapp(lead: { uuid: string }, link: string, lang: 'en' | 'ar') {
    const res = await send(latestLeadByUuidEndpoint.path, { uuid: lead.uuid, link, lang });
    return v.parse(latestLeadByUuidEndpoint.response, await res.json()).data.whatapp_template;
  }

  async function mail(lead: { id: number; uuid: string }, pagename: string, link: string) {
    const res = await send(sendEmailByPageEndpoint.path, { uuid: lead.uuid, pagename, agent_id: 101, link });
    expect(res.status).toBe(200);
    const logs = await app.db.select().from(t.mailLog).where(eq(t.mailLog.leadId, lead.id));
    const log = logs.at(-1)!;
    return { subject: log.subject, body: decodeMailBodies(readFileSync(log.file!, 'utf8')).replace(/&amp;/g, '&') };
  }

  it('WhatsApp links carry the language on every shared page, in en and ar, and never the agent', async () => {
    const lead = await leadWithChosenPlan('en');
    for (const [path, lang] of [
      ['/compare-quotes', 'en'],
      ['/compare-offers', 'ar'],
      ['/review-details', 'ar'],
      ['/checkout', 'en'],
      ['/checkout', 'ar'],
    ] as const) {
      const text = await whatsapp(lead, `https://safar.example${path}?uuid=${lead.uuid}&agent_id=101`, lang);
      expect(text).toContain(`https://safar.example${path}?uuid=${lead.uuid}&lang=${lang}`);
      expect(text).not.toContain('agent_id');
      expect(ARABIC.test(text)).toBe(lang === 'ar');
    }
  });

  it('the WhatsApp text names the step: the plans to compare, the chosen plan to complete, the plan to pay with its total', async () => {
    const lead = await leadWithChosenPlan('en');
    const base = `https://safar.example`;
    expect(await whatsapp(lead, `${base}/compare-quotes?uuid=${lead.uuid}`, 'en')).toContain('here are the travel insurance plans we picked');
    const review = await whatsapp(lead, `${base}/review-details?uuid=${lead.uuid}`, 'en');
    expect(review).toContain('the plan you chose on Safar (Test Plain Plan)');
    expect(review).toContain('complete');
    expect(await whatsapp(lead, `${base}/review-details?uuid=${lead.uuid}`, 'ar')).toContain('(خطة 910001)');
    const checkout = await whatsapp(lead, `${base}/checkout?uuid=${lead.uuid}`, 'en');
    expect(checkout).toContain('is ready to pay. Total: $133.20.');
    const checkoutAr = await whatsapp(lead, `${base}/checkout?uuid=${lead.uuid}`, 'ar');
    expect(checkoutAr).toContain('جاهزة للدفع. المجموع: \u2066$133.20\u2069');
    expect(checkoutAr).toContain(`${base}/checkout?uuid=${lead.uuid}&lang=ar`);
  });

  it("a checkout link keeps the agent's coupon and the text shows the total with it; other pages drop a coupon", async () => {
    const lead = await leadWithChosenPlan('en');
    const text = await whatsapp(lead, `https://safar.example/checkout?uuid=${lead.uuid}&coupon=share%2010`, 'ar');
    // 10 % off $120.00 = $108.00, + 11 % VAT = $119.88.
    expect(text).toContain(`https://safar.example/checkout?uuid=${lead.uuid}&lang=ar&coupon=SHARE10`);
    expect(text).toContain('$119.88');
    // An expired coupon stays in the link (the customer's checkout shows why), the total is the plan's.
    const expired = await whatsapp(lead, `https://safar.example/checkout?uuid=${lead.uuid}&coupon=SHAREOLD`, 'en');
    expect(expired).toContain('&coupon=SHAREOLD');
    expect(expired).toContain('Total: $133.20.');
    expect(await whatsapp(lead, `https://safar.example/review-details?uuid=${lead.uuid}&coupon=SHARE10`, 'en')).not.toContain('coupon');
  });

  it('the share e-mail from checkout names the chosen plan to pay, with its total and the coupon link, in the lead\'s language', async () => {
    const en = await leadWithChosenPlan('en');
    const sent = await mail(en, 'checkout', `https://safar.example/checkout?uuid=${en.uuid}&coupon=SHARE10`);
    expect(sent.subject).toBe('Your travel insurance is ready to pay on Safar');
    expect(sent.body).toContain('Your plan Test Plain Plan is ready to pay.');
    expect(sent.body).toContain('Total to pay: $119.88 (VAT included).');
    expect(sent.body).toContain(`https://safar.example/checkout?uuid=${en.uuid}&lang=en&coupon=SHARE10`);
    // Not the quotes' e-mail: no "plans we picked", no list of other plans.
    expect(sent.body).not.toContain('plans we picked');
    expect(sent.body).not.toContain('Test Levant');
    expect(sent.body).not.toContain('Some of the plans');

    const ar = await leadWithChosenPlan('ar');
    const sentAr = await mail(ar, 'checkout', `https://safar.example/checkout?uuid=${ar.uuid}`);
    expect(sentAr.subject).toBe('تأمين سفرك بانتظار الدفع – «سفر»');
    expect(sentAr.body).toContain('خطتك «خطة 910001» جاهزة للدفع');
    expect(sentAr.body).toContain('المجموع المطلوب دفعه: \u2066$133.20\u2069');
    expect(sentAr.body).toContain(`https://safar.example/checkout?uuid=${ar.uuid}&lang=ar`);
  });

  it('the share e-mail from review names the chosen plan to complete; from the quotes it lists the plans to compare', async () => {
    const lead = await leadWithChosenPlan('en');
    const review = await mail(lead, 'review-details', `https://safar.example/review-details?uuid=${lead.uuid}`);
    expect(review.subject).toBe('Complete your travel insurance on Safar');
    expect(review.body).toContain("Here is the plan you chose for your trip: Test Plain Plan. Open the link to review and complete the travellers' details:");
    expect(review.body).toContain(`https://safar.example/review-details?uuid=${lead.uuid}&lang=en`);
    expect(review.body).not.toContain('Some of the plans');

    const ar = await leadWithChosenPlan('ar');
    const quotes = await mail(ar, 'compare-quotes', `https://safar.example/compare-quotes?uuid=${ar.uuid}`);
    expect(quotes.subject).toBe('عروض تأمين السفر لرحلتك من «سفر»');
    expect(quotes.body).toContain('افتح الرابط لمقارنتها');
    expect(quotes.body).toContain('بعض الخطط');
    expect(quotes.body).toContain(`https://safar.example/compare-quotes?uuid=${ar.uuid}&lang=ar`);
    const reviewAr = await mail(ar, 'review-details', `https://safar.example/review-details?uuid=${ar.uuid}`);
    expect(reviewAr.subject).toBe('أكمل شراء تأمين سفرك – «سفر»');
    expect(reviewAr.body).toContain('إليك الخطة التي اخترتها لرحلتك: خطة 910001');
  });
});

/** The bodies of an .eml's parts as text: base64 and quoted-printable parts decoded (UTF-8). */
function decodeMailBodies(eml: string): string {
  return eml
    .split(/\r?\n--/)
    .map((part) => {
      const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
      const body = rest.join('\n');
      if (/Content-Transfer-Encoding: base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
        const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        return Buffer.from(bytes, 'latin1').toString('utf8');
      }
      return body;
    })
    .join('\n');
}
