import { eq } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import type { Db } from '../db/client';
import { leads } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { fail } from '../http/respond';
import { clientAddress } from './client-address';
import { hit, purgeExpiredCounters, RateLimitedError, unhit, type EndpointLimits, type RateLimit } from './rate-limit';

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

/** Options of one middleware limit. */
export interface LimitOptions {
  /** Counts only the requests whose parsed body passes (a temp-checkout naming a coupon). */
  when?: (body: unknown) => boolean;
  /**
   * Counts only failures: each request is counted before it runs (so a burst of concurrent ones
   * cannot all pass a check made before any of them is counted) and given back when it answers
   * 2xx. The coupon budget uses it, so a usable code costs nothing and guessing costs every miss.
   */
  refundOnSuccess?: boolean;
}

export interface RateLimiter {
  /**
   * Middleware counting the request against an endpoint's limits (per lead when the body names
   * one, per the device that lead was created on, per device when the body names one, per
   * address) and refusing it with 429 once any is over. It runs after the signature check, so
   * unsigned noise costs no counter.
   */
  limit(limits: EndpointLimits, options?: LimitOptions): MiddlewareHandler<AppEnv>;
}

interface Rule {
  limit: RateLimit;
  field: string;
  key: (c: Context<AppEnv>) => string | null | Promise<string | null>;
}

/** The device a lead was created on (stored on its row), or null for a lead that does not exist. */
async function leadDevice(db: Db, uuid: string | null): Promise<string | null> {
  if (uuid === null) return null;
  const [row] = await db.select({ device: leads.deviceUuid }).from(leads).where(eq(leads.uuid, uuid));
  return row ? row.device.toLowerCase() : null;
}

/** The app's rate limiter over the shared counters table, on the app's clock. */
export function createRateLimiter(deps: { db: Db; now: () => number; trustProxy: boolean }): RateLimiter {
  let lastPurge = 0;
  return {
    limit(limits, options = {}) {
      // Most specific key first: a refused request spends no later counter, so one lead or one
      // device looping on its 429 never eats the budget of the others behind its address.
      const rules: Rule[] = [];
      if (limits.perLead) rules.push({ limit: limits.perLead, field: 'uuid', key: (c) => bodyUuid(c, 'uuid') });
      if (limits.perLeadDevice) rules.push({ limit: limits.perLeadDevice, field: 'uuid', key: (c) => leadDevice(deps.db, bodyUuid(c, 'uuid')) });
      if (limits.perDevice) rules.push({ limit: limits.perDevice, field: 'device_uuid', key: (c) => bodyUuid(c, 'device_uuid') });
      if (limits.perAddress) rules.push({ limit: limits.perAddress, field: '_', key: (c) => clientAddress(c, deps.trustProxy) });
      return async (c, next) => {
        // A limit that counts only some requests (a temp-checkout naming a coupon) lets the rest by.
        if (options.when && !options.when(c.get('body'))) return next();
        const now = deps.now();
        const counted: { limit: RateLimit; key: string; windowStart: number }[] = [];
        for (const rule of rules) {
          const key = await rule.key(c);
          if (key === null) continue;
          const verdict = await hit(deps.db, rule.limit, key, now);
          counted.push({ limit: rule.limit, key, windowStart: verdict.windowStart });
          // The first refusal answers: later counters are not spent on a refused request.
          if (!verdict.allowed) return rateLimitedResponse(c, new RateLimitedError(rule.field, verdict.retryAfterSeconds));
        }
        if (now - lastPurge > PURGE_EVERY_MS) {
          lastPurge = now;
          await purgeExpiredCounters(deps.db, now);
        }
        await next();
        if (options.refundOnSuccess && c.res.status >= 200 && c.res.status < 300) {
          try {
            for (const { limit, key, windowStart } of counted) await unhit(deps.db, limit, key, windowStart);
          } catch {
            // The answer (an order placed, perhaps) stands: a refund lost only leaves the count one stricter.
          }
        }
      };
    },
  };
}
