import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareQuotesEndpoint, proceedBuyNowEndpoint, proceedReviewEndpoint, type ProceedRequest } from '../../src/contract/quote.endpoints';
import * as t from '../../src/server/db/schema';
import { ARABIC, errorCodes } from './expect-envelope';
import { createLeadTestApp, FRANCE, leadBody, THREE_TRAVELLERS, type LeadTestApp } from './lead-fixtures';
import { ADDON, freshBotToken, insertQuote, insertTestCatalogue, PLAN } from './order-fixtures';

/** proceed-review / proceed-buy-now: the invoice comes from the server's stored quote, behind the bot check. */

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
  await insertTestCatalogue(app.db);
});
afterAll(() => app.close());

const plainAddons = [
  { addonId: ADDON.winter, code: 'winter_sports', cents: 2_500, coveredTravellers: 1, disabled: false },
  { addonId: ADDON.cancel, code: 'trip_cancellation', cents: 4_000, coveredTravellers: 1, disabled: true },
];

/** A saved lead with a live quote of the plain plan (premium $120.00) and its add-ons. */
async function quotedLead(overrides: Parameters<typeof leadBody>[0] = {}) {
  const saved = await app.save(leadBody(overrides));
  const lead = await app.leadRow(saved.uuid);
  const quoteId = await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000, addons: plainAddons });
  return { uuid: saved.uuid, lead, quoteId };
}

async function proceedBody(uuid: string, quoteId: number, extra: Partial<ProceedRequest> = {}): Promise<ProceedRequest> {
  return { uuid, policy_id: quoteId, bot_token: await freshBotToken(app.send), ...extra };
}

async function proceedOk(body: ProceedRequest, path = proceedReviewEndpoint.path) {
  const res = await app.send(path, body);
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(proceedReviewEndpoint.response, json).data;
}

const invoiceRow = async (leadId: number) => (await app.db.select().from(t.invoices).where(eq(t.invoices.leadId, leadId)))[0];
const trackerRow = async (leadId: number) => (await app.db.select().from(t.leadTrackers).where(eq(t.leadTrackers.leadId, leadId)))[0]!;

describe('proceed-review builds the invoice from the stored quote', () => {
  it('stores the server price although the request said selected_premium 1, and records the mismatch', async () => {
    const { uuid, lead, quoteId } = await quotedLead();
    const data = await proceedOk(await proceedBody(uuid, quoteId, { selected_premium: 1 }));

    // VAT 11 % of $120.00 = $13.20; provider 1000 has no stamp fee.
    expect(data.invoice).toMatchObject({
      quote_id: quoteId,
      insurance_provider_id: 1000,
      insurance_plan_id: PLAN.plain,
      insurance_plan_name: 'Test Plain Plan',
      insurance_plan_price: 12_000,
      policy_addons: [],
      total_price_without_vat: 12_000,
      vat: 11,
      vat_amount: 1_320,
      stamp_fee: 0,
      total_price_vat: 13_320,
      is_api_plan: 1,
    });
    expect(data.invoice.quote_ref_no).toMatch(/^SAF-2026-\d{6}$/);
    expect(data.invoice.highlight.map((h) => [h.key, h.section])).toEqual([
      ['medical', 1],
      ['baggage', 2],
    ]);
    expect(data.leads).toEqual({ uuid, stage: 2 });
    // RULINGS 24: the device id is never handed out here, and no session id was sent.
    expect(data.device_uuid).toBeNull();
    expect(data.session_id).toBeNull();

    const row = await invoiceRow(lead.id);
    expect(row).toMatchObject({
      quoteId,
      quoteRefNo: data.invoice.quote_ref_no,
      planPriceCents: 12_000,
      totalWithoutVatCents: 12_000,
      vatCents: 1_320,
      totalWithVatCents: 13_320,
      status: 'open',
    });
    expect(row?.clientPremiumMismatch).toEqual({ selected_premium: 1, server_cents: 12_000 });
  });

  it('records no mismatch when the browser showed the server price (in dollars)', async () => {
    const { uuid, lead, quoteId } = await quotedLead();
    await proceedOk(await proceedBody(uuid, quoteId, { selected_premium: 120 }));
    expect((await invoiceRow(lead.id))?.clientPremiumMismatch).toBeNull();
  });

  it('adds the chosen add-on at its stored price and raises the tracker to stage 2 with the plan', async () => {
    const { uuid, lead, quoteId } = await quotedLead();
    const data = await proceedOk(await proceedBody(uuid, quoteId, { addons: [ADDON.winter] }), proceedBuyNowEndpoint.path);
    // $120 + $25 = $145; VAT 11 % = $15.95.
    expect(data.invoice.policy_addons).toEqual([{ addon_id: ADDON.winter, code: 'winter_sports', addon_name: 'Winter sports', addon_price: 2_500 }]);
    expect(data.invoice).toMatchObject({ total_price_without_vat: 14_500, vat_amount: 1_595, total_price_vat: 16_095 });
    expect((await invoiceRow(lead.id))?.addons).toEqual([
      { addonId: ADDON.winter, code: 'winter_sports', nameEn: 'Winter sports', nameAr: 'الرياضات الشتوية', cents: 2_500 },
    ]);
    expect(await trackerRow(lead.id)).toMatchObject({
      stage: 2,
      insuranceProviderId: 1000,
      planId: PLAN.plain,
      planRefId: data.invoice.quote_ref_no,
    });
  });

  it('keeps one invoice per lead: a second choice replaces the figures and keeps the reference, and never lowers the stage', async () => {
    const { uuid, lead, quoteId } = await quotedLead();
    const first = await proceedOk(await proceedBody(uuid, quoteId));
    await app.db.update(t.leadTrackers).set({ stage: 3 }).where(eq(t.leadTrackers.leadId, lead.id));
    const second = await proceedOk(await proceedBody(uuid, quoteId, { addons: [ADDON.winter] }));
    expect(second.invoice.quote_ref_no).toBe(first.invoice.quote_ref_no);
    expect(second.leads.stage).toBe(3);
    const rows = await app.db.select().from(t.invoices).where(eq(t.invoices.leadId, lead.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.totalWithoutVatCents).toBe(14_500);
  });

  it('choosing a plan of another insurer asks for the travellers again: stage back to 2 and every review undone', async () => {
    const { uuid, lead, quoteId } = await quotedLead();
    await proceedOk(await proceedBody(uuid, quoteId));
    await app.db.update(t.leadTravellers).set({ reviewedAt: new Date() }).where(eq(t.leadTravellers.leadId, lead.id));
    await app.db.update(t.leadTrackers).set({ stage: 3 }).where(eq(t.leadTrackers.leadId, lead.id));
    const otherQuote = await insertQuote(app.db, lead.id, { planId: PLAN.stamp, insurerId: 3, premiumCents: 9_000, addons: [] });

    const second = await proceedOk(await proceedBody(uuid, otherQuote));
    expect(second.leads.stage).toBe(2);
    const travellers = await app.db.select().from(t.leadTravellers).where(eq(t.leadTravellers.leadId, lead.id));
    expect(travellers.map((row) => row.reviewedAt)).toEqual(travellers.map(() => null));
  });

  it('answers the invoice labels in Arabic when asked', async () => {
    const { uuid, quoteId } = await quotedLead(THREE_TRAVELLERS);
    const data = await proceedOk(await proceedBody(uuid, quoteId, { lang: 'ar', addons: [ADDON.winter] }));
    expect(data.invoice.insurance_plan_name).toMatch(ARABIC);
    expect(data.invoice.insurance_cover_for).toBe('3 مسافرين');
    expect(data.invoice.policy_addons[0]?.addon_name).toBe('الرياضات الشتوية');
    for (const line of data.invoice.premium_summary) expect(line.label).toMatch(ARABIC);
  });

  it('computes VAT per item for provider 7, and adds the stamp fee for provider 3 only', async () => {
    const { uuid, lead } = await quotedLead();
    // 11 % of 1005 = 110.55 and of 1005 = 110.55: per item 111 + 111 = 222; on the total 2010 it would be 221.
    const odd = { code: 'winter_sports', cents: 1_005, coveredTravellers: 1, disabled: false };
    const ownVat = await insertQuote(app.db, lead.id, {
      planId: PLAN.ownVat,
      insurerId: 7,
      premiumCents: 1_005,
      addons: [{ addonId: ADDON.ownVatWinter, ...odd }],
    });
    const seven = await proceedOk(await proceedBody(uuid, ownVat, { addons: [ADDON.ownVatWinter] }));
    expect(seven.invoice).toMatchObject({ total_price_without_vat: 2_010, vat_amount: 222, stamp_fee: 0, total_price_vat: 2_232 });

    const stamp = await insertQuote(app.db, lead.id, {
      planId: PLAN.stamp,
      insurerId: 3,
      premiumCents: 1_005,
      addons: [{ addonId: ADDON.stampWinter, ...odd }],
    });
    const three = await proceedOk(await proceedBody(uuid, stamp, { addons: [ADDON.stampWinter] }));
    // Default stamp fee setting: 200 cents.
    expect(three.invoice).toMatchObject({ total_price_without_vat: 2_010, vat_amount: 221, stamp_fee: 200, total_price_vat: 2_431 });
  });
});

describe('proceed-review refuses', () => {
  it('403 without a bot token, and nothing is saved', async () => {
    const { uuid, lead, quoteId } = await quotedLead();
    const res = await app.send(proceedReviewEndpoint.path, { uuid, policy_id: quoteId, bot_token: '' });
    expect(await errorCodes(res, 403)).toEqual({ bot_token: 'bot_check_failed' });
    expect(await invoiceRow(lead.id)).toBeUndefined();
    expect((await trackerRow(lead.id)).stage).toBe(1);
  });

  it('403 when the token was already used', async () => {
    const { uuid, quoteId } = await quotedLead();
    const body = await proceedBody(uuid, quoteId);
    await proceedOk(body);
    expect(await errorCodes(await app.send(proceedReviewEndpoint.path, body), 403)).toEqual({ bot_token: 'bot_check_failed' });
  });

  it('409 quote_expired for a superseded quote, and for another lead\'s quote', async () => {
    const { uuid, lead } = await quotedLead();
    const stale = await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 9_000, superseded: true });
    expect(await errorCodes(await app.send(proceedReviewEndpoint.path, await proceedBody(uuid, stale)), 409)).toEqual({ policy_id: 'quote_expired' });

    const other = await quotedLead();
    expect(await errorCodes(await app.send(proceedReviewEndpoint.path, await proceedBody(uuid, other.quoteId)), 409)).toEqual({
      policy_id: 'quote_expired',
    });
    expect(await invoiceRow(lead.id)).toBeUndefined();
  });

  it('422 addons for an add-on of another plan, and for a disabled one', async () => {
    const { uuid, lead, quoteId } = await quotedLead();
    for (const addons of [[ADDON.otherPlan], [ADDON.cancel], [ADDON.winter, 999_999]]) {
      expect(await errorCodes(await app.send(proceedReviewEndpoint.path, await proceedBody(uuid, quoteId, { addons })), 422)).toEqual({
        addons: 'invalid_value',
      });
    }
    expect(await invoiceRow(lead.id)).toBeUndefined();
  });

  it('404 for an unknown lead, 422 for an unknown agent and for a malformed body', async () => {
    const { uuid, quoteId } = await quotedLead();
    const unknown = await proceedBody('0b7c2a57-8d3e-4c43-9a57-7e3f1c3c2d11', quoteId);
    expect((await app.send(proceedReviewEndpoint.path, unknown)).status).toBe(404);
    expect(await errorCodes(await app.send(proceedReviewEndpoint.path, await proceedBody(uuid, quoteId, { agent_id: 99_999 })), 422)).toEqual({
      agent_id: 'agent_unknown',
    });
    expect(await errorCodes(await app.send(proceedReviewEndpoint.path, { uuid, policy_id: 'x' }), 422)).toMatchObject({
      policy_id: 'invalid_type',
      bot_token: 'required',
    });
  });

  it('409 once the lead\'s order is paid: a paid invoice is never overwritten', async () => {
    const { uuid, lead, quoteId } = await quotedLead();
    await proceedOk(await proceedBody(uuid, quoteId));
    await app.db.update(t.invoices).set({ status: 'paid' }).where(eq(t.invoices.leadId, lead.id));
    const res = await app.send(proceedReviewEndpoint.path, await proceedBody(uuid, quoteId, { addons: [ADDON.winter] }));
    expect(await errorCodes(res, 409)).toEqual({ uuid: 'lead_in_deal' });
    expect((await invoiceRow(lead.id))?.totalWithoutVatCents).toBe(12_000);
  });
});

describe('the whole path over the seeded catalogue: compare-quotes, then proceed-review', () => {
  it('a family of three to France chooses the cheapest plan with winter sports; the invoice is the quote plus the add-on, whatever the browser claims', async () => {
    const saved = await app.save(leadBody({ ...THREE_TRAVELLERS, is_family: true, destination_id: [FRANCE] }));
    const res = await app.send(compareQuotesEndpoint.path, { uuid: saved.uuid, lang: 'en' });
    const { quotes } = v.parse(compareQuotesEndpoint.response, await res.json()).data;
    const quote = quotes[0]!;
    const winter = quote.addon.find((addon) => addon.code === 'winter_sports' && !addon.disabled_addon)!;
    expect(winter).toBeDefined();

    const data = await proceedOk(await proceedBody(saved.uuid, quote.id, { addons: [winter.id], selected_premium: 1, quote: { ...quote, premium: 1 } }));
    const lead = await app.leadRow(saved.uuid);
    const row = (await invoiceRow(lead.id))!;
    expect(row.planPriceCents).toBe(quote.premium);
    expect(row.addons.map((addon) => [addon.addonId, addon.cents])).toEqual([[winter.id, winter.value]]);
    expect(row.totalWithoutVatCents).toBe(quote.premium + winter.value);
    expect(row.totalWithVatCents).toBe(data.invoice.total_price_vat);
    expect(row.clientPremiumMismatch).not.toBeNull();
    expect((await trackerRow(lead.id)).stage).toBe(2);
  });
});
