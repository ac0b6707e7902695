import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vatEndpoint } from '../../src/contract/reference.endpoints';
import { createApp } from '../../src/server/app';
import { requestNonces } from '../../src/server/db/schema';
import { TEST_SIGNING_SECRET, testConfig } from '../support/test-app';
import { createTestDatabase } from '../support/test-db';
import { signedHeaders } from '../support/signed-request';

/**
 * Replay protection with the nonce writes batched (issue 19; RULINGS 23): the nonces of requests
 * that arrive together go into one INSERT, and the shared table's primary key still lets exactly
 * one request through per nonce, within one instance and across two instances on one database.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let first: ReturnType<typeof createApp>;
let second: ReturnType<typeof createApp>;

beforeAll(async () => {
  database = await createTestDatabase();
  const build = () => createApp({ db: database.db, config: testConfig(), staticDir: null, logError: () => {} });
  first = build();
  second = build();
});
afterAll(() => database.close());

const send = (app: ReturnType<typeof createApp>, headers: Record<string, string>) =>
  app.request(vatEndpoint.path, { method: 'POST', headers });

let clock = Date.now();
const fresh = () => signedHeaders(TEST_SIGNING_SECRET, '', (clock += 1));

describe('replay refused with nonces written in batches', () => {
  it('the same request sent at once to two instances: exactly one is answered, the other refused nonce_reused', async () => {
    for (let round = 0; round < 5; round += 1) {
      const headers = await fresh();
      const answers = await Promise.all([send(first, headers), send(second, headers)]);
      expect(answers.map((res) => res.status).sort()).toEqual([200, 401]);
      const refused = answers.find((res) => res.status === 401)!;
      expect(((await refused.json()) as { data: { errors: unknown } }).data.errors).toEqual({ signature: 'nonce_reused' });
    }
  });

  it('the same request twice in one batch of one instance: the first is answered, the copy refused', async () => {
    const headers = await fresh();
    const others = await Promise.all(Array.from({ length: 8 }, () => fresh()));
    // Sent together, all ten wait for one INSERT; the copy must not pass with its original.
    const answers = await Promise.all([send(first, headers), ...others.map((h) => send(first, h)), send(first, headers)]);
    expect(answers.map((res) => res.status)).toEqual([200, ...others.map(() => 200), 401]);
  });

  it('twenty requests at once on one instance, then all replayed on the other: all answered once, every replay refused', async () => {
    const all = await Promise.all(Array.from({ length: 20 }, () => fresh()));
    const answered = await Promise.all(all.map((headers) => send(first, headers)));
    expect(answered.every((res) => res.status === 200)).toBe(true);
    const replayed = await Promise.all(all.map((headers) => send(second, headers)));
    expect(replayed.map((res) => res.status)).toEqual(all.map(() => 401));
    // One row per request, none lost by batching.
    const nonces = all.map((headers) => headers['X-Nonce']!);
    const [row] = await database.db
      .select({ n: count() })
      .from(requestNonces)
      .where(sql`${requestNonces.nonce} in ${nonces}`);
    expect(row!.n).toBe(20);
  });

  it('a request whose nonce the table already holds is refused even though this instance never saw it', async () => {
    const headers = await fresh();
    await database.db.insert(requestNonces).values({ nonce: headers['X-Nonce']!, signature: headers['X-Signature']!.toLowerCase() });
    const res = await send(first, headers);
    expect(res.status).toBe(401);
    const rows = await database.db.select().from(requestNonces).where(eq(requestNonces.nonce, headers['X-Nonce']!));
    expect(rows).toHaveLength(1);
  });
});
