import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { desc, eq } from 'drizzle-orm';
import { todayIso } from '../contract/dates';
import { listOpenCallBacks, type CallBackListItem } from './call-backs/call-back-store';
import { parseConfigOrExit, type Config } from './config';
import { embeddedDataDir, openConfiguredDatabase, type Db } from './db/client';
import { embeddedDatabaseUse, type OwnerCheckOptions } from './db/embedded-owner';
import * as t from './db/schema';
import { formatMail, listMail, MAIL_STATUSES, MailAdminError, resendPolicyMail, type MailStatus } from './mail/outbox-admin';
import {
  addCoupon,
  CouponAdminError,
  couponValueText,
  disableCoupon,
  formatCoupons,
  listCoupons,
  type AddCouponOptions,
} from './orders/coupon-admin';
import { textTable } from './text-table';

/**
 * The broker's command line, over the database the server uses (same DATA_DIR / DATABASE_URL):
 *   npm run broker -- call-backs [--json]     open call-back tasks, newest first
 *   npm run broker -- coupons [--json]        every coupon with its uses
 *   npm run broker -- coupons add --code CODE --type percent|fixed --value N
 *        [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N] [--provider ID]
 *   npm run broker -- coupons disable CODE
 *   npm run broker -- orders [--status pending|paid|failed|void|refund] [--json]
 *        orders newest first: state, amount, coupon, policy number and whether it was mailed
 *   npm run broker -- mail [--status pending|sent|failed] [--json]
 *        the mail outbox newest first: kind, policy, to, status, attempts, last error, created, sent
 *   npm run broker -- mail resend POLICY_NUMBER   queues the certificate mail again (a new message id)
 * Embedded PGlite allows one process per data directory: while a running server has it open,
 * this refuses (exit 1) and says so (with DATABASE_URL, PostgreSQL serves both at once).
 */

export const USAGE = [
  'Usage:',
  '  npm run broker -- call-backs [--json]',
  '  npm run broker -- coupons [--json]',
  '  npm run broker -- coupons add --code CODE --type percent|fixed --value N [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N] [--provider ID]',
  '      percent: N is 1-100 (of the plan premium); fixed: N is dollars (e.g. 25 or 12.50)',
  '  npm run broker -- coupons disable CODE',
  '  npm run broker -- orders [--status pending|paid|failed|void|refund] [--json]',
  '      orders newest first, with amount, coupon, policy number and whether the policy was mailed',
  '  npm run broker -- mail [--status pending|sent|failed] [--json]',
  '      the mail outbox newest first: kind, policy, to, status, attempts, last error, created, sent',
  '  npm run broker -- mail resend POLICY_NUMBER',
  '      queues the policy\'s certificate mail again (a new message id); the running server sends it',
].join('\n');

/** A command as parsed from the arguments, before any database is opened. */
export type BrokerCommand =
  | { kind: 'call-backs'; json: boolean }
  | { kind: 'coupons'; json: boolean }
  | { kind: 'coupons-add'; options: AddCouponOptions }
  | { kind: 'coupons-disable'; code: string }
  | { kind: 'orders'; json: boolean; status: OrderStatus | null }
  | { kind: 'mail'; json: boolean; status: MailStatus | null }
  | { kind: 'mail-resend'; policyNumber: string };

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'void', 'refund'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** `[--status S] [--json]`, in any order, with S one of `statuses`; a string says what is wrong. */
function statusAndJson<S extends string>(args: string[], statuses: readonly S[]): { json: boolean; status: S | null } | string {
  let json = false;
  let status: S | null = null;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--json') {
      json = true;
      continue;
    }
    const match = /^--status(?:=(.*))?$/s.exec(arg);
    if (!match) return `Unknown argument "${arg}".`;
    const value = match[1] ?? args[(index += 1)];
    if (!statuses.includes(value as S)) return `--status is one of ${statuses.join(', ')}${value === undefined ? '' : ` (got "${value}")`}.`;
    status = value as S;
  }
  return { json, status };
}

/** `orders [--status S] [--json]`; a string says what is wrong. */
function ordersCommand(args: string[]): BrokerCommand | string {
  const flags = statusAndJson(args, ORDER_STATUSES);
  return typeof flags === 'string' ? flags : { kind: 'orders', ...flags };
}

/** `mail [--status S] [--json]` or `mail resend POLICY_NUMBER`; a string says what is wrong. */
function mailCommand(args: string[]): BrokerCommand | string {
  if (args[0] === 'resend') return args.length === 2 ? { kind: 'mail-resend', policyNumber: args[1]! } : 'mail resend takes one policy number.';
  const flags = statusAndJson(args, MAIL_STATUSES);
  return typeof flags === 'string' ? flags : { kind: 'mail', ...flags };
}

const ADD_OPTIONS = ['code', 'type', 'value', 'from', 'to', 'limit', 'provider'] as const;

/** `--name value` and `--name=value` pairs of `coupons add`; a string says what is wrong. */
function addOptions(args: string[]): AddCouponOptions | string {
  const options: AddCouponOptions = {};
  for (let index = 0; index < args.length; index += 1) {
    const match = /^--([a-z]+)(?:=(.*))?$/s.exec(args[index]!);
    const name = match?.[1] as (typeof ADD_OPTIONS)[number] | undefined;
    if (!match || !name || !ADD_OPTIONS.includes(name)) return `Unknown argument "${args[index]}".`;
    if (options[name] !== undefined) return `--${name} is given twice.`;
    const value = match[2] ?? args[(index += 1)];
    if (value === undefined || (match[2] === undefined && value.startsWith('--'))) return `--${name} needs a value.`;
    options[name] = value;
  }
  return options;
}

/** The command the arguments name, or a message saying what is wrong (the CLI adds the usage). */
export function parseBrokerArgs(argv: readonly string[]): BrokerCommand | string {
  const [command, ...rest] = argv;
  const onlyJson = (kind: 'call-backs' | 'coupons'): BrokerCommand | string =>
    rest.every((flag) => flag === '--json') ? { kind, json: rest.includes('--json') } : `Unknown argument "${rest.find((flag) => flag !== '--json')}".`;
  if (command === 'call-backs') return onlyJson('call-backs');
  if (command === 'orders') return ordersCommand(rest);
  if (command === 'mail') return mailCommand(rest);
  if (command !== 'coupons') return command === undefined ? 'No command given.' : `Unknown command "${command}".`;
  const [action, ...args] = rest;
  if (action === 'add') {
    const options = addOptions(args);
    return typeof options === 'string' ? options : { kind: 'coupons-add', options };
  }
  if (action === 'disable') return args.length === 1 ? { kind: 'coupons-disable', code: args[0]! } : 'coupons disable takes one coupon code.';
  return onlyJson('coupons');
}

export interface BrokerIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/**
 * Runs a parsed command over `db` and answers the exit code: 0 done, 2 refused input (the
 * message and the usage on stderr). `now` is the clock: today is where a coupon added without
 * --from starts.
 */
export async function runBrokerCommand(db: Db, command: BrokerCommand, io: BrokerIo, now: number): Promise<number> {
  const today = todayIso(now);
  try {
    switch (command.kind) {
      case 'call-backs': {
        const items = await listOpenCallBacks(db);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatCallBacks(items));
        return 0;
      }
      case 'coupons': {
        const items = await listCoupons(db);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatCoupons(items));
        return 0;
      }
      case 'coupons-add': {
        const item = await addCoupon(db, command.options, today);
        io.out(`Added coupon ${item.code}: ${couponValueText(item)}, valid ${item.valid_from} to ${item.valid_to}.`);
        return 0;
      }
      case 'orders': {
        const items = await listOrders(db, command.status);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatOrders(items));
        return 0;
      }
      case 'mail': {
        const items = await listMail(db, command.status);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatMail(items));
        return 0;
      }
      case 'mail-resend': {
        const id = await resendPolicyMail(db, command.policyNumber, now);
        io.out(`Queued the certificate mail of ${command.policyNumber.trim().toUpperCase()} again (outbox row ${id}): the server's mail worker sends it (at its next start if it is stopped).`);
        return 0;
      }
      case 'coupons-disable': {
        const item = await disableCoupon(db, command.code, now);
        const voided = item.voided_orders === 0 ? '' : ` ${item.voided_orders} pending order${item.voided_orders === 1 ? '' : 's'} using it can no longer be paid.`;
        io.out(`Disabled coupon ${item.code}: it is now refused like an unknown code.${voided}`);
        return 0;
      }
    }
  } catch (error) {
    if (!(error instanceof CouponAdminError) && !(error instanceof MailAdminError)) throw error;
    io.err(`${error.message}\n\n${USAGE}`);
    return 2;
  }
}

/** The call-backs as an aligned text table (or a one-line note when there are none). */
export function formatCallBacks(items: readonly CallBackListItem[]): string {
  if (items.length === 0) return 'No open call-back requests.';
  const header = ['id', 'created', 'reason', 'name', 'phone', 'email', 'lead uuid'];
  const rows = items.map((item) => [String(item.id), item.created, item.reason, item.name, item.phone, item.email, item.lead_uuid ?? '-']);
  return textTable(header, rows);
}

export interface OrderListItem {
  merchant_reference: string;
  created: string;
  status: string;
  /** What the order charges (0 for a 100 % coupon), cents. */
  amount_cents: number;
  coupon: string | null;
  policy_number: string | null;
  /** Whether the policy's certificate was e-mailed; null when there is no policy. */
  mailed: boolean | null;
  /**
   * Why the order is void (trip_changed, plan_changed, traveller_changed, coupon_withdrawn,
   * expired, legacy) or, for a 'refund' order, why its payment buys nothing and must be refunded
   * (paid_twice, order_void, coupon_used_up); null otherwise.
   */
  reason: string | null;
}

/** Orders newest first (at most `limit`), optionally of one status, with their policy if any. */
export async function listOrders(db: Db, status: OrderStatus | null = null, limit = 500): Promise<OrderListItem[]> {
  const rows = await db
    .select({ order: t.orders, coupon: t.coupons.code, policyNumber: t.policies.policyNumber, mailedAt: t.policies.mailedAt })
    .from(t.orders)
    .leftJoin(t.coupons, eq(t.coupons.id, t.orders.couponId))
    .leftJoin(t.policies, eq(t.policies.orderId, t.orders.id))
    .where(status === null ? undefined : eq(t.orders.status, status))
    .orderBy(desc(t.orders.createdAt), desc(t.orders.id))
    .limit(limit);
  return rows.map(({ order, coupon, policyNumber, mailedAt }) => ({
    merchant_reference: order.merchantReference,
    created: order.createdAt.toISOString(),
    status: order.status,
    amount_cents: order.totalCents,
    coupon,
    policy_number: policyNumber,
    mailed: policyNumber === null ? null : mailedAt !== null,
    reason: order.status === 'refund' ? order.refundReason : order.status === 'void' ? order.voidReason : null,
  }));
}

/** 123456 → "$1,234.56": an order's amount to the cent, as the gateway charged it. */
export function centsText(cents: number): string {
  return `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** The orders as an aligned text table (or a one-line note when there are none). */
export function formatOrders(items: readonly OrderListItem[]): string {
  if (items.length === 0) return 'No orders.';
  const header = ['reference', 'created', 'status', 'amount', 'coupon', 'policy', 'mailed', 'why'];
  const rows = items.map((item) => [
    item.merchant_reference,
    item.created,
    item.status,
    centsText(item.amount_cents),
    item.coupon ?? '—',
    item.policy_number ?? '—',
    item.mailed === null ? '—' : item.mailed ? 'yes' : 'no',
    item.status === 'refund' ? `REFUND: ${item.reason ?? '?'}` : (item.reason ?? ''),
  ]);
  return textTable(header, rows);
}

/**
 * Why the CLI must not open the database now, or null: embedded PGlite is one process per data
 * directory, and a running server (another live process that has it open) would see its files
 * change under it. PostgreSQL (DATABASE_URL) serves both at once.
 */
export function embeddedDatabaseBusy(config: Pick<Config, 'databaseUrl' | 'dataDir'>, options: OwnerCheckOptions = {}): string | null {
  if (config.databaseUrl) return null;
  const dir = embeddedDataDir(config);
  const use = embeddedDatabaseUse(dir, options);
  if (!use.inUse) return null;
  return `The embedded database ${dir} is open in process ${use.pid} (the server): stop it and run this again, or use DATABASE_URL (PostgreSQL serves both at once).`;
}

async function main(argv: string[]): Promise<number> {
  const command = parseBrokerArgs(argv);
  if (typeof command === 'string') {
    console.error(`${command}\n\n${USAGE}`);
    return 2;
  }
  const config = parseConfigOrExit(process.env);
  const busy = embeddedDatabaseBusy(config);
  if (busy) {
    console.error(busy);
    return 1;
  }
  const database = await openConfiguredDatabase(config);
  try {
    return await runBrokerCommand(database.db, command, { out: (text) => console.log(text), err: (text) => console.error(text) }, Date.now());
  } finally {
    await database.close();
  }
}

// Only when run as a script, so tests can import the functions above.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
