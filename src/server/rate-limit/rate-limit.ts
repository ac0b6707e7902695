import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimitCounters } from '../db/schema';

/** One limit: at most `limit` hits per key in each fixed window of `windowSeconds`. */
export interface RateLimit {
  /** The counter's name in rate_limit_counters; one per endpoint and kind of key. */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

const TEN_MINUTES = 10 * 60;
const HOUR = 60 * 60;

/**
 * The limits of issue 7 (RULINGS 23), per endpoint. The numbers must never bother a real customer:
 * - per address: generous, because Lebanese mobile carriers put many customers behind one address
 *   (CGNAT), and the end-to-end suite runs every test from 127.0.0.1 against one server;
 * - per device (the body's device_uuid, when it has one) and per lead: tight, since one browser
 *   or one customer never needs more.
 * The README's Security section lists this table.
 */
export const RATE_LIMITS = {
  addCustomerLead: {
    perAddress: { bucket: 'add-customer-lead/address', limit: 300, windowSeconds: TEN_MINUTES },
    perDevice: { bucket: 'add-customer-lead/device', limit: 30, windowSeconds: TEN_MINUTES },
  },
  personalDetails: {
    perAddress: { bucket: 'get-personal-details/address', limit: 600, windowSeconds: TEN_MINUTES },
    perDevice: { bucket: 'get-personal-details/device', limit: 60, windowSeconds: TEN_MINUTES },
  },
  latestLeadsByDevice: {
    perAddress: { bucket: 'get-latest-leads-by-device-id/address', limit: 600, windowSeconds: TEN_MINUTES },
    perDevice: { bucket: 'get-latest-leads-by-device-id/device', limit: 60, windowSeconds: TEN_MINUTES },
  },
  latestLeadById: {
    perAddress: { bucket: 'get-latest-leads-by-lead-id/address', limit: 300, windowSeconds: TEN_MINUTES },
    perDevice: { bucket: 'get-latest-leads-by-lead-id/device', limit: 60, windowSeconds: TEN_MINUTES },
  },
  latestLeadByUuid: {
    perAddress: { bucket: 'get-latest-leads-by-uuid/address', limit: 600, windowSeconds: TEN_MINUTES },
    perDevice: { bucket: 'get-latest-leads-by-uuid/device', limit: 60, windowSeconds: TEN_MINUTES },
  },
  agentCheck: {
    perAddress: { bucket: 'agent/address', limit: 600, windowSeconds: TEN_MINUTES },
    perDevice: { bucket: 'agent/device', limit: 60, windowSeconds: TEN_MINUTES },
  },
  botChallenge: {
    perAddress: { bucket: 'bot-challenge/address', limit: 300, windowSeconds: TEN_MINUTES },
    perDevice: { bucket: 'bot-challenge/device', limit: 30, windowSeconds: TEN_MINUTES },
  },
  sendEmailByPage: {
    perAddress: { bucket: 'send-email-by-page/address', limit: 100, windowSeconds: TEN_MINUTES },
    perDevice: { bucket: 'send-email-by-page/device', limit: 20, windowSeconds: TEN_MINUTES },
    /** A customer gets at most this many shared pages an hour, whoever asks. */
    perLead: { bucket: 'send-email-by-page/lead', limit: 5, windowSeconds: HOUR },
  },
  saveTravellerInfo: {
    /** 120 customers behind one carrier address, families of up to ten saving each traveller. */
    perAddress: { bucket: 'save-traveller-info/address', limit: 1_200, windowSeconds: TEN_MINUTES },
    /** One save per traveller and a few corrections each: a party of 8 never needs this many. */
    perLead: { bucket: 'save-traveller-info/lead', limit: 120, windowSeconds: TEN_MINUTES },
  },
  /**
   * Coupon guesses (issue 18 item 5, issue 33 item 5): every coupon/validate and every
   * temp-checkout that names a coupon, counted together since each answer tells whether a code is
   * usable. Each is counted before it runs, so concurrent guesses cannot slip past the count, and
   * given back unless its answer is a miss (checkout.handlers.ts markingMisses): a usable code, a
   * used-up one and every answer that says nothing of the code spend nothing. Counted per lead,
   * then per the device stored on the lead, then per address (rate-limit.middleware.ts guesses);
   * a guess refused at one key spends nothing at the others, so a guesser looping on its own 429
   * never eats the budget of the customers behind its address (RULINGS 23).
   */
  couponAttempts: {
    /** No customer mistypes a code ten times. */
    perLead: { bucket: 'coupon-attempt/lead', limit: 10, windowSeconds: TEN_MINUTES },
    /** Every lead the device made, together: two leads' worth. */
    perLeadDevice: { bucket: 'coupon-attempt/device', limit: 20, windowSeconds: TEN_MINUTES },
    /**
     * What a carrier NAT needs: the 120 customers behind one carrier address in 10 minutes (as
     * above), each with three misses (a typo, an expired code, another insurer's code), more than
     * customers make. A guesser making lead after lead stops here (2,160 misses an hour), but for
     * the fresh leads' passes below.
     */
    perAddress: { bucket: 'coupon-attempt/address', limit: 360, windowSeconds: TEN_MINUTES },
    /**
     * Past the address's ceiling: a lead whose plan was chosen within FRESH_PLAN_CHOICE_MS (a bot
     * check spent on proceed-review) may still make this many misses per window, and any number
     * of usable tries before them. So a guesser that fills the ceiling never stops the customers
     * behind its address from redeeming a good code, and buys at most two guesses past the
     * ceiling per bot check (one per clock hour, in the hour after the plan choice).
     */
    perFreshLead: { bucket: 'coupon-attempt/fresh-lead', limit: 1, windowSeconds: HOUR },
  },
  /**
   * Every coupon/validate, usable or not: successes are free of the guessing budget above, so
   * this bounds the load of a lead re-checking a code it already knows. Never a customer's limit.
   */
  couponValidate: {
    perAddress: { bucket: 'coupon-validate/address', limit: 1_200, windowSeconds: TEN_MINUTES },
    perLead: { bucket: 'coupon-validate/lead', limit: 60, windowSeconds: TEN_MINUTES },
  },
  /**
   * The last step before paying (issue 18 item 5): counted per lead (its unguessable uuid) and per
   * the device the lead was created on (read from the lead's row, so the browser cannot change it
   * at checkout; a forger can still create each lead on a new device, so this bound is for
   * fairness, not security), under an address ceiling of ten attempts for each of 120 customers
   * behind one carrier address. The payment step itself (the payments page, the gateway's return
   * and feedback, payment-status) has no limit: its keys are unguessable references and APS
   * signatures, and a limit there could only refuse a customer who has paid.
   */
  tempCheckout: {
    perAddress: { bucket: 'temp-checkout/address', limit: 1_200, windowSeconds: TEN_MINUTES },
    /** Every lead the device made, together: two leads' worth of attempts. */
    perLeadDevice: { bucket: 'temp-checkout/device', limit: 60, windowSeconds: TEN_MINUTES },
    /** Each attempt makes an order row: a few retries and coupon changes, never a flood. */
    perLead: { bucket: 'temp-checkout/lead', limit: 30, windowSeconds: TEN_MINUTES },
  },
  requestCallBack: {
    perAddress: { bucket: 'request-call-back/address', limit: 100, windowSeconds: TEN_MINUTES },
    /** Counted on the normalised number (see phoneKey), after the details passed validation. */
    perPhone: { bucket: 'request-call-back/phone', limit: 5, windowSeconds: HOUR },
  },
  /**
   * The console's sign-in (issue 36 item 2): failures only (a success gives its try back), per
   * account (the e-mail typed, whether or not it exists, so the answer tells nothing) and per
   * address. A person who forgot their password tries a few times; a guesser gets 10 an hour.
   */
  consoleSignIn: {
    perAccount: { bucket: 'console-sign-in/account', limit: 10, windowSeconds: HOUR },
    perAddress: { bucket: 'console-sign-in/address', limit: 30, windowSeconds: HOUR },
  },
  /**
   * The console's second factor, per address (better-auth's two-factor plugin also locks an
   * account after a few wrong codes): six digits are a million guesses, never this many.
   */
  consoleSecondFactor: {
    perAddress: { bucket: 'console-second-factor/address', limit: 30, windowSeconds: HOUR },
  },
  /**
   * The certificate verification page (issue 37 item 4): an embassy checks a few a day; a guesser
   * of its 60-bit codes gets 60 tries in 10 minutes per address.
   */
  verifyPolicy: {
    perAddress: { bucket: 'verify-policy/address', limit: 60, windowSeconds: TEN_MINUTES },
  },
  /**
   * The customer's policy page (issue 37 item 2): its read, resend and cancellation request count
   * together per address, since each answer tells whether a page token names a policy. A customer
   * opens their page a few times; many customers share one mobile carrier's address (as for the
   * other reads); a guesser of 244-bit tokens gets 600 tries in 10 minutes, which finds nothing.
   */
  policyPage: {
    perAddress: { bucket: 'policy-page/address', limit: 600, windowSeconds: TEN_MINUTES },
  },
  /** "Send it again" on the policy page, per policy (its id), whoever asks: a customer needs one, or two when the first went to spam. */
  policyResend: {
    perPolicy: { bucket: 'policy-resend/policy', limit: 3, windowSeconds: HOUR },
  },
  /** Where a link to a lead leads (lead-status, RULINGS 28): asked once per journey page opened by a link. */
  leadStatus: {
    perAddress: { bucket: 'lead-status/address', limit: 600, windowSeconds: TEN_MINUTES },
    perLead: { bucket: 'lead-status/lead', limit: 60, windowSeconds: TEN_MINUTES },
  },
  /** A TOTP code that opened a sign-in, per account: a second use in the hour is a replay (console.routes.ts). */
  consoleTotpUsed: {
    perAccount: { bucket: 'console-totp-used/account', limit: 1, windowSeconds: HOUR },
  },
} as const satisfies Record<string, Partial<Record<'perAddress' | 'perDevice' | 'perLeadDevice' | 'perLead' | 'perPhone' | 'perFreshLead' | 'perAccount' | 'perPolicy', RateLimit>>>;

/**
 * How long after a lead's plan was chosen (its invoice written by proceed-review, which spends a
 * bot check) the lead counts as fresh for RATE_LIMITS.couponAttempts.perFreshLead: longer than a
 * customer takes from choosing a plan to typing the coupon.
 */
export const FRESH_PLAN_CHOICE_MS = HOUR * 1000;

/**
 * The keys a middleware limit counts under: the client's address, the body's device_uuid, the
 * device stored on the lead the body's uuid names, and that lead.
 */
export type EndpointLimits = Partial<Record<'perAddress' | 'perDevice' | 'perLeadDevice' | 'perLead', RateLimit>>;

/** The longest window above: a counter whose window started earlier than this ago is over. */
const LONGEST_WINDOW_MS =
  Math.max(...Object.values(RATE_LIMITS).flatMap((limits) => Object.values(limits).map((limit: RateLimit) => limit.windowSeconds))) * 1000;

export interface RateLimitVerdict {
  allowed: boolean;
  /** This key's hits in the current window, this one included. */
  hits: number;
  /** Seconds until the window ends (at least 1) when refused; 0 when allowed. */
  retryAfterSeconds: number;
  /** The start (ms) of the window this hit was counted in, to give it back with `unhit`. */
  windowStart: number;
}

/**
 * Counts one hit of `key` against `limit` at `now` (the app's clock, ms) and says whether it is
 * allowed. One atomic upsert on the shared table, so concurrent instances never lose a hit.
 * Fixed windows aligned on the epoch: simple, and at most twice the limit across a window edge.
 */
export async function hit(db: Db, limit: RateLimit, key: string, now: number): Promise<RateLimitVerdict> {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ bucket: limit.bucket, key, windowStart: new Date(windowStart), hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.key, rateLimitCounters.windowStart],
      // Qualified: inside ON CONFLICT a bare "hits" could be read as the proposed row's.
      set: { hits: sql.raw('"rate_limit_counters"."hits" + 1') },
    })
    .returning({ hits: rateLimitCounters.hits });
  const hits = row!.hits;
  const allowed = hits <= limit.limit;
  return { allowed, hits, windowStart, retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000)) };
}

/**
 * Gives back one hit of `key` counted by `hit` in the window that began at `windowStart` (ms), for
 * a limit that counts only some outcomes and learns the outcome after counting.
 */
export async function unhit(db: Db, limit: RateLimit, key: string, windowStart: number): Promise<void> {
  await db
    .update(rateLimitCounters)
    .set({ hits: sql.raw('greatest("rate_limit_counters"."hits" - 1, 0)') })
    .where(and(eq(rateLimitCounters.bucket, limit.bucket), eq(rateLimitCounters.key, key), eq(rateLimitCounters.windowStart, new Date(windowStart))));
}

/** Deletes counters of windows that are over for every limit (the app's clock). */
export async function purgeExpiredCounters(db: Db, now: number): Promise<void> {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, new Date(now - LONGEST_WINDOW_MS)));
}

/** A request over a limit, thrown where the key is only known inside a handler (the call-back's phone). */
export class RateLimitedError extends Error {
  constructor(
    /** The field the key came from, reported as `data.errors[field] = 'rate_limited'`. */
    readonly field: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`rate limited on ${field}`);
  }
}
