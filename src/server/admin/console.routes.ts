import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import {
  agentAddSchema,
  callBackChangeSchema,
  cancelPolicySchema,
  CALL_BACK_STATUSES,
  CANCELLATION_REQUEST_FILTERS,
  CONSOLE_API,
  CONSOLE_AUTH_PATH,
  couponAddSchema,
  couponEditSchema,
  CSRF_HEADER,
  FUNNEL_DAYS,
  MAIL_STATUSES,
  ORDER_PAGE_SIZES,
  ORDER_SORTS,
  ORDER_STATUSES,
  refundPaySchema,
  setupRequestSchema,
  userAddSchema,
  type ConsoleMe,
  type ConsoleRole,
  type FunnelDays,
} from '../../contract/broker-console';
import { unsafeTextPaths } from '../../contract/text-safety';
import { sameToken } from './admin.routes';
import { runBrokerCommand, type BrokerCommand } from './broker-commands';
import { listAudit } from './audit-log';
import { CLIENT_ADDRESS_HEADER, completeSetup, ConsoleUserError, csrfToken, listConsoleUsers, readConsoleSession, type ConsoleAuth, type ConsoleSession } from './console-auth';
import { funnel } from './funnel';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { eq } from 'drizzle-orm';
import { listCallBacks } from '../call-backs/call-back-store';
import type { AppEnv } from '../http/app-env';
import { fail, fieldErrors, ok } from '../http/respond';
import { listAgents } from '../leads/agent-admin';
import { listMail } from '../mail/outbox-admin';
import type { OutboxWorker } from '../mail/outbox';
import { listCoupons } from '../orders/coupon-admin';
import { countOrders, listOrders, type OrderFilter } from '../orders/order-admin';
import { listRefunds } from '../orders/refunds';
import { listCancellationRequests } from '../policies/cancellation-requests';
import { clientAddress } from '../rate-limit/client-address';
import { hit, RATE_LIMITS, unhit, type RateLimit } from '../rate-limit/rate-limit';

/**
 * The console's HTTP API (issue 36 items 2, 6 and 7): better-auth's sign-in and two-factor
 * endpoints behind the app's attempt limits, the one-time setup, and the console's reads and
 * changes. The changes run the broker's commands (broker-commands.ts), the very code the CLI and
 * the loopback admin endpoint run, under the signed-in person's name, so each writes its audit
 * row; the reads call the same list functions the CLI prints.
 *
 * Every path but sign-in and setup refuses, in this order: no session or an expired one (401),
 * an account without its authenticator (403), a change without the session's CSRF token or from
 * another origin (403), and a staff session where admin is needed (403). A customer's signed API
 * request carries no console cookie, so it is refused as having no session.
 */

export interface ConsoleRoutesDeps {
  db: Db;
  /** better-auth and the console's secret, made once at the first console request (the secret is read from the database). */
  ready: () => Promise<{ auth: ConsoleAuth; secret: string }>;
  config: Pick<AppConfig, 'apsApiUrl' | 'publicUrl' | 'trustProxy'>;
  mailWorker: Pick<OutboxWorker, 'nudge'>;
  refundWorker: Pick<OutboxWorker, 'nudge'>;
  now: () => number;
}


/**
 * Who may call each path (after CONSOLE_API): staff's work, and admin's on top. Whoever may
 * cancel a policy (admin) may decline a customer's request to cancel it; staff read the requests.
 */
const ADMIN_ONLY = [/^\/refunds/, /^\/coupons/, /^\/agents/, /^\/audit/, /^\/users/, /^\/policies\//, /^\/cancellation-requests\//];

const isAdminPath = (path: string) => ADMIN_ONLY.some((pattern) => pattern.test(path.slice(CONSOLE_API.length)));

/** The JSON body of a console POST, checked against `schema`; a Response when it is refused. */
function bodyOf<S extends v.GenericSchema>(c: Context<AppEnv>, schema: S): v.InferOutput<S> | Response {
  let body: unknown;
  try {
    body = JSON.parse(c.get('rawBody') || '{}');
  } catch {
    return fail(c, 400, 'invalid_json');
  }
  const unsafe = unsafeTextPaths(body);
  if (unsafe.length > 0) return fail(c, 422, 'invalid_request', { errors: Object.fromEntries(unsafe.map((path) => [path, 'invalid_characters'])) });
  const parsed = v.safeParse(schema, body);
  return parsed.success ? parsed.output : fail(c, 422, 'invalid_request', { errors: fieldErrors(parsed.issues) });
}

const oneOf = <T extends string | number>(values: readonly T[], raw: string | undefined, fallback: T): T | null => {
  if (raw === undefined || raw === '') return fallback;
  const found = values.find((value) => String(value) === raw);
  return found ?? null;
};

export function consoleRoutes(deps: ConsoleRoutesDeps) {
  const app = new Hono<AppEnv>();
  const origin = new URL(deps.config.publicUrl).origin;
  // The session the guard below read, per request (the app's context type is the customer API's).
  const sessions = new WeakMap<Request, ConsoleSession>();
  const sessionOf = (c: Context<AppEnv>) => sessions.get(c.req.raw)!;

  /** A change made in the console: the command the CLI would run, under this person's name. */
  async function change(c: Context<AppEnv>, command: BrokerCommand) {
    const session = sessionOf(c);
    const out: string[] = [];
    let refusal: string | null = null;
    let made: Record<string, unknown> = {};
    const code = await runBrokerCommand(
      deps.db,
      command,
      { out: (text) => out.push(text), err: (text) => out.push(text), refused: (text) => (refusal = text), result: (value) => (made = value as Record<string, unknown>) },
      deps.now(),
      { actor: `console:${session.email}`, canSendRefunds: deps.config.apsApiUrl !== null, publicUrl: deps.config.publicUrl },
    );
    if (code !== 0) return fail(c, 422, 'console_refused', { code: 'refused', detail: refusal ?? out.join('\n') });
    if (command.kind === 'mail-resend' || command.kind === 'mail-retry') void deps.mailWorker.nudge().catch(() => undefined);
    if (command.kind === 'refunds-pay' || command.kind === 'policies-cancel' || command.kind === 'mail-retry') void deps.refundWorker.nudge().catch(() => undefined);
    // What the command made, as data (a new account's setup link), beside the sentence it printed.
    return ok(c, { done: out.join('\n'), ...made });
  }

  // Sign-in and the second factor go to better-auth, counted first: a failure per account and
  // per address spends one of a few tries a window; a success gives its try back.
  app.on(['GET', 'POST'], `${CONSOLE_AUTH_PATH}/*`, async (c) => {
    c.set('lang', 'en');
    const address = clientAddress(c, deps.config.trustProxy);
    const path = c.req.path.slice(CONSOLE_AUTH_PATH.length);
    const rawBody = c.req.method === 'POST' ? c.get('rawBody') ?? '' : undefined;
    const counted: { limit: RateLimit; key: string; windowStart: number }[] = [];
    if (path === '/sign-in/email' || path === '/two-factor/verify-totp' || path === '/two-factor/verify-backup-code') {
      const limits = path === '/sign-in/email' ? RATE_LIMITS.consoleSignIn : RATE_LIMITS.consoleSecondFactor;
      let email = '';
      try {
        const parsed = JSON.parse(rawBody || '{}') as { email?: unknown };
        if (typeof parsed.email === 'string') email = parsed.email.trim().toLowerCase().slice(0, 254);
      } catch {
        // better-auth answers a body it cannot read.
      }
      const keys = [{ limit: limits.perAddress, key: address }, ...(email ? [{ limit: RATE_LIMITS.consoleSignIn.perAccount, key: email }] : [])];
      for (const { limit, key } of keys) {
        const verdict = await hit(deps.db, limit, key, deps.now());
        counted.push({ limit, key, windowStart: verdict.windowStart });
        if (!verdict.allowed) {
          // A try refused at one key spends nothing at the others: a guesser looping on one
          // account's 429 does not use up the tries of the team behind the same address.
          for (const spent of counted.slice(0, -1)) await unhit(deps.db, spent.limit, spent.key, spent.windowStart);
          c.header('Retry-After', String(verdict.retryAfterSeconds));
          return fail(c, 429, 'rate_limited');
        }
      }
    }
    const headers = new Headers(c.req.raw.headers);
    headers.set(CLIENT_ADDRESS_HEADER, address);
    const { auth } = await deps.ready();
    c.header('Cache-Control', 'no-store');
    const response = await auth.handler(new Request(c.req.url, { method: c.req.method, headers, body: rawBody }));
    if (!response.ok) return response;
    for (const { limit, key, windowStart } of counted) await unhit(deps.db, limit, key, windowStart);
    if (path === '/two-factor/verify-totp') {
      // A code opens one sign-in: the same code again for the same account (seen over a
      // shoulder, or replayed off the wire) is refused, and the session it made is ended.
      const code = /"code"\s*:\s*"(\d{6})"/.exec(rawBody ?? '')?.[1];
      const session = await readConsoleSession(auth, new Headers({ cookie: response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ') }));
      if (code && session) {
        const used = await hit(deps.db, RATE_LIMITS.consoleTotpUsed.perAccount, `${session.userId}:${code}`, deps.now());
        if (used.hits > 1) {
          await deps.db.delete(t.consoleSessions).where(eq(t.consoleSessions.id, session.sessionId));
          return fail(c, 401, 'console_code_used', { code: 'code_used' });
        }
      }
    }
    return response;
  });

  // A one-time setup link sets the account's password; the console then signs in and sets up TOTP.
  app.post(`${CONSOLE_API}/setup`, async (c) => {
    c.set('lang', 'en');
    const verdict = await hit(deps.db, RATE_LIMITS.consoleSignIn.perAddress, clientAddress(c, deps.config.trustProxy), deps.now());
    if (!verdict.allowed) return fail(c, 429, 'rate_limited');
    const body = bodyOf(c, setupRequestSchema);
    if (body instanceof Response) return body;
    try {
      const { auth } = await deps.ready();
      const email = await completeSetup(deps.db, auth, body.token, body.password, deps.now());
      await unhit(deps.db, RATE_LIMITS.consoleSignIn.perAddress, clientAddress(c, deps.config.trustProxy), verdict.windowStart);
      return ok(c, { email });
    } catch (error) {
      if (error instanceof ConsoleUserError) return fail(c, 422, 'console_setup_invalid', { code: 'setup_invalid' });
      throw error;
    }
  });

  // Everything else: a session, its authenticator, its CSRF token on a change, and its role.
  app.use(`${CONSOLE_API}/*`, async (c, next) => {
    c.set('lang', 'en');
    c.header('Cache-Control', 'no-store');
    c.header('X-Robots-Tag', 'noindex, nofollow');
    const { auth, secret } = await deps.ready();
    const session = await readConsoleSession(auth, c.req.raw.headers);
    if (!session) return fail(c, 401, 'console_signed_out', { code: 'signed_out' });
    sessions.set(c.req.raw, session);
    if (c.req.path === `${CONSOLE_API}/me`) return next();
    if (!session.twoFactorEnabled) return fail(c, 403, 'console_two_factor_required', { code: 'two_factor_required' });
    if (c.req.method !== 'GET') {
      const sentOrigin = c.req.header('origin');
      const token = c.req.header(CSRF_HEADER) ?? '';
      if ((sentOrigin !== undefined && sentOrigin !== origin) || !sameToken(token, csrfToken(secret, session.sessionId))) return fail(c, 403, 'console_csrf', { code: 'csrf' });
    }
    if (isAdminPath(c.req.path) && session.role !== 'admin') return fail(c, 403, 'console_forbidden', { code: 'forbidden' });
    return next();
  });

  app.get(`${CONSOLE_API}/me`, async (c) => {
    const session = sessionOf(c);
    const { secret } = await deps.ready();
    const me: ConsoleMe = {
      email: session.email,
      name: session.name,
      role: session.role as ConsoleRole,
      two_factor_enabled: session.twoFactorEnabled,
      csrf_token: csrfToken(secret, session.sessionId),
    };
    return ok(c, me);
  });

  app.get(`${CONSOLE_API}/today`, async (c) => {
    const days = oneOf<FunnelDays>(FUNNEL_DAYS, c.req.query('days'), 7);
    if (days === null) return fail(c, 422, 'invalid_request', { errors: { days: 'invalid_value' } });
    return ok(c, await funnel(deps.db, days, deps.now()));
  });

  app.get(`${CONSOLE_API}/call-backs`, async (c) => {
    const status = oneOf(['', ...CALL_BACK_STATUSES] as const, c.req.query('status'), '');
    if (status === null) return fail(c, 422, 'invalid_request', { errors: { status: 'invalid_value' } });
    return ok(c, await listCallBacks(deps.db, status === '' ? null : status));
  });
  app.post(`${CONSOLE_API}/call-backs/:id{[1-9][0-9]{0,9}}`, async (c) => {
    const body = bodyOf(c, callBackChangeSchema);
    if (body instanceof Response) return body;
    return change(c, { kind: 'call-backs-set', id: Number(c.req.param('id')), change: body });
  });

  app.get(`${CONSOLE_API}/orders`, async (c) => {
    const query = c.req.query();
    const status = oneOf(['', ...ORDER_STATUSES] as const, query.status, '');
    const sort = oneOf(ORDER_SORTS, query.sort, 'newest');
    const pageSize = oneOf(ORDER_PAGE_SIZES, query.page_size, 25);
    const page = /^[1-9][0-9]{0,5}$/.test(query.page ?? '1') ? Number(query.page ?? 1) : null;
    const day = (value: string | undefined) => (value === undefined || value === '' ? null : /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined);
    const from = day(query.from);
    const to = day(query.to);
    const checked = { status, sort, page_size: pageSize, page, from, to };
    const wrong = Object.entries(checked).filter(([key, value]) => value === undefined || (value === null && key !== 'from' && key !== 'to'));
    if (wrong.length > 0 || status === null || sort === null || pageSize === null || page === null || from === undefined || to === undefined) {
      return fail(c, 422, 'invalid_request', { errors: Object.fromEntries(wrong.map(([key]) => [key, 'invalid_value'])) });
    }
    const search = (query.search ?? '').slice(0, 200);
    const filter: OrderFilter = { status: status === '' ? null : status, search: search || null, from, to };
    const [items, total] = await Promise.all([listOrders(deps.db, filter, pageSize, (page - 1) * pageSize, sort), countOrders(deps.db, filter)]);
    return ok(c, { items, total });
  });
  // Reading an order's full details writes who read them (the command's audit row).
  app.get(`${CONSOLE_API}/orders/:reference`, async (c) => {
    const session = sessionOf(c);
    let detail: unknown = null;
    let refusal: string | null = null;
    await runBrokerCommand(
      deps.db,
      { kind: 'orders-show', merchantReference: c.req.param('reference'), json: false },
      { out: () => undefined, err: () => undefined, refused: (text) => (refusal = text), result: (value) => (detail = value) },
      deps.now(),
      { actor: `console:${session.email}`, canSendRefunds: false },
    );
    return refusal === null ? ok(c, detail) : fail(c, 404, 'not_found');
  });
  app.post(`${CONSOLE_API}/orders/:reference/resend`, async (c) => {
    const [order] = await listOrders(deps.db, { search: c.req.param('reference') }, 1);
    if (!order || order.merchant_reference !== c.req.param('reference') || !order.policy_number) return fail(c, 422, 'console_refused', { code: 'refused', detail: 'This order has no policy to send.' });
    return change(c, { kind: 'mail-resend', policyNumber: order.policy_number });
  });

  app.get(`${CONSOLE_API}/refunds`, async (c) => ok(c, await listRefunds(deps.db)));
  app.post(`${CONSOLE_API}/refunds/pay`, async (c) => {
    const body = bodyOf(c, refundPaySchema);
    if (body instanceof Response) return body;
    return change(c, { kind: 'refunds-pay', merchantReference: body.merchant_reference.trim(), fortId: body.fort_id ?? null });
  });
  app.post(`${CONSOLE_API}/policies/:number/cancel`, async (c) => {
    const body = bodyOf(c, cancelPolicySchema);
    if (body instanceof Response) return body;
    return change(c, { kind: 'policies-cancel', request: { policyNumber: c.req.param('number'), reason: body.reason, note: body.note?.trim() || null } });
  });

  // Customers' requests to cancel (issue 37 item 2): the open ones by default, or one policy's.
  app.get(`${CONSOLE_API}/cancellation-requests`, async (c) => {
    const status = oneOf(CANCELLATION_REQUEST_FILTERS, c.req.query('status'), 'open');
    const policy = c.req.query('policy') ?? '';
    if (status === null || policy.length > 40) return fail(c, 422, 'invalid_request', { errors: status === null ? { status: 'invalid_value' } : { policy: 'too_long' } });
    return ok(c, await listCancellationRequests(deps.db, { status, policyNumber: policy || null }));
  });
  app.post(`${CONSOLE_API}/cancellation-requests/:id{[1-9][0-9]{0,9}}/decline`, (c) => change(c, { kind: 'cancellation-requests-decline', id: Number(c.req.param('id')) }));

  app.get(`${CONSOLE_API}/coupons`, async (c) => ok(c, await listCoupons(deps.db, deps.now())));
  app.post(`${CONSOLE_API}/coupons`, async (c) => {
    const body = bodyOf(c, couponAddSchema);
    if (body instanceof Response) return body;
    return change(c, { kind: 'coupons-add', options: body });
  });
  app.post(`${CONSOLE_API}/coupons/:code/edit`, async (c) => {
    const body = bodyOf(c, couponEditSchema);
    if (body instanceof Response) return body;
    return change(c, { kind: 'coupons-edit', code: c.req.param('code'), options: body });
  });
  app.post(`${CONSOLE_API}/coupons/:code/disable`, (c) => change(c, { kind: 'coupons-disable', code: c.req.param('code') }));

  app.get(`${CONSOLE_API}/agents`, async (c) => ok(c, await listAgents(deps.db)));
  app.post(`${CONSOLE_API}/agents`, async (c) => {
    const body = bodyOf(c, agentAddSchema);
    if (body instanceof Response) return body;
    return change(c, { kind: 'agents-add', name: body.name, email: body.email });
  });
  app.post(`${CONSOLE_API}/agents/:id{[1-9][0-9]{0,9}}/disable`, (c) => change(c, { kind: 'agents-disable', id: Number(c.req.param('id')) }));

  app.get(`${CONSOLE_API}/mail`, async (c) => {
    const status = oneOf(['', ...MAIL_STATUSES] as const, c.req.query('status'), '');
    if (status === null) return fail(c, 422, 'invalid_request', { errors: { status: 'invalid_value' } });
    return ok(c, await listMail(deps.db, status === '' ? null : status));
  });
  app.post(`${CONSOLE_API}/mail/:id{[1-9][0-9]{0,9}}/retry`, (c) => change(c, { kind: 'mail-retry', id: Number(c.req.param('id')) }));

  app.get(`${CONSOLE_API}/audit`, async (c) => ok(c, await listAudit(deps.db)));

  app.get(`${CONSOLE_API}/users`, async (c) => ok(c, await listConsoleUsers(deps.db)));
  app.post(`${CONSOLE_API}/users`, async (c) => {
    const body = bodyOf(c, userAddSchema);
    if (body instanceof Response) return body;
    return change(c, { kind: 'users-add', email: body.email, role: body.role });
  });
  app.post(`${CONSOLE_API}/users/:email/disable`, (c) => change(c, { kind: 'users-disable', email: c.req.param('email') }));

  // Any other console path: the API's plain 404, never the SPA.
  app.all(`${CONSOLE_API}/*`, (c) => fail(c, 404, 'not_found'));
  return app;
}
