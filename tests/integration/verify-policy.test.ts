import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../src/server/db/schema';
import { message } from '../../src/server/http/messages';
import { RATE_LIMITS } from '../../src/server/rate-limit/rate-limit';
import type { LeadTestApp } from './lead-fixtures';
import { apsResponse, createPaymentTestApp, pendingOrder, postNotice } from './payment-fixtures';

/**
 * The certificate's verification page (issue 37 item 4): /verify/<code> says whether a policy is
 * valid, not yet started, expired or cancelled, with each insured person masked to first name,
 * last initial and year of birth, and nothing of the customer's contact or passports; a code that
 * names no policy answers the same page whatever was tried; the page is limited per address.
 */

let app: LeadTestApp;
let clock = 0;

beforeAll(async () => {
  app = await createPaymentTestApp({ now: () => clock });
});
afterAll(() => app.close());

async function paidPolicy() {
  clock = Date.UTC(2026, 2, 15, 10);
  const { order } = await pendingOrder(app);
  expect((await postNotice(app, 'return', apsResponse(order))).status).toBe(303);
  const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id));
  const contract = (await app.db.select().from(t.orders).where(eq(t.orders.id, order.id)))[0]!.contract!;
  return { policy: policy!, contract };
}

const page = async (path: string, lang = 'en') => {
  const res = await app.app.request(path, { headers: { 'accept-language': lang } });
  return { status: res.status, html: await res.text(), headers: res.headers };
};
const statusOf = (html: string) => /data-status="([a-z_]+)"/.exec(html)?.[1];

describe('/verify/<code>', () => {
  it('says not yet started before the trip, valid during it, expired after it, in en and ar; the code is read in any case with dashes', async () => {
    const { policy, contract } = await paidPolicy();
    expect(policy.verifyCode).toMatch(/^[0-9A-F]{16}$/);
    const dashed = policy.verifyCode.toLowerCase().match(/.{4}/g)!.join('-');
    const at = (day: string) => Date.parse(`${day}T12:00:00Z`);
    const seen: Record<string, string | undefined> = {};
    for (const [name, day] of [['before', '2026-03-15'], ['first day', contract.trip.startDate], ['last day', contract.trip.endDate]] as const) {
      clock = at(day);
      seen[name] = statusOf((await page(`/verify/${dashed}`)).html);
    }
    clock = at(contract.trip.endDate) + 86_400_000;
    seen.after = statusOf((await page(`/verify/${policy.verifyCode}`)).html);
    expect(seen).toEqual({ before: 'not_started', 'first day': 'valid', 'last day': 'valid', after: 'expired' });
    const arabic = await page(`/verify/${policy.verifyCode}`, 'ar');
    expect(arabic.html).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.html).toContain(message('verify_expired', 'ar'));
    expect(arabic.headers.get('x-robots-tag')).toBe('noindex, nofollow');
  });

  it('shows the insurer, plan, medical limit, dates and each insured person masked; never a passport, an e-mail, a phone or a full last name', async () => {
    const { policy, contract } = await paidPolicy();
    const { status, html } = await page(`/verify/${policy.verifyCode}`);
    expect(status).toBe(200);
    expect(html).toContain(contract.insurer.nameEn);
    expect(html).toContain(contract.plan.nameEn);
    expect(html).toContain(`$${contract.plan.medicalLimitUsd.toLocaleString('en-US')}`);
    for (const traveller of contract.travellers) {
      expect(html).toContain(`${traveller.firstName} ${traveller.lastName.slice(0, 1)}. (${traveller.dob.slice(0, 4)})`);
      expect(html).not.toContain(traveller.lastName);
    }
    const passports = contract.travellers.flatMap((traveller) => (traveller.passport ? [traveller.passport] : []));
    expect(passports.length).toBeGreaterThan(0);
    expect(passports.filter((passport) => html.includes(passport))).toEqual([]);
    expect(html).not.toContain(contract.customer.email);
    expect(html).not.toContain(policy.downloadToken);
  });

  it('a cancelled policy says so', async () => {
    const { policy } = await paidPolicy();
    await app.db.update(t.policies).set({ cancelledAt: new Date(clock), cancelReason: 'visa_refused' }).where(eq(t.policies.id, policy.id));
    expect(statusOf((await page(`/verify/${policy.verifyCode}`)).html)).toBe('cancelled');
  });

  it('an unknown, malformed or guessed code gets the same 404 page, whatever was tried', async () => {
    const answers = await Promise.all(['0000000000000000', 'FFFFFFFFFFFFFFFF', 'nope', '%27%20or%201%3D1', 'A'.repeat(300)].map((code) => page(`/verify/${code}`)));
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
    expect(new Set(answers.map((answer) => answer.html)).size).toBe(1);
    expect(answers[0]!.html).toContain(message('verify_not_found_text', 'en'));
  });

  it('is limited per address: past the limit it answers 429 with Retry-After, even for a real code', async () => {
    const { policy } = await paidPolicy();
    await app.db.delete(t.rateLimitCounters);
    for (let index = 0; index < RATE_LIMITS.verifyPolicy.perAddress.limit; index += 1) await page(`/verify/${index.toString(16).padStart(16, '0')}`);
    const limited = await page(`/verify/${policy.verifyCode}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(statusOf(limited.html)).toBe('rate_limited');
  });
});
