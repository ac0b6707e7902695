import { createHash } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import { lt } from 'drizzle-orm';
import * as v from 'valibot';
import type { Db } from '../db/client';
import { botTokensUsed } from '../db/schema';
import { verifyRecaptchaToken, type RecaptchaSettings, type RecaptchaUnavailable } from './recaptcha';

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

/** The configured bot check (BOT_CHECK): ALTCHA with its key, or reCAPTCHA v3 with its settings. */
export type BotCheck = { mode: 'altcha'; hmacKey: string } | ({ mode: 'recaptcha' } & RecaptchaSettings);

/**
 * passed: a valid token, now spent. failed: a wrong, forged, low-scoring or spent token.
 * unavailable: the token could not be checked (reCAPTCHA's siteverify down or slow).
 */
export type BotCheckVerdict = 'passed' | 'failed' | 'unavailable';

/**
 * Checks and spends a bot-check token the way BOT_CHECK says. A reCAPTCHA token that Google
 * accepts is also marked spent here (by its SHA-256): Google answers a second siteverify of the
 * same token with timeout-or-duplicate, but the rule "good once" (RULINGS 16) is ours to keep,
 * whatever verify endpoint is configured.
 */
export async function checkBotToken(
  db: Db,
  token: string,
  check: BotCheck,
  context: { now: number; remoteIp: string | null; fetch?: typeof fetch; onUnavailable?: (reason: RecaptchaUnavailable) => void },
): Promise<BotCheckVerdict> {
  if (check.mode === 'altcha') return (await verifyBotToken(db, token, check.hmacKey, context.now)) ? 'passed' : 'failed';
  const result = await verifyRecaptchaToken(token, context.remoteIp, check, context.fetch);
  if (result.verdict === 'unavailable') context.onUnavailable?.(result.reason);
  if (result.verdict !== 'passed') return result.verdict;
  // No bot-challenge requests in this mode, so spent tokens are forgotten here instead.
  await pruneSpentBotTokens(db, context.now);
  const inserted = await db
    .insert(botTokensUsed)
    .values({ signature: `recaptcha:${createHash('sha256').update(token).digest('hex')}`, usedAt: new Date(context.now) })
    .onConflictDoNothing()
    .returning({ signature: botTokensUsed.signature });
  return inserted.length === 1 ? 'passed' : 'failed';
}

/**
 * How often a database's spent tokens are pruned. A spent token is kept a TTL at least, so
 * pruning a minute late changes nothing; pruning on every challenge put one more write per
 * customer in the embedded database's single queue, where 200 customers at once waited seconds
 * for their challenge (issue 18 item 3).
 */
export const BOT_TOKEN_PRUNE_INTERVAL_MS = 60 * 1000;
const lastPruned = new WeakMap<Db, number>();

/** Forgets spent tokens whose challenge has surely expired (spent more than a TTL ago), at most once a BOT_TOKEN_PRUNE_INTERVAL_MS per database. */
export async function pruneSpentBotTokens(db: Db, now: number): Promise<void> {
  const last = lastPruned.get(db);
  if (last !== undefined && now >= last && now - last < BOT_TOKEN_PRUNE_INTERVAL_MS) return;
  lastPruned.set(db, now);
  await db.delete(botTokensUsed).where(lt(botTokensUsed.usedAt, new Date(now - BOT_CHALLENGE_TTL_MS)));
}
