import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from '../../../tests/support/test-db';
import type { Database } from './client';
import * as t from './schema';
import { countryRows, seedDatabase } from './seed';

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
