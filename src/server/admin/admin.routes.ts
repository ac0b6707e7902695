import { createHash, timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono, type Context } from 'hono';
import * as v from 'valibot';
import { unsafeTextPaths } from '../../contract/text-safety';
import { runBrokerArgs } from './broker-commands';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { fail, fieldErrors, ok } from '../http/respond';
import type { OutboxWorker } from '../mail/outbox';
import type { ReferenceData } from '../reference/reference-data';

/**
 * The admin endpoint (issue 18 item 2): the broker CLI's way into a server that holds the
 * embedded database, so its commands run in the server over the server's own database instead
 * of a second PGlite opening the same directory (which lost every later write of the server).
 *
 * It answers only a caller on a loopback socket (the socket's own remote address: a header such
 * as X-Forwarded-For is the caller's to write) with the token of DATA_DIR/admin.json, compared
 * in constant time, and never a request that carries a proxy's header (issue 33 item 5): behind
 * a reverse proxy on the same host every caller's socket is loopback, so a forwarded request is
 * refused whatever the header says, even empty. The CLI connects directly and sends none. Anyone
 * refused gets the app's plain 404, so the endpoint's existence is not revealed.
 */

/** What the server passes to open the endpoint; without it (tests, PostgreSQL) there is none. */
export interface AdminAccess {
  /** The token the CLI reads from DATA_DIR/admin.json. */
  token: string;
  /** The embedded database as a .tar.gz, for `broker backup` while the server runs; absent: refused. */
  backup?: () => Promise<Uint8Array>;
}

export const ADMIN_BROKER_PATH = '/_admin/broker';
export const ADMIN_BACKUP_PATH = '/_admin/backup';
/** How the CLI presents the token. */
export const ADMIN_TOKEN_HEADER = 'authorization';

/** A command line as the CLI received it: a few short strings. */
export const adminBrokerRequestSchema = v.strictObject({
  argv: v.pipe(v.array(v.pipe(v.string(), v.maxLength(2000))), v.minLength(1), v.maxLength(64)),
  /** The CLI's operating-system user, written beside a change it makes (a refund's requested_by). */
  user: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,64}$/))),
});

/** What the endpoint answers in the envelope's data: the run as the CLI would have printed it. */
export const adminBrokerResponseSchema = v.object({
  exit_code: v.number(),
  stdout: v.string(),
  stderr: v.string(),
  /** The parsed output of a --json command that succeeded, else null. */
  json: v.unknown(),
});

/** Whether an address is this machine's loopback (127.0.0.0/8, ::1, or IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^::ffff:/i, '');
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/**
 * Headers a reverse proxy adds (RFC 7239 Forwarded, the de facto X-Forwarded-* and X-Real-IP, and
 * Via): the admin endpoint refuses a request carrying any of them.
 */
export const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip', 'via'] as const;

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Equal tokens, compared in constant time (digests first, so lengths do not show either). */
export function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

function allowed(c: Context<AppEnv>, token: string): boolean {
  let remote: string | undefined;
  try {
    remote = getConnInfo(c).remote.address;
  } catch {
    // No Node socket (app.request() in tests): not a loopback caller.
    return false;
  }
  const given = /^Bearer ([A-Za-z0-9_-]{1,200})$/.exec(c.req.header(ADMIN_TOKEN_HEADER) ?? '')?.[1];
  // Every check always runs, so a wrong token, a proxy and a wrong address take the same path.
  const direct = PROXY_HEADERS.every((name) => !c.req.raw.headers.has(name));
  const loopback = isLoopbackAddress(remote);
  const tokenOk = sameToken(given ?? '', token);
  return direct && loopback && tokenOk;
}

export interface AdminRoutesDeps {
  db: Db;
  config: Pick<AppConfig, 'apsApiUrl' | 'publicUrl'>;
  access: AdminAccess;
  /** Nudged after `mail resend` queues a message, so the running worker sends it now. */
  mailWorker: Pick<OutboxWorker, 'nudge'>;
  /** Nudged after `refunds pay` queues a REFUND, so the running worker sends it now. */
  refundWorker: Pick<OutboxWorker, 'nudge'>;
  now: () => number;
  /** Told after every command, so a change of reference data or the catalogue is served at the next request. */
  reference?: Pick<ReferenceData, 'invalidate'>;
}

/** POST /_admin/broker (a command line) and POST /_admin/backup (the database as .tar.gz). */
export function adminRoutes(deps: AdminRoutesDeps) {
  const app = new Hono<AppEnv>();

  app.post(ADMIN_BROKER_PATH, async (c) => {
    if (!allowed(c, deps.access.token)) return c.notFound();
    c.set('lang', 'en');
    // Command output lists customers and orders: like the API's answers, never kept by a cache.
    c.header('Cache-Control', 'no-store');
    let body: unknown;
    try {
      body = JSON.parse(c.get('rawBody') || 'null');
    } catch {
      return fail(c, 400, 'invalid_request', { errors: { body: 'invalid_type' } });
    }
    const unsafe = unsafeTextPaths(body);
    if (unsafe.length > 0) return fail(c, 422, 'invalid_request', { errors: Object.fromEntries(unsafe.map((path) => [path, 'invalid_characters'])) });
    const parsed = v.safeParse(adminBrokerRequestSchema, body);
    if (!parsed.success) return fail(c, 422, 'invalid_request', { errors: fieldErrors(parsed.issues) });
    const actor = `cli:${parsed.output.user ?? 'unknown'}`;
    const run = await runBrokerArgs(deps.db, parsed.output.argv, deps.now(), { actor, canSendRefunds: deps.config.apsApiUrl !== null, publicUrl: deps.config.publicUrl });
    // Every command reads and writes the database directly and nothing in the server keeps a
    // copy of coupons, orders, call-backs or mail (issue 18 item 2), so the next request sees
    // the change. The reference data and catalogue kept in memory are checked again at once
    // (not after up to a second), and the mail worker is nudged, so a resent certificate leaves now.
    deps.reference?.invalidate();
    if (run.code === 0 && run.command?.kind === 'mail-resend') void deps.mailWorker.nudge().catch(() => undefined);
    if (run.code === 0 && (run.command?.kind === 'refunds-pay' || run.command?.kind === 'policies-cancel' || run.command?.kind === 'mail-retry')) {
      void deps.refundWorker.nudge().catch(() => undefined);
      void deps.mailWorker.nudge().catch(() => undefined);
    }
    return ok(c, { exit_code: run.code, stdout: run.out, stderr: run.err, json: run.json } satisfies v.InferInput<typeof adminBrokerResponseSchema>);
  });

  app.post(ADMIN_BACKUP_PATH, async (c) => {
    if (!allowed(c, deps.access.token) || !deps.access.backup) return c.notFound();
    const bytes = await deps.access.backup();
    return c.body(new Uint8Array(bytes), 200, { 'content-type': 'application/gzip', 'cache-control': 'no-store' });
  });

  return app;
}
