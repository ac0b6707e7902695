import type { Context, MiddlewareHandler } from 'hono';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { fail } from '../http/respond';
import { clientAddress } from './client-address';
import { hit, purgeExpiredCounters, RateLimitedError, type EndpointLimits, type RateLimit } from './rate-limit';

/** Expired counters are purged at most this often per instance (as the nonces are). */
const PURGE_EVERY_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid field of the (already parsed) body, lower-cased; null when absent or not a uuid. */
function bodyUuid(c: Context<AppEnv>, field: string): string | null {
  const body = c.get('body');
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : null;
}

/** The 429 envelope: `rate_limited` in the page's language, the field whose key is over, and Retry-After. */
export function rateLimitedResponse(c: Context<AppEnv>, error: RateLimitedError): Response {
  c.header('Retry-After', String(error.retryAfterSeconds));
  return fail(c, 429, 'rate_limited', { errors: { [error.field]: 'rate_limited' } });
}

/** Runs `work`; a RateLimitedError becomes its 429, anything else goes on. */
export async function answeringRateLimits<T>(c: Context<AppEnv>, work: () => Promise<T>): Promise<T | Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RateLimitedError) return rateLimitedResponse(c, error);
    throw error;
  }
}

export interface RateLimiter {
  /**
   * Middleware counting the request against an endpoint's limits (per address, per device when
   * the body names one, per lead when it names one) and refusing it with 429 once any is over.
   * It runs after the signature check, so unsigned noise costs no counter.
   */
  limit(limits: EndpointLimits, options?: { when?: (body: unknown) => boolean }): MiddlewareHandler<AppEnv>;
}

/** The app's rate limiter over the shared counters table, on the app's clock. */
export function createRateLimiter(deps: { db: Db; now: () => number; trustProxy: boolean }): RateLimiter {
  let lastPurge = 0;
  return {
    limit(limits, options = {}) {
      const rules: { limit: RateLimit; field: string; key: (c: Context<AppEnv>) => string | null }[] = [];
      if (limits.perAddress) rules.push({ limit: limits.perAddress, field: '_', key: (c) => clientAddress(c, deps.trustProxy) });
      if (limits.perDevice) rules.push({ limit: limits.perDevice, field: 'device_uuid', key: (c) => bodyUuid(c, 'device_uuid') });
      if (limits.perLead) rules.push({ limit: limits.perLead, field: 'uuid', key: (c) => bodyUuid(c, 'uuid') });
      return async (c, next) => {
        // A limit that counts only some requests (a temp-checkout naming a coupon) lets the rest by.
        if (options.when && !options.when(c.get('body'))) return next();
        const now = deps.now();
        for (const rule of rules) {
          const key = rule.key(c);
          if (key === null) continue;
          const verdict = await hit(deps.db, rule.limit, key, now);
          // The first refusal answers: later counters are not spent on a refused request.
          if (!verdict.allowed) return rateLimitedResponse(c, new RateLimitedError(rule.field, verdict.retryAfterSeconds));
        }
        if (now - lastPurge > PURGE_EVERY_MS) {
          lastPurge = now;
          await purgeExpiredCounters(deps.db, now);
        }
        await next();
      };
    },
  };
}
