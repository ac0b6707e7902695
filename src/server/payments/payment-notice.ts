import { and, eq, inArray } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import { isUnsafeText } from '../../contract/text-safety';
import type { AppConfig } from '../app';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { LogError } from '../http/error-handler';
import { settlePaidOrder } from '../orders/settle-order';
import type { PolicyDelivery } from '../policies/deliver-policy';
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
/** Why a notice was refused (the payment_notices verdicts other than applied/repeated). */
export type RefusedVerdict = 'malformed' | 'bad_signature' | 'unknown_order' | 'mismatch';

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
/** APS status of a successful PURCHASE; every other status is a failure (declined, cancelled, invalid). */
export const APS_PURCHASE_SUCCESS = '14';

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
  delivery: PolicyDelivery;
  now: () => number;
  logError: LogError;
}

type OrderWithLead = typeof t.orders.$inferSelect & { leadUuid: string };

/**
 * Handles one notice end to end and says what became of it. Verification runs in order: the
 * body is a form (malformed), the signature verifies with the response phrase (bad_signature),
 * access code and merchant identifier are ours (mismatch), merchant_reference names an order
 * (unknown_order), amount and currency are the order's (mismatch). A refused notice is recorded
 * and logged (facts only) and changes nothing else. A genuine one is applied once (applyNotice).
 * A database failure is thrown: the route answers 503 so the gateway retries.
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
  if (fields.amount !== String(order.totalCents) || fields.currency !== order.currency) {
    return refuse(deps, source, 'mismatch', { payload: fields, fields, order });
  }
  return applyNotice(deps, source, fields, order);
}

async function findOrder(db: Db, reference: string): Promise<OrderWithLead | null> {
  const [row] = await db
    .select({ order: t.orders, leadUuid: t.leads.uuid })
    .from(t.orders)
    .innerJoin(t.leads, eq(t.leads.id, t.orders.leadId))
    .where(eq(t.orders.merchantReference, reference));
  return row ? { ...row.order, leadUuid: row.leadUuid } : null;
}

/** Records a refused notice (order_id only when its order is known) and writes one log line. */
async function refuse(
  deps: PaymentNoticeDeps,
  source: NoticeSource,
  verdict: RefusedVerdict,
  notice: { payload: Record<string, string>; fields: Record<string, string> | null; order: OrderWithLead | null },
): Promise<NoticeOutcome> {
  const [row] = await deps.db
    .insert(t.paymentNotices)
    .values({
      source,
      merchantReference: notice.fields?.merchant_reference?.slice(0, MAX_REFERENCE_LENGTH) ?? null,
      fortId: notice.fields?.fort_id ?? null,
      orderId: notice.order?.id ?? null,
      payload: notice.payload,
      verdict,
      receivedAt: new Date(deps.now()),
    })
    .returning({ id: t.paymentNotices.id });
  deps.logError({ event: 'payment_notice_refused', source, verdict, notice_id: row!.id });
  return { verdict, lang: languageOfFields(notice.fields) };
}

/**
 * Applies a genuine notice once, keyed by merchant reference + fort_id ('' when the gateway sent
 * none, as for a cancel), in one transaction: the payment_results row is inserted first and, if
 * it was there already (another copy of this result, before, meanwhile or concurrently), the
 * notice is 'repeated' and nothing changes. Otherwise:
 * - success (status 14): a pending or failed order turns paid and is settled (invoice paid,
 *   coupon counted even past its limit since the money is taken, policy issued); a later genuine
 *   success wins over an earlier failure. A customer who paid twice (another order of the lead
 *   already settled the invoice, or this order was paid under another fort_id) keeps the money
 *   recorded and gets no second policy: a 'payment_duplicate' line tells the broker to refund.
 * - anything else: a pending order turns failed; a paid order never does.
 * The policy is delivered after commit, by the one notice that issued it.
 */
async function applyNotice(deps: PaymentNoticeDeps, source: NoticeSource, fields: Record<string, string>, order: OrderWithLead): Promise<NoticeOutcome> {
  const at = new Date(deps.now());
  const fortId = fields.fort_id ?? '';
  const status = fields.status ?? '';
  const responseCode = fields.response_code ?? '';
  const responseMessage = fields.response_message ?? '';
  const outcome = await deps.db.transaction(async (tx) => {
    const [result] = await tx
      .insert(t.paymentResults)
      .values({ orderId: order.id, merchantReference: order.merchantReference, fortId, status, responseCode, responseMessage, appliedAt: at })
      .onConflictDoNothing({ target: [t.paymentResults.merchantReference, t.paymentResults.fortId] })
      .returning({ id: t.paymentResults.id });
    const verdict = result ? 'applied' : 'repeated';
    let policyToDeliver: number | null = null;
    let duplicate: 'invoice_paid_by_another_order' | 'order_paid_already' | null = null;
    if (result) {
      const gateway = { fortId: fields.fort_id ?? null, responseCode, responseMessage };
      if (status === APS_PURCHASE_SUCCESS) {
        const paid = await tx
          .update(t.orders)
          .set({ status: 'paid', paidAt: at, ...gateway })
          .where(and(eq(t.orders.id, order.id), inArray(t.orders.status, ['pending', 'failed'])))
          .returning({ id: t.orders.id });
        if (paid.length === 0) {
          duplicate = 'order_paid_already';
        } else {
          const settlement = await settlePaidOrder(tx, order, at.getTime(), 'honour');
          if (settlement.settled) policyToDeliver = settlement.created ? settlement.policyId : null;
          else duplicate = 'invoice_paid_by_another_order';
        }
      } else {
        await tx
          .update(t.orders)
          .set({ status: 'failed', failedAt: at, ...gateway })
          .where(and(eq(t.orders.id, order.id), eq(t.orders.status, 'pending')));
      }
    }
    const [notice] = await tx
      .insert(t.paymentNotices)
      .values({
        source,
        merchantReference: order.merchantReference,
        fortId: fields.fort_id ?? null,
        orderId: order.id,
        payload: fields,
        verdict,
        receivedAt: at,
      })
      .returning({ id: t.paymentNotices.id });
    return { verdict, policyToDeliver, duplicate, noticeId: notice!.id } as const;
  });
  if (outcome.duplicate) {
    deps.logError({ event: 'payment_duplicate', order_id: order.id, reason: outcome.duplicate, notice_id: outcome.noticeId });
  }
  if (outcome.policyToDeliver !== null) await deps.delivery.deliver(outcome.policyToDeliver);
  return { verdict: outcome.verdict, leadUuid: order.leadUuid, merchantReference: order.merchantReference, lang: orderLanguage(order.lang) };
}
