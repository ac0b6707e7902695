import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../../tests/support/test-db';
import type { Database } from './client';
import * as t from './schema';
import { addonRows, CATALOGUE_PLANS, featureRows } from './seed-catalogue';
import { COMPANY_INFO, MASTER_LISTS } from './seed-data';

/**
 * Issue 21 renamed some of the demo catalogue's Arabic. The seed only inserts what is missing
 * (seed.ts), so a broker's database seeded before keeps the old names; migration 0013 rewrites
 * each one that still holds the text the seed gave it, and leaves a name the broker changed.
 * Issue 38 renamed some again (0025, seed-texts-migration.test.ts): a database seeded before
 * issue 21 goes through both, as a start applies every migration it lacks.
 */

const MIGRATIONS = ['./migrations/0013_arabic_seed_names.sql', './migrations/0025_arabic_seed_texts.sql'].map((file) => new URL(file, import.meta.url));

/** The Arabic the seed wrote before issue 21, as a database seeded then still holds it. */
const BEFORE = {
  plans: { 107: ['شنغن الأساسي', 'أساسي'], 108: ['العالم القياسية', null], 113: ['شنغن السنوية المتعددة', null], 114: ['الذكي السنوي', null] },
  rentalCarExcess: 'مبلغ التحمل للسيارة المستأجرة',
  repatriation: 'إعادة الرفات إلى الوطن',
  prefex: { 2: 'السيدة', 3: 'الآنسة', 4: 'الدكتور' },
  annualTrip: 'سنوي متعدد الرحلات',
  companyName: 'سفر لوساطة التأمين (تجريبي)',
  disclaimer: 'سفر وسيط تأمين سفر تجريبي. شركات التأمين المعروضة وهمية ولا تصدر أي تغطية حقيقية.',
} as const;
/** A name the broker gave plan 108 themselves: the migration must leave it. */
const BROKERS_NAME = 'العالمية القياسية من الوسيط';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  for (const [id, [name, coverage]] of Object.entries(BEFORE.plans)) {
    await db.update(t.plans).set({ nameAr: name, ...(coverage ? { coverageNameAr: coverage } : {}) }).where(eq(t.plans.id, Number(id)));
  }
  await db.update(t.plans).set({ nameAr: BROKERS_NAME }).where(eq(t.plans.id, 108));
  await db.update(t.planAddons).set({ labelAr: BEFORE.rentalCarExcess }).where(eq(t.planAddons.code, 'rental_car_excess'));
  await db.update(t.planFeatures).set({ labelAr: BEFORE.repatriation }).where(eq(t.planFeatures.key, 'repatriation'));
  for (const [id, name] of Object.entries(BEFORE.prefex)) {
    await db.update(t.masterItems).set({ nameAr: name }).where(and(eq(t.masterItems.kind, 'prefex'), eq(t.masterItems.id, Number(id))));
  }
  await db.update(t.masterItems).set({ nameAr: BEFORE.annualTrip }).where(and(eq(t.masterItems.kind, 'trip_types'), eq(t.masterItems.id, 2)));
  await db.update(t.companyInfo).set({ name: BEFORE.companyName, disclaimer: BEFORE.disclaimer }).where(eq(t.companyInfo.lang, 'ar'));

  for (const migration of MIGRATIONS) {
    for (const statement of readFileSync(migration, 'utf8').split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
  }
});
afterAll(() => database.close());

describe('migrations 0013 and 0025 on a database seeded before issue 21', () => {
  test('gives the plans the names the seed gives them now, except a name the broker changed', async () => {
    const plans = await database.db.select({ id: t.plans.id, nameAr: t.plans.nameAr, coverageAr: t.plans.coverageNameAr }).from(t.plans);
    const stored = new Map(plans.map((plan) => [plan.id, plan]));
    for (const plan of CATALOGUE_PLANS.filter((one) => one.id !== 108)) {
      expect(stored.get(plan.id)).toEqual({ id: plan.id, nameAr: plan.nameAr, coverageAr: plan.coverageAr });
    }
    expect(stored.get(108)?.nameAr).toBe(BROKERS_NAME);
  });

  test('renames the rental-car excess and repatriation of every plan as the seed labels them now', async () => {
    const plan = CATALOGUE_PLANS[0]!;
    const addons = await database.db.selectDistinct({ labelAr: t.planAddons.labelAr }).from(t.planAddons).where(eq(t.planAddons.code, 'rental_car_excess'));
    expect(addons).toEqual([{ labelAr: addonRows(plan).find((row) => row.code === 'rental_car_excess')!.labelAr }]);
    const features = await database.db.selectDistinct({ labelAr: t.planFeatures.labelAr }).from(t.planFeatures).where(eq(t.planFeatures.key, 'repatriation'));
    expect(features).toEqual([{ labelAr: featureRows(plan).find((row) => row.key === 'repatriation')!.labelAr }]);
  });

  test('writes the titles, the annual trip type and the company\'s name and disclaimer as the seed does now', async () => {
    const items = await database.db.select().from(t.masterItems);
    const name = (kind: string, id: number) => items.find((item) => item.kind === kind && item.id === id)?.nameAr;
    for (const item of [...MASTER_LISTS.prefex.map((one) => ['prefex', one] as const), ...MASTER_LISTS.trip_types.map((one) => ['trip_types', one] as const)]) {
      expect(name(item[0], item[1].id)).toBe(item[1].ar);
    }
    const [company] = await database.db.select().from(t.companyInfo).where(eq(t.companyInfo.lang, 'ar'));
    expect(company).toMatchObject({ name: COMPANY_INFO.ar.name, disclaimer: COMPANY_INFO.ar.disclaimer });
  });
});
