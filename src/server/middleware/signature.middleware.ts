import type { MiddlewareHandler } from 'hono';
import { lt, sql } from 'drizzle-orm';
import { SIGNATURE_HEADERS, verifySignature } from '../../contract/signing';
import type { Db } from '../db/client';
import { requestNonces } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { fail, languageOf } from '../http/respond';

/** Nonces older than twice the allowed clock skew can no longer pass the timestamp check. */
const NONCE_RETENTION_MS = 10 * 60 * 1000;

/**
 * Verifies the HMAC signature of every API call (RULINGS 23), refuses replays using the
 * nonce table shared by all instances, and leaves the parsed JSON and the caller's language on
 * the context for the handlers. The body text is the one bodyLimitMiddleware read (bounded to
 * 256 KB while it streamed), so this never reads the request itself.
 */
export function signatureMiddleware(deps: { db: Db; secret: string; now: () => number }): MiddlewareHandler<AppEnv> {
  let lastPurge = 0;
  return async (c, next) => {
    const rawBody = c.get('rawBody') ?? '';
    let body: unknown;
    let invalidJson = false;
    if (rawBody.trim() !== '') {
      try {
        body = JSON.parse(rawBody);
      } catch {
        invalidJson = true;
      }
    }
    c.set('body', body);
    c.set('lang', languageOf(body, c.req.header('accept-language')));

    const parts = {
      nonce: c.req.header(SIGNATURE_HEADERS.nonce),
      timestamp: c.req.header(SIGNATURE_HEADERS.timestamp),
      signature: c.req.header(SIGNATURE_HEADERS.signature),
    };
    const now = deps.now();
    const failure = await verifySignature(deps.secret, parts, rawBody, now);
    if (failure) return fail(c, 401, failure, { errors: { signature: failure } });

    const inserted = await deps.db
      .insert(requestNonces)
      .values({ nonce: parts.nonce!, signature: parts.signature!.toLowerCase() })
      .onConflictDoNothing()
      .returning({ nonce: requestNonces.nonce });
    if (inserted.length === 0) return fail(c, 401, 'nonce_reused', { errors: { signature: 'nonce_reused' } });

    if (now - lastPurge > 60_000) {
      lastPurge = now;
      await deps.db
        .delete(requestNonces)
        .where(lt(requestNonces.seenAt, sql`now() - make_interval(secs => ${NONCE_RETENTION_MS / 1000})`));
    }
    if (invalidJson) return fail(c, 400, 'invalid_json', { errors: { _: 'invalid_json' } });
    await next();
  };
}
