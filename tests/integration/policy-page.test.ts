import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { latestLeadsByDeviceEndpoint, personalDetailsEndpoint, type AddCustomerLeadRequest } from '../../src/contract/lead.endpoints';
import { leadStatusEndpoint } from '../../src/contract/lead-status.endpoints';
import {
  CANCELLATION_NOTE_MAX,
  policyCancellationEndpoint,
  policyPageEndpoint,
  policyPageSchema,
  policyResendEndpoint,
  policyResendLimitedSchema,
  type PolicyPage,
} from '../../src/contract/policy-page.endpoints';
import * as t from '../../src/server/db/schema';
import { message } from '../../src/server/http/messages';
import { policyOutgoingMail } from '../../src/server/policies/deliver-policy';
import { RATE_LIMITS } from '../../src/server/rate-limit/rate-limit';
import { caseText, fuzzCases, type FuzzPool } from '../soak/fuzz-arbitraries';
import { judgeAnswer } from '../soak/fuzz';
import type { AnyEndpoint } from './contract-endpoints';
import { testConfig } from '../support/test-app';
import { FIXED_NOW, leadBody, TODAY, type LeadTestApp } from './lead-fixtures';
import { ADDON } from './order-fixtures';
import { apsResponse, createPaymentTestApp, pendingOrder, postNotice, type TravellerNames } from './payment-fixtures';

/**
 * The server side of the customer's policy page (issue 37 items 1 and 2, RULINGS 28): the page
 * read by its token in both languages with passports and e-mail masked, the one 404 for every
 * token that names no policy, the per-address limit, "send it again" limited per policy per hour,
 * the cancellation request's rules, hostile bodies, lead-status and the policy_page of paid leads,
 * and "buy again" filling the review fields. Runs on PGlite and, in `npm run test:postgres`, on
 * PostgreSQL like every integration test (tests/postgres/engines.ts). The app's clock is `clock`
 * (15 March 2026 unless a test moves it); the trips run 1 to 10 April 2026.
 */

const outboxDir = mkdtempSync(path.join(tmpdir(), 'safar-policy-page-outbox-'));
let app: LeadTestApp;
let clock = FIXED_NOW;

beforeAll(async () => {
  app = await createPaymentTestApp({ now: () => clock, config: testConfig({ outboxDir, trustProxy: true }) });
  // The winter add-on pays up to $10,000 per traveller (migration 0024 seeds the demo add-ons alike).
  await app.db.update(t.planAddons).set({ limitUsd: 10_000 }).where(eq(t.planAddons.id, ADDON.winter));
});
afterAll(() => app.close());
beforeEach(async () => {
  clock = FIXED_NOW;
  await app.db.delete(t.rateLimitCounters);
});

let signed = 0;
/** A signed POST at the app's clock as it is now (each with a nonce of its own), from `address` when given. */
async function call(pathname: string, body: unknown, address?: string) {
  const res = await app.post(pathname, body, { nowMs: clock + 60_000 + (signed += 1), headers: address ? { 'x-forwarded-for': address } : {} });
  return { status: res.status, json: (await res.json()) as { status: number; message: string; data: Record<string, unknown> }, headers: res.headers };
}

const TWO: TravellerNames[] = [
  { first: 'Rania', last: 'Haddad' },
  { first: 'Karim', last: 'Haddad' },
];

/** A paid policy (card, through the gateway's return) of two travellers with the winter add-on, in `lang`. */
async function paidPolicy(options: { lang?: 'en' | 'ar'; names?: TravellerNames[] } = {}) {
  const { lead, order } = await pendingOrder(app, { names: options.names ?? TWO, addon: true, lang: options.lang ?? 'en' });
  expect((await postNotice(app, 'return', apsResponse(order))).status).toBe(303);
  const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id));
  const [paid] = await app.db.select().from(t.orders).where(eq(t.orders.id, order.id));
  return { lead, order: paid!, policy: policy!, contract: paid!.contract! };
}

async function readPage(token: string, lang: 'en' | 'ar' = 'en'): Promise<PolicyPage> {
  const res = await call(policyPageEndpoint.path, { token, lang });
  expect({ status: res.status, json: res.json }).toMatchObject({ status: 200 });
  return v.parse(policyPageEndpoint.response, res.json).data.policy;
}

describe('policy-page: the policy for its page token', () => {
  it('reads in en and ar: status, insurer and assistance line, plan, add-ons as covers with limits, trip, travellers with passports masked but for the last 3, receipt to the cent, both certificates, the e-mail masked; never no-store missing', async () => {
    const { policy, contract, order } = await paidPolicy();
    expect(policy.pageToken).toMatch(/^[0-9a-f]{64}$/);
    const res = await call(policyPageEndpoint.path, { token: policy.pageToken, lang: 'en' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const en = v.parse(policyPageEndpoint.response, res.json).data.policy;
    expect(en).toMatchObject({
      policy_number: policy.policyNumber,
      status: 'not_started',
      issued_at: policy.issuedAt.toISOString(),
      insurer: { name: contract.insurer.nameEn, assistance_phone: '+961 9 555 710' },
      plan: { name: contract.plan.nameEn, coverage: contract.plan.coverageEn, family: false, medical_limit_usd: 50_000, schengen_visa_compliant: true },
      addons: [{ code: 'winter_sports', name: 'Winter sports', limit_usd: 10_000 }],
      trip: { trip_type: 1, start_date: '2026-04-01', end_date: '2026-04-10', days: 10, direction: 'outbound', destinations: ['France'], source: 'Lebanon' },
      receipt: {
        plan_cents: contract.price.planCents,
        addons: [{ name: 'Winter sports', cents: contract.addons[0]!.cents }],
        discount_cents: 0,
        coupon_code: null,
        vat_percent: contract.price.vatPercent,
        vat_cents: contract.price.vatCents,
        stamp_cents: contract.price.stampCents,
        total_cents: order.totalCents,
        merchant_reference: order.merchantReference,
      },
      certificate: { en: `/policies/${policy.downloadToken}/certificate.pdf`, ar: `/policies/${policy.downloadToken}/certificate.pdf?lang=ar` },
      can_request_cancellation: true,
      cancellation_request: null,
    });
    const { receipt } = en;
    expect(receipt.plan_cents + receipt.addons.reduce((sum, line) => sum + line.cents, 0) - receipt.discount_cents + receipt.vat_cents + receipt.stamp_cents).toBe(receipt.total_cents);
    expect(en.travellers).toEqual(
      contract.travellers.map((traveller) => ({ name: `${traveller.firstName} ${traveller.lastName}`, dob: traveller.dob, passport: `${'•'.repeat(traveller.passport!.length - 3)}${traveller.passport!.slice(-3)}` })),
    );
    const email = contract.customer.email;
    expect(en.email).toBe(`${email.slice(0, 2)}•••${email.slice(email.indexOf('@'))}`);
    // No passport number whole anywhere in the answer.
    const text = JSON.stringify(res.json);
    for (const traveller of contract.travellers) expect(text).not.toContain(traveller.passport!);

    const ar = await readPage(policy.pageToken, 'ar');
    expect(ar).toMatchObject({
      insurer: { name: contract.insurer.nameAr },
      plan: { name: contract.plan.nameAr, coverage: `تغطية ${contract.plan.coverageAr}` },
      addons: [{ code: 'winter_sports', name: 'الرياضات الشتوية', limit_usd: 10_000 }],
      trip: { destinations: [contract.trip.destinations[0]!.nameAr], source: contract.trip.source.nameAr },
      receipt: { addons: [{ name: 'الرياضات الشتوية' }] },
      travellers: en.travellers,
      email: en.email,
    });
  });

  it('reads a token in capitals as the same policy (a mail client may change case in links)', async () => {
    const { policy } = await paidPolicy();
    expect((await readPage(policy.pageToken.toUpperCase())).policy_number).toBe(policy.policyNumber);
  });

  it('says valid during the trip, expired after it and cancelled once the broker cancelled it, as /verify does (its status, one definition)', async () => {
    const { policy } = await paidPolicy();
    clock = Date.parse('2026-04-05T12:00:00Z');
    expect(await readPage(policy.pageToken)).toMatchObject({ status: 'valid', can_request_cancellation: false });
    clock = Date.parse('2026-04-11T12:00:00Z');
    expect((await readPage(policy.pageToken)).status).toBe('expired');
    clock = FIXED_NOW;
    await app.db.update(t.policies).set({ cancelledAt: new Date(clock), cancelReason: 'visa_refused' }).where(eq(t.policies.id, policy.id));
    expect(await readPage(policy.pageToken)).toMatchObject({ status: 'cancelled', can_request_cancellation: false });
  });

  it('gives "buy again" the travel details of the policy with empty dates: contact (the phone from the lead), trip, destinations and each traveller with names and relationship', async () => {
    const { policy, lead, contract } = await paidPolicy();
    const leadRow = await app.leadRow(lead.uuid);
    const page = await readPage(policy.pageToken);
    expect(page.buy_again).toEqual({
      name: contract.customer.name,
      email: contract.customer.email,
      phone_country_code: leadRow.phoneCountryCode,
      phone_number: leadRow.phoneNumber,
      inbound_outbound: true,
      trip_type: 1,
      start_date: null,
      end_date: null,
      destination_id: contract.trip.destinations.map((country) => country.id),
      source_id: 422,
      no_of_traveller: 2,
      is_family: false,
      travellers_info: contract.travellers.map((traveller, index) => ({
        id: null,
        dob: traveller.dob,
        first_name: traveller.firstName,
        middle_name: traveller.middleName,
        last_name: traveller.lastName,
        relationship_type_id: index === 0 ? 5 : 2,
      })),
    });
  });
});

describe('a token that names no policy', () => {
  const tries: [string, unknown][] = [
    ['an unknown token', 'ab'.repeat(32)],
    ['the same in capitals', 'AB'.repeat(32)],
    ['63 hex digits', 'a'.repeat(63)],
    ['65 hex digits', 'a'.repeat(65)],
    ['not hex', 'z'.repeat(64)],
    ['a download token', 'Zq3V8kP1xW7rT2yN5mB9cD4fG6hJ0sL3aE8uI1oQ2wR'],
    ['SQL', "' or 1=1 --"],
    ['a number', 12_345],
    ['null', null],
    ['an object', { $ne: '' }],
    ['an array', ['ab'.repeat(32)]],
    ['a NUL byte', `${'ab'.repeat(31)}a\u0000`],
    ['nothing', undefined],
  ];

  it.each([
    ['read', policyPageEndpoint.path, {}],
    ['resend', policyResendEndpoint.path, {}],
    ['cancellation request', policyCancellationEndpoint.path, { reason: 'visa_refused', note: '' }],
  ] as const)('%s: every unknown or malformed token gets the same 404 with the same body, in the asked language', async (_, pathname, rest) => {
    await paidPolicy();
    for (const lang of ['en', 'ar'] as const) {
      const answers = [];
      for (const [, token] of tries) answers.push(await call(pathname, { ...rest, token, lang }));
      expect(answers.map((answer) => answer.status)).toEqual(tries.map(() => 404));
      expect(new Set(answers.map((answer) => JSON.stringify(answer.json))).size).toBe(1);
      expect(answers[0]!.json).toEqual({ status: 404, message: message('not_found', lang), data: {} });
      expect(answers[0]!.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('the per-address limit of the policy page', () => {
  it(`counts read, resend and cancellation requests together: past ${RATE_LIMITS.policyPage.perAddress.limit} in 10 minutes an address gets 429 with Retry-After, even for a real token; another address is not affected`, async () => {
    const { policy } = await paidPolicy();
    const { limit } = RATE_LIMITS.policyPage.perAddress;
    const paths = [policyPageEndpoint.path, policyResendEndpoint.path, policyCancellationEndpoint.path];
    for (let index = 0; index < limit; index += 1) {
      const guess = index.toString(16).padStart(64, '0');
      expect((await call(paths[index % 3]!, { token: guess, reason: 'other' }, '198.51.100.7')).status).toBe(404);
    }
    const limited = await call(policyPageEndpoint.path, { token: policy.pageToken }, '198.51.100.7');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ status: 429, message: message('rate_limited', 'en'), data: { errors: { _: 'rate_limited' } } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(policyPageEndpoint.path, { token: policy.pageToken }, '198.51.100.8')).status).toBe(200);
  });
});

describe('policy-page/resend', () => {
  const outboxRows = (policyId: number) => app.db.select().from(t.outbox).where(and(eq(t.outbox.policyId, policyId), eq(t.outbox.kind, 'policy')));

  it(`queues the certificate mail again and sends it now (the outbox row sent, the .eml with the policy page button), answering the masked e-mail; ${RATE_LIMITS.policyResend.perPolicy.limit} per policy per hour, then 429 with retry_after_seconds in the asked language; the next hour it sends again (the app's clock mocked at its edge)`, async () => {
    const { policy, contract } = await paidPolicy();
    expect(await outboxRows(policy.id)).toHaveLength(1);
    // 10:00 on the app's clock: the policy's hour window runs to 11:00.
    clock = Date.UTC(2026, 2, 15, 10, 0, 0);
    const { limit } = RATE_LIMITS.policyResend.perPolicy;
    for (let sent = 1; sent <= limit; sent += 1) {
      clock += 60_000;
      const res = await call(policyResendEndpoint.path, { token: policy.pageToken, lang: 'en' });
      expect({ status: res.status, json: res.json }).toMatchObject({ status: 200 });
      expect(v.parse(policyResendEndpoint.response, res.json).data.email).toBe(maskedEmail(contract.customer.email));
      const rows = await outboxRows(policy.id);
      expect(rows).toHaveLength(1 + sent);
      expect(rows.every((row) => row.status === 'sent')).toBe(true);
    }
    const rows = await outboxRows(policy.id);
    const newest = rows.sort((a, b) => b.id - a.id)[0]!;
    const eml = readdirSync(outboxDir).filter((file) => file.endsWith('.eml') && readFileSync(path.join(outboxDir, file), 'latin1').includes(newest.messageId));
    expect(eml).toHaveLength(1);

    clock += 60_000;
    for (const lang of ['en', 'ar'] as const) {
      const refused = await call(policyResendEndpoint.path, { token: policy.pageToken, lang });
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({ status: 429, message: message('policy_resend_limited', lang), data: { errors: { token: 'rate_limited' } } });
      const wait = v.parse(policyResendLimitedSchema, refused.json.data).retry_after_seconds;
      expect(wait).toBe(3_600 - (limit + 1) * 60);
      expect(refused.headers.get('retry-after')).toBe(String(wait));
    }
    expect(await outboxRows(policy.id)).toHaveLength(1 + limit);

    // Another policy is not limited by this one's sends.
    clock = FIXED_NOW;
    const other = await paidPolicy();
    clock = Date.UTC(2026, 2, 15, 10, 30, 0);
    expect((await call(policyResendEndpoint.path, { token: other.policy.pageToken })).status).toBe(200);

    clock = Date.UTC(2026, 2, 15, 11, 0, 0);
    expect((await call(policyResendEndpoint.path, { token: policy.pageToken })).status).toBe(200);
    expect(await outboxRows(policy.id)).toHaveLength(2 + limit);
  });

  it('the policy mail carries the policy page button and its link in both parts', async () => {
    const { policy } = await paidPolicy({ lang: 'ar' });
    const mail = await policyOutgoingMail(app.db, { publicUrl: 'http://safar.test' }, policy.id);
    const pageLink = `http://safar.test/policy/${policy.pageToken}`;
    expect(mail.html).toContain(`<a href="${pageLink}"`);
    expect(mail.html).toContain('افتح صفحة بوليصتك');
    expect(mail.text).toContain(pageLink);
  });
});

const maskedEmail = (email: string) => `${email.slice(0, 2)}•••${email.slice(email.indexOf('@'))}`;

describe('policy-page/cancellation-request', () => {
  const rowsOf = (policyId: number) => app.db.select().from(t.cancellationRequests).where(eq(t.cancellationRequests.policyId, policyId));

  it('records the reason and the trimmed note for a policy that has not started and answers the page with the request; a second request is 409 cancellation_not_allowed in the asked language', async () => {
    const { policy } = await paidPolicy();
    const res = await call(policyCancellationEndpoint.path, { token: policy.pageToken, reason: 'visa_refused', note: '   The embassy said no.  ', lang: 'en' });
    expect({ status: res.status, json: res.json }).toMatchObject({ status: 200 });
    const page = v.parse(policyCancellationEndpoint.response, res.json).data.policy;
    expect(page).toMatchObject({
      can_request_cancellation: false,
      cancellation_request: { reason: 'visa_refused', note: 'The embassy said no.', status: 'open', created_at: new Date(FIXED_NOW).toISOString() },
    });
    expect(await rowsOf(policy.id)).toMatchObject([{ reason: 'visa_refused', note: 'The embassy said no.', status: 'open' }]);
    expect((await readPage(policy.pageToken)).cancellation_request).toEqual(page.cancellation_request);

    for (const lang of ['en', 'ar'] as const) {
      const again = await call(policyCancellationEndpoint.path, { token: policy.pageToken, reason: 'other', lang });
      expect(again.status).toBe(409);
      expect(again.json).toEqual({ status: 409, message: message('cancellation_not_allowed', lang), data: { errors: { token: 'cancellation_not_allowed' } } });
    }
    expect(await rowsOf(policy.id)).toHaveLength(1);
  });

  it('refuses a policy that has started (409), and a cancelled one', async () => {
    const started = await paidPolicy();
    clock = Date.parse('2026-04-01T08:00:00Z');
    const refused = await call(policyCancellationEndpoint.path, { token: started.policy.pageToken, reason: 'trip_cancelled' });
    expect(refused.json).toMatchObject({ status: 409, data: { errors: { token: 'cancellation_not_allowed' } } });
    expect(await rowsOf(started.policy.id)).toHaveLength(0);

    clock = FIXED_NOW;
    const cancelled = await paidPolicy();
    await app.db.update(t.policies).set({ cancelledAt: new Date(clock), cancelReason: 'other' }).where(eq(t.policies.id, cancelled.policy.id));
    expect((await call(policyCancellationEndpoint.path, { token: cancelled.policy.pageToken, reason: 'other' })).status).toBe(409);
    expect(await rowsOf(cancelled.policy.id)).toHaveLength(0);
    // The day before the start it is still allowed.
    clock = Date.parse('2026-03-31T23:00:00Z');
    expect((await call(policyCancellationEndpoint.path, { token: started.policy.pageToken, reason: 'trip_cancelled' })).status).toBe(200);
  });

  it('twenty requests at once make exactly one row: one 200, nineteen 409, never a 5xx', async () => {
    const { policy } = await paidPolicy();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => call(policyCancellationEndpoint.path, { token: policy.pageToken, reason: 'other', note: `try ${index}` })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(19).fill(409)]);
    expect(await rowsOf(policy.id)).toHaveLength(1);
  });

  it(`checks the note: at most ${CANCELLATION_NOTE_MAX} characters after trimming, no control character (a line break included), and the reason from the list`, async () => {
    const { policy } = await paidPolicy();
    const refusal = async (body: Record<string, unknown>) => (await call(policyCancellationEndpoint.path, { token: policy.pageToken, reason: 'other', ...body })).json;
    expect(await refusal({ note: 'x'.repeat(CANCELLATION_NOTE_MAX + 1) })).toMatchObject({ status: 422, data: { errors: { note: 'too_long' } } });
    expect(await refusal({ note: 'first line\nsecond line' })).toMatchObject({ status: 422, data: { errors: { note: 'invalid_characters' } } });
    expect(await refusal({ reason: 'changed_my_mind' })).toMatchObject({ status: 422, data: { errors: { reason: 'invalid_value' } } });
    expect(await rowsOf(policy.id)).toHaveLength(0);
    const longest = await call(policyCancellationEndpoint.path, { token: policy.pageToken, reason: 'other', note: `  ${'ن'.repeat(CANCELLATION_NOTE_MAX)}  ` });
    expect(longest.status).toBe(200);
    expect((await rowsOf(policy.id))[0]!.note).toBe('ن'.repeat(CANCELLATION_NOTE_MAX));
  });
});

describe('hostile bodies', () => {
  it('the three endpoints answer 4xx in the envelope (or 200 in the contract), never a 5xx, for bodies drawn from their schemas, mutated and hostile', async () => {
    const { policy } = await paidPolicy();
    const token = policy.pageToken;
    const pool: FuzzPool = {
      uuids: [],
      sessionIds: [],
      deviceUuids: [],
      leadIds: [],
      quoteIds: [],
      merchantReferences: [],
      today: TODAY,
      examples: {
        [policyPageEndpoint.path]: [{ token, lang: 'en' }, { token, lang: 'ar' }],
        [policyResendEndpoint.path]: [{ token, lang: 'ar' }],
        [policyCancellationEndpoint.path]: [{ token, reason: 'other', note: 'n', lang: 'en' }],
      },
    };
    let address = 0;
    for (const endpoint of [policyPageEndpoint, policyResendEndpoint, policyCancellationEndpoint] as AnyEndpoint[]) {
      await fc.assert(
        fc.asyncProperty(fuzzCases(endpoint.request, pool, endpoint.path), async (fuzzCase) => {
          const text = caseText(fuzzCase);
          address += 1;
          const res = await app.post(endpoint.path, text, { nowMs: clock + 60_000 + (signed += 1), headers: { 'x-forwarded-for': `10.9.${(address >> 8) & 255}.${address & 255}` } });
          const answer = { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
          expect(judgeAnswer(endpoint, answer), `${answer.status} ${answer.text.slice(0, 300)} for ${text.slice(0, 300)}`).toBeNull();
        }),
        { numRuns: 150, seed: 37, endOnFailure: true },
      );
    }
    expect(app.errors).toEqual([]);
  });
});

describe('paid leads lead to their policy (RULINGS 28)', () => {
  it('lead-status: paid with the policy page for a paid lead, open with null for another; an unknown uuid gets the 404 get-personal-details gives one', async () => {
    const { lead, policy } = await paidPolicy();
    const paid = await call(leadStatusEndpoint.path, { uuid: lead.uuid });
    expect(v.parse(leadStatusEndpoint.response, paid.json).data).toEqual({ status: 'paid', policy_page: `/policy/${policy.pageToken}` });
    expect(paid.headers.get('cache-control')).toBe('no-store');
    const open = await app.save(leadBody());
    expect((await call(leadStatusEndpoint.path, { uuid: open.uuid.toUpperCase() })).json.data).toEqual({ status: 'open', policy_page: null });

    const unknown = '0b7c7d5e-2f1a-4c3b-9d8e-7f6a5b4c3d2e';
    for (const lang of ['en', 'ar'] as const) {
      const status = await call(leadStatusEndpoint.path, { uuid: unknown, lang });
      const details = await call(personalDetailsEndpoint.path, { uuid: unknown, lang });
      expect(status.status).toBe(404);
      expect(status.json).toEqual(details.json);
    }
    expect((await call(leadStatusEndpoint.path, { uuid: 'zzz' })).json).toEqual((await call(personalDetailsEndpoint.path, { uuid: 'zzz' })).json);
  });

  it('get-personal-details and the recent searches carry policy_page for a paid lead only', async () => {
    const { lead, policy } = await paidPolicy();
    const page = `/policy/${policy.pageToken}`;
    const device = (await app.leadRow(lead.uuid)).deviceUuid;
    const open = await app.save(leadBody({ device_uuid: device }));

    const paidDetails = v.parse(personalDetailsEndpoint.response, (await call(personalDetailsEndpoint.path, { uuid: lead.uuid })).json).data.customer;
    expect(paidDetails.policy_page).toBe(page);
    expect(paidDetails.isLeadAlreadyInDeal).toBe(true);
    expect(paidDetails.recent_searches.map((search) => search.policy_page)).toEqual([page]);
    const openDetails = v.parse(personalDetailsEndpoint.response, (await call(personalDetailsEndpoint.path, { uuid: open.uuid })).json).data.customer;
    expect(openDetails.policy_page).toBeNull();
    expect(openDetails.recent_searches.map((search) => search.policy_page)).toEqual([null]);

    const recent = v.parse(latestLeadsByDeviceEndpoint.response, (await call(latestLeadsByDeviceEndpoint.path, { device_uuid: device })).json).data;
    const byLead = Object.fromEntries(recent.recent.map((search) => [search.uuid_lead, search.policy_page]));
    expect(byLead).toEqual({ [lead.uuid]: page, [open.uuid]: null });
    expect(recent.leads).toEqual(recent.recent);
  });
});

describe('buy again (from_policy)', () => {
  /** The page's buy_again with new dates, as the travel details form sends it, and the policy's token. */
  async function buyAgainBody(change: (details: AddCustomerLeadRequest) => AddCustomerLeadRequest = (details) => details) {
    const paid = await paidPolicy();
    const page = await readPage(paid.policy.pageToken);
    const body: AddCustomerLeadRequest = { ...page.buy_again, start_date: '2026-07-01', end_date: '2026-07-10', lang: 'en', from_policy: paid.policy.pageToken };
    return { ...paid, body: change(body) };
  }

  const reviewFields = (row: typeof t.leadTravellers.$inferSelect) => ({
    titleId: row.titleId,
    firstName: row.firstName,
    middleName: row.middleName,
    lastName: row.lastName,
    passport: row.passport,
    genderId: row.genderId,
    maritalStatusId: row.maritalStatusId,
    nationalityId: row.nationalityId,
    countryId: row.countryId,
    relationshipTypeId: row.relationshipTypeId,
  });

  it('copies the review fields of the policy traveller of the same date of birth to each new traveller; they stay to be confirmed (is_field false); a new traveller matches nothing', async () => {
    const { body, contract: frozen, order } = await buyAgainBody((details) => ({
      ...details,
      no_of_traveller: 3,
      // The policy's two travellers, then a child it did not have.
      travellers_info: [details.travellers_info[0]!, details.travellers_info[1]!, { dob: '2018-09-09', first_name: 'Lina', last_name: 'Haddad' }],
    }));
    // The test plan asks for no gender, nationality or residence; a plan that does freezes them too.
    const lebanon = { id: 422, nameEn: 'Lebanon', nameAr: 'لبنان' };
    const contract = {
      ...frozen,
      travellers: frozen.travellers.map((traveller, index) => ({ ...traveller, genderId: 2 - index, maritalStatusId: 2, nationality: lebanon, residence: { id: 250, nameEn: 'France', nameAr: 'فرنسا' } })),
    };
    await app.db.update(t.orders).set({ contract }).where(eq(t.orders.id, order.id));
    const saved = await app.save(body);
    const lead = await app.leadRow(saved.uuid);
    const rows = (await app.travellerRows(lead.id)).filter((row) => row.deletedAt === null).sort((a, b) => a.position - b.position);
    expect(rows.map(reviewFields)).toEqual([
      ...contract.travellers.map((traveller, index) => ({
        titleId: traveller.titleId,
        firstName: traveller.firstName,
        middleName: traveller.middleName,
        lastName: traveller.lastName,
        passport: traveller.passport,
        genderId: traveller.genderId,
        maritalStatusId: traveller.maritalStatusId,
        nationalityId: traveller.nationality?.id ?? null,
        countryId: traveller.residence?.id ?? null,
        relationshipTypeId: index === 0 ? 5 : traveller.relationshipTypeId,
      })),
      { titleId: null, firstName: 'Lina', middleName: null, lastName: 'Haddad', passport: null, genderId: null, maritalStatusId: null, nationalityId: null, countryId: null, relationshipTypeId: null },
    ]);
    expect(contract.travellers.every((traveller) => traveller.passport && traveller.titleId !== null)).toBe(true);
    expect(rows.every((row) => row.reviewedAt === null)).toBe(true);
    const details = v.parse(personalDetailsEndpoint.response, (await call(personalDetailsEndpoint.path, { uuid: saved.uuid })).json).data.customer;
    expect(details.lead_details.travellers_info.map((traveller) => [traveller.passport, traveller.is_field])).toEqual([
      [contract.travellers[0]!.passport, false],
      [contract.travellers[1]!.passport, false],
      [null, false],
    ]);
    expect(details.policy_page).toBeNull();
  });

  it('pairs travellers by date of birth, not by place: the two travellers swapped get each their own fields', async () => {
    const { body, contract } = await buyAgainBody((details) => ({
      ...details,
      travellers_info: [details.travellers_info[1]!, { ...details.travellers_info[0]!, relationship_type_id: 1 }],
    }));
    // The principal is always first: here the policy's second traveller's date of birth.
    const saved = await app.save({ ...body, name: 'Karim Haddad' });
    const rows = (await app.travellerRows((await app.leadRow(saved.uuid)).id)).filter((row) => row.deletedAt === null).sort((a, b) => a.position - b.position);
    expect(rows.map((row) => [row.dob, row.passport])).toEqual([
      [contract.travellers[1]!.dob, contract.travellers[1]!.passport],
      [contract.travellers[0]!.dob, contract.travellers[0]!.passport],
    ]);
    // The policy's principal is not the principal here: the relationship the form gave stays.
    expect(rows.map((row) => row.relationshipTypeId)).toEqual([5, 1]);
  });

  it('ignores a token that names no policy: the lead is saved and nothing is copied', async () => {
    const { body } = await buyAgainBody();
    const saved = await app.save({ ...body, from_policy: 'cd'.repeat(32) });
    const rows = await app.travellerRows((await app.leadRow(saved.uuid)).id);
    expect(rows.map((row) => [row.passport, row.titleId, row.nationalityId])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
  });
});

it('every policy page answer parses with the contract schema (policyPageSchema)', async () => {
  const { policy } = await paidPolicy({ lang: 'ar' });
  expect(v.safeParse(policyPageSchema, await readPage(policy.pageToken, 'ar')).success).toBe(true);
});
