import { eq } from 'drizzle-orm';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { LogError } from '../http/error-handler';
import { createQueueWorker, DeliveryRefusedError, logGivingUp, type OutboxRow, type OutboxWorker, type WorkerSchedule } from '../mail/outbox';
import { recordRefundAnswer, type RefundAnswer, type RefundJob } from '../orders/refunds';
import { apsSignature, verifyApsSignature } from './aps-signature';

/**
 * APS's REFUND command, sent by the outbox (issue 36 item 4). `requestRefund` (orders/refunds.ts)
 * queues one row of the aps-refund queue in the transaction that marks the refund requested; this
 * queue's worker POSTs the signed JSON request to APS's paymentApi (config.apsApiUrl: the embedded
 * sandbox, or APS) and records the answer in the transaction that marks the row sent:
 * - status 06: the refund went through (refunded); 07: APS refused it (refused, with its message,
 *   which the broker sees and may request again under a new maintenance reference);
 * - status 00 (a request APS did not take: a signature or field it refused) is recorded as
 *   refused too, with its code: sending it again would be refused again.
 * No answer, an HTTP status other than 200, or an answer that is not signed with the RESPONSE
 * phrase or does not echo what was sent is not an answer: the row is tried again with the outbox's
 * backoff, with the same maintenance reference. A crash after APS took the request but before the
 * mark sends it again the same way, and APS (as the sandbox does: a maintenance reference is
 * answered once) gives nothing back twice.
 */

/** One REFUND may take this long before it counts as unanswered. */
const REFUND_TIMEOUT_MS = 20_000;

type RefundConfig = Pick<AppConfig, 'apsAccessCode' | 'apsMerchantIdentifier' | 'apsRequestPhrase' | 'apsResponsePhrase' | 'apsShaType' | 'apsApiUrl'>;

/** The signed REFUND request of a refunds row, as APS's paymentApi takes it (every value a string). */
export function refundRequestFields(
  refund: Pick<typeof t.refunds.$inferSelect, 'merchantReference' | 'fortId' | 'currency'> & { refundCents: number },
  maintenanceReference: string,
  lang: 'en' | 'ar',
  config: RefundConfig,
): Record<string, string> {
  const fields: Record<string, string> = {
    command: 'REFUND',
    access_code: config.apsAccessCode,
    merchant_identifier: config.apsMerchantIdentifier,
    merchant_reference: refund.merchantReference,
    fort_id: refund.fortId,
    amount: String(refund.refundCents),
    currency: refund.currency,
    language: lang,
    maintenance_reference: maintenanceReference,
  };
  return { ...fields, signature: apsSignature(fields, config.apsRequestPhrase, config.apsShaType) };
}

/** The fields an answer must echo as they were sent, or it is not the answer to this request. */
const ECHOED = ['command', 'merchant_reference', 'fort_id', 'amount', 'currency', 'maintenance_reference'] as const;

/**
 * Reads APS's answer to `sent`: refunded (06) or refused (anything else APS signed), or throws
 * DeliveryRefusedError when it is not a genuine answer to this request (then it is sent again).
 */
export function readRefundAnswer(body: unknown, sent: Record<string, string>, config: RefundConfig): RefundAnswer {
  const fields: Record<string, string> = {};
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
  }
  if (!verifyApsSignature(fields, config.apsResponsePhrase, config.apsShaType)) throw new DeliveryRefusedError('answer not signed');
  // A refusal of a malformed request (status 00) may not echo every field; an answer with a status of 06 or 07 must.
  if (fields.status !== '00' && ECHOED.some((name) => fields[name] !== sent[name])) throw new DeliveryRefusedError('answer for another request');
  const responseCode = (fields.response_code ?? '').slice(0, 10);
  const responseMessage = (fields.response_message ?? '').slice(0, 200);
  return { refunded: fields.status === '06', responseCode: responseCode || fields.status || '', responseMessage };
}

export interface RefundWorkerDeps extends WorkerSchedule {
  db: Db;
  config: RefundConfig;
  now: () => number;
  /** How the server reaches APS (tests route it into the app's own sandbox). */
  gatewayFetch: typeof fetch;
  logError: LogError;
}

interface Sent {
  job: RefundJob;
  answer: RefundAnswer;
}

/** The aps-refund queue's worker (see the top of this file). */
export function createRefundWorker(deps: RefundWorkerDeps): OutboxWorker {
  return createQueueWorker<Sent | null>({
    db: deps.db,
    queue: 'aps-refund',
    now: deps.now,
    pollMs: deps.pollMs,
    nudgeWhenStopped: deps.nudgeWhenStopped,
    instanceId: deps.instanceId,
    async deliver(row) {
      const job = jobOf(row);
      if (!job) throw new DeliveryRefusedError('not a refund job');
      const [refund] = await deps.db
        .select({ refund: t.refunds, lang: t.orders.lang })
        .from(t.refunds)
        .innerJoin(t.orders, eq(t.orders.id, t.refunds.orderId))
        .where(eq(t.refunds.id, job.refundId));
      // The row no longer waits for this request (answered by an earlier attempt): nothing to send.
      if (!refund || refund.refund.status !== 'requested' || refund.refund.maintenanceReference !== job.maintenanceReference) return null;
      if (!deps.config.apsApiUrl) throw new DeliveryRefusedError('APS_API_URL is not set');
      const sent = refundRequestFields(
        { ...refund.refund, refundCents: refund.refund.refundCents ?? refund.refund.amountCents },
        job.maintenanceReference,
        refund.lang === 'ar' ? 'ar' : 'en',
        deps.config,
      );
      let res: Response;
      try {
        res = await deps.gatewayFetch(deps.config.apsApiUrl, {
          method: 'POST',
          body: JSON.stringify(sent),
          headers: { 'content-type': 'application/json' },
          signal: AbortSignal.timeout(REFUND_TIMEOUT_MS),
        });
      } catch (error) {
        // The name only (TypeError, TimeoutError): a message may quote the address.
        throw new DeliveryRefusedError(`no answer (${error instanceof Error ? error.name : typeof error})`);
      }
      if (res.status !== 200) {
        await res.body?.cancel().catch(() => {});
        throw new DeliveryRefusedError(`HTTP ${res.status}`);
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        throw new DeliveryRefusedError('answer not JSON');
      }
      return { job, answer: readRefundAnswer(body, sent, deps.config) };
    },
    async onDelivered(tx, _row, at, sent) {
      if (sent) await recordRefundAnswer(tx, sent.job, sent.answer, at);
    },
    onFailure: logGivingUp(deps.logError, 'aps-refund', 'ApsRefundGaveUp'),
  });
}

function jobOf(row: Pick<OutboxRow, 'payload'>): RefundJob | null {
  const payload = row.payload as Partial<RefundJob> | null;
  return payload && typeof payload.refundId === 'number' && typeof payload.maintenanceReference === 'string'
    ? { refundId: payload.refundId, maintenanceReference: payload.maintenanceReference }
    : null;
}
