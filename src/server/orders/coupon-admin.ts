import { asc, eq } from 'drizzle-orm';
import type { CouponListItem } from '../../contract/broker-console';
import { couponCodeText, COUPON_CODE_MAX_LENGTH, DISCOUNT_TYPE } from '../../contract/checkout.endpoints';
import { parseIsoDate } from '../../contract/dates';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { CouponRow } from './coupons';
import { usesHeldByOthers, voidPendingOrders } from './order-state';
import { textTable } from '../text-table';

/**
 * The broker's coupon commands (`npm run broker -- coupons …`), as functions over a database so
 * tests call them directly. Input arrives as typed on a command line; every problem is a
 * CouponAdminError whose message says what was wrong and what is accepted.
 */

/** A broker's input that cannot become a coupon; the message is shown as is. */
export class CouponAdminError extends Error {}

/** Letters, digits, '-' and '_', 3 to 32 characters, after spaces are dropped and letters capitalised. */
const CODE = new RegExp(`^[A-Z0-9][A-Z0-9_-]{2,${COUPON_CODE_MAX_LENGTH - 1}}$`);
/** The last day of coupons added without --to. */
export const OPEN_ENDED_VALID_TO = '2099-12-31';

export type { CouponListItem };

/** A coupon as stored (what a change answers and the audit log keeps), without the list's counts and names. */
export type CouponRecord = Omit<CouponListItem, 'held_count' | 'provider_name'>;

const recordOf = (row: CouponRow): CouponRecord => ({
  code: row.code,
  type: row.discountType === DISCOUNT_TYPE.fixed ? 'fixed' : 'percent',
  value: row.discountValue,
  valid_from: row.validFrom,
  valid_to: row.validTo,
  used_count: row.usedCount,
  usage_limit: row.usageLimit,
  provider_id: row.providerId,
  active: row.active,
});

/** Every coupon, by code. */
export async function listCoupons(db: Db, now = Date.now()): Promise<CouponListItem[]> {
  const rows = await db.select({ coupon: t.coupons, en: t.insurers.nameEn, ar: t.insurers.nameAr }).from(t.coupons).leftJoin(t.insurers, eq(t.insurers.id, t.coupons.providerId)).orderBy(asc(t.coupons.code));
  return Promise.all(
    rows.map(async ({ coupon, en, ar }) => ({
      ...recordOf(coupon),
      held_count: coupon.active ? await usesHeldByOthers(db, coupon.id, null, now) : 0,
      provider_name: en !== null && ar !== null ? { en, ar } : null,
    })),
  );
}

/** "10 %" or "$25" / "$12.50": a coupon's value as the broker typed it. */
export function couponValueText(item: Pick<CouponListItem, 'type' | 'value'>): string {
  if (item.type === 'percent') return `${item.value} %`;
  return item.value % 100 === 0 ? `$${item.value / 100}` : `$${(item.value / 100).toFixed(2)}`;
}

/** The coupons as an aligned text table (or a one-line note when there are none). */
export function formatCoupons(items: readonly CouponListItem[]): string {
  if (items.length === 0) return 'No coupons.';
  const header = ['code', 'type', 'value', 'valid from', 'valid to', 'uses/limit', 'held', 'provider', 'active'];
  const rows = items.map((item) => [
    item.code,
    item.type,
    couponValueText(item),
    item.valid_from,
    item.valid_to,
    `${item.used_count}/${item.usage_limit ?? '∞'}`,
    String(item.held_count),
    item.provider_id === null ? 'any' : String(item.provider_id),
    item.active ? 'yes' : 'no',
  ]);
  return textTable(header, rows);
}

/** What `coupons add` was given, as typed (absent options undefined). */
export interface AddCouponOptions {
  code?: string;
  type?: string;
  value?: string;
  from?: string;
  to?: string;
  limit?: string;
  provider?: string;
}

function date(option: string, text: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || parseIsoDate(text) === null) {
    throw new CouponAdminError(`--${option} must be a date as YYYY-MM-DD, e.g. 2026-12-31 (got "${text}").`);
  }
  return text;
}

/** Dollars as typed ("25", "12.5", "12.50") to cents; null for anything else. */
function dollarsToCents(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * Adds a coupon. `today` (YYYY-MM-DD) is where it starts without --from; without --to it runs to
 * 2099-12-31; without --limit it has no usage limit; without --provider it is for every insurer.
 */
export async function addCoupon(db: Db, options: AddCouponOptions, today: string): Promise<CouponRecord> {
  if (options.code === undefined) throw new CouponAdminError('--code is required.');
  const code = couponCodeText(options.code);
  if (!CODE.test(code)) {
    throw new CouponAdminError(`--code must be 3 to ${COUPON_CODE_MAX_LENGTH} letters, digits, "-" or "_", starting with a letter or digit (got "${options.code}").`);
  }
  if (options.type !== 'percent' && options.type !== 'fixed') {
    throw new CouponAdminError(`--type must be "percent" or "fixed" (got ${options.type === undefined ? 'nothing' : `"${options.type}"`}).`);
  }
  if (options.value === undefined) throw new CouponAdminError('--value is required: a percent (1-100) or, for a fixed coupon, dollars.');
  let value: number;
  if (options.type === 'percent') {
    const percent = options.value.trim().replace(/\s*%$/, '');
    value = /^\d{1,3}$/.test(percent) ? Number(percent) : NaN;
    if (!(value >= 1 && value <= 100)) throw new CouponAdminError(`--value of a percent coupon must be a whole number from 1 to 100 (got "${options.value}").`);
  } else {
    const cents = dollarsToCents(options.value.trim().replace(/^\$/, ''));
    if (cents === null || cents <= 0) {
      throw new CouponAdminError(`--value of a fixed coupon is in dollars, above 0 with at most 2 decimals, e.g. 25 or 12.50 (got "${options.value}").`);
    }
    value = cents;
  }
  const validFrom = options.from === undefined ? today : date('from', options.from);
  const validTo = options.to === undefined ? OPEN_ENDED_VALID_TO : date('to', options.to);
  if (validFrom > validTo) throw new CouponAdminError(`--from (${validFrom}) must not be after --to (${validTo}).`);
  let usageLimit: number | null = null;
  if (options.limit !== undefined) {
    usageLimit = /^\d{1,9}$/.test(options.limit) ? Number(options.limit) : NaN;
    if (!(usageLimit >= 1)) throw new CouponAdminError(`--limit must be a whole number of uses, at least 1 (got "${options.limit}").`);
  }
  let providerId: number | null = null;
  if (options.provider !== undefined) {
    const insurers = await db.select({ id: t.insurers.id }).from(t.insurers).orderBy(asc(t.insurers.id));
    providerId = /^\d{1,9}$/.test(options.provider) ? Number(options.provider) : NaN;
    if (!insurers.some((insurer) => insurer.id === providerId)) {
      throw new CouponAdminError(`--provider ${options.provider} is not a known insurer id (known: ${insurers.map((insurer) => insurer.id).join(', ')}).`);
    }
  }

  const [row] = await db
    .insert(t.coupons)
    .values({
      code,
      discountType: options.type === 'percent' ? DISCOUNT_TYPE.percentage : DISCOUNT_TYPE.fixed,
      discountValue: value,
      validFrom,
      validTo,
      usageLimit,
      providerId,
    })
    .onConflictDoNothing({ target: t.coupons.code })
    .returning();
  if (!row) throw new CouponAdminError(`A coupon ${code} exists already: choose another code, or disable that one.`);
  return recordOf(row);
}

/** What `coupons edit` may change: the dates it is good between and its usage limit ('none': no limit). */
export interface EditCouponOptions {
  from?: string;
  to?: string;
  limit?: string;
}

/**
 * Changes a coupon's validity or usage limit (issue 36 item 3: edit validity). The new dates must
 * still have from on or before to; a limit may not go below the uses already paid. An order
 * placed under the old terms is held to the new ones when it is paid (order-state.ts: a coupon
 * past its last day or used up buys nothing more). Answers the coupon before and after.
 */
export async function editCoupon(db: Db, codeText: string, options: EditCouponOptions): Promise<{ before: CouponRecord; after: CouponRecord }> {
  if (options.from === undefined && options.to === undefined && options.limit === undefined) throw new CouponAdminError('Say what changes: --from, --to or --limit.');
  const code = couponCodeText(codeText);
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(t.coupons).where(eq(t.coupons.code, code)).for('update');
    if (!current) throw new CouponAdminError(`No coupon has the code "${codeText}".`);
    const validFrom = options.from === undefined ? current.validFrom : date('from', options.from);
    const validTo = options.to === undefined ? current.validTo : date('to', options.to);
    if (validFrom > validTo) throw new CouponAdminError(`--from (${validFrom}) must not be after --to (${validTo}).`);
    let usageLimit = current.usageLimit;
    if (options.limit !== undefined) {
      usageLimit = options.limit === 'none' ? null : /^\d{1,9}$/.test(options.limit) ? Number(options.limit) : NaN;
      if (usageLimit !== null && !(usageLimit >= 1)) throw new CouponAdminError(`--limit must be a whole number of uses, at least 1, or none (got "${options.limit}").`);
      if (usageLimit !== null && usageLimit < current.usedCount) throw new CouponAdminError(`--limit ${usageLimit} is below the ${current.usedCount} uses ${code} has had.`);
    }
    const [row] = await tx.update(t.coupons).set({ validFrom, validTo, usageLimit }).where(eq(t.coupons.id, current.id)).returning();
    return { before: recordOf(current), after: recordOf(row!) };
  });
}

/**
 * Disables a coupon (kept: orders name it); it then answers like an unknown code, and its pending
 * orders are voided in the same transaction, so a payment form fetched before cannot still buy
 * at its discount (a payment that arrives anyway is refunded). Answers the coupon and how many
 * orders were voided.
 */
export async function disableCoupon(db: Db, codeText: string, now: number): Promise<CouponRecord & { voided_orders: number }> {
  const code = couponCodeText(codeText);
  return db.transaction(async (tx) => {
    const [found] = await tx.select({ id: t.coupons.id }).from(t.coupons).where(eq(t.coupons.code, code));
    if (!found) throw new CouponAdminError(`No coupon has the code "${codeText}".`);
    // The orders first, then the coupon: the order a payment notice locks them in (order, then
    // coupon), so the two never wait for each other. An order placed in between is caught at
    // payment anyway (order-state.ts lapseOf: its coupon is withdrawn).
    const voided = await voidPendingOrders(tx, { couponId: found.id }, 'coupon_withdrawn', now);
    const [row] = await tx.update(t.coupons).set({ active: false }).where(eq(t.coupons.id, found.id)).returning();
    return { ...recordOf(row!), voided_orders: voided };
  });
}
