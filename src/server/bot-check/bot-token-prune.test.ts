import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../tests/support/test-db';
import type { Database } from '../db/client';
import { botTokensUsed } from '../db/schema';
import { BOT_CHALLENGE_TTL_MS, BOT_TOKEN_PRUNE_INTERVAL_MS, pruneSpentBotTokens } from './bot-check';

/** Spent bot tokens are pruned at most once a minute per database, not on every challenge (issue 18 item 3). */

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => database?.close());

const NOW = Date.UTC(2026, 2, 15, 10, 0, 0);
const signatures = async () => (await database.db.select({ signature: botTokensUsed.signature }).from(botTokensUsed)).map((row) => row.signature).sort();
const spend = (signature: string, at: number) => database.db.insert(botTokensUsed).values({ signature, usedAt: new Date(at) });

describe('pruneSpentBotTokens', () => {
  it('forgets tokens spent more than a TTL ago, then waits an interval before it deletes again', async () => {
    await spend('a'.repeat(64), NOW - BOT_CHALLENGE_TTL_MS - 1);
    await spend('b'.repeat(64), NOW);
    await pruneSpentBotTokens(database.db, NOW);
    expect(await signatures()).toEqual(['b'.repeat(64)]);

    // Expired a second after NOW, so a prune at NOW + interval - 1 ms would delete it; but that
    // is less than an interval after the last prune, which it therefore skips.
    await spend('c'.repeat(64), NOW - BOT_CHALLENGE_TTL_MS + 1_000);
    await pruneSpentBotTokens(database.db, NOW + BOT_TOKEN_PRUNE_INTERVAL_MS - 1);
    expect(await signatures()).toEqual(['b'.repeat(64), 'c'.repeat(64)]);

    await pruneSpentBotTokens(database.db, NOW + BOT_TOKEN_PRUNE_INTERVAL_MS);
    expect(await signatures()).toEqual(['b'.repeat(64)]);
  });
});
