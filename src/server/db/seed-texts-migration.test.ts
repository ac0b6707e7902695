import { readFileSync } from 'node:fs';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../../tests/support/test-db';
import type { Database } from './client';
import * as t from './schema';
import { CATALOGUE_PLANS, featureRows } from './seed-catalogue';
import { COMPANY_INFO, INSURERS, MASTER_LISTS } from './seed-data';

/**
 * Issue 38 rewrote some of the demo data's Arabic and added titles (Miss, and a girl's title). The
 * seed only inserts what is missing (seed.ts), so a database seeded before keeps the old texts and
 * would get the new titles at the end of the list; migration 0025 rewrites each text that still
 * holds what the seed gave it, leaves one the broker changed, and puts the new titles in place.
 */

const MIGRATION = new URL('./migrations/0025_arabic_seed_texts.sql', import.meta.url);

/** The Arabic the seed wrote before issue 38, as a database seeded then still holds it. */
const BEFORE = {
  prefex: { 2: 'السيدة (متزوجة)', 3: 'السيدة' },
  /** The titles' order then: Mr, Mrs, Ms, Dr, Master. */
  sort: { 1: 0, 2: 1, 3: 2, 4: 3, 5: 4 },
  principal: 'المؤمَّن الرئيسي (أنا)',
  plan102: ['العالمية بلس', 'بلس'],
  liability: 'المسؤولية الشخصية',
  insurer7: 'سيدر ميوتشوال (تجريبي)',
  companyName: '«سفر» لوساطة التأمين (تجريبي)',
} as const;

/** A benefit's amount as the seed wrote it before: "30,000 دولار أمريكي". */
const oldAmount = (value: string) => value.replace(/\$([0-9][0-9,]*)/g, '$1 دولار أمريكي');

/** A value the broker wrote themselves for plan 101's dental cover: the migration must leave it. */
const BROKERS_VALUE = 'حتى 250 دولار أمريكي للسن الواحد';
const BROKERS_INSURER_7 = 'الأرز';

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  // A database seeded before issue 38: no titles 6 and 7, the others in their old order.
  await db.delete(t.masterItems).where(and(eq(t.masterItems.kind, 'prefex'), inArray(t.masterItems.id, [6, 7])));
  for (const [id, sort] of Object.entries(BEFORE.sort)) {
    await db.update(t.masterItems).set({ sort }).where(and(eq(t.masterItems.kind, 'prefex'), eq(t.masterItems.id, Number(id))));
  }
  for (const [id, name] of Object.entries(BEFORE.prefex)) {
    await db.update(t.masterItems).set({ nameAr: name }).where(and(eq(t.masterItems.kind, 'prefex'), eq(t.masterItems.id, Number(id))));
  }
  await db.update(t.masterItems).set({ nameAr: BEFORE.principal }).where(and(eq(t.masterItems.kind, 'relation_types'), eq(t.masterItems.id, 5)));
  await db.update(t.plans).set({ nameAr: BEFORE.plan102[0], coverageNameAr: BEFORE.plan102[1] }).where(eq(t.plans.id, 102));
  await db.update(t.planFeatures).set({ labelAr: BEFORE.liability }).where(eq(t.planFeatures.key, 'liability'));
  const features = await db.select().from(t.planFeatures);
  for (const feature of features) {
    const before = oldAmount(feature.valueAr);
    if (before !== feature.valueAr) await db.update(t.planFeatures).set({ valueAr: before }).where(eq(t.planFeatures.id, feature.id));
  }
  await db.update(t.planFeatures).set({ valueAr: BROKERS_VALUE }).where(and(eq(t.planFeatures.planId, 101), eq(t.planFeatures.key, 'dental')));
  await db.update(t.insurers).set({ nameAr: BROKERS_INSURER_7 }).where(eq(t.insurers.id, 7));
  await db.update(t.companyInfo).set({ name: BEFORE.companyName }).where(eq(t.companyInfo.lang, 'ar'));

  for (const statement of readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
});
afterAll(() => database.close());

describe('migration 0025 on a database seeded before issue 38', () => {
  test('offers the titles as the seed does now, in its order: Miss after Ms, the girl\'s title after Master', async () => {
    const titles = await database.db
      .select({ id: t.masterItems.id, en: t.masterItems.nameEn, ar: t.masterItems.nameAr })
      .from(t.masterItems)
      .where(eq(t.masterItems.kind, 'prefex'))
      .orderBy(asc(t.masterItems.sort));
    expect(titles).toEqual(MASTER_LISTS.prefex);
  });

  test('names the principal traveller, plan 102, personal liability and the company as the seed does now, but not an insurer the broker renamed', async () => {
    const { db } = database;
    const [principal] = await db.select().from(t.masterItems).where(and(eq(t.masterItems.kind, 'relation_types'), eq(t.masterItems.id, 5)));
    expect(principal?.nameAr).toBe(MASTER_LISTS.relation_types.find((item) => item.id === 5)!.ar);
    const [plan] = await db.select().from(t.plans).where(eq(t.plans.id, 102));
    const seeded = CATALOGUE_PLANS.find((one) => one.id === 102)!;
    expect([plan?.nameAr, plan?.coverageNameAr]).toEqual([seeded.nameAr, seeded.coverageAr]);
    const liability = await db.selectDistinct({ labelAr: t.planFeatures.labelAr }).from(t.planFeatures).where(eq(t.planFeatures.key, 'liability'));
    expect(liability).toEqual([{ labelAr: featureRows(seeded).find((row) => row.key === 'liability')!.labelAr }]);
    const [company] = await db.select().from(t.companyInfo).where(eq(t.companyInfo.lang, 'ar'));
    expect(company?.name).toBe(COMPANY_INFO.ar.name);
    const [insurer] = await db.select().from(t.insurers).where(eq(t.insurers.id, 7));
    expect(insurer?.nameAr).toBe(BROKERS_INSURER_7);
    expect(INSURERS.find((one) => one.id === 7)?.nameAr).not.toBe(BROKERS_INSURER_7);
  });

  test('writes every benefit\'s amount as the seed does now ("$30,000"), and leaves a value the broker wrote', async () => {
    const stored = await database.db.select().from(t.planFeatures);
    const value = (planId: number, key: string) => stored.find((row) => row.planId === planId && row.key === key)?.valueAr;
    for (const plan of CATALOGUE_PLANS) {
      for (const row of featureRows(plan)) {
        if (plan.id === 101 && row.key === 'dental') continue;
        expect({ plan: plan.id, key: row.key, value: value(plan.id, row.key) }).toEqual({ plan: plan.id, key: row.key, value: row.valueAr });
      }
    }
    expect(value(101, 'dental')).toBe(BROKERS_VALUE);
  });

  test('can run again over its own result without changing it (the new titles are inserted once)', async () => {
    const before = await database.db.select().from(t.masterItems).where(eq(t.masterItems.kind, 'prefex')).orderBy(asc(t.masterItems.id));
    for (const statement of readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint')) await database.db.execute(sql.raw(statement));
    expect(await database.db.select().from(t.masterItems).where(eq(t.masterItems.kind, 'prefex')).orderBy(asc(t.masterItems.id))).toEqual(before);
  });
});
