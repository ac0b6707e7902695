import { and, eq, isNull, sql } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import * as t from '../../src/server/db/schema';
import { loadPlans } from '../../src/server/quoting/catalogue';
import { InsurerUnavailableError } from '../../src/server/quoting/http-insurer';
import { planDocumentCache, planDocumentPdf } from '../../src/server/quoting/plan-document';
import { PLAN_DOCUMENT_MAX_AGE_S, planAssetsRoutes } from '../../src/server/routes/plan-assets.routes';
import { pricePlan } from '../../src/server/quoting/quote-engine';
import { createTestApp, testConfig } from '../support/test-app';
import { ARABIC, errorCodes } from './expect-envelope';
import { createLeadTestApp, FIXED_NOW, FRANCE, leadBody, THREE_TRAVELLERS, TODAY, type LeadTestApp } from './lead-fixtures';

/** compare-quotes over the seeded catalogue, the HTTP insurer, plan documents and logos. */

/** The insurer quoted through its HTTP adapter (the sandbox the app hosts). */
const HTTP_INSURER = 15;

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
});
afterAll(() => app.close());

/** A family of three to France, 1–10 April 2026: on the start date they are 41, 39 and 11. */
const familyToFrance = () => leadBody({ ...THREE_TRAVELLERS, is_family: true, destination_id: [FRANCE] });
const FAMILY_FACTS = { ages: [41, 39, 11], tripDays: 10, tripType: 1, destinationIds: [FRANCE], isFamily: true, familyChildMaxAge: 18 };

async function compare(send: (path: string, body?: unknown) => Promise<Response>, body: Record<string, unknown>) {
  const res = await send(compareQuotesEndpoint.path, body);
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(compareQuotesEndpoint.response, json).data;
}

describe('compare-quotes', () => {
  it('prices a family of three to Schengen with the engine, stores the snapshot and raises the stage to 1', async () => {
    const saved = await app.save(familyToFrance());
    expect(saved.redirect).toBeNull();
    const data = await compare(app.send, { uuid: saved.uuid, lang: 'en' });

    expect(data.hasError).toBe(false);
    expect(data.unavailable_providers).toEqual([]);
    expect(data.quotes.length).toBeGreaterThanOrEqual(5);
    // Cheapest first.
    const premiums = data.quotes.map((quote) => quote.premium);
    expect(premiums).toEqual([...premiums].sort((a, b) => a - b));
    // Every quote is Schengen, single trip, and the HTTP insurer is among them.
    expect(new Set(data.quotes.map((quote) => quote.zone))).toEqual(new Set(['schengen']));
    expect(data.quotes.every((quote) => quote.trip_type === 1)).toBe(true);
    expect(data.quotes.some((quote) => quote.provider.id === HTTP_INSURER)).toBe(true);

    // Each premium is the engine's for the catalogue rows of that plan.
    const plans = await loadPlans(app.db, data.quotes.map((quote) => quote.provider_plan_id));
    for (const quote of data.quotes) {
      const plan = plans.find((p) => p.id === quote.provider_plan_id)!;
      const expected = pricePlan(plan, FAMILY_FACTS)!;
      expect(quote.premium).toBe(expected.premiumCents);
      expect(quote.premium_per_person.map((line) => line.value)).toEqual(expected.perPerson.map((line) => line.cents));
      expect(quote.addon.map((addon) => [addon.id, addon.value])).toEqual(expected.addons.map((addon) => [addon.addonId, addon.cents]));
      expect(quote.premium_round).toBe(Math.round(expected.premiumCents / 100));
    }

    // By hand, Cedar Mutual "Schengen Essential" (plan 101, base $9, 8–15 days × 1.6):
    // 41 → 9 × 1.4 × 1.6 = $20.16 → $20; 39 → 9 × 1.6 = $14.40 → $14; 11 → 9 × 0.6 × 1.6 = $8.64 → $9.
    // Individually $43; the family price 20 × 2.5 = $50 is dearer, so $43.
    const essential = data.quotes.find((quote) => quote.provider_plan_id === 101)!;
    expect(essential.premium).toBe(4300);
    expect(essential.premium_per_person).toEqual([
      { label: 'Traveller 1, 41 years', value: 2000 },
      { label: 'Traveller 2, 39 years', value: 1400 },
      { label: 'Traveller 3, 11 years', value: 900 },
    ]);
    expect(essential).toMatchObject({
      compare_id: '101-schengen',
      provider: { id: 7, image: 'cedar-mutual.svg' },
      wizard_plan_name: 'Schengen Essential',
      product_type_name: 'Family',
      schengen_visa_compliant: true,
      planDocuments: { file_url: '/plan-documents/101.pdf?lang=en' },
      is_instant_policy: true,
    });
    // Winter sports $15 × 3 travellers; trip cancellation 15 % of $43.
    expect(essential.addon.find((addon) => addon.code === 'winter_sports')).toMatchObject({ value: 4500, value_to_display: '$45', max_age: 70, disabled_addon: false });
    expect(essential.addon.find((addon) => addon.code === 'trip_cancellation')).toMatchObject({ value: 645, value_to_display: '$6' });
    expect(essential.highlight.map((h) => h.section)).toEqual(expect.arrayContaining([1, 2, 3]));
    expect(essential.benefits.some((b) => /Schengen visa requirement/.test(b.value_to_display))).toBe(true);

    // The snapshot is stored against the lead, at the answered figures.
    const lead = await app.leadRow(saved.uuid);
    const stored = await app.db.select().from(t.leadQuotes).where(and(eq(t.leadQuotes.leadId, lead.id), isNull(t.leadQuotes.supersededAt)));
    expect(stored.map((row) => [row.id, row.planId, row.premiumCents]).sort((a, b) => a[0]! - b[0]!)).toEqual(
      data.quotes.map((quote) => [quote.id, quote.provider_plan_id, quote.premium]).sort((a, b) => a[0]! - b[0]!),
    );
    const storedEssential = stored.find((row) => row.planId === 101)!;
    expect(storedEssential.addons.find((addon) => addon.code === 'winter_sports')).toMatchObject({ cents: 4500, coveredTravellers: 3, disabled: false });

    const [tracker] = await app.db.select().from(t.leadTrackers).where(eq(t.leadTrackers.leadId, lead.id));
    expect(tracker).toMatchObject({ stage: 1, lastVisit: TODAY });
    expect(data.lead).toMatchObject({ uuid: saved.uuid, stage: 1, destination_names: ['France'], source_name: 'Lebanon', is_family: true });
    expect(data.customer.name).toBe('Rania El Haddad');
    expect(data.whatapp_template).toContain(`http://safar.test/compare-quotes?uuid=${saved.uuid}&lang=en`);
  });

  it('answers again with the same live quotes (same ids) while the lead is unchanged, in the asked language', async () => {
    const saved = await app.save(familyToFrance());
    const first = await compare(app.send, { uuid: saved.uuid });
    const second = await compare(app.send, { uuid: saved.uuid, lang: 'ar', link: 'https://safar.example/compare-quotes?uuid=x' });
    expect(second.quotes.map((quote) => [quote.id, quote.premium])).toEqual(first.quotes.map((quote) => [quote.id, quote.premium]));
    const lead = await app.leadRow(saved.uuid);
    const rows = await app.db.select().from(t.leadQuotes).where(eq(t.leadQuotes.leadId, lead.id));
    expect(rows).toHaveLength(first.quotes.length);

    const quote = second.quotes[0]!;
    expect(quote.wizard_plan_name).toMatch(ARABIC);
    expect(quote.product_type_name).toBe('عائلي');
    expect(quote.premium_per_person[0]!.label).toBe('المسافر 1، بعمر 41');
    expect(quote.planDocuments.file_url).toMatch(/\?lang=ar$/);
    expect(second.lead.destination_names).toEqual(['فرنسا']);
    expect(second.whatapp_template).toMatch(ARABIC);
    // The link's path is kept, under PUBLIC_URL (never another site's address), for this lead, in the text's language.
    expect(second.whatapp_template).toContain(`http://safar.test/compare-quotes?uuid=${saved.uuid}&lang=ar`);
  });

  it('two calls at once (two tabs, a double mount) end with one set of live quotes, and both answer it', async () => {
    const saved = await app.save(familyToFrance());
    const [a, b] = await Promise.all([compare(app.send, { uuid: saved.uuid }), compare(app.send, { uuid: saved.uuid })]);
    expect(b.quotes.map((quote) => quote.id)).toEqual(a.quotes.map((quote) => quote.id));
    const lead = await app.leadRow(saved.uuid);
    const live = await app.db.select().from(t.leadQuotes).where(and(eq(t.leadQuotes.leadId, lead.id), isNull(t.leadQuotes.supersededAt)));
    expect(live.map((row) => row.id).sort()).toEqual(a.quotes.map((quote) => quote.id).sort());
  });

  it('re-prices and supersedes the earlier quotes once the lead changes, or once they are 30 minutes old (row time moved back)', async () => {
    const saved = await app.save(familyToFrance());
    const first = await compare(app.send, { uuid: saved.uuid });
    await app.save({ ...familyToFrance(), uuid: saved.uuid, name: 'Rania Haddad', email: (await app.leadRow(saved.uuid)).email, phone_number: (await app.leadRow(saved.uuid)).phoneNumber });
    const second = await compare(app.send, { uuid: saved.uuid });
    const lead = await app.leadRow(saved.uuid);
    const liveIds = async () =>
      (await app.db.select().from(t.leadQuotes).where(and(eq(t.leadQuotes.leadId, lead.id), isNull(t.leadQuotes.supersededAt)))).map((row) => row.id).sort();
    expect(await liveIds()).toEqual(second.quotes.map((quote) => quote.id).sort());
    expect(first.quotes.every((quote) => !second.quotes.some((again) => again.id === quote.id))).toBe(true);

    await app.db.update(t.leadQuotes).set({ createdAt: sql`now() - interval '31 minutes'` }).where(eq(t.leadQuotes.leadId, lead.id));
    const third = await compare(app.send, { uuid: saved.uuid });
    expect(third.quotes.every((quote) => !second.quotes.some((earlier) => earlier.id === quote.id))).toBe(true);
    expect(await liveIds()).toEqual(third.quotes.map((quote) => quote.id).sort());
  });

  it('answers 404 for an unknown uuid and 422 with field codes for a bad body', async () => {
    await errorCodes(await app.send(compareQuotesEndpoint.path, { uuid: '4b0d8f9e-95b2-4d7e-9d55-3f1f4b7c2a11' }), 404);
    expect(await errorCodes(await app.send(compareQuotesEndpoint.path, { uuid: 'not-a-uuid', lang: 'fr' }), 422)).toMatchObject({
      uuid: 'invalid_value',
      lang: 'invalid_value',
    });
    expect(await errorCodes(await app.send(compareQuotesEndpoint.path, {}), 422)).toMatchObject({ uuid: 'required' });
  });
});

describe('the HTTP insurer', () => {
  it('insurer down (mocked at the edge): a hanging insurer is cut at the timeout, logged and listed; the others still quote', async () => {
    const errors: unknown[] = [];
    // The insurer's API never answers and ignores the abort signal: only the adapter's own timer ends the wait.
    const down = await createTestApp({
      now: () => FIXED_NOW,
      config: testConfig({ insurerTimeoutMs: 150 }),
      insurerFetch: () => new Promise<Response>(() => {}),
      logError: (error) => errors.push(error),
    });
    try {
      let tick = 0;
      const send = (path: string, body?: unknown) => down.post(path, body, { nowMs: FIXED_NOW + (tick += 1) });
      const res = await send('/miscellaneous/travel/wiz/add-customer-lead', familyToFrance());
      const { uuid } = ((await res.json()) as { data: { uuid: string } }).data;
      // The fetch never settles, so only the adapter's timer can end this wait (the test's
      // timeout is the hang guard); no wall-clock bound, which a busy machine would trip.
      const data = await compare(send, { uuid });
      expect(data.hasError).toBe(false);
      expect(data.unavailable_providers).toEqual([{ id: HTTP_INSURER, name: 'Orontes Travel Insurance (demo)' }]);
      expect(data.quotes.length).toBeGreaterThan(0);
      expect(data.quotes.some((quote) => quote.provider.id === HTTP_INSURER)).toBe(false);
      // The log line names the insurer and the error class only: no message, so no personal data.
      expect(errors).toContainEqual({ event: 'insurer_unavailable', insurer_id: HTTP_INSURER, error: InsurerUnavailableError.name });
    } finally {
      await down.close();
    }
  });

  it('insurer answering garbage (mocked at the edge) is refused, logged and listed', async () => {
    const errors: unknown[] = [];
    const garbage = await createTestApp({
      now: () => FIXED_NOW,
      insurerFetch: async () => Response.json({ quotes: [{ plan_id: 101, zone: 'schengen', premium_cents: 1 }] }),
      logError: (error) => errors.push(error),
    });
    try {
      let tick = 0;
      const send = (path: string, body?: unknown) => garbage.post(path, body, { nowMs: FIXED_NOW + (tick += 1) });
      const res = await send('/miscellaneous/travel/wiz/add-customer-lead', familyToFrance());
      const { uuid } = ((await res.json()) as { data: { uuid: string } }).data;
      const data = await compare(send, { uuid });
      expect(data.unavailable_providers.map((p) => p.id)).toEqual([HTTP_INSURER]);
      expect(data.quotes.every((quote) => quote.provider.id !== HTTP_INSURER)).toBe(true);
      expect(data.quotes.find((quote) => quote.provider_plan_id === 101)?.premium).toBe(4300);
      expect(errors).toHaveLength(1);
    } finally {
      await garbage.close();
    }
  });

  it('the sandbox prices with the engine from its own catalogue rows, and refuses other insurers', async () => {
    const body = { insurer_id: HTTP_INSURER, travellers: [{ age: 41 }, { age: 39 }, { age: 11 }], trip_days: 10, trip_type: 1, destination_ids: [FRANCE], is_family: true, family_child_max_age: 18 };
    const res = await app.app.request('/insurer-sandbox/quote', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { quotes: { plan_id: number; premium_cents: number }[] };
    const [plan] = await loadPlans(app.db, [109]);
    expect(json.quotes).toEqual([expect.objectContaining({ plan_id: 109, premium_cents: pricePlan(plan!, FAMILY_FACTS)!.premiumCents })]);

    const other = await app.app.request('/insurer-sandbox/quote', { method: 'POST', body: JSON.stringify({ ...body, insurer_id: 7 }), headers: { 'content-type': 'application/json' } });
    expect(other.status).toBe(404);
    const bad = await app.app.request('/insurer-sandbox/quote', { method: 'POST', body: '{"insurer_id":"x"}', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(422);
  });
});

describe('add-customer-lead without an online quote (RULINGS 12)', () => {
  it('sends a 90-year-old traveller to thank-you and records a call-back task', async () => {
    const saved = await app.save(leadBody({ name: 'Nabil Aoun', travellers_info: [{ dob: '1935-06-01' }] }));
    expect(saved.redirect).toBe('thank-you');
    const lead = await app.leadRow(saved.uuid);
    const tasks = await app.db.select().from(t.callBacks).where(eq(t.callBacks.leadId, lead.id));
    expect(tasks).toEqual([
      expect.objectContaining({ reason: 'no_online_quote', name: 'Nabil Aoun', email: lead.email, completePhoneNumber: lead.completePhoneNumber, lang: 'en', status: 'new' }),
    ]);
    // The lead is kept for the manual quote, and quoting it finds nothing (without an error).
    const data = await compare(app.send, { uuid: saved.uuid });
    expect(data.quotes).toEqual([]);
    expect(data.hasError).toBe(false);
  });

  it('sends a single trip longer than every plan covers (181 days) to thank-you', async () => {
    const saved = await app.save(leadBody({ start_date: '2026-04-01', end_date: '2026-09-28' }));
    expect((await app.leadRow(saved.uuid)).noOfDays).toBe(181);
    expect(saved.redirect).toBe('thank-you');
    const at180 = await app.save(leadBody({ start_date: '2026-04-01', end_date: '2026-09-27' }));
    expect(at180.redirect).toBeNull();
  });
});

describe('plan documents and logos', () => {
  it('serves a plan-benefits PDF per plan, and 404 for an unknown plan', async () => {
    const res = await app.app.request('/plan-documents/101.pdf?lang=en');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    expect(bytes.length).toBeGreaterThan(2000);
    const arabic = await app.app.request('/plan-documents/101.pdf?lang=ar');
    expect(arabic.status).toBe(200);
    await errorCodes(await app.app.request('/plan-documents/999999.pdf'), 404);
    await errorCodes(await app.app.request('/plan-documents/abc.pdf'), 404);
  });

  it('row 8: a plan PDF carries a strong ETag and a revalidating Cache-Control; a matching If-None-Match gets 304 with no body', async () => {
    const first = await app.app.request('/plan-documents/102.pdf?lang=en');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]{20,}"$/);
    expect(first.headers.get('cache-control')).toBe(`public, max-age=${PLAN_DOCUMENT_MAX_AGE_S}, must-revalidate`);
    const bytes = Buffer.from(await first.arrayBuffer());

    const again = await app.app.request('/plan-documents/102.pdf?lang=en', { headers: { 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(`public, max-age=${PLAN_DOCUMENT_MAX_AGE_S}, must-revalidate`);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    // Among several tags, or weak, it still matches; another tag gets the whole document, the same bytes.
    expect((await app.app.request('/plan-documents/102.pdf', { headers: { 'If-None-Match': `"other", W/${etag}` } })).status).toBe(304);
    const other = await app.app.request('/plan-documents/102.pdf', { headers: { 'If-None-Match': '"other"' } });
    expect(other.status).toBe(200);
    expect(Buffer.from(await other.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('row 8: a plan PDF is drawn once for two requests, and drawn again after a broker edits the plan (new ETag)', async () => {
    let drawn = 0;
    // The real drawing, counted: the routes alone, with their own cache.
    const routes = planAssetsRoutes(app.db, planDocumentCache(async (plan) => ((drawn += 1), planDocumentPdf(plan))));
    const [a, b] = await Promise.all([routes.request('/plan-documents/103.pdf'), routes.request('/plan-documents/103.pdf?lang=ar')]);
    const c = await routes.request('/plan-documents/103.pdf');
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(drawn).toBe(1);
    expect(new Set([a, b, c].map((res) => res.headers.get('etag'))).size).toBe(1);
    const etag = a.headers.get('etag')!;

    const [plan] = await app.db.select().from(t.plans).where(eq(t.plans.id, 103));
    try {
      await app.db.update(t.plans).set({ nameEn: `${plan!.nameEn} Plus` }).where(eq(t.plans.id, 103));
      const edited = await routes.request('/plan-documents/103.pdf', { headers: { 'If-None-Match': etag } });
      expect(edited.status).toBe(200);
      expect(drawn).toBe(2);
      expect(edited.headers.get('etag')).not.toBe(etag);
      expect(Buffer.from(await edited.arrayBuffer()).toString('latin1')).toContain('Plus');
    } finally {
      await app.db.update(t.plans).set({ nameEn: plan!.nameEn }).where(eq(t.plans.id, 103));
    }
  });

  it('serves every insurer logo as SVG at /img/<image>', async () => {
    const insurers = await app.db.select().from(t.insurers);
    for (const insurer of insurers) {
      const res = await app.app.request(`/img/${insurer.logo}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    }
    expect((await app.app.request('/img/nope.svg')).status).toBe(404);
  });
});
