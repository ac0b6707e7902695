import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { lt } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '../db/client';
import { botTokensUsed } from '../db/schema';

/**
 * The invisible bot check of RULINGS 16 (ALTCHA proof of work). The challenge is stateless:
 * its salt carries the expiry and the HMAC signature proves the server issued it, so any
 * instance can verify it. Only "already spent" needs shared state: bot_tokens_used.
 */

/** How long a challenge may be solved and spent. */
export const BOT_CHALLENGE_TTL_MS = 10 * 60 * 1000;
/**
 * Upper bound of the secret number. SHA-256 of ~50k candidates takes a phone well under a
 * second in a Web Worker, yet every request costs a script that work.
 */
export const BOT_CHALLENGE_MAX_NUMBER = 50_000;

export type BotChallenge = Awaited<ReturnType<typeof createChallenge>>;

export function createBotChallenge(hmacKey: string, now: number): Promise<BotChallenge> {
  return createChallenge({
    hmacKey,
    algorithm: 'SHA-256',
    maxnumber: BOT_CHALLENGE_MAX_NUMBER,
    expires: new Date(now + BOT_CHALLENGE_TTL_MS),
  });
}

/** The solved payload the widget sends, base64 of this JSON. Only the algorithm we issue is taken. */
const payloadSchema = v.object({
  algorithm: v.literal('SHA-256'),
  challenge: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  number: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(BOT_CHALLENGE_MAX_NUMBER)),
  salt: v.pipe(v.string(), v.maxLength(500)),
  signature: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
});

function decode(token: string): v.InferOutput<typeof payloadSchema> | null {
  try {
    const result = v.safeParse(payloadSchema, JSON.parse(Buffer.from(token, 'base64').toString('utf8')));
    return result.success ? result.output : null;
  } catch {
    return null;
  }
}

/**
 * True when `token` solves a challenge this server issued with `hmacKey`, has not expired at
 * `now`, and was not spent before; it is then marked spent. The mark is an insert that does
 * nothing on conflict, so of two instances racing with the same token exactly one wins.
 */
export async function verifyBotToken(db: Db, token: string, hmacKey: string, now: number): Promise<boolean> {
  const payload = decode(token);
  if (!payload) return false;
  // Expiry is checked against the app's clock (altcha-lib would read Date.now()).
  const expires = Number(extractParams(payload).expires);
  if (!Number.isFinite(expires) || expires * 1000 < now) return false;
  if (!(await verifySolution(payload, hmacKey, false))) return false;
  const inserted = await db
    .insert(botTokensUsed)
    .values({ signature: payload.signature, usedAt: new Date(now) })
    .onConflictDoNothing()
    .returning({ signature: botTokensUsed.signature });
  return inserted.length === 1;
}

/** Forgets spent tokens whose challenge has surely expired (spent more than a TTL ago). */
export async function pruneSpentBotTokens(db: Db, now: number): Promise<void> {
  await db.delete(botTokensUsed).where(lt(botTokensUsed.usedAt, new Date(now - BOT_CHALLENGE_TTL_MS)));
}
