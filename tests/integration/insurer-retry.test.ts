import { and, eq, isNull } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import * as t from '../../src/server/db/schema';
import { FAILED_INSURER_RETRY_MS } from '../../src/server/quoting/quote-service';
import { createTestApp, type TestApp } from '../support/test-app';
import { FIXED_NOW, FRANCE, leadBody, THREE_TRAVELLERS } from './lead-fixtures';

/**
 * Issue 7 row 5: a quote list stored without an insurer because that insurer failed is reused
 * only briefly. Until the retry interval has passed every answer names the insurer as
 * unavailable; the next call after it asks that insurer alone again and merges its quotes into
 * the same snapshot, keeping the ids already shown.
 *
 * Mocked at the edge of the world: the app's clock (moved by hand) and the insurer's network
 * (`insurerFetch` fails while the insurer is "down", and reaches the sandbox the app hosts once
 * it is "up").
 */

const HTTP_INSURER = 15;
const ORONTES = { id: HTTP_INSURER, name: 'Orontes Travel Insurance (demo)' };

let app: TestApp;
let clock = FIXED_NOW;
let insurerUp = false;
/** Calls that reached the insurer's network, up or down. */
let insurerCalls = 0;
let tick = 0;

beforeAll(async () => {
  app = await createTestApp({
    now: () => clock,
    insurerFetch: async (input, init) => {
      insurerCalls += 1;
      if (!insurerUp) throw new TypeError('fetch failed: connect ECONNREFUSED');
      return app.app.request(input instanceof Request ? input : String(input), init);
    },
  });
});
afterAll(() => app.close());

/** A signed POST at the app's current clock, each with its own nonce. */
const send = (path: string, body?: unknown) => app.post(path, body, { nowMs: clock + (tick += 1) });

async function newLead(): Promise<string> {
  const res = await send(addCustomerLeadEndpoint.path, leadBody({ ...THREE_TRAVELLERS, is_family: true, destination_id: [FRANCE] }));
  expect(res.status).toBe(200);
  return v.parse(addCustomerLeadEndpoint.response, await res.json()).data.uuid;
}

async function compare(uuid: string) {
  const res = await send(compareQuotesEndpoint.path, { uuid, lang: 'en' });
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(compareQuotesEndpoint.response, json).data;
}

async function liveQuoteIds(uuid: string): Promise<number[]> {
  const [lead] = await app.db.select().from(t.leads).where(eq(t.leads.uuid, uuid));
  const rows = await app.db
    .select({ id: t.leadQuotes.id })
    .from(t.leadQuotes)
    .where(and(eq(t.leadQuotes.leadId, lead!.id), isNull(t.leadQuotes.supersededAt)));
  return rows.map((row) => row.id).sort((a, b) => a - b);
}

const ids = (quotes: { id: number }[]) => quotes.map((quote) => quote.id).sort((a, b) => a - b);
const fromInsurer = (quotes: { provider: { id: number } }[]) => quotes.filter((quote) => quote.provider.id === HTTP_INSURER);

describe('row 5: insurers that failed are retried', () => {
  it('row 5: insurer down (insurerFetch fails, mocked at the edge): listed unavailable on the first call and on a reuse within the interval; after the interval (app clock moved) with the insurer back up, its quotes join and the earlier quote ids are unchanged', async () => {
    clock = FIXED_NOW;
    insurerUp = false;
    const uuid = await newLead();

    const callsBefore = insurerCalls;
    const first = await compare(uuid);
    expect(insurerCalls).toBe(callsBefore + 1);
    expect(first.unavailable_providers).toEqual([ORONTES]);
    expect(first.hasError).toBe(false);
    expect(first.quotes.length).toBeGreaterThan(0);
    expect(fromInsurer(first.quotes)).toEqual([]);

    // Within the interval the stored list is reused as it is, still naming the insurer, even
    // though it is back up: it is not asked again yet.
    insurerUp = true;
    clock = FIXED_NOW + FAILED_INSURER_RETRY_MS - 1000;
    const second = await compare(uuid);
    expect(insurerCalls).toBe(callsBefore + 1);
    expect(second.unavailable_providers).toEqual([ORONTES]);
    expect(ids(second.quotes)).toEqual(ids(first.quotes));

    // After the interval the next call asks the failed insurer alone and merges its quotes.
    clock = FIXED_NOW + FAILED_INSURER_RETRY_MS + 1000;
    const third = await compare(uuid);
    expect(insurerCalls).toBe(callsBefore + 2);
    expect(third.unavailable_providers).toEqual([]);
    expect(third.hasError).toBe(false);
    expect(fromInsurer(third.quotes).length).toBeGreaterThan(0);
    // Every quote shown before is still live with the same id and premium (a plan chosen on another page stays valid).
    for (const quote of first.quotes) {
      expect(third.quotes.find((again) => again.id === quote.id)).toMatchObject({ premium: quote.premium, provider_plan_id: quote.provider_plan_id });
    }
    expect(third.quotes).toHaveLength(first.quotes.length + fromInsurer(third.quotes).length);
    expect(await liveQuoteIds(uuid)).toEqual(ids(third.quotes));
    // Cheapest first, the merged quotes included.
    const premiums = third.quotes.map((quote) => quote.premium);
    expect(premiums).toEqual([...premiums].sort((a, b) => a - b));

    // From now on the complete list is reused without asking anyone.
    clock += 5 * FAILED_INSURER_RETRY_MS;
    const fourth = await compare(uuid);
    expect(insurerCalls).toBe(callsBefore + 2);
    expect(fourth.unavailable_providers).toEqual([]);
    expect(ids(fourth.quotes)).toEqual(ids(third.quotes));
  });

  it('row 5: insurer still down at the retry (insurerFetch fails, mocked at the edge): it stays listed, and the interval starts again from that retry', async () => {
    clock = FIXED_NOW;
    insurerUp = false;
    const uuid = await newLead();
    const first = await compare(uuid);
    expect(first.unavailable_providers).toEqual([ORONTES]);

    const callsBefore = insurerCalls;
    clock = FIXED_NOW + FAILED_INSURER_RETRY_MS;
    const retried = await compare(uuid);
    expect(insurerCalls).toBe(callsBefore + 1);
    expect(retried.unavailable_providers).toEqual([ORONTES]);
    expect(ids(retried.quotes)).toEqual(ids(first.quotes));

    // Just short of a full interval after that failed retry: reused, not asked.
    clock += FAILED_INSURER_RETRY_MS - 1;
    const reused = await compare(uuid);
    expect(insurerCalls).toBe(callsBefore + 1);
    expect(reused.unavailable_providers).toEqual([ORONTES]);
    expect(await liveQuoteIds(uuid)).toEqual(ids(first.quotes));
  });

  it('row 5: two calls at once after the interval with the insurer back up (insurerFetch mocked at the edge) answer the same merged quotes, stored once', async () => {
    clock = FIXED_NOW;
    insurerUp = false;
    const uuid = await newLead();
    const first = await compare(uuid);
    expect(first.unavailable_providers).toEqual([ORONTES]);

    insurerUp = true;
    clock = FIXED_NOW + FAILED_INSURER_RETRY_MS + 1;
    const [a, b] = await Promise.all([compare(uuid), compare(uuid)]);
    expect(a.unavailable_providers).toEqual([]);
    expect(b.unavailable_providers).toEqual([]);
    expect(ids(b.quotes)).toEqual(ids(a.quotes));
    expect(fromInsurer(a.quotes).length).toBeGreaterThan(0);
    expect(await liveQuoteIds(uuid)).toEqual(ids(a.quotes));
    expect(ids(first.quotes).every((id) => ids(a.quotes).includes(id))).toBe(true);
  });
});
