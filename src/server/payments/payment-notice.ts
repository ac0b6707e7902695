import { and, eq } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import { isUnsafeText } from '../../contract/text-safety';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { LogError } from '../http/error-handler';
import { lockLeadInvoice } from '../orders/invoice-store';
import { isNewestOrderOfLead, lapseOf, type RefundReason } from '../orders/order-state';
import { settlePaidOrder } from '../orders/settle-order';
import { checkNoticeFields, type NoticeDecision, type NoticeProblem } from './aps-response-contract';
import type { OutboxWorker } from '../mail/outbox';
import { verifyApsSignature } from './aps-signature';
import { MERCHANT_REFERENCE_PATTERN } from '../../contract/payment.endpoints';

/**
 * A payment response from Amazon Payment Services (RULINGS 20): the return the gateway has the
 * browser post to return_url, or its direct transaction feedback, server to server. Neither
 * carries the API's HMAC headers; trust rests on the APS signature alone, so each notice is
 * parsed → verified → matched to its order → applied once → recorded, and a notice that fails
 * a step changes nothing but its own payment_notices row and one log line.
 */

/** Where a notice came from. */
export type NoticeSource = 'return' | 'feedback';
/**
 * Why a notice was refused (the payment_notices verdicts other than applied/repeated): not a
 * form, a signature that does not verify, no such order, an echoed request field (amount,
 * currency, merchant, e-mail…) that is not what Safar sent, or `invalid`: signed, but not a
 * response the APS contract allows (a key it does not list, a decisive field in another format,
 * a success without a fort_id), which is what a re-split signed string looks like.
 */
export type RefusedVerdict = 'malformed' | 'bad_signature' | 'unknown_order' | 'mismatch' | 'invalid';

/**
 * What became of a notice. A genuine one (applied now, or its result applied already) names the
 * order's lead and language, so the browser can be sent to its result; a refused one names only
 * the language the fields asked for (RULINGS 24: a uuid only to whoever holds a genuine answer).
 */
export type NoticeOutcome =
  | { verdict: 'applied' | 'repeated'; leadUuid: string; merchantReference: string; lang: Language }
  | { verdict: RefusedVerdict; lang: Language };

/** APS sends a few dozen parameters; a body with more fields, or longer ones, is not from it. */
export const MAX_NOTICE_FIELDS = 60;
export const MAX_FIELD_LENGTH = 2_000;
const MAX_KEY_LENGTH = 100;
/** payment_notices keeps at most this much of a reference, as APS allows no longer one. */
const MAX_REFERENCE_LENGTH = 40;

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/**
 * The fields of a notice body, or null when it is not an APS-like form: a content type other than
 * a URL-encoded or multipart form, no field at all, more than MAX_NOTICE_FIELDS, a key or value
 * too long, a key sent twice (which value was signed?), a file part, or a control character or
 * lone surrogate anywhere (RULINGS 25; PostgreSQL cannot even store a NUL). The body is the text
 * bodyLimitMiddleware read, so it is at most 256 KB. Never throws.
 */
export async function parseNoticeFields(contentType: string | undefined, rawBody: string): Promise<Record<string, string> | null> {
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  let entries: [string, FormDataEntryValue][];
  try {
    if (mediaType === FORM) {
      // A rough count before parsing (empty pieces between "&&" are not fields), so ten
      // thousand fields are refused without building them; the exact count follows.
      if (rawBody.split('&').length > MAX_NOTICE_FIELDS * 4) return null;
      entries = [...new URLSearchParams(rawBody)];
    } else if (mediaType === MULTIPART) {
      const form = await new Request('http://notice.invalid/', { method: 'POST', body: rawBody, headers: { 'content-type': contentType! } }).formData();
      entries = [...form];
    } else {
      return null;
    }
  } catch {
    // A multipart body that does not parse (no boundary, cut short).
    return null;
  }
  if (entries.length === 0 || entries.length > MAX_NOTICE_FIELDS) return null;
  // A Map, not `fields[key] = …`: a key named "__proto__" must stay a field.
  const fields = new Map<string, string>();
  for (const [key, value] of entries) {
    if (typeof value !== 'string') return null;
    if (key.length === 0 || key.length > MAX_KEY_LENGTH || value.length > MAX_FIELD_LENGTH) return null;
    if (isUnsafeText(key) || isUnsafeText(value) || fields.has(key)) return null;
    fields.set(key, value);
  }
  return Object.fromEntries(fields);
}

/**
 * What is kept of a body that is not a form (payment_notices.payload): its content type and its
 * first MAX_FIELD_LENGTH characters, with control characters and lone surrogates replaced so the
 * row can be stored and printed.
 */
export function malformedPayload(contentType: string | undefined, rawBody: string): Record<string, string> {
  const clean = (text: string, max: number) =>
    // eslint-disable-next-line no-control-regex
    text.slice(0, max).replace(/[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  return { _content_type: clean(contentType ?? '', 200), _body: clean(rawBody, MAX_FIELD_LENGTH) };
}

const languageOfFields = (fields: Record<string, string> | null): Language => (fields?.language === 'ar' ? 'ar' : 'en');
const orderLanguage = (lang: string): Language => (lang === 'ar' ? 'ar' : 'en');

export interface PaymentNoticeDeps {
  db: Db;
  config: Pick<AppConfig, 'apsAccessCode' | 'apsMerchantIdentifier' | 'apsResponsePhrase' | 'apsShaType'>;
  /** The outbox worker, nudged after a commit that issued a policy (its mail is queued in it). */
  mailWorker: Pick<OutboxWorker, 'nudge'>;
  now: () => number;
  logError: LogError;
}

type OrderWithLead = typeof t.orders.$inferSelect & { leadUuid: string };

/**
 * Handles one notice end to end and says what became of it. Verification runs in order: the
 * body is a form (malformed), the signature verifies with the response phrase (bad_signature),
 * access code and merchant identifier are ours (mismatch), merchant_reference names an order
 * (unknown_order), then the notice as a whole against the APS response contract and the request
 * Safar stored as sent for that order (aps-response-contract.ts): every echoed field, amount and
 * currency among them, equal to what was sent (mismatch), every key one APS lists and every
 * decisive field in APS's format, a success with its fort_id (invalid). A refused notice is
 * recorded and logged (facts only) and changes nothing else. A genuine one is applied once
 * (applyNotice). A database failure is thrown: the route answers 503 so the gateway retries.
 */
export async function handlePaymentNotice(
  deps: PaymentNoticeDeps,
  source: NoticeSource,
  contentType: string | undefined,
  rawBody: string,
): Promise<NoticeOutcome> {
  const fields = await parseNoticeFields(contentType, rawBody);
  if (!fields) return refuse(deps, source, 'malformed', { payload: malformedPayload(contentType, rawBody), fields: null, order: null });

  const { config } = deps;
  if (!verifyApsSignature(fields, config.apsResponsePhrase, config.apsShaType)) {
    return refuse(deps, source, 'bad_signature', { payload: fields, fields, order: null });
  }
  // Signed with our phrase but for another merchant account: not a result for our orders.
  if (fields.access_code !== config.apsAccessCode || fields.merchant_identifier !== config.apsMerchantIdentifier) {
    return refuse(deps, source, 'mismatch', { payload: fields, fields, order: null });
  }
  const reference = fields.merchant_reference ?? '';
  const order = MERCHANT_REFERENCE_PATTERN.test(reference) ? await findOrder(deps.db, reference) : null;
  if (!order) return refuse(deps, source, 'unknown_order', { payload: fields, fields, order: null });
  const check = checkNoticeFields(fields, order.purchaseFields);
  if (!check.ok) {
    const verdict = check.problem === 'echo_mismatch' ? 'mismatch' : 'invalid';
    return refuse(deps, source, verdict, { payload: fields, fields, order, problem: check.problem, keys: check.keys });
  }
  return applyNotice(deps, source, fields, check.decision, order);
}

async function findOrder(db: Db, reference: string): Promise<OrderWithLead | null> {
  const [row] = await db
    .select({ order: t.orders, leadUuid: t.leads.uuid })
    .from(t.orders)
    .innerJoin(t.leads, eq(t.leads.id, t.orders.leadId))
    .where(eq(t.orders.merchantReference, reference));
  return row ? { ...row.order, leadUuid: row.leadUuid } : null;
}

/** A key name fit for a log line: APS's names are lower-case words; anything else is shown as "?". */
const loggableKey = (key: string) => (/^[a-z0-9_]{1,40}$/i.test(key) ? key : '?');

/** Records a refused notice (order_id only when its order is known) and writes one log line. */
async function refuse(
  deps: PaymentNoticeDeps,
  source: NoticeSource,
  verdict: RefusedVerdict,
  notice: {
    payload: Record<string, string>;
    fields: Record<string, string> | null;
    order: OrderWithLead | null;
    problem?: NoticeProblem;
    keys?: readonly string[];
  },
): Promise<NoticeOutcome> {
  const [row] = await deps.db
    .insert(t.paymentNotices)
    .values({
      source,
      merchantReference: notice.fields?.merchant_reference?.slice(0, MAX_REFERENCE_LENGTH) ?? null,
      fortId: notice.fields?.fort_id?.slice(0, MAX_REFERENCE_LENGTH) ?? null,
      orderId: notice.order?.id ?? null,
      payload: notice.payload,
      verdict,
      receivedAt: new Date(deps.now()),
    })
    .returning({ id: t.paymentNotices.id });
  deps.logError({
    event: 'payment_notice_refused',
    source,
    verdict,
    notice_id: row!.id,
    // The broker sees which keys broke the contract (names only, never values).
    ...(notice.problem ? { problem: notice.problem, keys: (notice.keys ?? []).slice(0, 10).map(loggableKey) } : {}),
  });
  return { verdict, lang: languageOfFields(notice.fields) };
}

/**
 * Applies a genuine notice once, keyed by merchant reference + fort_id ('' when the gateway sent
 * none, as for a cancel), in one transaction: the payment_results row is inserted first and, if
 * it was there already (another copy of this result, before, meanwhile or concurrently), the
 * notice is 'repeated' and nothing changes. Otherwise, with the lead's invoice locked first (as
 * every edit of the lead locks it: invoice-store.ts lockLeadInvoice, so an edit lands wholly
 * before this payment, voiding its order, or wholly after, finding the lead paid) and then the
 * order's row:
 * - success, for a pending or failed order that is not void (nor its coupon withdrawn since:
 *   order-state.ts) and whose lead is not paid for yet: the order turns paid and is settled
 *   (invoice paid, coupon counted within its limit, the policy issued from the order's
 *   contract); a later genuine success wins over an earlier failure. A payment that lands after
 *   the order's hour, or after the lead placed a newer order, is honoured too, if its coupon
 *   still has a use left for it.
 * - success that buys nothing: a void order or one whose coupon was withdrawn (order_void), a
 *   lead already paid through another attempt (paid_twice), a coupon whose last use went to
 *   others while this order no longer held one (coupon_used_up). The order turns 'refund' with its reason and no policy is issued.
 * - success for an order paid (or to be refunded) already, under another fort_id (charged_again):
 *   the order stays as it is.
 *   Each success that buys nothing is a refunds row (the capture: reference, fort_id, amount,
 *   reason) in the same transaction, listed by `npm run broker -- refunds`, and one
 *   'payment_refund_due' line tells the broker.
 * - anything else: a pending order turns failed (its coupon use is released); no other changes.
 * The policy's certificate mail is queued in the same transaction (issuePolicyInTx); after commit
 * the one notice that issued it nudges the outbox worker.
 */
async function applyNotice(deps: PaymentNoticeDeps, source: NoticeSource, fields: Record<string, string>, decision: NoticeDecision, order: OrderWithLead): Promise<NoticeOutcome> {
  const at = new Date(deps.now());
  const outcome = await deps.db.transaction(async (tx) => {
    const [result] = await tx
      .insert(t.paymentResults)
      .values({
        orderId: order.id,
        merchantReference: order.merchantReference,
        fortId: decision.fortId ?? '',
        status: decision.status,
        responseCode: decision.responseCode,
        responseMessage: decision.responseMessage,
        appliedAt: at,
      })
      .onConflictDoNothing({ target: [t.paymentResults.merchantReference, t.paymentResults.fortId] })
      .returning({ id: t.paymentResults.id });
    const verdict = result ? 'applied' : 'repeated';
    const [notice] = await tx
      .insert(t.paymentNotices)
      .values({
        source,
        merchantReference: order.merchantReference,
        fortId: decision.fortId,
        orderId: order.id,
        payload: fields,
        verdict,
        receivedAt: at,
      })
      .returning({ id: t.paymentNotices.id });
    let policyToDeliver: number | null = null;
    let refund: RefundReason | null = null;
    if (result) {
      const gateway = { fortId: decision.fortId, responseCode: decision.responseCode, responseMessage: decision.responseMessage };
      await lockLeadInvoice(tx, order.leadId);
      const [current] = await tx.select().from(t.orders).where(eq(t.orders.id, order.id)).for('update');
      if (decision.success) {
        // A further capture of an order that holds its payment already, or held one the broker gave back (refunded).
        if (current!.status === 'paid' || current!.status === 'refund' || current!.status === 'refunded') {
          refund = 'charged_again';
        } else {
          const [coupon] = current!.couponId === null ? [] : await tx.select().from(t.coupons).where(eq(t.coupons.id, current!.couponId));
          // A coupon withdrawn meanwhile voids the order; a hold that merely ran out does not (the
          // customer may have been on the gateway's page at the hour), but then the order's use
          // of its coupon is no longer held and must still have room.
          const lapse = current!.status === 'void' ? null : lapseOf(current!, coupon ?? null, at.getTime());
          if (current!.status === 'void' || lapse === 'coupon_withdrawn') {
            refund = 'order_void';
          } else {
            const heldUse = current!.status === 'pending' && lapse === null && (await isNewestOrderOfLead(tx, current!));
            const settlement = await settlePaidOrder(tx, current!, at.getTime(), heldUse);
            if (settlement.settled) {
              policyToDeliver = settlement.created ? settlement.policyId : null;
              await tx.update(t.orders).set({ status: 'paid', paidAt: at, ...gateway }).where(eq(t.orders.id, order.id));
            } else {
              refund = settlement.reason;
            }
          }
          if (refund) {
            await tx
              .update(t.orders)
              .set({ status: 'refund', refundReason: refund, paidAt: at, ...gateway, ...(lapse === 'coupon_withdrawn' ? { voidedAt: at, voidReason: lapse } : {}) })
              .where(eq(t.orders.id, order.id));
          }
        }
        if (refund) {
          await tx.insert(t.refunds).values({
            orderId: order.id,
            merchantReference: order.merchantReference,
            fortId: decision.fortId ?? '',
            amountCents: current!.totalCents,
            currency: current!.currency,
            reason: refund,
            noticeId: notice!.id,
            createdAt: at,
          });
        }
      } else {
        await tx
          .update(t.orders)
          .set({ status: 'failed', failedAt: at, ...gateway })
          .where(and(eq(t.orders.id, order.id), eq(t.orders.status, 'pending')));
      }
    }
    return { verdict, policyToDeliver, refund, noticeId: notice!.id } as const;
  });
  if (outcome.refund) deps.logError({ event: 'payment_refund_due', order_id: order.id, reason: outcome.refund, notice_id: outcome.noticeId });
  if (outcome.policyToDeliver !== null) await deps.mailWorker.nudge();
  return { verdict: outcome.verdict, leadUuid: order.leadUuid, merchantReference: order.merchantReference, lang: orderLanguage(order.lang) };
}
