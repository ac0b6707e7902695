import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { extractParams } from 'altcha-lib/v1';
import { botChallengeEndpoint, compareQuotesEndpoint, proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import {
  BOT_CHALLENGE_MAX_NUMBER,
  BOT_CHALLENGE_TTL_MS,
  createBotChallenge,
  verifyBotToken,
} from '../../src/server/bot-check/bot-check';
import { DEV_ALTCHA_HMAC_KEY } from '../../src/server/config';
import * as t from '../../src/server/db/schema';
import { createTestApp, testConfig } from '../support/test-app';
import { errorCodes } from './expect-envelope';
import { createLeadTestApp, FIXED_NOW, leadBody, type LeadTestApp } from './lead-fixtures';
import { freshBotToken, solveBotChallenge } from './order-fixtures';

/** The bot check of RULINGS 16: ALTCHA challenges from the API, solutions good once and only until they expire. */

const KEY = DEV_ALTCHA_HMAC_KEY;
let app: LeadTestApp;

beforeAll(async () => {
  app = await createLeadTestApp();
});
afterAll(() => app.close());

const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as Record<string, unknown>;
const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64');

describe('bot-challenge', () => {
  it('answers a signed SHA-256 challenge, small enough for a phone, expiring 10 minutes after the app clock (clock mocked)', async () => {
    const res = await app.send(botChallengeEndpoint.path, { lang: 'en' });
    expect(res.status).toBe(200);
    const { data } = v.parse(botChallengeEndpoint.response, await res.json());
    expect(data.algorithm).toBe('SHA-256');
    expect(data.maxnumber).toBe(BOT_CHALLENGE_MAX_NUMBER);
    expect(Number(extractParams({ ...data, algorithm: 'SHA-256' }).expires) * 1000).toBe(Math.floor((FIXED_NOW + BOT_CHALLENGE_TTL_MS) / 1000) * 1000);
    // It is solvable, and the solution verifies against the app's key.
    const token = await solveBotChallenge(data);
    expect(await verifyBotToken(app.db, token, KEY, FIXED_NOW)).toBe(true);
  });

  it('gives a different challenge each time', async () => {
    const [a, b] = await Promise.all([createBotChallenge(KEY, FIXED_NOW), createBotChallenge(KEY, FIXED_NOW)]);
    expect(a.salt).not.toBe(b.salt);
  });
});

describe('verifyBotToken', () => {
  const solved = async (issuedAt = FIXED_NOW) => solveBotChallenge(await createBotChallenge(KEY, issuedAt));

  it('accepts a valid solution once, records it, and refuses the second use', async () => {
    const token = await solved();
    expect(await verifyBotToken(app.db, token, KEY, FIXED_NOW + 1000)).toBe(true);
    const spent = await app.db.select().from(t.botTokensUsed);
    expect(spent.map((row) => row.signature)).toContain(decode(token).signature);
    expect(await verifyBotToken(app.db, token, KEY, FIXED_NOW + 2000)).toBe(false);
  });

  it('lets only one of three simultaneous uses of the same token through', async () => {
    const token = await solved();
    const results = await Promise.all([1, 2, 3].map(() => verifyBotToken(app.db, token, KEY, FIXED_NOW)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('refuses a tampered solution: another number, another salt, a forged signature', async () => {
    const token = await solved();
    const payload = decode(token);
    const wrongNumber = encode({ ...payload, number: ((payload.number as number) + 1) % BOT_CHALLENGE_MAX_NUMBER });
    const longerExpiry = encode({ ...payload, salt: String(payload.salt).replace(/expires=\d+/, 'expires=9999999999') });
    const forged = encode({ ...payload, signature: 'a'.repeat(64) });
    for (const bad of [wrongNumber, longerExpiry, forged]) expect(await verifyBotToken(app.db, bad, KEY, FIXED_NOW)).toBe(false);
    // The untouched token still works: the refusals did not spend it.
    expect(await verifyBotToken(app.db, token, KEY, FIXED_NOW)).toBe(true);
  });

  it('refuses a solution made with another key, and garbage', async () => {
    const other = await solveBotChallenge(await createBotChallenge('another-key-of-16-chars', FIXED_NOW));
    expect(await verifyBotToken(app.db, other, KEY, FIXED_NOW)).toBe(false);
    for (const garbage of ['', 'not base64 at all', encode({}), encode('x'), encode({ algorithm: 'SHA-1' })]) {
      expect(await verifyBotToken(app.db, garbage, KEY, FIXED_NOW)).toBe(false);
    }
  });

  it('refuses a solution after its challenge expired (clock mocked: 10 minutes and 1 second later)', async () => {
    const token = await solved(FIXED_NOW);
    expect(await verifyBotToken(app.db, token, KEY, FIXED_NOW + BOT_CHALLENGE_TTL_MS + 1000)).toBe(false);
    // Just before expiry the same token is still good.
    expect(await verifyBotToken(app.db, token, KEY, FIXED_NOW + BOT_CHALLENGE_TTL_MS - 1000)).toBe(true);
  });
});

describe('row 6: the development ALTCHA key proves nothing once ALTCHA_HMAC_KEY is set', () => {
  it('row 6: a bot token forged offline with the development key is refused when ALTCHA_HMAC_KEY is set', async () => {
    const secured = await createTestApp({ now: () => FIXED_NOW, config: testConfig({ altchaHmacKey: 'a-real-altcha-key-nobody-has-0123' }) });
    try {
      let tick = 0;
      const send = (path: string, body?: unknown) => secured.post(path, body, { nowMs: FIXED_NOW + (tick += 1) });
      const saved = await send(addCustomerLeadEndpoint.path, leadBody());
      expect(saved.status).toBe(200);
      const { uuid } = v.parse(addCustomerLeadEndpoint.response, await saved.json()).data;
      const quoted = await send(compareQuotesEndpoint.path, { uuid, lang: 'en' });
      const policyId = v.parse(compareQuotesEndpoint.response, await quoted.json()).data.quotes[0]!.id;

      // The attacker knows only the published development key: they issue and solve their own challenge offline.
      const forged = await solveBotChallenge(await createBotChallenge(DEV_ALTCHA_HMAC_KEY, FIXED_NOW));
      const refused = await send(proceedReviewEndpoint.path, { uuid, policy_id: policyId, bot_token: forged });
      expect(await errorCodes(refused, 403)).toEqual({ bot_token: 'bot_check_failed' });

      // A token solving the app's own challenge (signed with the real key) goes through.
      const real = await send(proceedReviewEndpoint.path, { uuid, policy_id: policyId, bot_token: await freshBotToken(send) });
      expect(real.status).toBe(200);
    } finally {
      await secured.close();
    }
  });
});
