import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../../tests/support/test-db';
import type { Database } from './client';
import * as t from './schema';
import { countryRows, disableDemoData, seedDatabase } from './seed';
import { AGENTS, DEMO_COUPONS } from './seed-data';

/** Seeding runs on every start (issue 19 part 4): on a seeded database it must write only what changed. */

const FRANCE = 250;
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** Each country's row version: PostgreSQL gives a rewritten row a new xmin. */
async function rowVersions(): Promise<Map<number, string>> {
  const rows = await database.db.select({ id: t.countries.id, version: sql<string>`xmin::text` }).from(t.countries);
  return new Map(rows.map((row) => [row.id, row.version]));
}

describe('seeding a database that is already seeded', () => {
  test('writes back a country name the data package gives differently, and rewrites no other country', async () => {
    await database.db.update(t.countries).set({ nameEn: 'An old name' }).where(eq(t.countries.id, FRANCE));
    const before = await rowVersions();
    await seedDatabase(database.db);
    const after = await rowVersions();

    const [france] = await database.db.select().from(t.countries).where(eq(t.countries.id, FRANCE));
    expect(france?.nameEn).toBe('France');
    expect(after.get(FRANCE)).not.toBe(before.get(FRANCE));
    const rewritten = [...after].filter(([id, version]) => id !== FRANCE && before.get(id) !== version).map(([id]) => id);
    expect(rewritten).toEqual([]);
    expect(after.size).toBe(countryRows().length);
  });
});

/** Every demo coupon by code: whether it is active. */
async function demoCouponStates(db: Database['db']): Promise<Record<string, boolean>> {
  const rows = await db.select({ code: t.coupons.code, active: t.coupons.active }).from(t.coupons).where(inArray(t.coupons.code, DEMO_COUPONS.map((coupon) => coupon.code)));
  return Object.fromEntries(rows.map((row) => [row.code, row.active]));
}

/** Every demo agent by id: whether it is active. */
async function demoAgentStates(db: Database['db']): Promise<Record<number, boolean>> {
  const rows = await db.select({ id: t.agents.id, active: t.agents.active }).from(t.agents).where(inArray(t.agents.id, AGENTS.map((agent) => agent.id)));
  return Object.fromEntries(rows.map((row) => [row.id, row.active]));
}

describe('demo coupons and agents only where asked for (RULINGS 27)', () => {
  let fresh: Database;
  beforeAll(async () => {
    fresh = await createTestDatabase();
    // The test template is seeded with demo data: take it out to seed from nothing.
    await fresh.db.delete(t.coupons);
    await fresh.db.delete(t.agents);
  });
  afterAll(() => fresh.close());

  test('seeds no demo coupon or agent unless demoData is on, then all of them, active', async () => {
    await seedDatabase(fresh.db);
    await seedDatabase(fresh.db, { demoData: false });
    expect(await demoCouponStates(fresh.db)).toEqual({});
    expect(await demoAgentStates(fresh.db)).toEqual({});

    await seedDatabase(fresh.db, { demoData: true });
    expect(await demoCouponStates(fresh.db)).toEqual({ SAFAR10: true, SAVE25: true, FREE100: true, OLD15: true, PHOENICIA20: true });
    expect(await demoAgentStates(fresh.db)).toEqual({ 101: true, 102: true });
  });
});

describe('disableDemoData: a start without demo data on a database that holds them', () => {
  test('disables the demo rows still as seeded, names them, and leaves the broker’s edits, disabled rows and own coupons alone', async () => {
    const seeded = await createTestDatabase();
    try {
      const { db } = seeded;
      await db.update(t.coupons).set({ discountValue: 15 }).where(eq(t.coupons.code, 'SAFAR10'));
      await db.update(t.coupons).set({ active: false }).where(eq(t.coupons.code, 'SAVE25'));
      // Uses are the customers', not an edit: FREE100 is still the demo coupon.
      await db.update(t.coupons).set({ usedCount: 3 }).where(eq(t.coupons.code, 'FREE100'));
      await db.update(t.agents).set({ email: 'karim@broker.example' }).where(eq(t.agents.id, 102));
      await db.insert(t.coupons).values({ code: 'BROKER10', discountType: 1, discountValue: 10, validFrom: '2026-01-01', validTo: '2099-12-31' });

      expect(await disableDemoData(db)).toEqual({ coupons: ['FREE100', 'OLD15', 'PHOENICIA20'], agents: [101] });
      expect(await demoCouponStates(db)).toEqual({ SAFAR10: true, SAVE25: false, FREE100: false, OLD15: false, PHOENICIA20: false });
      expect(await demoAgentStates(db)).toEqual({ 101: false, 102: true });
      const [own] = await db.select().from(t.coupons).where(eq(t.coupons.code, 'BROKER10'));
      expect(own?.active).toBe(true);

      // The next start finds nothing left to disable, and says nothing.
      expect(await disableDemoData(db)).toEqual({ coupons: [], agents: [] });
    } finally {
      await seeded.close();
    }
  });

  test('a change in any seeded column makes the row the broker’s: type, value, dates, limit, provider, name, e-mail', async () => {
    const seeded = await createTestDatabase();
    try {
      const { db } = seeded;
      const edits: [string, Partial<typeof t.coupons.$inferInsert>][] = [
        ['SAFAR10', { discountType: 2, discountValue: 1_000 }],
        ['SAVE25', { usageLimit: 100 }],
        ['FREE100', { validTo: '2026-12-31' }],
        ['OLD15', { validFrom: '2024-06-01' }],
        ['PHOENICIA20', { providerId: null }],
      ];
      for (const [code, change] of edits) await db.update(t.coupons).set(change).where(eq(t.coupons.code, code));
      await db.update(t.agents).set({ name: 'Rania Haddad' }).where(eq(t.agents.id, 101));
      await db.update(t.agents).set({ email: 'karim.khoury@safar.example' }).where(eq(t.agents.id, 102));

      expect(await disableDemoData(db)).toEqual({ coupons: [], agents: [] });
      expect(await demoCouponStates(db)).toEqual({ SAFAR10: true, SAVE25: true, FREE100: true, OLD15: true, PHOENICIA20: true });
      expect(await demoAgentStates(db)).toEqual({ 101: true, 102: true });
    } finally {
      await seeded.close();
    }
  });
});
