import * as v from 'valibot';

/**
 * The broker's console API (issue 36): what the console (src/web/broker/) and the server
 * (src/server/admin/console.routes.ts) agree on. Every path is under CONSOLE_API, answers JSON
 * in the app's envelope ({ status, message, data }), and needs a signed-in console session (its
 * HttpOnly cookie); every change (POST) also needs the session's CSRF token in CSRF_HEADER.
 * Lists answer the same items the broker CLI prints with --json: one service module serves both.
 */

export const CONSOLE_PATH = '/broker';
export const CONSOLE_API = '/broker/api';
/** better-auth's own endpoints (sign-in, two-factor, sign-out), mounted under the console API. */
export const CONSOLE_AUTH_PATH = `${CONSOLE_API}/auth`;
export const CSRF_HEADER = 'x-csrf-token';

export const CONSOLE_ROLES = ['staff', 'admin'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** GET /broker/api/me: who is signed in; 401 when nobody is. */
export interface ConsoleMe {
  email: string;
  name: string;
  role: ConsoleRole;
  /** False until the TOTP second factor is set up: then only the setup and sign-out answer. */
  two_factor_enabled: boolean;
  /** Sent back in CSRF_HEADER with every change. */
  csrf_token: string;
}

/** POST /broker/api/setup: a one-time setup link's token and the password its user chooses. */
export const CONSOLE_PASSWORD_MIN = 12;
export const CONSOLE_PASSWORD_MAX = 128;
export const setupRequestSchema = v.strictObject({
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{20,100}$/)),
  password: v.pipe(v.string(), v.minLength(CONSOLE_PASSWORD_MIN), v.maxLength(CONSOLE_PASSWORD_MAX)),
});

export const CALL_BACK_STATUSES = ['new', 'contacted', 'quoted', 'closed'] as const;
export type CallBackStatus = (typeof CALL_BACK_STATUSES)[number];

export interface CallBackListItem {
  id: number;
  created: string;
  reason: string;
  name: string;
  phone: string;
  email: string;
  lead_uuid: string | null;
  /** new, contacted, quoted or closed (issue 36 item 3). */
  status: string;
  assignee: string | null;
  /** The team's notes, oldest first. */
  notes: { at: string; author: string; text: string }[];
  /** The lead's trip, when the call-back came from one: dates, destinations (ISO codes), travellers' dates of birth. */
  trip: { from: string; to: string; destinations: string[]; travellers: { dob: string }[] } | null;
}

/** POST /broker/api/call-backs/:id: at least one of the three. */
export const callBackChangeSchema = v.strictObject({
  status: v.optional(v.picklist(CALL_BACK_STATUSES)),
  /** A name or e-mail; '' takes the assignee off. */
  assignee: v.optional(v.pipe(v.string(), v.maxLength(120))),
  note: v.optional(v.pipe(v.string(), v.maxLength(2000))),
});

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'void', 'refund', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

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

/** GET /broker/api/orders?status&search&from&to&page&page_size&sort: one page, and how many match. */
export const ORDER_SORTS = ['newest', 'oldest'] as const;
export const ORDER_PAGE_SIZES = [10, 25, 50, 100] as const;
export interface OrderPage {
  items: OrderListItem[];
  total: number;
}

/** GET /broker/api/orders/:merchant_reference: one order's whole story (its reading is audited). */
export interface OrderDetail {
  order: OrderListItem & { lead_uuid: string; lang: string; fort_id: string | null; paid_at: string | null };
  /** What was bought, frozen when the order was placed (order-contract.ts). */
  contract: unknown;
  /** Every notice the gateway (or someone posing as it) sent for this order, oldest first, with the verdict. */
  notices: { received: string; source: string; verdict: string; status: string | null; response_code: string | null; fort_id: string | null }[];
  refunds: { fort_id: string; reason: string; status: string; amount_cents: number; refund_cents: number | null; answer: string | null }[];
  policy: { number: string; issued: string; certificate_path: string; mailed: string | null; cancelled: string | null } | null;
  /** The e-mails written for this order's lead, oldest first. */
  mails: { at: string; kind: string; to: string; subject: string }[];
}

export interface RefundListItem {
  merchant_reference: string;
  fort_id: string;
  /** What the capture took, cents. */
  amount_cents: number;
  currency: string;
  /** paid_twice, order_void, coupon_used_up (the order bought nothing), charged_again (a further capture of an order paid already) or policy_cancelled. */
  reason: string;
  /** When the notice that took it was applied. */
  recorded: string;
  /** The order's own status: 'refund', or 'paid' for a further capture of a paid order (which keeps its policy). */
  order_status: string;
  /** The order's policy number, when the order is paid (charged_again): the customer keeps it. */
  policy_number: string | null;
  /** due, requested (the REFUND queued or under way), refunded or refused. */
  status: string;
  /** What the REFUND asked back, cents (null until requested). */
  refund_cents: number | null;
  /** The gateway's answer: its response code and message, or why the request was not taken. */
  answer: string | null;
}

/** POST /broker/api/refunds/pay (admin). */
export const refundPaySchema = v.strictObject({
  merchant_reference: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  fort_id: v.optional(v.pipe(v.string(), v.regex(/^[0-9]{1,20}$/))),
});

export const CANCEL_REASONS = ['visa_refused', 'trip_cancelled', 'other'] as const;
/** POST /broker/api/policies/:number/cancel (admin); after the start date a note is required. */
export const cancelPolicySchema = v.strictObject({
  reason: v.picklist(CANCEL_REASONS),
  note: v.optional(v.pipe(v.string(), v.maxLength(500))),
});

/**
 * A customer's request to cancel a policy that has not started (issue 37 item 2), made on their
 * policy page: open until the broker cancels the policy (done) or keeps it (declined). The same
 * statuses as the policy page's (policy-page.endpoints.ts), kept here so the console's build
 * carries none of the customer's contract.
 */
export const CANCELLATION_REQUEST_STATUSES = ['open', 'done', 'declined'] as const;
export type CancellationRequestStatus = (typeof CANCELLATION_REQUEST_STATUSES)[number];
/** GET /broker/api/cancellation-requests?status=&policy=: status one of these (default open), policy a policy number. */
export const CANCELLATION_REQUEST_FILTERS = [...CANCELLATION_REQUEST_STATUSES, 'all'] as const;
export type CancellationRequestFilter = (typeof CANCELLATION_REQUEST_FILTERS)[number];

export interface CancellationRequestItem {
  id: number;
  policy_number: string;
  /** The order the policy was bought with: its page in the console holds the cancel-with-refund flow. */
  merchant_reference: string;
  customer_name: string;
  email: string;
  /** The trip's first day, YYYY-MM-DD. */
  trip_start: string;
  /** The plan's name in English and Arabic. */
  plan: { en: string; ar: string };
  /** visa_refused, trip_cancelled or other (the broker's cancel reasons). */
  reason: string;
  /** The customer's own words; '' when they wrote none. */
  note: string;
  created: string;
  /** open, done (the policy was cancelled) or declined. */
  status: string;
  /** When and by whom it was done or declined (`console:<e-mail>`, `cli:<user>`); null while open. */
  handled_at: string | null;
  handled_by: string | null;
  /** When the policy was cancelled; null while it is in force. */
  policy_cancelled: string | null;
}

export interface CouponListItem {
  code: string;
  type: 'percent' | 'fixed';
  /** Percent for percent coupons, cents for fixed ones (as stored). */
  value: number;
  valid_from: string;
  valid_to: string;
  used_count: number;
  /** Uses held by checkouts not yet paid or expired. */
  held_count: number;
  usage_limit: number | null;
  provider_id: number | null;
  /** The insurer's name in English and Arabic; null when the coupon is good with every insurer. */
  provider_name: { en: string; ar: string } | null;
  active: boolean;
}

const isoDay = v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/));
/** POST /broker/api/coupons (admin): value is a percent (1-100) or dollars ("25", "12.50"). */
export const couponAddSchema = v.strictObject({
  code: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  type: v.picklist(['percent', 'fixed']),
  value: v.pipe(v.string(), v.minLength(1), v.maxLength(12)),
  from: v.optional(isoDay),
  to: v.optional(isoDay),
  /** A whole number of uses; absent: no limit. */
  limit: v.optional(v.pipe(v.string(), v.maxLength(10))),
  provider: v.optional(v.pipe(v.string(), v.maxLength(10))),
});
/** POST /broker/api/coupons/:code/edit (admin): limit "none" takes the limit off. */
export const couponEditSchema = v.strictObject({
  from: v.optional(isoDay),
  to: v.optional(isoDay),
  limit: v.optional(v.pipe(v.string(), v.maxLength(10))),
});

export interface AgentListItem {
  id: number;
  name: string;
  email: string;
  active: boolean;
  created: string;
  leads: number;
  /** Share e-mails sent to its customers (WhatsApp shares leave the browser and are not seen here). */
  shares: number;
  paid_orders: number;
}
/** POST /broker/api/agents (admin). */
export const agentAddSchema = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(120)),
  email: v.pipe(v.string(), v.minLength(3), v.maxLength(254)),
});

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
export interface MailListItem {
  id: number;
  /** policy, share-<page>, refund, cancellation, aps-feedback, aps-refund. */
  kind: string;
  policy_number: string | null;
  reference: string | null;
  to: string | null;
  status: string;
  attempts: number;
  /** Why the last attempt failed; null when none failed. */
  last_error: string | null;
  created: string;
  sent: string | null;
  message_id: string;
}

export interface AuditListItem {
  at: string;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

export const FUNNEL_DAYS = [1, 7, 30] as const;
export type FunnelDays = (typeof FUNNEL_DAYS)[number];
export interface FunnelStage {
  stage: 'leads' | 'quotes' | 'plans_chosen' | 'checkouts' | 'paid';
  count: number;
  /** Of the stage before, per cent to one decimal (null for the first stage, or after a stage of 0). */
  of_previous_pct: number | null;
  /** Of the leads, per cent to one decimal (null when there are no leads). */
  of_leads_pct: number | null;
}
export interface Funnel {
  days: FunnelDays;
  from: string;
  stages: FunnelStage[];
  /** Every day from `from` to today, with the orders paid that day and their total, cents. */
  revenue: { day: string; paid_orders: number; cents: number }[];
}

/** GET /broker/api/users (admin): the console's accounts. */
export interface ConsoleUserItem {
  id: string;
  email: string;
  name: string;
  role: ConsoleRole;
  two_factor_enabled: boolean;
  created: string;
  disabled: boolean;
}
/** POST /broker/api/users (admin): answers { setup_url } once. */
export const userAddSchema = v.strictObject({
  email: v.pipe(v.string(), v.minLength(3), v.maxLength(254)),
  role: v.picklist(CONSOLE_ROLES),
});

/**
 * A change the console made: the sentence the CLI would print. A refused change is a 422 whose
 * message is the service's own sentence (English; the console shows it under a translated
 * heading) with error code `refused`.
 */
export interface ConsoleDone {
  done: string;
}
