import { eq } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import type { Db } from '../db/client';
import { invoices, leads } from '../db/schema';
import type { AppEnv } from '../http/app-env';
import { fail } from '../http/respond';
import { clientAddress } from './client-address';
import {
  FRESH_PLAN_CHOICE_MS,
  hit,
  purgeExpiredCounters,
  RateLimitedError,
  unhit,
  type EndpointLimits,
  type RateLimit,
  type RateLimitVerdict,
} from './rate-limit';

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

/** The keys a guess is counted under (RATE_LIMITS.couponAttempts), most specific first. */
export interface GuessLimits {
  perLead: RateLimit;
  perLeadDevice: RateLimit;
  perAddress: RateLimit;
  /** Misses per window a fresh lead (FRESH_PLAN_CHOICE_MS) may make once its address is over its ceiling. */
  perFreshLead: RateLimit;
}

/** Options of a guess limit. */
export interface GuessOptions {
  /** Counts only the requests whose parsed body passes (a temp-checkout naming a coupon). */
  when?: (body: unknown) => boolean;
}

export interface RateLimiter {
  /**
   * Middleware counting the request against an endpoint's limits (per lead when the body names
   * one, per the device that lead was created on, per device when the body names one, per
   * address) and refusing it with 429 once any is over. It runs after the signature check, so
   * unsigned noise costs no counter.
   */
  limit(limits: EndpointLimits): MiddlewareHandler<AppEnv>;
  /**
   * Middleware counting guesses (coupon codes) as `limit` counts requests, except that only
   * misses spend: each guess is counted before it runs (so a burst of concurrent ones cannot all
   * pass a check made before any of them is counted) and given back unless the handler marked
   * its answer a miss (the context's `couponMiss`); a refused guess gives back all it counted. Per lead, per the device stored on
   * that lead, then per address, where a fresh lead still gets `perFreshLead` misses past the
   * ceiling: customers who chose their plan within the hour are never refused for a guesser
   * behind their carrier's address, and each such miss costs the guesser a bot check.
   */
  guesses(limits: GuessLimits, options?: GuessOptions): MiddlewareHandler<AppEnv>;
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

/**
 * What a guess limit reads of the lead a body names: the device it was created on, and when its
 * plan was last chosen (the invoice proceed-review writes on the app's clock; null while none
 * is). Null for a lead that does not exist.
 */
async function guessingLead(db: Db, uuid: string): Promise<{ device: string; planChosenAt: number | null } | null> {
  const [row] = await db
    .select({ device: leads.deviceUuid, planChosenAt: invoices.updatedAt })
    .from(leads)
    .leftJoin(invoices, eq(invoices.leadId, leads.id))
    .where(eq(leads.uuid, uuid));
  return row ? { device: row.device.toLowerCase(), planChosenAt: row.planChosenAt?.getTime() ?? null } : null;
}

interface Counted {
  limit: RateLimit;
  key: string;
  windowStart: number;
}

/** The app's rate limiter over the shared counters table, on the app's clock. */
export function createRateLimiter(deps: { db: Db; now: () => number; trustProxy: boolean }): RateLimiter {
  let lastPurge = 0;
  const purgeNow = async (now: number) => {
    if (now - lastPurge <= PURGE_EVERY_MS) return;
    lastPurge = now;
    await purgeExpiredCounters(deps.db, now);
  };
  return {
    limit(limits) {
      // Most specific key first: a refused request spends no later counter, so one lead or one
      // device looping on its 429 never eats the budget of the others behind its address.
      const rules: Rule[] = [];
      if (limits.perLead) rules.push({ limit: limits.perLead, field: 'uuid', key: (c) => bodyUuid(c, 'uuid') });
      if (limits.perLeadDevice) rules.push({ limit: limits.perLeadDevice, field: 'uuid', key: (c) => leadDevice(deps.db, bodyUuid(c, 'uuid')) });
      if (limits.perDevice) rules.push({ limit: limits.perDevice, field: 'device_uuid', key: (c) => bodyUuid(c, 'device_uuid') });
      if (limits.perAddress) rules.push({ limit: limits.perAddress, field: '_', key: (c) => clientAddress(c, deps.trustProxy) });
      return async (c, next) => {
        const now = deps.now();
        for (const rule of rules) {
          const key = await rule.key(c);
          if (key === null) continue;
          const verdict = await hit(deps.db, rule.limit, key, now);
          // The first refusal answers: later counters are not spent on a refused request.
          if (!verdict.allowed) return rateLimitedResponse(c, new RateLimitedError(rule.field, verdict.retryAfterSeconds));
        }
        await purgeNow(now);
        await next();
      };
    },

    guesses(limits, options = {}) {
      return async (c, next) => {
        if (options.when && !options.when(c.get('body'))) return next();
        const now = deps.now();
        const counted: Counted[] = [];
        const count = async (limit: RateLimit, key: string) => {
          const verdict = await hit(deps.db, limit, key, now);
          counted.push({ limit, key, windowStart: verdict.windowStart });
          return verdict;
        };
        const giveBack = async () => {
          try {
            for (const { limit, key, windowStart } of counted.splice(0)) await unhit(deps.db, limit, key, windowStart);
          } catch {
            // The answer (an order placed, perhaps) stands: a count not given back only leaves the limit one stricter.
          }
        };
        // A refusal tells nothing about the code, so it keeps nothing it counted either.
        const refuse = async (field: string, verdict: RateLimitVerdict) => {
          await giveBack();
          return rateLimitedResponse(c, new RateLimitedError(field, verdict.retryAfterSeconds));
        };

        const uuid = bodyUuid(c, 'uuid');
        const lead = uuid === null ? null : await guessingLead(deps.db, uuid);
        if (uuid !== null) {
          const verdict = await count(limits.perLead, uuid);
          if (!verdict.allowed) return refuse('uuid', verdict);
        }
        if (lead !== null) {
          const verdict = await count(limits.perLeadDevice, lead.device);
          if (!verdict.allowed) return refuse('uuid', verdict);
        }
        const atAddress = await count(limits.perAddress, clientAddress(c, deps.trustProxy));
        if (!atAddress.allowed) {
          // Counted, not merely read: two concurrent guesses of one fresh lead cannot both pass.
          const planChosenAt = lead?.planChosenAt ?? null;
          const fresh = planChosenAt !== null && now - planChosenAt < FRESH_PLAN_CHOICE_MS;
          const pass = fresh ? await count(limits.perFreshLead, uuid!) : null;
          if (!pass?.allowed) return refuse('_', atAddress);
        }
        await purgeNow(now);
        await next();
        if (c.get('couponMiss') !== true) await giveBack();
      };
    },
  };
}
