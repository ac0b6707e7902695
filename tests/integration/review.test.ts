import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalDetailsEndpoint } from '../../src/contract/lead.endpoints';
import { proceedReviewEndpoint, type ProceedRequest } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import { REVIEW_FIELDS, type ReviewTravellerValues } from '../../src/contract/traveller-review.rules';
import * as t from '../../src/server/db/schema';
import { AGENTS } from '../../src/server/db/seed-data';
import { message } from '../../src/server/http/messages';
import { RATE_LIMITS } from '../../src/server/rate-limit/rate-limit';
import { BARE_TRAVELLER, completeTraveller, PROVIDER_CASES } from '../support/review-cases';
import { ARABIC, errorCodes, expectErrorBody, expectErrorEnvelope } from './expect-envelope';
import { createLeadTestApp, FRANCE, leadBody, LEBANON, THREE_TRAVELLERS, type LeadTestApp } from './lead-fixtures';
import { ADDON, freshBotToken, insertQuote, insertTestCatalogue, PLAN } from './order-fixtures';

/**
 * save-traveller-info (issue 9): each traveller saved against the chosen plan's rules, the same
 * rules the form applies; nothing is written unless every check passes. get-personal-details
 * reads the saved travellers and the chosen plan's invoice back.
 */

const NORTH_KOREA = 408;
/** A plan of insurer 1000 for travellers up to 30 only, to quote a traveller it does not cover. */
const YOUTH_PLAN = 910_030;

type Plan = { planId: number; insurerId: number };
const PLANS = {
  ownVat: { planId: PLAN.ownVat, insurerId: 7 },
  stamp: { planId: PLAN.stamp, insurerId: 3 },
  plain: { planId: PLAN.plain, insurerId: 1000 },
  plainOffline: { planId: PLAN.plainOffline, insurerId: 1000 },
  levant: { planId: PLAN.levant, insurerId: 12 },
  youth: { planId: YOUTH_PLAN, insurerId: 1000 },
} satisfies Record<string, Plan>;

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
  await insertTestCatalogue(app.db);
  const [plain] = await app.db.select().from(t.plans).where(eq(t.plans.id, PLAN.plain));
  await app.db.insert(t.plans).values({ ...plain!, id: YOUTH_PLAN, nameEn: 'Test Youth Plan', minAge: 0, maxAge: 30 });
});
afterAll(() => app.close());

type TravellerBody = Partial<ReviewTravellerValues> & { id: number; marital_status_id?: number | null };

let passports = 0;
/** A passport number no other traveller of these tests has. */
const newPassport = () => `RV${String((passports += 1)).padStart(7, '0')}`;

/**
 * A saved lead whose plan was chosen with proceed-review, as the SPA does it: its travellers
 * (live, in form order), its session id and the invoice proceed-review answered.
 */
async function chosenLead(overrides: Parameters<typeof leadBody>[0] = {}, plan: Plan = PLANS.stamp, addons: number[] = []) {
  const body = leadBody(overrides);
  const saved = await app.save(body);
  const lead = await app.leadRow(saved.uuid);
  const quoteId = await insertQuote(app.db, lead.id, {
    ...plan,
    premiumCents: 12_000,
    addons: addons.map((addonId) => ({ addonId, code: 'winter_sports', cents: 2_500, coveredTravellers: 1, disabled: false })),
  });
  const proceed: ProceedRequest = { uuid: saved.uuid, policy_id: quoteId, addons, session_id: saved.session_id, bot_token: await freshBotToken(app.send) };
  const res = await app.send(proceedReviewEndpoint.path, proceed);
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  const proceeded = v.parse(proceedReviewEndpoint.response, json).data;
  const travellers = (await app.travellerRows(lead.id)).filter((row) => row.deletedAt === null);
  return { uuid: saved.uuid, sessionId: saved.session_id!, lead, travellers, plan, invoice: proceeded.invoice, body };
}

/** A complete traveller for row `index` of the lead: every field filled with an offered option. */
function complete(lead: Awaited<ReturnType<typeof chosenLead>>, index: number, change: Partial<TravellerBody> = {}): TravellerBody {
  const row = lead.travellers[index]!;
  const values = completeTraveller(row.dob, newPassport(), { index, plan: { providerId: lead.plan.insurerId, isApiPlan: 1, isFamily: lead.lead.isFamily, sourceId: LEBANON } });
  return { ...values, id: row.id, ...change };
}

const saveBody = (uuid: string, insuranceId: number, traveller: TravellerBody | unknown, extra: Record<string, unknown> = {}) => ({
  uuid,
  insurance_id: insuranceId,
  traveller,
  lang: 'en',
  ...extra,
});

const send = (body: unknown) => app.send(saveTravellerInfoEndpoint.path, body);

async function saveOk(body: unknown) {
  const res = await send(body);
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(saveTravellerInfoEndpoint.response, json).data;
}

async function personalDetails(uuid: string, lang: 'en' | 'ar' = 'en') {
  const res = await app.send(personalDetailsEndpoint.path, { uuid, lang });
  expect(res.status).toBe(200);
  return v.parse(personalDetailsEndpoint.response, await res.json()).data.customer;
}

const trackerStage = async (leadId: number) => (await app.db.select().from(t.leadTrackers).where(eq(t.leadTrackers.leadId, leadId)))[0]!.stage;
/** Everything save-traveller-info could write for a lead: its traveller rows and its stage. */
const written = async (leadId: number) => ({ travellers: await app.travellerRows(leadId), stage: await trackerStage(leadId) });

const prefixed = (errors: Record<string, string>) => Object.fromEntries(Object.entries(errors).map(([field, code]) => [`traveller.${field}`, code]));

/** Fields as travellerSchema names them, for the review fields the form holds. */
const VIEW_FIELD = { type: 'type', gender_id: 'gender_id', passport: 'passport', country_id: 'country_id', nationality_id: 'nationality_id' } as const;

describe("save-traveller-info applies each provider's fields, with the same codes as the form (table shared with the contract's test)", () => {
  const planFor = (providerId: number, isApiPlan: 0 | 1): Plan =>
    providerId === 7 ? PLANS.ownVat : providerId === 3 ? PLANS.stamp : providerId === 12 ? PLANS.levant : isApiPlan ? PLANS.plain : PLANS.plainOffline;

  it.each(PROVIDER_CASES)('$label', async (testCase) => {
    const family = testCase.plan.isFamily;
    const lead = await chosenLead(
      {
        no_of_traveller: 2,
        is_family: family,
        travellers_info: [{ dob: '1985-01-10' }, { dob: family ? '2015-03-12' : '1987-02-11' }],
      },
      planFor(testCase.plan.providerId, testCase.plan.isApiPlan),
    );
    const id = lead.travellers[testCase.index]!.id;
    const before = await written(lead.lead.id);

    const bare = await send(saveBody(lead.uuid, lead.plan.insurerId, { ...BARE_TRAVELLER, id }));
    expect(await errorCodes(bare, 422)).toEqual(prefixed(testCase.bare));
    expect(await written(lead.lead.id)).toEqual(before);

    // Every field filled: what the plan does not ask for is not stored.
    const sent = complete(lead, testCase.index);
    const { traveller } = await saveOk(saveBody(lead.uuid, lead.plan.insurerId, sent));
    for (const field of REVIEW_FIELDS) {
      if (!(field in VIEW_FIELD)) continue;
      const viewField = VIEW_FIELD[field as keyof typeof VIEW_FIELD];
      expect({ field, value: traveller![viewField] }).toEqual({ field, value: testCase.shown.includes(field) ? sent[field] : null });
    }
    const relationship = testCase.index === 0 ? 5 : testCase.shown.includes('relationship_type_id') ? sent.relationship_type_id : null;
    expect(traveller!.relationship_type_id).toBe(relationship);
    expect(traveller!.is_field).toBe(true);
  });
});

describe('a provider-3 family of three through review', () => {
  it('saves each traveller; the stage becomes 3 only after the last; get-personal-details reads them back with the invoice proceed-review answered', async () => {
    const lead = await chosenLead({ ...THREE_TRAVELLERS, is_family: true }, PLANS.stamp, [ADDON.stampWinter]);
    expect(lead.invoice.policy_addons).toHaveLength(1);
    expect(await trackerStage(lead.lead.id)).toBe(2);

    // The principal: relationship 5 whatever was sent, names as on the passport, a DOB in Arabic-keyboard digits.
    const principal = complete(lead, 0, {
      relationship_type_id: 1,
      first_name: '  Rania ',
      middle_name: ' Maria  Luisa ',
      last_name: 'El  Haddad',
      dob: '١٩٨٥-٠١-١٠',
      passport: 'lr 123 4567',
      marital_status_id: 2,
    });
    const first = await saveOk(saveBody(lead.uuid, 3, principal, { session_id: lead.sessionId }));
    expect(first).toMatchObject({ error: null, message: null, leads: { uuid: lead.uuid, stage: 2 }, session_id: lead.sessionId });
    expect(first.traveller).toMatchObject({
      id: principal.id,
      first_name: 'Rania',
      middle_name: 'Maria Luisa',
      last_name: 'El Haddad',
      dob: '1985-01-10',
      passport: 'LR1234567',
      relationship_type_id: 5,
      marital_status_id: 2,
      is_field: true,
    });

    // The spouse and the child: relationships from the families list.
    const spouse = complete(lead, 1, { relationship_type_id: 1, gender_id: 1, type: 1 });
    expect((await saveOk(saveBody(lead.uuid, 3, spouse))).leads.stage).toBe(2);
    const child = complete(lead, 2, { relationship_type_id: 3, type: 3 });
    const last = await saveOk(saveBody(lead.uuid, 3, child));
    expect(last.leads).toEqual({ uuid: lead.uuid, stage: 3 });
    // No session id sent: none answered (RULINGS 24).
    expect(last.session_id).toBeNull();
    expect(await trackerStage(lead.lead.id)).toBe(3);

    const details = await personalDetails(lead.uuid);
    expect(details.lead_details.travellers_info).toEqual([
      expect.objectContaining({ id: principal.id, type: 2, gender_id: 2, passport: 'LR1234567', country_id: LEBANON, nationality_id: LEBANON, relationship_type_id: 5, is_field: true }),
      expect.objectContaining({ id: spouse.id, type: 1, gender_id: 1, passport: spouse.passport, relationship_type_id: 1, relationship_type_text: 'Spouse', is_field: true }),
      expect.objectContaining({ id: child.id, type: 3, passport: child.passport, relationship_type_id: 3, relationship_type_text: 'Daughter', is_field: true }),
    ]);
    expect(details.get_invoice).toEqual(lead.invoice);
    expect(details.recent_searches[0]?.stage).toBe(3);
    // Checkout shows the ids by name, in the page's language.
    const principalNames = (lead_details: typeof details.lead_details) => {
      const first = lead_details.travellers_info[0]!;
      return [first.type_text, first.gender_text, first.country_text, first.nationality_text];
    };
    expect(principalNames(details.lead_details)).toEqual(['Mrs', 'Female', 'Lebanon', 'Lebanon']);
    expect(principalNames((await personalDetails(lead.uuid, 'ar')).lead_details)).toEqual(['السيدة', 'أنثى', 'لبنان', 'لبنان']);

    // Saving a traveller again keeps the lead at checkout.
    expect((await saveOk(saveBody(lead.uuid, 3, { ...child, first_name: 'Lina' }))).leads.stage).toBe(3);
  });

  it("accepts the titles issue 38 added, Miss and a girl's title, with any gender and age, and names them in both languages", async () => {
    const lead = await chosenLead({ ...THREE_TRAVELLERS, is_family: true }, PLANS.stamp, [ADDON.stampWinter]);
    // No title is tied to a gender or an age: a Miss who is a principal, a Master, a girl's title for the daughter.
    const travellers = [complete(lead, 0, { type: 6 }), complete(lead, 1, { relationship_type_id: 1, gender_id: 1, type: 5 }), complete(lead, 2, { relationship_type_id: 3, type: 7 })];
    for (const traveller of travellers) expect((await saveOk(saveBody(lead.uuid, 3, traveller))).error).toBeNull();
    const titles = async (lang?: 'ar') => (await personalDetails(lead.uuid, lang)).lead_details.travellers_info.map((traveller) => [traveller.type, traveller.type_text]);
    expect(await titles()).toEqual([[6, 'Miss'], [5, 'Master'], [7, 'Miss (child)']]);
    expect(await titles('ar')).toEqual([[6, 'الآنسة'], [5, 'الطفل'], [7, 'الطفلة']]);
  });
});

describe('get_invoice', () => {
  it('is null while no plan is chosen, then the invoice proceed-review answered, in the asked language', async () => {
    const saved = await app.save(leadBody());
    expect((await personalDetails(saved.uuid)).get_invoice).toBeNull();

    const lead = await chosenLead({}, PLANS.ownVat, [ADDON.ownVatWinter]);
    const details = await personalDetails(lead.uuid);
    expect(details.get_invoice).toEqual(lead.invoice);
    expect(details.get_invoice).toMatchObject({ insurance_plan_price: 12_000, total_price_without_vat: 14_500, quote_ref_no: expect.stringMatching(/^SAF-/) as unknown });

    const arabic = (await personalDetails(lead.uuid, 'ar')).get_invoice!;
    expect(arabic.insurance_plan_name).toMatch(ARABIC);
    for (const line of arabic.premium_summary) expect(line.label).toMatch(ARABIC);
    expect(arabic.premium_summary.map((line) => line.value)).toEqual(lead.invoice.premium_summary.map((line) => line.value));
  });

  it('keeps the figures stored when the plan was chosen, even after the VAT setting changes', async () => {
    const lead = await chosenLead({}, PLANS.plain);
    await app.db.update(t.settings).set({ value: 15 }).where(eq(t.settings.key, 'vat_percent'));
    try {
      expect((await personalDetails(lead.uuid)).get_invoice).toEqual(lead.invoice);
    } finally {
      await app.db.update(t.settings).set({ value: 11 }).where(eq(t.settings.key, 'vat_percent'));
    }
  });
});

describe('changing travel details un-chooses the plan', () => {
  it('add-customer-lead for the existing uuid sets the stage back to 1: get_invoice is null, reviews no longer count, and save-traveller-info answers 409 plan_not_chosen', async () => {
    const lead = await chosenLead({ no_of_traveller: 2, travellers_info: [{ dob: '1985-01-10' }, { dob: '1987-02-11' }] }, PLANS.levant);
    await saveOk(saveBody(lead.uuid, 12, complete(lead, 0)));
    await saveOk(saveBody(lead.uuid, 12, complete(lead, 1)));
    expect(await trackerStage(lead.lead.id)).toBe(3);
    const invoiceBefore = (await app.db.select().from(t.invoices).where(eq(t.invoices.leadId, lead.lead.id)))[0];

    // A later start: the customer re-quotes from Travel details.
    await app.save({
      ...lead.body,
      uuid: lead.uuid,
      session_id: lead.sessionId,
      start_date: '2026-04-05',
      travellers_info: lead.travellers.map((row) => ({ id: row.id, dob: row.dob })),
    });
    expect(await trackerStage(lead.lead.id)).toBe(1);
    const details = await personalDetails(lead.uuid);
    expect(details.get_invoice).toBeNull();
    // The saved review fields stay for the form to start from; they count again once saved for the new plan.
    expect(details.lead_details.travellers_info.map((row) => [row.passport !== null, row.is_field])).toEqual([
      [true, false],
      [true, false],
    ]);
    // The invoice row is kept (proceed-review overwrites it).
    expect((await app.db.select().from(t.invoices).where(eq(t.invoices.leadId, lead.lead.id)))[0]).toEqual(invoiceBefore);

    const before = await written(lead.lead.id);
    const res = await send(saveBody(lead.uuid, 12, complete(lead, 0)));
    expect(await errorCodes(res, 409)).toEqual({ uuid: 'plan_not_chosen' });
    expect(await written(lead.lead.id)).toEqual(before);
  });
});

describe('save-traveller-info refuses, and writes nothing', () => {
  it('409 plan_not_chosen for a lead that never chose a plan, with its message in English and Arabic', async () => {
    const saved = await app.save(leadBody());
    const row = await app.leadRow(saved.uuid);
    const [traveller] = await app.travellerRows(row.id);
    const before = await written(row.id);
    const body = saveBody(saved.uuid, 3, { ...completeTraveller(traveller!.dob, newPassport(), { index: 0, plan: PROVIDER_CASES[0]!.plan }), id: traveller!.id });

    const english = await expectErrorEnvelope(await send(body), 409);
    expect(english).toMatchObject({ message: message('plan_not_chosen', 'en'), data: { errors: { uuid: 'plan_not_chosen' } } });
    const arabic = await expectErrorEnvelope(await send({ ...body, lang: 'ar' }), 409);
    expect(arabic.message).toBe(message('plan_not_chosen', 'ar'));
    expect(arabic.message).toMatch(ARABIC);
    expect(await written(row.id)).toEqual(before);
  });

  it('409 plan_changed when the page shows another insurer than the chosen plan\'s', async () => {
    const lead = await chosenLead();
    const before = await written(lead.lead.id);
    const res = await send(saveBody(lead.uuid, 7, complete(lead, 0)));
    expect(await errorCodes(res, 409)).toEqual({ insurance_id: 'plan_changed' });
    expect(await written(lead.lead.id)).toEqual(before);
  });

  it('409 lead_in_deal once the order is paid', async () => {
    const lead = await chosenLead();
    await app.db.update(t.invoices).set({ status: 'paid' }).where(eq(t.invoices.leadId, lead.lead.id));
    const before = await written(lead.lead.id);
    expect(await errorCodes(await send(saveBody(lead.uuid, 3, complete(lead, 0))), 409)).toEqual({ uuid: 'lead_in_deal' });
    expect(await written(lead.lead.id)).toEqual(before);
  });

  it('404 for an unknown lead', async () => {
    const res = await send(saveBody(crypto.randomUUID(), 3, { ...BARE_TRAVELLER, id: 1 }));
    expect(await errorCodes(res, 404)).toEqual({ uuid: 'not_found' });
  });

  it("422 traveller.id not_found for a traveller of another lead; the other lead's row is unchanged", async () => {
    const lead = await chosenLead();
    const other = await chosenLead();
    const mine = await written(lead.lead.id);
    const theirs = await written(other.lead.id);
    const res = await send(saveBody(lead.uuid, 3, complete(other, 0)));
    expect(await errorCodes(res, 422)).toEqual({ 'traveller.id': 'not_found' });
    expect(await written(lead.lead.id)).toEqual(mine);
    expect(await written(other.lead.id)).toEqual(theirs);
  });

  it('422 traveller.id not_found for a deleted member (spec §4 deleted_members)', async () => {
    const lead = await chosenLead({ no_of_traveller: 2, travellers_info: [{ dob: '1985-01-10' }, { dob: '1987-02-11' }] }, PLANS.levant);
    const removed = lead.travellers[1]!;
    // The customer drops the second traveller, then chooses a plan again.
    await app.save({ ...lead.body, uuid: lead.uuid, session_id: lead.sessionId, no_of_traveller: 1, travellers_info: [{ id: lead.travellers[0]!.id, dob: '1985-01-10' }] });
    const again = await chosenLeadAgain(lead.uuid, lead.lead.id, PLANS.levant);
    expect(again.leads.stage).toBe(2);
    expect((await personalDetails(lead.uuid)).lead_details.deleted_members).toEqual([removed.id]);

    const before = await written(lead.lead.id);
    const res = await send(saveBody(lead.uuid, 12, complete(lead, 1)));
    expect(await errorCodes(res, 422)).toEqual({ 'traveller.id': 'not_found' });
    expect(await written(lead.lead.id)).toEqual(before);

    // With the removed traveller gone, saving the one left reaches checkout.
    expect((await saveOk(saveBody(lead.uuid, 12, complete(lead, 0)))).leads.stage).toBe(3);
  });

  it('422 passport_duplicate when two travellers of the lead give one passport, however typed', async () => {
    const lead = await chosenLead({ no_of_traveller: 2, travellers_info: [{ dob: '1985-01-10' }, { dob: '1987-02-11' }] }, PLANS.plain);
    await saveOk(saveBody(lead.uuid, 1000, complete(lead, 0, { passport: 'LR7654321' })));
    const before = await written(lead.lead.id);
    const res = await send(saveBody(lead.uuid, 1000, complete(lead, 1, { passport: 'lr 765 4321' })));
    expect(await errorCodes(res, 422)).toEqual({ 'traveller.passport': 'passport_duplicate' });
    expect(await written(lead.lead.id)).toEqual(before);
    // Saving the first traveller again with its own passport is no duplicate.
    await saveOk(saveBody(lead.uuid, 1000, complete(lead, 0, { passport: 'LR7654321' })));
  });

  it('422 option_invalid for ids the form does not offer, nationality_not_covered for nationalities the insurer does not cover (RULINGS 4)', async () => {
    const family = await chosenLead({ ...THREE_TRAVELLERS, is_family: true }, PLANS.stamp);
    const single = await chosenLead({ no_of_traveller: 2, travellers_info: [{ dob: '1985-01-10' }, { dob: '1987-02-11' }] }, PLANS.stamp);
    const cases: [label: string, lead: typeof family, index: number, change: Partial<TravellerBody>, errors: Record<string, string>][] = [
      ['an unknown title', family, 0, { type: 99 }, { type: 'option_invalid' }],
      ['an unknown gender', family, 0, { gender_id: 3 }, { gender_id: 'option_invalid' }],
      ['an unknown marital status', family, 0, { marital_status_id: 9 }, { marital_status_id: 'option_invalid' }],
      ['an unknown country of residence', family, 0, { country_id: 999 }, { country_id: 'option_invalid' }],
      ['an unknown nationality', family, 0, { nationality_id: 999 }, { nationality_id: 'option_invalid' }],
      ['a destination of the trip as nationality', family, 0, { nationality_id: FRANCE }, { nationality_id: 'nationality_not_covered' }],
      ['a nationality the insurer excludes', family, 1, { nationality_id: NORTH_KOREA }, { nationality_id: 'nationality_not_covered' }],
      ['principal as a later traveller\'s relationship', family, 1, { relationship_type_id: 5 }, { relationship_type_id: 'option_invalid' }],
      ['a domestic relationship in a family', family, 2, { relationship_type_id: 11 }, { relationship_type_id: 'option_invalid' }],
      ['a parents-list relationship without a family', single, 1, { relationship_type_id: 21 }, { relationship_type_id: 'option_invalid' }],
      ['two at once', family, 2, { gender_id: 7, country_id: 999 }, { gender_id: 'option_invalid', country_id: 'option_invalid' }],
    ];
    const before = [await written(family.lead.id), await written(single.lead.id)];
    for (const [label, lead, index, change, errors] of cases) {
      const res = await send(saveBody(lead.uuid, 3, complete(lead, index, change)));
      expect({ label, errors: await errorCodes(res, 422) }).toEqual({ label, errors: prefixed(errors) });
    }
    expect([await written(family.lead.id), await written(single.lead.id)]).toEqual(before);
    // The same relationship and nationality are offered where the rules allow them.
    await saveOk(saveBody(single.uuid, 3, complete(single, 1, { relationship_type_id: 6 })));
    const byblos = await chosenLead({}, PLANS.plainOffline);
    // Insurer 1000 covers nationals of their destination (the spec's "one provider and destination case").
    await saveOk(saveBody(byblos.uuid, 1000, complete(byblos, 0, { nationality_id: FRANCE })));
  });

  it('422 agent_mismatch for another agent\'s id, agent_unknown for an unknown one; the lead\'s own agent is accepted', async () => {
    const [first, second] = AGENTS;
    const lead = await chosenLead({ agent_id: first!.id }, PLANS.plain);
    const before = await written(lead.lead.id);
    expect(await errorCodes(await send(saveBody(lead.uuid, 1000, complete(lead, 0), { agent_id: second!.id })), 422)).toEqual({ agent_id: 'agent_mismatch' });
    expect(await errorCodes(await send(saveBody(lead.uuid, 1000, complete(lead, 0), { agent_id: 99_999 })), 422)).toEqual({ agent_id: 'agent_unknown' });
    expect(await written(lead.lead.id)).toEqual(before);
    await saveOk(saveBody(lead.uuid, 1000, complete(lead, 0), { agent_id: first!.id }));
  });
});

describe('the date of birth must be the quoted one (RULINGS 8)', () => {
  it('a different date answers 200 with error "dob" and the message in English and in Arabic; nothing is written', async () => {
    const lead = await chosenLead({}, PLANS.plain);
    const before = await written(lead.lead.id);
    const body = saveBody(lead.uuid, 1000, complete(lead, 0, { dob: '1991-05-20' }), { session_id: lead.sessionId });

    const english = await saveOk(body);
    expect(english).toEqual({
      error: 'dob',
      message: 'The date of birth 20/05/1991 is not the one this quote was priced for. Change it in Travel details and get new quotes.',
      leads: { uuid: lead.uuid, stage: 2 },
      session_id: lead.sessionId,
      traveller: null,
    });
    const arabic = await saveOk({ ...body, lang: 'ar' });
    expect(arabic.error).toBe('dob');
    expect(arabic.message).toMatch(ARABIC);
    expect(arabic.message).toContain('20/05/1991');
    expect(await written(lead.lead.id)).toEqual(before);
  });

  it('a traveller outside the plan\'s ages answers 200 with error "dob" and the plan\'s ages; nothing is written', async () => {
    // 35 on 1 April 2026, quoted (by mistake of the catalogue) on a plan for 0 to 30.
    const lead = await chosenLead({}, PLANS.youth);
    const before = await written(lead.lead.id);
    const english = await saveOk(saveBody(lead.uuid, 1000, complete(lead, 0)));
    expect(english).toMatchObject({ error: 'dob', traveller: null, leads: { stage: 2 }, session_id: null });
    expect(english.message).toBe(
      'This plan covers travellers aged 0 to 30, and this traveller is 35 on the day the trip starts. Check the date of birth in Travel details and get new quotes.',
    );
    const arabic = await saveOk(saveBody(lead.uuid, 1000, complete(lead, 0), { lang: 'ar' }));
    expect(arabic.message).toMatch(ARABIC);
    expect(arabic.message).toContain('30');
    expect(await written(lead.lead.id)).toEqual(before);
  });

  it('a date that is not a date is a field error, not a dob dialog', async () => {
    const lead = await chosenLead({}, PLANS.plain);
    const res = await send(saveBody(lead.uuid, 1000, complete(lead, 0, { dob: '1990-02-30' })));
    expect(await errorCodes(res, 422)).toEqual({ 'traveller.dob': 'dob_invalid' });
  });
});

describe('hostile bodies get a 4xx with field codes, never a 5xx, and nothing is written', () => {
  const DEPTH = 20_000;
  let lead: Awaited<ReturnType<typeof chosenLead>>;
  beforeAll(async () => {
    lead = await chosenLead({}, PLANS.stamp);
  });

  const bodies = (): [label: string, text: string, status: number, errors: Record<string, string> | undefined][] => {
    const traveller = complete(lead, 0);
    const json = (change: Record<string, unknown>, travellerChange: Record<string, unknown> = {}) =>
      JSON.stringify({ ...saveBody(lead.uuid, 3, { ...traveller, ...travellerChange }), ...change });
    return [
      ['a NUL in the first name', json({}, { first_name: 'Ka\u0000rim' }), 422, { 'traveller.first_name': 'invalid_characters' }],
      ['a control character in the last name', json({}, { last_name: 'Had\u001bdad' }), 422, { 'traveller.last_name': 'invalid_characters' }],
      ['a lone surrogate in the passport', json({}, { passport: 'AB\ud800123' }), 422, { 'traveller.passport': 'invalid_characters' }],
      ['a 10,000-character first name', json({}, { first_name: 'A'.repeat(10_000) }), 422, { 'traveller.first_name': 'too_long' }],
      ['a 1,000-character passport', json({}, { passport: 'A'.repeat(1_000) }), 422, { 'traveller.passport': 'too_long' }],
      ['a 1,000-character date', json({}, { dob: '1'.repeat(1_000) }), 422, { 'traveller.dob': 'too_long' }],
      ['a name that is a number', json({}, { first_name: 123 }), 422, { 'traveller.first_name': 'invalid_type' }],
      ['a name that is an object', json({}, { first_name: { $ne: '' } }), 422, { 'traveller.first_name': 'invalid_type' }],
      ['a traveller id as text', json({}, { id: String(traveller.id) }), 422, { 'traveller.id': 'invalid_type' }],
      ['a traveller id beyond PostgreSQL integer', json({}, { id: 99_999_999_999 }), 422, { 'traveller.id': 'out_of_range' }],
      ['a gender beyond PostgreSQL integer', json({}, { gender_id: 1e300 }), 422, { 'traveller.gender_id': 'out_of_range' }],
      ['a fractional title', json({}, { type: 1.5 }), 422, { 'traveller.type': 'out_of_range' }],
      ['insurance_id as text', json({ insurance_id: '3' }), 422, { insurance_id: 'invalid_type' }],
      ['the traveller as text', json({ traveller: 'x' }), 422, { traveller: 'invalid_type' }],
      ['the traveller missing', json({ traveller: undefined }), 422, { traveller: 'required' }],
      ['a uuid that is not one', json({ uuid: "' or 1=1 --" }), 422, { uuid: 'invalid_value' }],
      // An array passes valibot's object check, so the code is the traveller's missing id.
      ['the traveller nested 20,000 deep', JSON.stringify(saveBody(lead.uuid, 3, null)).replace('null', `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`), 422, { 'traveller.id': 'required' }],
      ['a body that is not an object', 'null', 422, { _: 'invalid_type' }],
      ['an array', '[]', 422, { uuid: 'required', traveller: 'required', insurance_id: 'required' }],
      ['invalid JSON', '{"uuid":', 400, { _: 'invalid_json' }],
      // Refused while it streams, before any field is read.
      ['a 300 KB body', json({ padding: 'x'.repeat(300 * 1024) }), 413, undefined],
    ];
  };

  it('each hostile body, one by one', async () => {
    const before = await written(lead.lead.id);
    for (const [label, text, status, errors] of bodies()) {
      const res = await app.send(saveTravellerInfoEndpoint.path, text);
      const body = expectErrorBody(await res.json(), res.status);
      expect({ label, status: res.status, errors: body.data.errors }).toEqual({ label, status, errors });
      expect({ label, written: await written(lead.lead.id) }).toEqual({ label, written: before });
    }
  });

  it('prototype keys are dropped like any unknown key: the traveller is saved and nothing is polluted', async () => {
    const text = JSON.stringify(saveBody(lead.uuid, 3, complete(lead, 0))).replace('{', '{"__proto__":{"polluted":true},"constructor":{"prototype":{}},');
    const res = await app.send(saveTravellerInfoEndpoint.path, text);
    expect(res.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await written(lead.lead.id)).stage).toBe(3);
  });
});

/** The proceed-review of chosenLead, for a lead that exists already (after its details changed). */
async function chosenLeadAgain(uuid: string, leadId: number, plan: Plan) {
  const quoteId = await insertQuote(app.db, leadId, { ...plan, premiumCents: 12_000 });
  const res = await app.send(proceedReviewEndpoint.path, { uuid, policy_id: quoteId, bot_token: await freshBotToken(app.send) });
  expect(res.status).toBe(200);
  return v.parse(proceedReviewEndpoint.response, await res.json()).data;
}

describe('rate limits (issue 7)', () => {
  const PER_LEAD = RATE_LIMITS.saveTravellerInfo.perLead.limit;

  it(`a lead gets ${PER_LEAD} saves per 10 minutes, then 429 with Retry-After, and nothing more is written; another lead is not blocked`, async () => {
    // An app of its own: this test spends most of the per-address budget.
    const limited = await createLeadTestApp();
    try {
      await insertTestCatalogue(limited.db);
      const lead = async () => {
        const saved = await limited.save(leadBody());
        const row = await limited.leadRow(saved.uuid);
        const quoteId = await insertQuote(limited.db, row.id, { ...PLANS.plain, premiumCents: 12_000 });
        const res = await limited.send(proceedReviewEndpoint.path, { uuid: saved.uuid, policy_id: quoteId, bot_token: await freshBotToken(limited.send) });
        expect(res.status).toBe(200);
        const [traveller] = await limited.travellerRows(row.id);
        return { uuid: saved.uuid, id: row.id, traveller: traveller! };
      };
      const one = await lead();
      const bare = saveBody(one.uuid, 1000, { ...BARE_TRAVELLER, id: one.traveller.id });
      for (let i = 0; i < PER_LEAD; i += 1) expect((await limited.send(saveTravellerInfoEndpoint.path, bare)).status).toBe(422);

      const full = saveBody(one.uuid, 1000, { ...completeTraveller(one.traveller.dob, newPassport(), PROVIDER_CASES[6]!), id: one.traveller.id });
      const over = await limited.send(saveTravellerInfoEndpoint.path, full);
      expect(over.headers.get('retry-after')).toBe('600');
      expect(await errorCodes(over, 429)).toEqual({ uuid: 'rate_limited' });
      const [row] = await limited.travellerRows(one.id);
      expect(row).toEqual(one.traveller);

      const two = await lead();
      const other = saveBody(two.uuid, 1000, { ...completeTraveller(two.traveller.dob, newPassport(), PROVIDER_CASES[6]!), id: two.traveller.id });
      expect((await limited.send(saveTravellerInfoEndpoint.path, other)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
