import { createHash } from 'node:crypto';
import { solveChallenge } from 'altcha-lib/v1';
import * as v from 'valibot';
import { expect } from 'vitest';
import { botChallengeEndpoint } from '../../src/contract/quote.endpoints';
import type { Db } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';

/**
 * Catalogue rows and stored quotes for the order tests, inserted by the tests themselves so they
 * do not depend on the demo seed's prices. Ids are far above anything the seed uses.
 */

export const PLAN = { plain: 910_001, ownVat: 910_007, stamp: 910_003, plainOffline: 910_010, levant: 910_012 } as const;
export const ADDON = { winter: 920_001, cancel: 920_002, otherPlan: 920_009, ownVatWinter: 920_071, stampWinter: 920_031 } as const;

type PlanRow = typeof t.plans.$inferInsert;

function planRow(id: number, insurerId: number, nameEn: string, isApiPlan = true): PlanRow {
  return {
    id,
    insurerId,
    coverageId: 1,
    nameEn,
    nameAr: `خطة ${id}`,
    coverageNameEn: 'Schengen Essential',
    coverageNameAr: 'شنغن الأساسية',
    tripType: 1,
    minAge: 0,
    maxAge: 80,
    maxTripDays: 92,
    familyFactorPct: 250,
    medicalLimitUsd: 50_000,
    schengenVisaCompliant: true,
    isApiPlan,
  };
}

/**
 * Test plans: one of insurer 1000, one of 7 (own VAT) and one of 3 (stamp fee), with add-ons and
 * highlights; and, for the review rules, one of 1000 not issued through its API (is_api_plan 0)
 * and one of 12 (no special rules).
 */
export async function insertTestCatalogue(db: Db): Promise<void> {
  await db
    .insert(t.plans)
    .values([
      planRow(PLAN.plain, 1000, 'Test Plain Plan'),
      planRow(PLAN.ownVat, 7, 'Test Own VAT Plan'),
      planRow(PLAN.stamp, 3, 'Test Stamp Plan'),
      planRow(PLAN.plainOffline, 1000, 'Test Offline Plan', false),
      planRow(PLAN.levant, 12, 'Test Levant Plan'),
    ])
    .onConflictDoNothing();
  const addon = (id: number, planId: number, code: string, en: string, ar: string) => ({
    id,
    planId,
    code,
    labelEn: en,
    labelAr: ar,
    perTravellerCents: 1_000,
  });
  await db
    .insert(t.planAddons)
    .values([
      addon(ADDON.winter, PLAN.plain, 'winter_sports', 'Winter sports', 'الرياضات الشتوية'),
      addon(ADDON.cancel, PLAN.plain, 'trip_cancellation', 'Trip cancellation', 'إلغاء الرحلة'),
      addon(ADDON.otherPlan, PLAN.stamp, 'adventure_sports', 'Adventure sports', 'رياضات المغامرة'),
      addon(ADDON.ownVatWinter, PLAN.ownVat, 'winter_sports', 'Winter sports', 'الرياضات الشتوية'),
      addon(ADDON.stampWinter, PLAN.stamp, 'winter_sports', 'Winter sports', 'الرياضات الشتوية'),
    ])
    .onConflictDoNothing();
  await db.insert(t.planFeatures).values(
    Object.values(PLAN).flatMap((planId) => [
      { planId, kind: 'highlight', key: 'medical', section: 1, labelEn: 'Medical expenses', labelAr: 'النفقات الطبية', valueEn: 'USD 50,000', valueAr: '50,000 دولار', sort: 1 },
      { planId, kind: 'highlight', key: 'baggage', section: 2, labelEn: 'Baggage loss', labelAr: 'فقدان الأمتعة', valueEn: 'USD 500', valueAr: '500 دولار', sort: 1 },
      { planId, kind: 'benefit', key: 'assistance', section: 0, labelEn: '24/7 assistance', labelAr: 'مساعدة على مدار الساعة', valueEn: 'Included', valueAr: 'مشمولة', sort: 1 },
    ]),
  );
}

export interface QuoteAddonRow {
  addonId: number;
  code: string;
  cents: number;
  coveredTravellers: number;
  disabled: boolean;
}

/** Stores a live quote of `planId` for the lead, as compare-quotes would; returns its id (policy_id). */
export async function insertQuote(
  db: Db,
  leadId: number,
  plan: { planId: number; insurerId: number; premiumCents: number; addons?: QuoteAddonRow[]; superseded?: boolean },
): Promise<number> {
  const [row] = await db
    .insert(t.leadQuotes)
    .values({
      leadId,
      planId: plan.planId,
      insurerId: plan.insurerId,
      zone: 'schengen',
      premiumCents: plan.premiumCents,
      perPerson: [{ position: 0, age: 35, cents: plan.premiumCents }],
      addons: plan.addons ?? [],
      supersededAt: plan.superseded ? new Date() : null,
    })
    .returning({ id: t.leadQuotes.id });
  return row!.id;
}

/** Solves an ALTCHA challenge the way the browser's Web Worker does, and encodes the token. */
export async function solveBotChallenge(challenge: { algorithm: string; challenge: string; salt: string; signature: string; maxnumber?: number }) {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
  expect(solution).not.toBeNull();
  const payload = { algorithm: challenge.algorithm, challenge: challenge.challenge, number: solution!.number, salt: challenge.salt, signature: challenge.signature };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/**
 * The same brute force with Node's synchronous SHA-256, about 30× faster than the Web Crypto
 * solver: tests that only need a valid token spend milliseconds, not a second, on each.
 */
function solveQuickly(challenge: { algorithm: string; challenge: string; salt: string; signature: string; maxnumber?: number }) {
  const max = challenge.maxnumber ?? 1_000_000;
  for (let number = 0; number <= max; number += 1) {
    if (createHash('sha256').update(challenge.salt + number).digest('hex') === challenge.challenge) {
      const payload = { algorithm: challenge.algorithm, challenge: challenge.challenge, number, salt: challenge.salt, signature: challenge.signature };
      return Buffer.from(JSON.stringify(payload)).toString('base64');
    }
  }
  throw new Error('bot challenge not solvable');
}

/** Asks the app for a challenge (at the app's clock) and solves it: a fresh, valid bot token. */
export async function freshBotToken(send: (path: string, body?: unknown) => Promise<Response>): Promise<string> {
  const res = await send(botChallengeEndpoint.path, { lang: 'en' });
  expect(res.status).toBe(200);
  const { data } = v.parse(botChallengeEndpoint.response, await res.json());
  expect(data.algorithm).toBe('SHA-256');
  return solveQuickly(data);
}
