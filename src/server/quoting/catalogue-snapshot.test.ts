import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/test-db';
import type { Database, Db } from '../db/client';
import { catalogueSnapshot } from './catalogue-snapshot';

/** The insurer sandbox's copy of the catalogue (issue 18 item 3): loaded once, then answered without waiting for the database. */

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

/** The test database, counting the queries loadPlans starts (each begins with a select). */
function counted(db: Db) {
  const counter = { selects: 0 };
  const proxy = new Proxy(db, {
    get(target, key, receiver) {
      if (key === 'select') counter.selects += 1;
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: proxy, counter };
}

describe('catalogueSnapshot', () => {
  it('loads once for callers that ask together, then answers from the copy within its life', async () => {
    const { db, counter } = counted(database.db);
    let clock = 1_000;
    const catalogue = catalogueSnapshot(db, 60_000, () => clock);
    const [a, b] = await Promise.all([catalogue(), catalogue()]);
    const perLoad = counter.selects;
    expect(perLoad).toBeGreaterThan(0);
    expect(a.length).toBeGreaterThan(0);
    expect(b).toBe(a);
    clock += 59_000;
    expect(await catalogue()).toBe(a);
    expect(counter.selects).toBe(perLoad);
  });

  it('answers an old copy at once and refreshes it behind the answer', async () => {
    const { db, counter } = counted(database.db);
    let clock = 1_000;
    const catalogue = catalogueSnapshot(db, 60_000, () => clock);
    const first = await catalogue();
    const perLoad = counter.selects;
    clock += 61_000;
    // The old copy, without waiting: the refresh it started has not finished yet.
    expect(await catalogue()).toBe(first);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(counter.selects).toBe(2 * perLoad);
    const refreshed = await catalogue();
    expect(refreshed).not.toBe(first);
    expect(refreshed).toEqual(first);
  });

  it('forgets a failed load, so the next call tries again', async () => {
    let failing = true;
    const flaky = new Proxy(database.db, {
      get(target, key, receiver) {
        if (key === 'select' && failing) throw new Error('PGlite is closed');
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const catalogue = catalogueSnapshot(flaky, 60_000);
    await expect(catalogue()).rejects.toThrow('PGlite is closed');
    failing = false;
    expect((await catalogue()).length).toBeGreaterThan(0);
  });
});
