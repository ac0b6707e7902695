import { parseIsoDate, todayIso } from '../../contract/dates';
import {
  CALL_BACK_STATUSES,
  CallBackAdminError,
  listCallBacks,
  updateCallBack,
  type CallBackChange,
  type CallBackListItem,
  type CallBackStatus,
} from '../call-backs/call-back-store';
import type { Db } from '../db/client';
import { listSettings, setSetting, SettingsAdminError } from '../db/settings';
import { formatMail, listMail, MAIL_STATUSES, MailAdminError, resendPolicyMail, retryOutboxRow, type MailStatus } from '../mail/outbox-admin';
import {
  addCoupon,
  CouponAdminError,
  couponValueText,
  disableCoupon,
  editCoupon,
  formatCoupons,
  listCoupons,
  type AddCouponOptions,
  type EditCouponOptions,
} from '../orders/coupon-admin';
import { listRefunds, RefundRequestError, requestRefund, type RefundListItem } from '../orders/refunds';
import type { CancelReason } from '../mail/cancellation-mail';
import { CANCEL_REASONS, cancelPolicy, CancelPolicyError, type CancelRequest } from '../policies/cancel-policy';
import {
  CANCELLATION_REQUEST_FILTERS,
  CancellationRequestError,
  declineCancellationRequest,
  formatCancellationRequests,
  listCancellationRequests,
  type CancellationRequestFilter,
} from '../policies/cancellation-requests';
import { textTable } from '../text-table';
import { couponCodeText } from '../../contract/checkout.endpoints';
import { audited, formatAudit, listAudit } from './audit-log';
import { formatFunnel, funnel, FUNNEL_DAYS, type FunnelDays } from './funnel';
import { addAgent, AgentAdminError, disableAgent, formatAgents, listAgents } from '../leads/agent-admin';
import { addConsoleUser, ConsoleUserError, disableConsoleUser, listConsoleUsers } from './console-auth';
import type { ConsoleRole } from '../../contract/broker-console';
import {
  centsText,
  formatOrderDetail,
  formatOrders,
  listOrders,
  ORDER_STATUSES,
  orderDetail,
  type OrderFilter,
} from '../orders/order-admin';

/** An order the broker named that does not exist. */
class OrderAdminError extends Error {}

/**
 * The broker's commands (issue 35 item 3): what each one does over a database, and the text it
 * prints. Both doors run them: the command line (broker-cli.ts, which reads the arguments and the
 * environment, takes the data directory's lock or goes through the running server, and prints),
 * and the running server's admin endpoint (admin.routes.ts). The commands are listed in USAGE.
 */

export const USAGE = [
  'Usage:',
  '  npm run broker -- call-backs [--status new|contacted|quoted|closed] [--json]',
  '      call-back requests newest first (default: every one not closed), with status, assignee and notes',
  '  npm run broker -- call-backs set ID [--status new|contacted|quoted|closed] [--assignee NAME] [--note TEXT]',
  '      works a call-back: its status, who has it (--assignee "" takes it off), a note under your name',
  '  npm run broker -- coupons [--json]',
  '  npm run broker -- coupons add --code CODE --type percent|fixed --value N [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N] [--provider ID]',
  '      percent: N is 1-100 (of the plan premium); fixed: N is dollars (e.g. 25 or 12.50)',
  '  npm run broker -- coupons edit CODE [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N|none]',
  '      changes when a coupon is good and how many uses it has (not below the uses paid)',
  '  npm run broker -- coupons disable CODE',
  '  npm run broker -- orders [--status pending|paid|failed|void|refund|refunded] [--search TEXT] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--json]',
  '      orders newest first, with amount, coupon, policy number and whether the policy was mailed;',
  '      --search finds a merchant reference, a policy number, an e-mail or a phone number',
  '  npm run broker -- orders show MERCHANT_REFERENCE [--json]',
  '      one order: what was bought, every gateway notice, refunds, the policy and certificate, the e-mails sent',
  '  npm run broker -- refunds [--json]',
  '      every payment the gateway took that buys nothing (a second payment, a changed order): reference, fort_id, amount, why, and the refund\'s status',
  '  npm run broker -- refunds pay MERCHANT_REFERENCE [--fort-id FORT_ID]',
  '      gives that payment back through the gateway (APS REFUND); the running server sends it and e-mails the customer',
  '  npm run broker -- policies cancel POLICY_NUMBER --reason visa_refused|trip_cancelled|other [--note TEXT]',
  '      cancels the policy (its certificate then says CANCELLED), refunds its premium less the plan\'s cancellation fee through the gateway, and e-mails the customer; after the start date only with --note',
  '  npm run broker -- cancellation-requests [--status open|done|declined|all] [--json]',
  '      customers\' requests to cancel a policy that has not started, newest first (default: the open ones; with all, open ones first): policy, customer, trip start, plan, reason, note;',
  '      cancelling the policy (policies cancel, or the console) makes its open request done',
  '  npm run broker -- cancellation-requests decline ID',
  '      keeps the policy: the request is declined under your name',
  '  npm run broker -- mail [--status pending|sent|failed] [--json]',
  '      the outbox newest first (mail and the APS sandbox\'s feedback): kind, policy/order, to, status, attempts, last error, created, sent',
  '  npm run broker -- mail retry ID',
  '      sends a failed outbox row again (a mail, a feedback or a refund), under the same message id',
  '  npm run broker -- mail resend POLICY_NUMBER',
  '      queues the policy\'s certificate mail again (a new message id); the running server sends it',
  '  npm run broker -- today [--days 1|7|30] [--json]',
  '      the funnel of the leads saved in those days (default 7): quotes, plans chosen, checkouts, paid, in per cent; and the money paid per day',
  '  npm run broker -- agents [--json]',
  '      every agent with their leads, share e-mails and paid orders',
  '  npm run broker -- agents add --name NAME --email EMAIL',
  '  npm run broker -- agents disable ID',
  '  npm run broker -- audit [--json]',
  '      every change made with these commands, newest first: when, who, what, which, before and after',
  '  npm run broker -- users [--json]',
  '      the console\'s accounts: e-mail, role, whether the authenticator is set up, disabled',
  '  npm run broker -- users add EMAIL --role admin|staff',
  '      makes a console account and prints its one-time setup link (good for 48 hours): the person sets a password and an authenticator app there',
  '  npm run broker -- users disable EMAIL',
  '      ends the account\'s sessions and refuses its sign-in from now on',
  '  npm run broker -- settings [--json]',
  '      vat_percent, stamp_fee_cents (US cents), max_traveller_count, family_child_max_age',
  '  npm run broker -- settings set KEY N',
  '      changes one setting (a whole number); get-vat and the travel configs answer it at once',
  '  npm run broker -- backup FILE',
  '      the embedded database as a .tar.gz (through the running server if one holds it)',
  '  npm run broker -- restore FILE',
  '      replaces the embedded database with a backup (the server must be stopped); the old one is kept beside it',
].join('\n');

/** A command as parsed from the arguments, before any database is opened. */
export type BrokerCommand =
  | { kind: 'call-backs'; json: boolean; status: CallBackStatus | null }
  | { kind: 'call-backs-set'; id: number; change: CallBackChange }
  | { kind: 'coupons'; json: boolean }
  | { kind: 'refunds'; json: boolean }
  | { kind: 'audit'; json: boolean }
  | { kind: 'today'; json: boolean; days: FunnelDays }
  | { kind: 'agents'; json: boolean }
  | { kind: 'agents-add'; name?: string; email?: string }
  | { kind: 'agents-disable'; id: number }
  | { kind: 'refunds-pay'; merchantReference: string; fortId: string | null }
  | { kind: 'policies-cancel'; request: CancelRequest }
  | { kind: 'cancellation-requests'; json: boolean; status: CancellationRequestFilter }
  | { kind: 'cancellation-requests-decline'; id: number }
  | { kind: 'coupons-add'; options: AddCouponOptions }
  | { kind: 'coupons-disable'; code: string }
  | { kind: 'coupons-edit'; code: string; options: EditCouponOptions }
  | { kind: 'orders'; json: boolean; filter: OrderFilter }
  | { kind: 'orders-show'; merchantReference: string; json: boolean }
  | { kind: 'mail'; json: boolean; status: MailStatus | null }
  | { kind: 'mail-resend'; policyNumber: string }
  | { kind: 'mail-retry'; id: number }
  | { kind: 'settings'; json: boolean }
  | { kind: 'users'; json: boolean }
  | { kind: 'users-add'; email: string; role: ConsoleRole }
  | { kind: 'users-disable'; email: string }
  | { kind: 'settings-set'; key: string; value: string }
  | { kind: 'backup'; file: string }
  | { kind: 'restore'; file: string };

/** The commands on a file rather than over a Db: the CLI runs them itself (admin/embedded-backup.ts). */
export type FileCommand = Extract<BrokerCommand, { kind: 'backup' | 'restore' }>;

export const isFileCommand = (command: BrokerCommand): command is FileCommand => command.kind === 'backup' || command.kind === 'restore';


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
  if (args[0] === 'show') {
    const rest = args.slice(1);
    const references = rest.filter((arg) => arg !== '--json');
    if (references.length !== 1 || references[0]!.startsWith('--')) return 'orders show takes one merchant reference.';
    return { kind: 'orders-show', merchantReference: references[0]!, json: rest.includes('--json') };
  }
  const filter: OrderFilter = {};
  const kept: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const match = /^--(search|from|to)(?:=(.*))?$/s.exec(args[index]!);
    if (!match) {
      kept.push(args[index]!);
      if (/^--status$/.test(args[index]!) && args[index + 1] !== undefined) kept.push(args[(index += 1)]!);
      continue;
    }
    const value = match[2] ?? args[(index += 1)];
    if (value === undefined || (match[2] === undefined && value.startsWith('--'))) return `--${match[1]} needs a value.`;
    if (match[1] !== 'search' && (!/^\d{4}-\d{2}-\d{2}$/.test(value) || parseIsoDate(value) === null)) return `--${match[1]} must be a date as YYYY-MM-DD (got "${value}").`;
    filter[match[1] as 'search' | 'from' | 'to'] = value;
  }
  const flags = statusAndJson(kept, ORDER_STATUSES);
  return typeof flags === 'string' ? flags : { kind: 'orders', json: flags.json, filter: { ...filter, status: flags.status } };
}

/** `mail [--status S] [--json]` or `mail resend POLICY_NUMBER`; a string says what is wrong. */
function mailCommand(args: string[]): BrokerCommand | string {
  if (args[0] === 'resend') return args.length === 2 ? { kind: 'mail-resend', policyNumber: args[1]! } : 'mail resend takes one policy number.';
  if (args[0] === 'retry') return args.length === 2 && /^[1-9][0-9]{0,9}$/.test(args[1]!) ? { kind: 'mail-retry', id: Number(args[1]) } : 'mail retry takes one outbox row id (a number).';
  const flags = statusAndJson(args, MAIL_STATUSES);
  return typeof flags === 'string' ? flags : { kind: 'mail', ...flags };
}

/**
 * Reads `--name value` and `--name=value` options of `names`, bare `switches` (`--json`) and the
 * other arguments, in any order; a string says what is wrong (an unknown option, one given twice,
 * one without its value). The one reader of every command's options.
 */
function readArgs<N extends string, S extends string = never>(
  args: readonly string[],
  names: readonly N[],
  switches: readonly S[] = [],
): { positional: string[]; named: Partial<Record<N, string>>; on: Set<S> } | string {
  const positional: string[] = [];
  const named: Partial<Record<N, string>> = {};
  const on = new Set<S>();
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (switches.includes(arg.slice(2) as S) && arg.startsWith('--')) {
      on.add(arg.slice(2) as S);
      continue;
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (!match) {
      if (arg.startsWith('--')) return `Unknown argument "${arg}".`;
      positional.push(arg);
      continue;
    }
    const name = match[1] as N;
    if (!names.includes(name)) return `Unknown argument "${arg}".`;
    if (named[name] !== undefined) return `--${name} is given twice.`;
    const value = match[2] ?? args[(index += 1)];
    if (value === undefined || (match[2] === undefined && value.startsWith('--'))) return `--${name} needs a value.`;
    named[name] = value;
  }
  return { positional, named, on };
}

/** `refunds pay MERCHANT_REFERENCE [--fort-id FORT_ID]`; a string says what is wrong. */
function refundsPayCommand(args: string[]): BrokerCommand | string {
  const read = readArgs(args, ['fort-id']);
  if (typeof read === 'string') return read;
  const fortId = read.named['fort-id'] ?? null;
  if (fortId !== null && !/^[0-9]{1,20}$/.test(fortId)) return '--fort-id needs the digits of a fort_id.';
  if (read.positional.length !== 1) return 'refunds pay takes one merchant reference.';
  return { kind: 'refunds-pay', merchantReference: read.positional[0]!.trim(), fortId };
}

/** `today [--days 1|7|30] [--json]`; a string says what is wrong. */
function todayCommand(args: string[]): BrokerCommand | string {
  const read = readArgs(args, ['days'], ['json']);
  if (typeof read === 'string') return read;
  if (read.positional.length > 0) return `Unknown argument "${read.positional[0]}".`;
  const days = Number(read.named.days ?? 7);
  if (!FUNNEL_DAYS.includes(days as FunnelDays)) return `--days is one of ${FUNNEL_DAYS.join(', ')}.`;
  return { kind: 'today', json: read.on.has('json'), days: days as FunnelDays };
}

/** `agents add --name N --email E` or `agents disable ID`; a string says what is wrong. */
function agentsChangeCommand(action: 'add' | 'disable', args: string[]): BrokerCommand | string {
  if (action === 'disable') return args.length === 1 && /^[1-9][0-9]{0,9}$/.test(args[0]!) ? { kind: 'agents-disable', id: Number(args[0]) } : 'agents disable takes one agent id (a number).';
  const read = readArgs(args, ['name', 'email']);
  if (typeof read === 'string') return read;
  if (read.positional.length > 0) return `Unknown argument "${read.positional[0]}".`;
  return { kind: 'agents-add', ...read.named };
}

/** `call-backs [--status S] [--json]`; a string says what is wrong. */
function callBacksCommand(args: string[]): BrokerCommand | string {
  const flags = statusAndJson(args, CALL_BACK_STATUSES);
  return typeof flags === 'string' ? flags : { kind: 'call-backs', ...flags };
}

/** `call-backs set ID [--status S] [--assignee NAME] [--note TEXT]`; a string says what is wrong. */
function callBacksSetCommand(args: string[]): BrokerCommand | string {
  const read = readArgs(args, ['status', 'assignee', 'note']);
  if (typeof read === 'string') return read;
  const { status, assignee, note } = read.named;
  if (status !== undefined && !CALL_BACK_STATUSES.includes(status as CallBackStatus)) return `--status is one of ${CALL_BACK_STATUSES.join(', ')} (got "${status}").`;
  if (assignee !== undefined && assignee.length > 120) return '--assignee is at most 120 characters.';
  if (note !== undefined && note.length > 2000) return '--note is at most 2000 characters.';
  if (read.positional.length !== 1 || !/^[1-9][0-9]{0,9}$/.test(read.positional[0]!)) return 'call-backs set takes one call-back id (a number).';
  const change: CallBackChange = { ...(status ? { status: status as CallBackStatus } : {}), ...(assignee !== undefined ? { assignee } : {}), ...(note !== undefined ? { note } : {}) };
  return { kind: 'call-backs-set', id: Number(read.positional[0]), change };
}

/** `policies cancel POLICY_NUMBER --reason R [--note TEXT]`; a string says what is wrong. */
function policiesCancelCommand(args: string[]): BrokerCommand | string {
  const read = readArgs(args, ['reason', 'note']);
  if (typeof read === 'string') return read;
  const { reason, note } = read.named;
  if (read.positional.length !== 1) return 'policies cancel takes one policy number.';
  if (!CANCEL_REASONS.includes(reason as CancelReason)) return `--reason is one of ${CANCEL_REASONS.join(', ')}.`;
  if (note !== undefined && note.length > 500) return '--note is at most 500 characters.';
  return { kind: 'policies-cancel', request: { policyNumber: read.positional[0]!, reason: reason as CancelReason, note: note ?? null } };
}

/** `cancellation-requests [--status S] [--json]` or `cancellation-requests decline ID`; a string says what is wrong. */
function cancellationRequestsCommand(args: string[]): BrokerCommand | string {
  if (args[0] === 'decline') {
    return args.length === 2 && /^[1-9][0-9]{0,9}$/.test(args[1]!) ? { kind: 'cancellation-requests-decline', id: Number(args[1]) } : 'cancellation-requests decline takes one request id (a number).';
  }
  const flags = statusAndJson(args, CANCELLATION_REQUEST_FILTERS);
  return typeof flags === 'string' ? flags : { kind: 'cancellation-requests', json: flags.json, status: flags.status ?? 'open' };
}

const ADD_OPTIONS = ['code', 'type', 'value', 'from', 'to', 'limit', 'provider'] as const;

/** `--name value` and `--name=value` pairs of `coupons add` and `coupons edit`; a string says what is wrong. */
function addOptions(args: string[]): AddCouponOptions | string {
  const read = readArgs(args, ADD_OPTIONS);
  if (typeof read === 'string') return read;
  return read.positional.length > 0 ? `Unknown argument "${read.positional[0]}".` : read.named;
}

/** `users add EMAIL --role R` or `users disable EMAIL`; a string says what is wrong. */
function usersChangeCommand(action: 'add' | 'disable', args: string[]): BrokerCommand | string {
  const read = readArgs(args, action === 'add' ? ['role'] : []);
  if (typeof read === 'string') return read;
  if (read.positional.length !== 1) return `users ${action} takes one e-mail address.`;
  if (action === 'disable') return { kind: 'users-disable', email: read.positional[0]! };
  const role = read.named.role;
  if (role !== 'admin' && role !== 'staff') return '--role is admin or staff.';
  return { kind: 'users-add', email: read.positional[0]!, role };
}

/** The command the arguments name, or a message saying what is wrong (the CLI adds the usage). */
export function parseBrokerArgs(argv: readonly string[]): BrokerCommand | string {
  const [command, ...rest] = argv;
  const onlyJson = (kind: 'coupons' | 'refunds' | 'settings' | 'audit' | 'agents' | 'users'): BrokerCommand | string =>
    rest.every((flag) => flag === '--json') ? { kind, json: rest.includes('--json') } : `Unknown argument "${rest.find((flag) => flag !== '--json')}".`;
  if (command === 'call-backs') return rest[0] === 'set' ? callBacksSetCommand(rest.slice(1)) : callBacksCommand(rest);
  if (command === 'audit') return onlyJson('audit');
  if (command === 'today') return todayCommand(rest);
  if (command === 'agents') return rest[0] === 'add' || rest[0] === 'disable' ? agentsChangeCommand(rest[0], rest.slice(1)) : onlyJson('agents');
  if (command === 'orders') return ordersCommand(rest);
  if (command === 'users') return rest[0] === 'add' || rest[0] === 'disable' ? usersChangeCommand(rest[0], rest.slice(1)) : onlyJson('users');
  if (command === 'refunds') return rest[0] === 'pay' ? refundsPayCommand(rest.slice(1)) : onlyJson('refunds');
  if (command === 'mail') return mailCommand(rest);
  if (command === 'cancellation-requests') return cancellationRequestsCommand(rest);
  if (command === 'policies') return rest[0] === 'cancel' ? policiesCancelCommand(rest.slice(1)) : 'policies takes cancel POLICY_NUMBER --reason R [--note TEXT].';
  if (command === 'settings') {
    if (rest[0] !== 'set') return onlyJson('settings');
    return rest.length === 3 ? { kind: 'settings-set', key: rest[1]!, value: rest[2]! } : 'settings set takes a setting name and a whole number.';
  }
  if (command === 'backup' || command === 'restore') {
    return rest.length === 1 && !rest[0]!.startsWith('--') ? { kind: command, file: rest[0]! } : `${command} takes one file name.`;
  }
  if (command !== 'coupons') return command === undefined ? 'No command given.' : `Unknown command "${command}".`;
  const [action, ...args] = rest;
  if (action === 'add') {
    const options = addOptions(args);
    return typeof options === 'string' ? options : { kind: 'coupons-add', options };
  }
  if (action === 'disable') return args.length === 1 ? { kind: 'coupons-disable', code: args[0]! } : 'coupons disable takes one coupon code.';
  if (action === 'edit') {
    const [code, ...flags] = args;
    if (code === undefined || code.startsWith('--')) return 'coupons edit takes one coupon code, then --from, --to or --limit.';
    const options = addOptions(flags);
    if (typeof options === 'string') return options;
    const other = Object.keys(options).find((name) => !['from', 'to', 'limit'].includes(name));
    return other ? `coupons edit changes --from, --to and --limit only (got --${other}).` : { kind: 'coupons-edit', code, options };
  }
  return onlyJson('coupons');
}

export interface BrokerIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Told a refused change's sentence alone (the console shows it); without it, err gets it with the usage. */
  refused?: (text: string) => void;
  /** Told what a command made or read, as data (the console answers it rather than reading the printed text). */
  result?: (value: unknown) => void;
}

/** Who runs a command, and what the server can do, for the commands that change money. */
export interface BrokerContext {
  /** Written beside a change (a refund's requested_by): `cli:<user>` from the command line. */
  actor: string;
  /** Whether a REFUND can be sent (config.apsApiUrl: the sandbox, or APS_API_URL beside a real gateway). */
  canSendRefunds: boolean;
  /** PUBLIC_URL, where a console setup link points (users add). */
  publicUrl?: string;
}

/** A caller that names no context (tests of the listing commands): `cli`, and no refund can be sent. */
const NO_CONTEXT: BrokerContext = { actor: 'cli', canSendRefunds: false };

/** The errors a service throws for a change it refuses: said as they are, never a crash. */
const REFUSALS = [
  CouponAdminError,
  MailAdminError,
  SettingsAdminError,
  RefundRequestError,
  CancelPolicyError,
  CancellationRequestError,
  CallBackAdminError,
  AgentAdminError,
  OrderAdminError,
  ConsoleUserError,
];

/**
 * Runs a parsed command over `db` and answers the exit code: 0 done, 2 refused input (the
 * message and the usage on stderr). `now` is the clock: today is where a coupon added without
 * --from starts.
 */
export async function runBrokerCommand(db: Db, command: BrokerCommand, io: BrokerIo, now: number, context: BrokerContext = NO_CONTEXT): Promise<number> {
  const today = todayIso(now);
  // Every change is written to the audit log in its own transaction (admin/audit-log.ts).
  const who = { actor: context.actor };
  try {
    switch (command.kind) {
      case 'backup':
      case 'restore':
        io.err(`${command.kind} works on the data directory, not over a database: the CLI runs it itself.`);
        return 2;
      case 'call-backs-set': {
        const target = `call-back ${command.id}`;
        const done = await audited(db, { ...who, action: 'call-backs.set', target }, now, async (tx) => {
          const work = await updateCallBack(tx, command.id, command.change, context.actor, now);
          return { result: work, ...work };
        });
        io.out(`Call-back ${command.id}: ${done.after.status}${done.after.assignee ? `, with ${done.after.assignee}` : ', with nobody'}${done.after.note ? ', note added' : ''}.`);
        return 0;
      }
      case 'call-backs': {
        const items = await listCallBacks(db, command.status);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatCallBacks(items));
        return 0;
      }
      case 'coupons': {
        const items = await listCoupons(db, now);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatCoupons(items));
        return 0;
      }
      case 'coupons-add': {
        const item = await audited(db, { ...who, action: 'coupons.add', target: couponCodeText(command.options.code ?? '') }, now, async (tx) => {
          const added = await addCoupon(tx, command.options, today);
          return { result: added, before: null, after: added };
        });
        io.out(`Added coupon ${item.code}: ${couponValueText(item)}, valid ${item.valid_from} to ${item.valid_to}.`);
        return 0;
      }
      case 'orders': {
        const items = await listOrders(db, command.filter);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatOrders(items));
        return 0;
      }
      case 'orders-show': {
        // A customer's full details (the contract: travellers, passports, contact) are read only
        // with a row in the audit log saying who read them (issue 36 item 7).
        const detail = await audited(db, { ...who, action: 'orders.show', target: command.merchantReference }, now, async (tx) => {
          const found = await orderDetail(tx, command.merchantReference);
          if (!found) throw new OrderAdminError(`No order has the merchant reference ${command.merchantReference}.`);
          return { result: found, before: null, after: null };
        });
        io.result?.(detail);
        io.out(command.json ? JSON.stringify(detail, null, 2) : formatOrderDetail(detail));
        return 0;
      }
      case 'agents': {
        const items = await listAgents(db);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatAgents(items));
        return 0;
      }
      case 'agents-add': {
        const agent = await audited(db, { ...who, action: 'agents.add', target: command.email ?? '' }, now, async (tx) => {
          const added = await addAgent(tx, command, now);
          return { result: added, before: null, after: { id: added.id, name: added.name, email: added.email, active: true } };
        });
        io.out(`Added agent ${agent.id}, ${agent.name} <${agent.email}>: their links carry agent_id=${agent.id}.`);
        return 0;
      }
      case 'agents-disable': {
        await audited(db, { ...who, action: 'agents.disable', target: `agent ${command.id}` }, now, async (tx) => ({ result: null, ...(await disableAgent(tx, command.id)) }));
        io.out(`Disabled agent ${command.id}: their links now say the agent is unknown, and what they did stays listed.`);
        return 0;
      }
      case 'today': {
        const result = await funnel(db, command.days, now);
        io.out(command.json ? JSON.stringify(result, null, 2) : formatFunnel(result));
        return 0;
      }
      case 'audit': {
        const items = await listAudit(db);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatAudit(items));
        return 0;
      }
      case 'refunds': {
        const items = await listRefunds(db);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatRefunds(items));
        return 0;
      }
      case 'refunds-pay': {
        const target = command.fortId ? `${command.merchantReference} ${command.fortId}` : command.merchantReference;
        const request = await audited(db, { ...who, action: 'refunds.pay', target }, now, async (tx) => {
          const before = (await listRefunds(tx, 500, command.merchantReference)).filter((item) => !command.fortId || item.fort_id === command.fortId);
          const requested = await requestRefund(tx, command, { requestedBy: context.actor, canSend: context.canSendRefunds }, now);
          const after = { status: 'requested', refund_cents: requested.refundCents, maintenance_reference: requested.maintenanceReference };
          return { result: requested, before: before.map(({ fort_id, status, refund_cents }) => ({ fort_id, status, refund_cents })), after };
        });
        io.out(
          `Requested the refund of ${centsText(request.refundCents)} for ${command.merchantReference} (maintenance reference ${request.maintenanceReference}): the server's refund worker sends it to the gateway (at its next start if it is stopped); \`npm run broker -- refunds\` shows the answer.`,
        );
        return 0;
      }
      case 'policies-cancel': {
        const target = command.request.policyNumber.trim().toUpperCase();
        const done = await audited(db, { ...who, action: 'policies.cancel', target }, now, async (tx) => {
          const cancelled = await cancelPolicy(tx, command.request, { cancelledBy: context.actor, canSendRefunds: context.canSendRefunds }, now);
          const after = {
            cancelled: true,
            reason: command.request.reason,
            note: command.request.note,
            refund_cents: cancelled.refundCents,
            fee_cents: cancelled.feeCents,
            ...(cancelled.cancellationRequestId === null ? {} : { cancellation_request: { id: cancelled.cancellationRequestId, status: 'done' } }),
          };
          return { result: cancelled, before: { cancelled: false }, after };
        });
        const refund =
          done.refundCents > 0
            ? `its premium less the ${centsText(done.feeCents)} cancellation fee, ${centsText(done.refundCents)}, is being refunded through the gateway (maintenance reference ${done.maintenanceReference})`
            : 'nothing was paid by card, so nothing is refunded';
        const request = done.cancellationRequestId === null ? '' : ` The customer's cancellation request ${done.cancellationRequestId} is done.`;
        io.out(`Cancelled ${done.policyNumber}: its certificate now says CANCELLED, ${refund}, and the customer is e-mailed.${request}`);
        return 0;
      }
      case 'cancellation-requests': {
        const items = await listCancellationRequests(db, { status: command.status });
        io.out(command.json ? JSON.stringify(items, null, 2) : formatCancellationRequests(items, command.status));
        return 0;
      }
      case 'cancellation-requests-decline': {
        const declined = await audited(db, { ...who, action: 'cancellation-requests.decline', target: `cancellation request ${command.id}` }, now, async (tx) => {
          const change = await declineCancellationRequest(tx, command.id, context.actor, now);
          return { result: change, before: change.before, after: change.after };
        });
        io.out(`Declined cancellation request ${command.id}: ${declined.policyNumber} stays in force.`);
        return 0;
      }
      case 'mail': {
        const items = await listMail(db, command.status);
        io.out(command.json ? JSON.stringify(items, null, 2) : formatMail(items));
        return 0;
      }
      case 'mail-retry': {
        await audited(db, { ...who, action: 'mail.retry', target: `outbox ${command.id}` }, now, async (tx) => {
          const before = await retryOutboxRow(tx, command.id, now);
          return { result: null, before, after: { status: 'pending', attempts: 0 } };
        });
        io.out(`Outbox row ${command.id} is pending again with its attempts back: the server's worker sends it now (at its next start if it is stopped).`);
        return 0;
      }
      case 'mail-resend': {
        const target = command.policyNumber.trim().toUpperCase();
        const id = await audited(db, { ...who, action: 'mail.resend', target }, now, async (tx) => {
          const queued = await resendPolicyMail(tx, command.policyNumber, now);
          return { result: queued, before: null, after: { outbox_id: queued } };
        });
        io.out(`Queued the certificate mail of ${command.policyNumber.trim().toUpperCase()} again (outbox row ${id}): the server's mail worker sends it (at its next start if it is stopped).`);
        return 0;
      }
      case 'users': {
        const items = await listConsoleUsers(db);
        io.out(command.json ? JSON.stringify(items, null, 2) : textTable(['email', 'role', 'authenticator', 'disabled', 'created'], items.map((item) => [item.email, item.role, item.two_factor_enabled ? 'set up' : 'not yet', item.disabled ? 'yes' : 'no', item.created])));
        return 0;
      }
      case 'users-add': {
        if (!context.publicUrl) throw new ConsoleUserError('users add needs PUBLIC_URL, where the setup link points.');
        const publicUrl = context.publicUrl;
        const added = await audited(db, { ...who, action: 'users.add', target: command.email.trim().toLowerCase() }, now, async (tx) => {
          const made = await addConsoleUser(tx, command, publicUrl, now);
          return { result: made, before: null, after: { email: made.user.email, role: made.user.role } };
        });
        io.result?.({ setup_url: added.setupUrl });
        io.out(`Made the console account ${added.user.email} (${added.user.role}). Send this one-time setup link to them (good for 48 hours; anyone holding it can set the password):\n${added.setupUrl}`);
        return 0;
      }
      case 'users-disable': {
        const email = command.email.trim().toLowerCase();
        await audited(db, { ...who, action: 'users.disable', target: email }, now, async (tx) => {
          const user = (await listConsoleUsers(tx)).find((item) => item.email === email);
          if (!user) throw new ConsoleUserError(`No console account has the e-mail ${email}.`);
          return { result: null, ...(await disableConsoleUser(tx, user.id, now)) };
        });
        io.out(`Disabled the console account ${email}: its sessions are over and it can no longer sign in.`);
        return 0;
      }
      case 'settings': {
        const values = await listSettings(db);
        io.out(command.json ? JSON.stringify(values, null, 2) : textTable(['setting', 'value'], Object.entries(values).map(([key, value]) => [key, String(value)])));
        return 0;
      }
      case 'settings-set': {
        const { key, value } = await audited(db, { ...who, action: 'settings.set', target: command.key }, now, async (tx) => {
          const before = (await listSettings(tx)) as Record<string, number>;
          const set = await setSetting(tx, command.key, command.value);
          return { result: set, before: { [set.key]: before[set.key] ?? null }, after: { [set.key]: set.value } };
        });
        io.out(`Set ${key} to ${value}.`);
        return 0;
      }
      case 'coupons-edit': {
        const edited = await audited(db, { ...who, action: 'coupons.edit', target: couponCodeText(command.code) }, now, async (tx) => {
          const change = await editCoupon(tx, command.code, command.options);
          return { result: change.after, ...change };
        });
        io.out(`Coupon ${edited.code} is now valid ${edited.valid_from} to ${edited.valid_to}, ${edited.usage_limit === null ? 'with no usage limit' : `for ${edited.usage_limit} uses`}.`);
        return 0;
      }
      case 'coupons-disable': {
        const code = couponCodeText(command.code);
        const item = await audited(db, { ...who, action: 'coupons.disable', target: code }, now, async (tx) => {
          const before = (await listCoupons(tx, now)).find((coupon) => coupon.code === code) ?? null;
          const disabled = await disableCoupon(tx, command.code, now);
          return { result: disabled, before, after: disabled };
        });
        const voided = item.voided_orders === 0 ? '' : ` ${item.voided_orders} pending order${item.voided_orders === 1 ? '' : 's'} using it can no longer be paid.`;
        io.out(`Disabled coupon ${item.code}: it is now refused like an unknown code.${voided}`);
        return 0;
      }
    }
  } catch (error) {
    if (!REFUSALS.some((refusal) => error instanceof refusal)) throw error;
    const text = (error as Error).message;
    if (io.refused) io.refused(text);
    else io.err(`${text}\n\n${USAGE}`);
    return 2;
  }
}

/** What a command line printed and its exit code, with the parsed output of a --json command. */
export interface BrokerRun {
  code: number;
  out: string;
  err: string;
  /** The printed JSON of a command run with --json that succeeded, else null. */
  json: unknown;
  /** The command run, or null when the arguments were refused. */
  command: BrokerCommand | null;
}

/**
 * Parses a command line and runs it over `db`, capturing what it prints: the one way a command
 * runs, in the CLI over a database it opened (DATABASE_URL, or no server holds the embedded one)
 * and in the server behind the admin endpoint, over the server's own database. backup and
 * restore are not run here (they work on files): exit 2 says so.
 */
export async function runBrokerArgs(db: Db, argv: readonly string[], now: number, context: BrokerContext = NO_CONTEXT): Promise<BrokerRun> {
  const command = parseBrokerArgs(argv);
  if (typeof command === 'string') return { code: 2, out: '', err: `${command}\n\n${USAGE}`, json: null, command: null };
  const out: string[] = [];
  const err: string[] = [];
  const code = await runBrokerCommand(db, command, { out: (text) => out.push(text), err: (text) => err.push(text) }, now, context);
  const text = out.join('\n');
  const json = code === 0 && 'json' in command && command.json ? (JSON.parse(text) as unknown) : null;
  return { code, out: text, err: err.join('\n'), json, command };
}

/** The call-backs as an aligned text table (or a one-line note when there are none). */
export function formatCallBacks(items: readonly CallBackListItem[]): string {
  if (items.length === 0) return 'No open call-back requests.';
  const header = ['id', 'created', 'reason', 'name', 'phone', 'email', 'lead uuid', 'status', 'assignee', 'last note'];
  const rows = items.map((item) => {
    const last = item.notes.at(-1);
    return [String(item.id), item.created, item.reason, item.name, item.phone, item.email, item.lead_uuid ?? '-', item.status, item.assignee ?? '-', last ? `${last.author}: ${last.text}` : '-'];
  });
  return textTable(header, rows);
}

/** The refunds due as an aligned text table (or a one-line note when there are none). */
export function formatRefunds(items: readonly RefundListItem[]): string {
  if (items.length === 0) return 'No refunds due.';
  const header = ['reference', 'fort_id', 'amount', 'why', 'recorded', 'order', 'policy', 'refund', 'answer'];
  const rows = items.map((item) => [
    item.merchant_reference,
    item.fort_id || '—',
    centsText(item.amount_cents),
    item.reason,
    item.recorded,
    item.order_status,
    item.policy_number ?? '—',
    item.status,
    item.answer ?? '—',
  ]);
  return textTable(header, rows);
}

/** What backup and restore say with DATABASE_URL: PostgreSQL has its own tools. */
export const POSTGRES_BACKUP_TEXT = [
  'backup and restore are for the embedded database. With DATABASE_URL, use PostgreSQL\'s own tools:',
  '  pg_dump -Fc --dbname="$DATABASE_URL" --file=safar.dump',
  '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" safar.dump',
].join('\n');

