import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import { SIGNATURE_HEADERS, signRequest } from '../../src/contract/signing';
import { readLockHolder } from '../../src/server/db/embedded-lock';
import { tryLockInAnotherProcess } from '../support/lock-holder';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * The real server on embedded PGlite (its database in a worker thread, db/pglite-thread.ts)
 * under concurrent customers (issue 18 item 3). Before, the HTTP insurer the server hosts
 * itself timed out for every customer at once: its quote waited behind theirs in the one
 * database queue while PGlite held the event loop.
 */

const SECRET = 'embedded-load-test-signing-secret-0123';
/** The demo catalogue's insurer quoted over HTTP (seed-data.ts). */
const HTTP_INSURER = 15;
const CUSTOMERS = 40;
/**
 * Shorter than the 3 s default, so 40 customers show what 200 did: the insurer's answer must not
 * wait behind the customers' queries. A sandbox answer takes a few milliseconds when it does not.
 */
const INSURER_TIMEOUT_MS = 1000;

let server: ServerProcess;
let base: string;
let dataDir: string;
let lastNonce = 0;

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function post(pathname: string, body: unknown, customer: number): Promise<{ status: number; json: { data?: unknown } }> {
  const text = JSON.stringify(body);
  // Nonces are the signing time in ms: one per request, however many are sent in the same ms.
  lastNonce = Math.max(Date.now(), lastNonce + 1);
  const parts = await signRequest(SECRET, text, lastNonce);
  const res = await fetch(base + pathname, {
    method: 'POST',
    body: text,
    headers: {
      'content-type': 'application/json',
      // One address per customer, so the per-address limits see 40 customers, not one.
      'x-forwarded-for': `198.51.100.${customer + 1}`,
      [SIGNATURE_HEADERS.nonce]: parts.nonce,
      [SIGNATURE_HEADERS.timestamp]: parts.timestamp,
      [SIGNATURE_HEADERS.signature]: parts.signature,
    },
  });
  return { status: res.status, json: (await res.json()) as { data?: unknown } };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-embedded-load-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = startServerProcess({ PORT: String(port), DATA_DIR: dataDir, SIGNING_SECRET: SECRET, TRUST_PROXY: 'true', SAFAR_STATIC_DIR: '', INSURER_TIMEOUT_MS: String(INSURER_TIMEOUT_MS) });
  await server.listening();
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded PGlite with many customers at once (real server process)', () => {
  it('the serving process holds its data directory\'s lock (DATA_DIR/pglite.lock): another process is refused', async () => {
    expect(readLockHolder(path.join(dataDir, 'pglite'))).toMatchObject({ role: 'server' });
    expect(await tryLockInAnotherProcess(path.join(dataDir, 'pglite'))).toMatchObject({ held: false, holder: { role: 'server' } });
  });

  it(`quotes ${CUSTOMERS} concurrent customers, each list with the HTTP insurer in it`, async () => {
    const journeys = Array.from({ length: CUSTOMERS }, async (_, customer) => {
      const lead = await post(
        addCustomerLeadEndpoint.path,
        {
          name: 'Rania Haddad',
          email: `load${customer}@example.com`,
          phone_number: `7${String(1_000_000 + customer)}`,
          phone_country_code: '+961',
          inbound_outbound: true,
          trip_type: 1,
          start_date: dayFromNow(30),
          end_date: dayFromNow(39),
          destination_id: [250],
          source_id: 422,
          no_of_traveller: 1,
          is_family: false,
          travellers_info: [{ dob: '1990-05-20' }],
          lang: 'en',
        },
        customer,
      );
      expect(lead.status).toBe(200);
      const { uuid } = lead.json.data as { uuid: string };
      const quotes = await post(compareQuotesEndpoint.path, { uuid, lang: 'en' }, customer);
      expect(quotes.status).toBe(200);
      const data = quotes.json.data as { quotes: { provider: { id: number } }[]; unavailable_providers: unknown[] };
      return { insurers: new Set(data.quotes.map((quote) => quote.provider.id)), unavailable: data.unavailable_providers };
    });
    const lists = await Promise.all(journeys);
    expect(lists.filter((list) => !list.insurers.has(HTTP_INSURER) || list.unavailable.length > 0)).toEqual([]);
  }, 180_000);
});
