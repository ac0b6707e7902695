import { and, asc, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { OrderDetail } from '../../contract/broker-console';
import type { OrderListItem } from '../../contract/broker-console';
import { ORDER_STATUSES, type OrderStatus } from '../../contract/broker-console';
import { addDays } from '../../contract/dates';
import { nationalPhoneNumber } from '../../contract/digits';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { textTable } from '../text-table';

/**
 * The broker's view of orders (issue 36 item 3): the list, searched by merchant reference, policy
 * number, e-mail or phone and filtered by status and by the day it was placed, and one order's
 * whole story: the frozen contract (what was bought), every gateway notice and what was done with
 * it, the refunds, the policy with its certificate link, and the e-mails sent.
 */

export { ORDER_STATUSES, type OrderStatus };

export type { OrderListItem };

/** What the order list is narrowed to; every part optional. */
export interface OrderFilter {
  status?: OrderStatus | null;
  /**
   * A merchant reference or policy number (either whole, any case), an e-mail (whole, any case) or
   * a phone number as typed (+961 3 555 455, 03555455, Arabic-keyboard digits: its digits are
   * compared with the stored number's end).
   */
  search?: string | null;
  /** These orders only (an order's page reads its own row this way). */
  ids?: number[];
  /** Placed on or after this day (YYYY-MM-DD, UTC). */
  from?: string | null;
  /** Placed on or before this day (YYYY-MM-DD, UTC). */
  to?: string | null;
}

/**
 * The orders a search text names: a merchant reference, a policy number, an e-mail or a phone
 * number. Each is one indexed lookup (orders' reference, policies' number, leads' e-mail, leads'
 * reversed phone), so a search never reads every order or lead, however many there are.
 */
async function searchedOrderIds(db: Db, text: string): Promise<number[]> {
  const value = text.trim();
  if (!value) return [];
  const byLeads = (condition: SQL) =>
    db.select({ id: t.orders.id }).from(t.orders).where(inArray(t.orders.leadId, db.select({ id: t.leads.id }).from(t.leads).where(condition)));
  // E-mails are stored lower case (leads/lead-values.ts), so the index finds one whole.
  if (value.includes('@')) return (await byLeads(eq(t.leads.email, value.toLowerCase()))).map((row) => row.id);
  const lookups = [
    db.select({ id: t.orders.id }).from(t.orders).where(eq(t.orders.merchantReference, value)),
    db.select({ id: t.policies.orderId }).from(t.policies).where(eq(t.policies.policyNumber, value.toUpperCase())),
  ];
  // A phone number as typed (its separators and Arabic digits read; a letter stays, so a reference
  // is never one): its national number without the trunk 0 (03 555 455 is stored as
  // +9613555455), six digits at least, ends the stored number: its reverse starts with theirs
  // (the leads_phone_reversed_idx index).
  const digits = nationalPhoneNumber(value, '+961').replace(/^0+/, '');
  if (/^\d{6,15}$/.test(digits)) lookups.push(byLeads(sql`reverse(${t.leads.completePhoneNumber}) like ${`${[...digits].reverse().join('')}%`}`));
  return [...new Set((await Promise.all(lookups)).flat().map((row) => row.id))];
}

/** The condition on orders alone that `filter` makes (its search resolved to order ids first). */
async function filterCondition(db: Db, filter: OrderFilter): Promise<SQL | undefined> {
  const conditions = [
    filter.status ? eq(t.orders.status, filter.status) : undefined,
    filter.search ? inArray(t.orders.id, [...(await searchedOrderIds(db, filter.search)), -1]) : undefined,
    filter.ids ? inArray(t.orders.id, [...filter.ids, -1]) : undefined,
    filter.from ? gte(t.orders.createdAt, new Date(`${filter.from}T00:00:00Z`)) : undefined,
    filter.to ? lt(t.orders.createdAt, new Date(`${addDays(filter.to, 1)}T00:00:00Z`)) : undefined,
  ].filter((condition): condition is SQL => condition !== undefined);
  return conditions.length > 0 ? and(...conditions) : undefined;
}

/**
 * Orders newest first (or oldest first), narrowed by `filter`, with their policy if any: `limit` of them after the
 * first `offset` (a page of the console's table; the CLI asks for the first 500). The page's
 * orders are found on the orders alone (the created_at index), then those rows are joined.
 */
export async function listOrders(db: Db, filter: OrderFilter = {}, limit = 500, offset = 0, sort: 'newest' | 'oldest' = 'newest'): Promise<OrderListItem[]> {
  const order = sort === 'newest' ? [desc(t.orders.createdAt), desc(t.orders.id)] : [asc(t.orders.createdAt), asc(t.orders.id)];
  const page = db
    .select({ id: t.orders.id })
    .from(t.orders)
    .where(await filterCondition(db, filter))
    .orderBy(...order)
    .limit(limit)
    .offset(offset);
  const rows = await db
    .select({ order: t.orders, coupon: t.coupons.code, policyNumber: t.policies.policyNumber, mailedAt: t.policies.mailedAt })
    .from(t.orders)
    .leftJoin(t.coupons, eq(t.coupons.id, t.orders.couponId))
    .leftJoin(t.policies, eq(t.policies.orderId, t.orders.id))
    .where(inArray(t.orders.id, page))
    .orderBy(...order);
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

/** How many orders `filter` finds: the pages the console's table has. */
export async function countOrders(db: Db, filter: OrderFilter = {}): Promise<number> {
  const [row] = await db.select({ n: count() }).from(t.orders).where(await filterCondition(db, filter));
  return Number(row?.n ?? 0);
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

/** One order's whole story, for the broker (orders show). */
export type { OrderDetail };

/** The order with this merchant reference, or null. */
export async function orderDetail(db: Db, merchantReference: string): Promise<OrderDetail | null> {
  const [row] = await db
    .select({ order: t.orders, leadUuid: t.leads.uuid })
    .from(t.orders)
    .innerJoin(t.leads, eq(t.leads.id, t.orders.leadId))
    .where(eq(t.orders.merchantReference, merchantReference.trim()));
  if (!row) return null;
  const { order, leadUuid } = row;
  const [item] = await listOrders(db, { ids: [order.id] }, 1);
  const [notices, refunds, [policy], mails] = await Promise.all([
    db.select().from(t.paymentNotices).where(eq(t.paymentNotices.orderId, order.id)).orderBy(asc(t.paymentNotices.receivedAt), asc(t.paymentNotices.id)),
    db.select().from(t.refunds).where(eq(t.refunds.orderId, order.id)).orderBy(asc(t.refunds.id)),
    db.select().from(t.policies).where(eq(t.policies.orderId, order.id)),
    db.select().from(t.mailLog).where(eq(t.mailLog.leadId, order.leadId)).orderBy(asc(t.mailLog.createdAt), asc(t.mailLog.id)),
  ]);
  return {
    order: { ...item!, lead_uuid: leadUuid, lang: order.lang, fort_id: order.fortId, paid_at: order.paidAt?.toISOString() ?? null },
    contract: order.contract,
    notices: notices.map((notice) => ({
      received: notice.receivedAt.toISOString(),
      source: notice.source,
      verdict: notice.verdict,
      status: notice.payload.status ?? null,
      response_code: notice.payload.response_code ?? null,
      fort_id: notice.fortId,
    })),
    refunds: refunds.map((refund) => ({
      fort_id: refund.fortId,
      reason: refund.reason,
      status: refund.status,
      amount_cents: refund.amountCents,
      refund_cents: refund.refundCents,
      answer: refund.responseCode === null ? null : `${refund.responseCode} ${refund.responseMessage ?? ''}`.trim(),
    })),
    policy: policy
      ? {
          number: policy.policyNumber,
          issued: policy.issuedAt.toISOString(),
          certificate_path: `/policies/${policy.downloadToken}/certificate.pdf`,
          mailed: policy.mailedAt?.toISOString() ?? null,
          cancelled: policy.cancelledAt?.toISOString() ?? null,
        }
      : null,
    mails: mails.map((mail) => ({ at: mail.createdAt.toISOString(), kind: mail.kind, to: mail.toAddress, subject: mail.subject })),
  };
}

/** An order's story as text: its facts, then each part under its heading. */
export function formatOrderDetail(detail: OrderDetail): string {
  const { order } = detail;
  const facts = [
    ['reference', order.merchant_reference],
    ['status', order.reason ? `${order.status} (${order.reason})` : order.status],
    ['amount', centsText(order.amount_cents)],
    ['coupon', order.coupon ?? '—'],
    ['placed', order.created],
    ['paid', order.paid_at ?? '—'],
    ['fort_id', order.fort_id ?? '—'],
    ['language', order.lang],
    ['lead', order.lead_uuid],
  ];
  const section = (title: string, header: string[], rows: string[][]) => `\n${title}\n${rows.length === 0 ? '  none' : textTable(header, rows)}`;
  const policy = detail.policy;
  return [
    textTable(['', ''], facts).split('\n').slice(2).join('\n'),
    section('Gateway notices', ['received', 'source', 'verdict', 'status', 'code', 'fort_id'], detail.notices.map((notice) => [notice.received, notice.source, notice.verdict, notice.status ?? '—', notice.response_code ?? '—', notice.fort_id ?? '—'])),
    section('Refunds', ['fort_id', 'why', 'status', 'captured', 'refund', 'answer'], detail.refunds.map((refund) => [refund.fort_id, refund.reason, refund.status, centsText(refund.amount_cents), refund.refund_cents === null ? '—' : centsText(refund.refund_cents), refund.answer ?? '—'])),
    section('Policy', ['number', 'issued', 'mailed', 'cancelled', 'certificate'], policy ? [[policy.number, policy.issued, policy.mailed ?? '—', policy.cancelled ?? '—', policy.certificate_path]] : []),
    section('E-mails', ['sent', 'kind', 'to', 'subject'], detail.mails.map((mail) => [mail.at, mail.kind, mail.to, mail.subject])),
  ].join('\n');
}
