import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import type { Language } from '../../src/contract/endpoint';
import { proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import { parseBrokerArgs, runBrokerCommand } from '../../src/server/admin/broker-commands';
import { listOrders } from '../../src/server/orders/order-admin';
import { createApp } from '../../src/server/app';
import * as t from '../../src/server/db/schema';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import { certificatePath } from '../../src/server/policies/issue-policy';
import { testConfig } from '../support/test-app';
import { createTestDatabase } from '../support/test-db';
import { ARABIC } from './expect-envelope';
import { createLeadTestApp, FRANCE, ITALY, leadBody, LEBANON, type LeadTestApp } from './lead-fixtures';
import { freshBotToken, insertQuote, insertTestCatalogue, PLAN } from './order-fixtures';
import { pdfTextOf, readEml } from './outbox-reader';

/**
 * Policy issuance (issue 11 item 5, RULINGS 21–22): a 100 % coupon order issues one policy whose
 * PDF certificate is e-mailed (outbox .eml, parsed here) in the order's language and downloadable
 * by its unguessable link; a dead mail server leaves the policy unmailed and logged; the broker
 * lists orders with `npm run broker -- orders`. The clock is FIXED_NOW (15 March 2026).
 */

const POLICY_NUMBER = /^SFR-\d{2}-[0-9A-Z]{8}$/;
const LEVANT = { planId: PLAN.levant, insurerId: 12 };

let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
  await insertTestCatalogue(app.db);
});
afterAll(() => app.close());

let passports = 0;
const newPassport = () => `PL${String((passports += 1)).padStart(7, '0')}`;

/** Two travellers as their passports read, saved at review (nationality Lebanon: the plan asks for it). */
function travellerNames() {
  return [
    { first_name: 'Rania', middle_name: 'Elias', last_name: 'Haddad', dob: '1988-06-01', passport: newPassport() },
    { first_name: 'Karim', middle_name: null, last_name: 'Nassar', dob: '1990-05-20', passport: newPassport() },
  ];
}

/**
 * A lead of two travellers from Lebanon to France and Italy, through proceed-review and the
 * review of both travellers (stage 3) as the SPA does it, on a plan of insurer 12 (premium
 * $120.00, VAT 11 %), in `lang`.
 */
async function leadAtCheckout(target: LeadTestApp, lang: Language) {
  const travellers = travellerNames();
  const saved = await target.save(
    leadBody({ lang, no_of_traveller: 2, destination_id: [FRANCE, ITALY], travellers_info: travellers.map((traveller) => ({ dob: traveller.dob })) }),
  );
  const lead = await target.leadRow(saved.uuid);
  const quoteId = await insertQuote(target.db, lead.id, { ...LEVANT, premiumCents: 12_000 });
  const proceeded = await target.send(proceedReviewEndpoint.path, { uuid: saved.uuid, policy_id: quoteId, addons: [], bot_token: await freshBotToken(target.send) });
  expect(proceeded.status).toBe(200);
  const rows = await target.travellerRows(lead.id);
  for (const [index, traveller] of travellers.entries()) {
    const values = { type: 2, gender_id: 2, country_id: LEBANON, nationality_id: LEBANON, relationship_type_id: null, ...traveller };
    const res = await target.send(saveTravellerInfoEndpoint.path, { uuid: saved.uuid, insurance_id: LEVANT.insurerId, traveller: { ...values, id: rows[index]!.id }, lang });
    const json: unknown = await res.json();
    expect({ status: res.status, json }).toMatchObject({ status: 200, json: { data: { error: null } } });
  }
  return { uuid: saved.uuid, lead, travellers, lang };
}

/** temp-checkout with FREE100: nothing to pay, so the policy is issued (and delivered) at once. */
async function payWithFree100(target: LeadTestApp, lead: Awaited<ReturnType<typeof leadAtCheckout>>) {
  const res = await target.send(tempCheckoutEndpoint.path, { uuid: lead.uuid, total_price_vat: 0, language: lead.lang, coupon: 'FREE100' });
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200, json: { data: { redirect_to_thank_you: true } } });
  const reference = v.parse(tempCheckoutEndpoint.response, json).data.merchant_reference;
  const [order] = await target.db.select().from(t.orders).where(eq(t.orders.merchantReference, reference));
  return order!;
}

const policyOf = async (target: LeadTestApp, orderId: number) => target.db.select().from(t.policies).where(eq(t.policies.orderId, orderId));
const policyMails = (target: LeadTestApp, leadId: number) =>
  target.db.select().from(t.mailLog).where(and(eq(t.mailLog.leadId, leadId), eq(t.mailLog.kind, 'policy')));

describe('a 100 % coupon order: one policy, mailed with its PDF certificate in the order language', () => {
  const issued: Record<Language, { token: string; number: string; attachment: Buffer; names: string[] } | undefined> = { en: undefined, ar: undefined };

  it.each(['en', 'ar'] as const)('in %s: one policy numbered SFR-yy-XXXXXXXX, mailed_at set, one .eml with the PDF of names, passports, number and plan', async (lang) => {
    const lead = await leadAtCheckout(app, lang);
    const order = await payWithFree100(app, lead);
    expect(order).toMatchObject({ status: 'paid', totalCents: 0, lang });

    const policies = await policyOf(app, order.id);
    expect(policies).toHaveLength(1);
    const policy = policies[0]!;
    expect(policy.policyNumber).toMatch(POLICY_NUMBER);
    expect(policy.downloadToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(policy.mailedAt).not.toBeNull();

    // One policy mail for the lead, written to the outbox, and one .eml there with this policy's number.
    const mails = await policyMails(app, lead.lead.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ toAddress: lead.lead.email, file: expect.stringMatching(/-policy-\d+\.eml$/) as unknown });
    const outbox = testConfigOutbox(mails[0]!.file!);
    const withNumber = readdirSync(outbox).filter((file) => file.endsWith('.eml') && readFileSync(path.join(outbox, file), 'latin1').includes(policy.policyNumber));
    expect(withNumber).toEqual([path.basename(mails[0]!.file!)]);

    const eml = readEml(mails[0]!.file!);
    expect(eml.to).toContain(lead.lead.email);
    expect(eml.subject).toContain(policy.policyNumber);
    expect(eml.subject).toMatch(lang === 'ar' ? ARABIC : new RegExp(`^Your travel insurance policy ${policy.policyNumber}$`));
    const link = `http://safar.test${certificatePath(policy.downloadToken)}`;
    expect(eml.text).toContain(link);
    expect(eml.text).toContain(policy.policyNumber);
    expect(eml.text).toMatch(lang === 'ar' ? ARABIC : /Hello Rania,/);

    expect(eml.pdf).not.toBeNull();
    expect(eml.pdf!.disposition).toMatch(new RegExp(`^attachment; filename="?${policy.policyNumber}\\.pdf"?$`));
    expect(eml.pdf!.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // An Arabic order's mail carries the Arabic certificate as well (issue 37 item 3); an English one only the English.
    const raw = readFileSync(path.join(outbox, withNumber[0]!), 'latin1');
    expect(raw.includes(`${policy.policyNumber}-ar.pdf`)).toBe(lang === 'ar');
    const text = await pdfTextOf(eml.pdf!.bytes);
    const names = ['Rania Elias Haddad', 'Karim Nassar'];
    for (const expected of [...names, ...lead.travellers.map((traveller) => traveller.passport), policy.policyNumber, 'Test Levant Plan', 'Levant Shield (demo)']) {
      expect(text).toContain(expected);
    }
    // Dates of birth, destinations, the medical limit, the coupon and the Schengen statement (France is Schengen).
    for (const expected of ['1 June 1988', '20 May 1990', 'From Lebanon to France, Italy', 'USD 50,000', 'Fully discounted (coupon FREE100)', 'Schengen visa:']) {
      expect(text).toContain(expected);
    }
    issued[lang] = { token: policy.downloadToken, number: policy.policyNumber, attachment: eml.pdf!.bytes, names };
  });

  it('GET the certificate link: 200, an attachment named after the policy, private and not indexed, the same PDF as the mail', async () => {
    for (const lang of ['en', 'ar'] as const) {
      const policy = issued[lang]!;
      const res = await app.app.request(certificatePath(policy.token));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${policy.number}.pdf"`);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
      const pdf = Buffer.from(await res.arrayBuffer());
      const text = await pdfTextOf(pdf);
      for (const name of policy.names) expect(text).toContain(name);
      expect(text).toContain(policy.number);
      // The certificate is the same document each time it is drawn (CreationDate = issue time).
      expect(pdf.equals(policy.attachment)).toBe(true);
    }
  });

  it('draining the mail outbox again mails nothing more: each policy has one sent outbox row', async () => {
    const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.policyNumber, issued.en!.number));
    const before = await app.db.select().from(t.mailLog).where(eq(t.mailLog.kind, 'policy'));
    await expect(app.app.mailWorker.drain()).resolves.toBe(0);
    expect(await app.db.select().from(t.mailLog).where(eq(t.mailLog.kind, 'policy'))).toHaveLength(before.length);
    const rows = await app.db.select().from(t.outbox).where(eq(t.outbox.policyId, policy!.id));
    expect(rows).toEqual([expect.objectContaining({ kind: 'policy', status: 'sent', attempts: 1, lastError: null })]);
  });

  it('a token changed by one character, or a malformed one, is a plain 404 (never the SPA, never 5xx)', async () => {
    const token = issued.en!.token;
    const changed = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const paths = [
      certificatePath(changed),
      '/policies/..%2f..%2fetc%2fpasswd/certificate.pdf',
      `/policies/${'a'.repeat(500)}/certificate.pdf`,
      `/policies/${encodeURIComponent('رانيا-حداد')}/certificate.pdf`,
      `/policies/${token}%00/certificate.pdf`,
      `/policies/${token}/certificate.pdf/extra`,
      `/policies/${token}`,
      '/policies',
    ];
    for (const url of paths) {
      const res = await app.app.request(url, { headers: { 'Accept-Language': 'en' } });
      expect({ url, status: res.status }).toEqual({ url, status: 404 });
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(await res.text()).toBe('Not found.');
    }
  });
});

/** The outbox of a file the mailer wrote (the test app's own temporary folder). */
const testConfigOutbox = (file: string) => path.dirname(file);

describe('a dead mail server (SMTP_URL to a closed port)', () => {
  let dead: LeadTestApp;
  beforeAll(async () => {
    dead = await createLeadTestApp({ config: testConfig({ smtpUrl: 'smtp://127.0.0.1:1' }) });
    await insertTestCatalogue(dead.db);
  });
  afterAll(() => dead.close());

  it('the order is still paid and the policy issued; mailed_at stays null, the outbox row stays pending for a retry and one policy_mail_failed line of facts is logged', async () => {
    const lead = await leadAtCheckout(dead, 'en');
    const order = await payWithFree100(dead, lead);
    expect(order.status).toBe('paid');
    const [invoice] = await dead.db.select().from(t.invoices).where(eq(t.invoices.id, order.invoiceId));
    expect(invoice!.status).toBe('paid');

    const policies = await policyOf(dead, order.id);
    expect(policies).toHaveLength(1);
    expect(policies[0]!.policyNumber).toMatch(POLICY_NUMBER);
    expect(policies[0]!.mailedAt).toBeNull();
    expect(await policyMails(dead, lead.lead.id)).toEqual([]);

    const failures = dead.errors.filter((line) => line.event === 'policy_mail_failed');
    expect(failures).toEqual([
      { event: 'policy_mail_failed', policy_id: policies[0]!.id, outbox_id: expect.any(Number) as unknown, attempt: 1, final: false, error: expect.any(String) as unknown },
    ]);
    // The mail waits in the outbox for its next attempt (10 s later), the error's class recorded.
    const [row] = await dead.db.select().from(t.outbox).where(eq(t.outbox.policyId, policies[0]!.id));
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: failures[0]!.error });
    // Facts only: neither the address nor a name is logged.
    expect(JSON.stringify(dead.errors)).not.toContain(lead.lead.email);
    expect(JSON.stringify(dead.errors)).not.toContain('Haddad');

    // The certificate is still downloadable by its link.
    const res = await dead.app.request(certificatePath(policies[0]!.downloadToken));
    expect(res.status).toBe(200);
  });
});

describe('the certificate link while the database is away', () => {
  it('answers a plain 503 and logs one error line of facts (route, method), without the token; a malformed token is a 404 without a query', async () => {
    const database = await createTestDatabase();
    await database.close();
    const lines: ErrorLogLine[] = [];
    const broken = createApp({ db: database.db, config: testConfig(), staticDir: null, logError: (line) => lines.push(line) });
    const token = 'Q'.repeat(43);
    const res = await broken.request(certificatePath(token));
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(lines).toEqual([
      { event: 'error', request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown, method: 'GET', route: '/policies/:token/certificate.pdf', error: expect.any(String) as unknown },
    ]);
    expect(JSON.stringify(lines)).not.toContain(token);

    // A malformed token is refused by its shape, before any query: still a 404, nothing logged.
    const malformed = await broken.request(`/policies/${'Q'.repeat(42)}/certificate.pdf`);
    expect(malformed.status).toBe(404);
    expect(lines).toHaveLength(1);
  });
});

describe('npm run broker -- orders', () => {
  /** Runs a command line as the CLI does (parse, then run) over the test app's database. */
  async function broker(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const command = parseBrokerArgs(argv);
    if (typeof command === 'string') return { code: 2, out: '', err: command };
    const code = await runBrokerCommand(app.db, command, { out: (text) => out.push(text), err: (text) => err.push(text) }, Date.parse('2026-03-15T12:00:00Z'));
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('lists a paid order with its amount, coupon, policy number and "mailed", and a pending one with dashes, newest first', async () => {
    const paidLead = await leadAtCheckout(app, 'en');
    const paid = await payWithFree100(app, paidLead);
    const [policy] = await policyOf(app, paid.id);
    const pendingLead = await leadAtCheckout(app, 'en');
    // $120.00 + 11 % VAT, no coupon: waits for the payments page.
    const res = await app.send(tempCheckoutEndpoint.path, { uuid: pendingLead.uuid, total_price_vat: 13_320, language: 'en', coupon: null });
    expect(res.status).toBe(200);
    const [pending] = await app.db.select().from(t.orders).where(eq(t.orders.leadId, pendingLead.lead.id));

    const table = await broker('orders');
    expect(table.code).toBe(0);
    const lines = table.out.split('\n');
    expect(lines[0]).toMatch(/^reference\s+created\s+status\s+amount\s+coupon\s+policy\s+mailed\s+why$/);
    const paidLine = lines.findIndex((line) => line.startsWith(`${paid.merchantReference} `));
    const pendingLine = lines.findIndex((line) => line.startsWith(`${pending!.merchantReference} `));
    expect(lines[paidLine]).toMatch(new RegExp(`^${paid.merchantReference}\\s+2026-03-15T10:00:00\\.\\d{3}Z\\s+paid\\s+\\$0\\.00\\s+FREE100\\s+${policy!.policyNumber}\\s+yes$`));
    expect(lines[pendingLine]).toMatch(new RegExp(`^${pending!.merchantReference}\\s+\\S+\\s+pending\\s+\\$133\\.20\\s+—\\s+—\\s+—$`));
    expect(pendingLine).toBeGreaterThan(1);
    expect(pendingLine).toBeLessThan(paidLine);

    const onlyPaid = await broker('orders', '--status', 'paid');
    expect(onlyPaid.out).toContain(paid.merchantReference);
    expect(onlyPaid.out).not.toContain(pending!.merchantReference);
    expect(onlyPaid.out.split('\n').slice(2).every((line) => /\spaid\s/.test(line))).toBe(true);

    const json = await broker('orders', '--status=pending', '--json');
    expect(JSON.parse(json.out)).toEqual(await listOrders(app.db, { status: 'pending' }));
    expect(JSON.parse(json.out)).toContainEqual({
      merchant_reference: pending!.merchantReference,
      created: pending!.createdAt.toISOString(),
      status: 'pending',
      amount_cents: 13_320,
      coupon: null,
      policy_number: null,
      mailed: null,
      reason: null,
    });
  });

  it('refuses an unknown status or argument with a message (exit 2 with the usage, as the CLI does)', async () => {
    expect(await broker('orders', '--status', 'cancelled')).toEqual({ code: 2, out: '', err: '--status is one of pending, paid, failed, void, refund, refunded (got "cancelled").' });
    expect(await broker('orders', '--status')).toEqual({ code: 2, out: '', err: '--status is one of pending, paid, failed, void, refund, refunded.' });
    expect(await broker('orders', '--all')).toEqual({ code: 2, out: '', err: 'Unknown argument "--all".' });
  });
});
