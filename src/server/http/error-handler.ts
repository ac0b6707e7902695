import type { Hono, MiddlewareHandler } from 'hono';
import type { RecaptchaUnavailable } from '../bot-check/recaptcha';
import type { AppEnv } from './app-env';
import { message } from './messages';
import { databaseUnavailableCode } from '../health/database-health';
import { resourceExhaustion } from '../health/resource-health';
import { envelope, languageOf } from './respond';
import { routePattern } from './route-pattern';

/** Response header carrying the request id, so a caller can quote it to support. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * One line of the error log. It names what failed and where, never why in words: the message of
 * a database error quotes the values of the failed query (names, e-mails, phone numbers), and a
 * stack or body would too, so neither the message, the parameters, the body nor the stack is kept.
 */
export type ErrorLogLine =
  | { event: 'error'; request_id: string; method: string; route: string; error: string; code?: string }
  /** The database could not be reached (closed, refused, dropped): the request answered 503, not 500. */
  | { event: 'database_unavailable'; request_id: string; method: string; route: string; error: string; code: string }
  /**
   * The disk (or the database's memory) ran out (PostgreSQL class 53, ENOSPC, EDQUOT): the request
   * answered 503, not 500, and /health/ready says so (health/resource-health.ts).
   */
  | { event: 'resources_exhausted'; request_id: string; method: string; route: string; error: string; code: string }
  | { event: 'insurer_unavailable'; insurer_id?: number; error: string; code?: string }
  /** reCAPTCHA's siteverify could not judge a token (BOT_CHECK=recaptcha): every purchase is refused meanwhile. */
  | { event: 'bot_check_unavailable'; reason: RecaptchaUnavailable }
  /**
   * An outbox message's attempt failed (mail/outbox.ts); `final`: no attempt is left and the row is
   * failed (`npm run broker -- mail --status failed`). A policy's mailed_at stays null meanwhile.
   */
  | { event: 'policy_mail_failed'; policy_id: number | null; outbox_id: number; attempt: number; final: boolean; error: string; code?: string }
  /**
   * A payment notice refused (payments/payment-notice.ts); its raw payload is the payment_notices
   * row. `problem` and `keys` name what broke the APS response contract (key names only).
   */
  | {
      event: 'payment_notice_refused';
      source: 'return' | 'feedback';
      verdict: 'malformed' | 'bad_signature' | 'unknown_order' | 'mismatch' | 'invalid';
      notice_id: number;
      problem?: string;
      keys?: string[];
    }
  /**
   * The gateway took money that buys no policy (a refunds row; for every reason but charged_again
   * the order is 'refund' too): the broker refunds it (`npm run broker -- refunds`).
   */
  | { event: 'payment_refund_due'; order_id: number; reason: 'paid_twice' | 'order_void' | 'coupon_used_up' | 'charged_again'; notice_id: number };

export type LogError = (line: ErrorLogLine) => void;

/** The default sink: one JSON line on stderr. */
export const writeErrorLine: LogError = (line) => process.stderr.write(`${JSON.stringify(line)}\n`);

/** How long a caller is asked to wait while the database is away (Retry-After). */
export const RETRY_AFTER_SECONDS = 5;

/** A PostgreSQL SQLSTATE is five digits or capital letters; anything else is not a code. */
const SQLSTATE = /^[0-9A-Z]{5}$/;
/** The file system's codes for a full disk: kept, so a failed write to a file says why (issue 34 item 3). */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

/**
 * The class name of an error and, when it is (or wraps, as Drizzle's DrizzleQueryError does) a
 * PostgreSQL/PGlite error, its SQLSTATE, or a full disk's ENOSPC/EDQUOT. Only these two facts are ever logged.
 */
export function errorFacts(error: unknown): { error: string; code?: string } {
  const name = error instanceof Error ? error.constructor.name || error.name : typeof error;
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (SQLSTATE.test(code) || DISK_FULL_CODES.has(code))) return { error: name, code };
    current = (current as { cause?: unknown }).cause;
  }
  return { error: name };
}

/** Gives every request a fresh id (never the caller's), on the context and as X-Request-Id. */
export function requestIdMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = crypto.randomUUID();
    c.set('requestId', id);
    c.header(REQUEST_ID_HEADER, id);
    await next();
  };
}

/**
 * The one error handling of every Hono app that answers requests on its own: each request gets
 * a request id, and an unexpected failure answers the 500 envelope with that id in the caller's
 * language and writes one ErrorLogLine. Call it first, before any other middleware or route, so
 * the id exists for everything after it.
 */
export function installErrorHandler(app: Hono<AppEnv>, logError: LogError = writeErrorLine) {
  app.use(requestIdMiddleware());
  app.onError((error, c) => {
    const requestId = c.get('requestId') ?? crypto.randomUUID();
    const lang = c.get('lang') ?? languageOf(c.get('body'), c.req.header('accept-language'));
    c.header(REQUEST_ID_HEADER, requestId);
    // The database away, or the disk full, is not a bug: 503 with Retry-After, and the next
    // request tries again (a full disk outranks the connection error a failing write may also cause).
    const exhausted = resourceExhaustion(error);
    const unavailable = exhausted ? null : databaseUnavailableCode(error);
    if (exhausted || unavailable) {
      try {
        const facts = { request_id: requestId, method: c.req.method, route: routePattern(c), error: errorFacts(error).error };
        logError(exhausted ? { event: 'resources_exhausted', ...facts, code: exhausted.code } : { event: 'database_unavailable', ...facts, code: unavailable! });
      } catch {
        // As below: the envelope is answered whatever the sink does.
      }
      c.header('Retry-After', String(RETRY_AFTER_SECONDS));
      return envelope(c, 503, message('service_unavailable', lang), { request_id: requestId });
    }
    try {
      logError({ event: 'error', request_id: requestId, method: c.req.method, route: routePattern(c), ...errorFacts(error) });
    } catch {
      // A failing log sink must not turn the 500 envelope into Hono's plain-text one.
    }
    return envelope(c, 500, message('server_error', lang), { request_id: requestId });
  });
  return app;
}
