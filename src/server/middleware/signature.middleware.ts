import { createHmac } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { SIGNATURE_HEADERS, verifySignature } from '../../contract/signing';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { fail, languageOf } from '../http/respond';
import { createNonceRecorder } from './nonce-recorder';

/** The contract's HMAC (nonce + timestamp + body), computed synchronously by node:crypto. */
const hmacHex = (secret: string, nonce: string, timestamp: string, body: string) =>
  createHmac('sha256', secret).update(nonce + timestamp + body).digest('hex');

/**
 * Verifies the HMAC signature of every API call (RULINGS 23), refuses replays using the
 * nonce table shared by all instances (one row of a batched INSERT per request, see
 * nonce-recorder.ts), and leaves the parsed JSON and the caller's language on the context for
 * the handlers. The body text is the one bodyLimitMiddleware read (bounded to
 * 256 KB while it streamed), so this never reads the request itself.
 */
export function signatureMiddleware(deps: { db: Db; secret: string; now: () => number }): MiddlewareHandler<AppEnv> {
  const nonces = createNonceRecorder(deps.db, deps.now);
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
    const failure = await verifySignature(deps.secret, parts, rawBody, now, hmacHex);
    if (failure) return fail(c, 401, failure, { errors: { signature: failure } });

    if (!(await nonces.record(parts.nonce!, parts.signature!.toLowerCase()))) {
      return fail(c, 401, 'nonce_reused', { errors: { signature: 'nonce_reused' } });
    }
    if (invalidJson) return fail(c, 400, 'invalid_json', { errors: { _: 'invalid_json' } });
    await next();
  };
}
