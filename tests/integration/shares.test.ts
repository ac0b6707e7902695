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

describe('send-email-by-page', () => {
  it('writes an .eml for the customer with the link (always under PUBLIC_URL) and the plans, and logs it', async () => {
    const lead = await saveLead();
    await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
    // Sent from another origin: only the path and query are kept, under the configured PUBLIC_URL.
    const link = `https://elsewhere.example/compare-quotes?uuid=${lead.uuid}&agent_id=101`;
    const expectedLink = `https://safar.example/compare-quotes?uuid=${lead.uuid}&agent_id=101`;
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
    expect(uuidData.whatapp_template).toContain(link);
  });

  it('say isLeadAlreadyInDeal only once the invoice is no longer open', async () => {
    const lead = await saveLead();
    const quoteId = await insertQuote(app.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
    const invoice = {
      leadId: lead.id,
      quoteId,
      quoteRefNo: `SAF-TEST-${lead.id}`,
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
    await app.db.insert(t.invoices).values(invoice);
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
