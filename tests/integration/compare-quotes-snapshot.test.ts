import { eq, getTableName, type Table } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import { createApp } from '../../src/server/app';
import type { Db } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { signedHeaders } from '../support/signed-request';
import { testConfig } from '../support/test-app';
import { createLeadTestApp, FIXED_NOW, FRANCE, ITALY, leadBody, THREE_TRAVELLERS, type LeadTestApp } from './lead-fixtures';

/**
 * compare-quotes for an unchanged lead answers its stored snapshot (issue 19, the server): no
 * catalogue read, no pricing, no write. The database is the edge here: the app under test runs
 * over a wrapper of the real database that counts, per table, the statements it is given.
 */

/** Statements per table ("select plans", "insert lead_quotes"), counted at the database's door. */
function countingDb(db: Db) {
  const counts = new Map<string, number>();
  const note = (kind: string, table: unknown) => {
    const key = `${kind} ${getTableName(table as Table)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  const wrap = (target: Db): Db =>
    new Proxy(target, {
      get(object, property, receiver) {
        const value = Reflect.get(object, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (property === 'insert' || property === 'update' || property === 'delete') {
          return (table: unknown) => {
            note(property, table);
            return (value as (table: unknown) => unknown).call(object, table);
          };
        }
        if (property === 'select') {
          return (...args: unknown[]) => {
            const builder = (value as (...a: unknown[]) => Record<string, unknown>).apply(object, args);
            return new Proxy(builder, {
              get(inner, key, innerReceiver) {
                const member = Reflect.get(inner, key, innerReceiver) as unknown;
                if (key === 'from' && typeof member === 'function') {
                  return (table: unknown, ...rest: unknown[]) => {
                    note('select', table);
                    return (member as (...a: unknown[]) => unknown).call(inner, table, ...rest);
                  };
                }
                return typeof member === 'function' ? member.bind(inner) : member;
              },
            });
          };
        }
        if (property === 'transaction') {
          return (run: (tx: Db) => Promise<unknown>, ...rest: unknown[]) =>
            (value as (...a: unknown[]) => unknown).call(object, (tx: Db) => run(wrap(tx)), ...rest);
        }
        return (value as (...a: unknown[]) => unknown).bind(object);
      },
    });
  return { db: wrap(db), counts, reset: () => counts.clear(), of: (key: string) => counts.get(key) ?? 0 };
}

let fixtures: LeadTestApp;
let counted: ReturnType<typeof countingDb>;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  fixtures = await createLeadTestApp();
  counted = countingDb(fixtures.db);
  // The app under test: the same database behind the counting door, the same fixed clock.
  const selfFetch: typeof fetch = async (input, init) => app.request(input instanceof Request ? input : String(input), init);
  app = createApp({ db: counted.db, config: testConfig(), staticDir: null, now: () => FIXED_NOW, insurerFetch: selfFetch, logError: () => {} });
});
afterAll(() => fixtures.close());

let tick = 1_000;
async function compare(uuid: string, lang: 'en' | 'ar' = 'en') {
  const text = JSON.stringify({ uuid, lang });
  const res = await app.request(compareQuotesEndpoint.path, {
    method: 'POST',
    body: text,
    headers: await signedHeaders(testConfig().signingSecret, text, FIXED_NOW + (tick += 1)),
  });
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(compareQuotesEndpoint.response, json).data;
}

const family = () => leadBody({ ...THREE_TRAVELLERS, is_family: true, destination_id: [FRANCE] });
const CATALOGUE = ['select plans', 'select plan_rates', 'select plan_addons', 'select plan_features', 'select insurers'];
const catalogueReads = () => CATALOGUE.reduce((sum, key) => sum + counted.of(key), 0);
const writes = () => [...counted.counts].filter(([key]) => !key.startsWith('select') && key !== 'insert request_nonces');

describe('compare-quotes for an unchanged lead', () => {
  it('answers the stored snapshot again without a catalogue read, pricing or any write, the same answer', async () => {
    const saved = await fixtures.save(family());
    const priced = await compare(saved.uuid);
    // A second call builds the answer from the stored quotes (its tracker visit is already recorded).
    const second = await compare(saved.uuid);
    expect(second).toEqual(priced);

    counted.reset();
    for (let call = 0; call < 5; call += 1) expect(await compare(saved.uuid)).toEqual(priced);
    expect(catalogueReads()).toBe(0);
    expect(counted.of('insert lead_quotes')).toBe(0);
    expect(writes()).toEqual([]);
    // And nothing else of the lead's is read but its one stamp per call.
    expect(counted.of('select lead_travellers')).toBe(0);
  });

  it('a changed lead is answered afresh: a new destination prices new quotes', async () => {
    const saved = await fixtures.save(family());
    const before = await compare(saved.uuid);
    await compare(saved.uuid);

    await fixtures.save({ ...family(), uuid: saved.uuid, device_uuid: saved.device_uuid, destination_id: [ITALY], email: before.customer.email, phone_number: before.customer.phone_number });
    counted.reset();
    const after = await compare(saved.uuid);
    expect(counted.of('insert lead_quotes')).toBe(1);
    expect(after.lead.destination_id).toEqual([ITALY]);
    expect(after.quotes.map((quote) => quote.id)).not.toEqual(before.quotes.map((quote) => quote.id));
  });

  it('a catalogue change by the broker is answered afresh: the plan shows its new name, the stored prices stay', async () => {
    const saved = await fixtures.save(family());
    await compare(saved.uuid);
    const before = await compare(saved.uuid);
    const quote = before.quotes[0]!;

    await fixtures.db.update(t.plans).set({ nameEn: 'Renamed by the broker' }).where(eq(t.plans.id, quote.provider_plan_id));
    counted.reset();
    const after = await compare(saved.uuid);
    expect(counted.of('select plans')).toBeGreaterThan(0);
    expect(counted.of('insert lead_quotes')).toBe(0);
    const same = after.quotes.find((q) => q.id === quote.id)!;
    expect(same.wizard_plan_name).toBe('Renamed by the broker');
    expect(same.premium).toBe(quote.premium);
  });
});
