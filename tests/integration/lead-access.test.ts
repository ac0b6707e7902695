import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomerLeadEndpoint, personalDetailsEndpoint, type AddCustomerLeadRequest } from '../../src/contract/lead.endpoints';
import {
  latestLeadByIdEndpoint,
  proceedReviewEndpoint,
  sendEmailByPageEndpoint,
} from '../../src/contract/quote.endpoints';
import * as t from '../../src/server/db/schema';
import { AGENTS } from '../../src/server/db/seed-data';
import { testConfig } from '../support/test-app';
import { ARABIC, errorCodes, expectErrorEnvelope } from './expect-envelope';
import { createLeadTestApp, leadBody, THREE_TRAVELLERS, uniqueContact, type LeadTestApp } from './lead-fixtures';
import { freshBotToken, insertQuote, insertTestCatalogue, PLAN } from './order-fixtures';

/**
 * Issue 7, tried as an attacker who knows only the signing key shipped in the page (RULINGS
 * 23–25): who may read and change a lead, and what bodies may reach a handler.
 */

const outboxDir = mkdtempSync(path.join(tmpdir(), 'safar-access-outbox-'));
let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp({ config: testConfig({ outboxDir }) });
  await insertTestCatalogue(app.db);
});
afterAll(() => app.close());

const json = async (res: Response) => (await res.json()) as { status: number; message: string; data: Record<string, unknown> };
const leadCount = async () => (await app.db.select({ n: count() }).from(t.leads))[0]!.n;

describe('row 1: a customer’s data only for whoever holds their link', () => {
  it('row 1: walking get-latest-leads-by-lead-id ids without the lead’s session id answers 404, exactly like an unknown id', async () => {
    const saved = await Promise.all([app.save(leadBody()), app.save(leadBody()), app.save(leadBody())]);
    const rows = await Promise.all(saved.map((lead) => app.leadRow(lead.uuid)));
    const unknown = await json(await app.send(latestLeadByIdEndpoint.path, { lead_id: 2_000_000 }));
    expect(unknown.status).toBe(404);
    for (const row of rows) {
      for (const session of [undefined, null, crypto.randomUUID(), saved.find((s) => s.uuid !== row.uuid)!.session_id]) {
        const res = await app.send(latestLeadByIdEndpoint.path, { lead_id: row.id, session_id: session });
        const body = await json(res);
        expect(res.status).toBe(404);
        expect(body).toEqual(unknown);
        expect(JSON.stringify(body)).not.toContain(row.uuid);
      }
    }
    const own = await app.send(latestLeadByIdEndpoint.path, { lead_id: rows[0]!.id, session_id: saved[0]!.session_id });
    expect(own.status).toBe(200);
  });

  it('row 1: get-personal-details hands out neither the device id nor the session id to a caller with the uuid alone', async () => {
    const saved = await app.save(leadBody());
    const res = await app.send(personalDetailsEndpoint.path, { uuid: saved.uuid });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).not.toContain(saved.device_uuid);
    expect(text).not.toContain(saved.session_id!);
    const { customer } = v.parse(personalDetailsEndpoint.response, JSON.parse(text)).data;
    expect(customer.recent_searches[0]!.device_uuid).toBeNull();
    expect(customer.lead_details.session_id).toBeNull();

    const withSession = await app.send(personalDetailsEndpoint.path, { uuid: saved.uuid, session_id: saved.session_id });
    expect(v.parse(personalDetailsEndpoint.response, await withSession.json()).data.customer.lead_details.session_id).toBe(saved.session_id);
  });

  it('row 1: changing a saved lead’s e-mail or phone needs its session id; re-quoting with the uuid alone still works', async () => {
    const body = leadBody();
    const saved = await app.save(body);
    const attacker = uniqueContact();

    for (const [change, field] of [
      [{ email: attacker.email }, 'email'],
      [{ phone_number: attacker.phone_number }, 'phone_number'],
    ] as const) {
      const res = await app.send(addCustomerLeadEndpoint.path, { ...body, ...change, uuid: saved.uuid, lang: 'ar' });
      const refused = await expectErrorEnvelope(res, 422);
      expect(refused.data.errors).toEqual({ [field]: 'contact_locked' });
      expect(refused.message).toMatch(ARABIC);
    }
    expect(await app.leadRow(saved.uuid)).toMatchObject({ email: body.email, phoneNumber: body.phone_number });

    // Re-quoting (dates, travellers) by uuid alone is allowed, and hands out no session or old device id.
    const requoted = await app.save({ ...body, ...THREE_TRAVELLERS, name: body.name, end_date: '2026-04-12', uuid: saved.uuid });
    expect(requoted.uuid).toBe(saved.uuid);
    expect(requoted.session_id).toBeNull();
    expect(requoted.device_uuid).not.toBe(saved.device_uuid);
    expect(await app.leadRow(saved.uuid)).toMatchObject({ endDate: '2026-04-12', noOfTraveller: 3, sessionId: saved.session_id });

    // The holder of the session id may change them.
    const changed = await app.save({ ...body, email: attacker.email, uuid: saved.uuid, session_id: saved.session_id });
    expect(changed.customer.email).toBe(attacker.email);
  });

  it('row 1: the attack fails end to end: a uuid cannot redirect the customer’s contact, and share e-mails go to the address on file', async () => {
    const victimBody = leadBody({ name: 'Rania Haddad' });
    const victim = await app.save(victimBody);
    const attacker = uniqueContact();
    const takeover = await app.send(addCustomerLeadEndpoint.path, {
      ...victimBody,
      ...attacker,
      name: 'Mallory Evil',
      uuid: victim.uuid,
      session_id: crypto.randomUUID(),
    });
    expect(takeover.status).toBe(422);
    const [customer] = await app.db.select().from(t.customers).where(eq(t.customers.id, victim.customer.id));
    expect(customer).toMatchObject({ name: 'Rania Haddad', email: victimBody.email });

    const before = new Set(readdirSync(outboxDir));
    const sent = await app.send(sendEmailByPageEndpoint.path, { uuid: victim.uuid, pagename: 'compare-quotes', link: 'https://evil.example/x' });
    expect(sent.status).toBe(200);
    const added = readdirSync(outboxDir).filter((file) => file.endsWith('.eml') && !before.has(file));
    expect(added).toHaveLength(1);
    const eml = readFileSync(path.join(outboxDir, added[0]!), 'utf8');
    expect(eml).toMatch(new RegExp(`^To: ${victimBody.email}`, 'mi'));
    expect(eml).not.toContain(attacker.email);
    expect(eml).not.toContain('evil.example');
  });

  it('row 1: a new lead with a returning customer’s e-mail and phone never renames that customer', async () => {
    const contact = uniqueContact();
    const first = await app.save(leadBody({ ...contact, name: 'Rania Haddad' }));
    await app.save(leadBody({ ...contact, name: 'Mallory Evil' }));
    const [customer] = await app.db.select().from(t.customers).where(eq(t.customers.id, first.customer.id));
    expect(customer!.name).toBe('Rania Haddad');
  });
});

describe('row 2: no body reaches a 5xx', () => {
  it('row 2: a NUL in a second traveller’s name, a utm field or selected_premium answers 422 invalid_characters, and nothing is stored', async () => {
    const before = await leadCount();
    const traveller = await app.send(
      addCustomerLeadEndpoint.path,
      leadBody({
        ...THREE_TRAVELLERS,
        travellers_info: [THREE_TRAVELLERS.travellers_info[0]!, { ...THREE_TRAVELLERS.travellers_info[1]!, first_name: 'Ka\u0000rim' }, THREE_TRAVELLERS.travellers_info[2]!],
      }),
    );
    expect(await errorCodes(traveller, 422)).toEqual({ 'travellers_info.1.first_name': 'invalid_characters' });
    const utm = await app.send(addCustomerLeadEndpoint.path, leadBody({ utm_source: 'news\u0000letter' }));
    expect(await errorCodes(utm, 422)).toEqual({ utm_source: 'invalid_characters' });

    const saved = await app.save(leadBody());
    const lead = await app.leadRow(saved.uuid);
    const quoteId = await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
    const proceed = await app.send(proceedReviewEndpoint.path, {
      uuid: saved.uuid,
      policy_id: quoteId,
      bot_token: await freshBotToken(app.send),
      selected_premium: '12\u00000',
    });
    expect(await errorCodes(proceed, 422)).toEqual({ selected_premium: 'invalid_characters' });
    expect(await leadCount()).toBe(before + 1);
  });

  it('row 2: a lone surrogate is refused with a field code and never stored', async () => {
    const before = await leadCount();
    const body = JSON.stringify(leadBody({ name: 'Rania Haddad', utm_campaign: 'a\ud800b' }));
    expect(body).toContain('\\ud800');
    const res = await app.send(addCustomerLeadEndpoint.path, body);
    expect(await errorCodes(res, 422)).toEqual({ utm_campaign: 'invalid_characters' });
    expect(await leadCount()).toBe(before);
  });

  it('row 2: every traveller’s names follow the principal’s rules', async () => {
    const res = await app.send(
      addCustomerLeadEndpoint.path,
      leadBody({
        ...THREE_TRAVELLERS,
        travellers_info: [
          THREE_TRAVELLERS.travellers_info[0]!,
          { ...THREE_TRAVELLERS.travellers_info[1]!, first_name: 'K4rim' },
          { ...THREE_TRAVELLERS.travellers_info[2]!, last_name: "O''Neil" },
        ],
      } satisfies Partial<AddCustomerLeadRequest>),
    );
    expect(await errorCodes(res, 422)).toEqual({
      'travellers_info.1.first_name': 'name_chars',
      'travellers_info.2.last_name': 'name_chars',
    });
  });
});

describe('row 7: agents', () => {
  const [first, second] = AGENTS;

  it('row 7: a later save of a lead never re-credits it to another agent', async () => {
    const saved = await app.save(leadBody({ agent_id: first!.id }));
    await app.save({ ...leadBody({ agent_id: second!.id }), uuid: saved.uuid, session_id: saved.session_id });
    await app.save({ ...leadBody({ agent_id: 0 }), uuid: saved.uuid, session_id: saved.session_id });
    expect((await app.leadRow(saved.uuid)).agentId).toBe(first!.id);
  });

  it('row 7: proceed-review refuses an agent id that is not the lead’s, and keeps the lead’s agent on the invoice', async () => {
    const saved = await app.save(leadBody({ agent_id: first!.id }));
    const lead = await app.leadRow(saved.uuid);
    const quoteId = await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
    const other = await app.send(proceedReviewEndpoint.path, {
      uuid: saved.uuid,
      policy_id: quoteId,
      agent_id: second!.id,
      bot_token: await freshBotToken(app.send),
    });
    expect(await errorCodes(other, 422)).toEqual({ agent_id: 'agent_mismatch' });

    const own = await app.send(proceedReviewEndpoint.path, { uuid: saved.uuid, policy_id: quoteId, agent_id: first!.id, bot_token: await freshBotToken(app.send) });
    expect(own.status).toBe(200);
    const [invoice] = await app.db.select().from(t.invoices).where(eq(t.invoices.leadId, lead.id));
    expect(invoice!.agentId).toBe(first!.id);
  });
});

describe('row 8: the small ones', () => {
  it('row 8: an upper-case uuid names the same lead', async () => {
    const body = leadBody();
    const saved = await app.save(body);
    const res = await app.send(personalDetailsEndpoint.path, { uuid: saved.uuid.toUpperCase() });
    expect(res.status).toBe(200);
    expect(v.parse(personalDetailsEndpoint.response, await res.json()).data.customer.lead_details.uuid).toBe(saved.uuid);
    const edited = await app.save({ ...body, uuid: saved.uuid.toUpperCase(), session_id: saved.session_id!.toUpperCase() });
    expect(edited.session_id).toBe(saved.session_id);
    expect(edited.uuid).toBe(saved.uuid);
  });
});
