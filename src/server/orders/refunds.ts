import { randomBytes } from 'node:crypto';
import type { RefundListItem } from '../../contract/broker-console';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { queueInTx, queueRenderedMailInTx } from '../mail/outbox';
import { refundMail, type RefundMailReason } from '../mail/refund-mail';

/**
 * The refunds list (issue 33 item 3): every capture the gateway took that buys nothing, as the
 * payment notice recorded it (payments/payment-notice.ts), newest first. Each names what an APS
 * REFUND needs: the merchant reference, the fort_id and the amount.
 */
export type { RefundListItem };

/** The refunds due, newest first (at most `limit`), or those of one merchant reference. */
export async function listRefunds(db: Db, limit = 500, merchantReference: string | null = null): Promise<RefundListItem[]> {
  const rows = await db
    .select({ refund: t.refunds, orderStatus: t.orders.status, policyNumber: t.policies.policyNumber })
    .from(t.refunds)
    .innerJoin(t.orders, eq(t.orders.id, t.refunds.orderId))
    .leftJoin(t.policies, eq(t.policies.orderId, t.orders.id))
    .where(merchantReference === null ? undefined : eq(t.refunds.merchantReference, merchantReference))
    .orderBy(desc(t.refunds.createdAt), desc(t.refunds.id))
    .limit(limit);
  return rows.map(({ refund, orderStatus, policyNumber }) => ({
    merchant_reference: refund.merchantReference,
    fort_id: refund.fortId,
    amount_cents: refund.amountCents,
    currency: refund.currency,
    reason: refund.reason,
    recorded: refund.createdAt.toISOString(),
    order_status: orderStatus,
    policy_number: policyNumber,
    status: refund.status,
    refund_cents: refund.refundCents,
    answer: refund.responseCode === null ? null : `${refund.responseCode} ${refund.responseMessage ?? ''}`.trim(),
  }));
}

/* ------------------------------------------------------------------------------------------- */
/* Giving the money back (issue 36 item 4)                                                      */
/* ------------------------------------------------------------------------------------------- */

/** A refund the broker asked for that cannot be sent: the reason, said to the broker as it is. */
export class RefundRequestError extends Error {}

/** The aps-refund outbox row's payload: the refunds row and the maintenance reference it was queued under. */
export interface RefundJob {
  refundId: number;
  maintenanceReference: string;
}

/** A new APS maintenance_reference: R, the row's id and 12 random hex digits (at most 40 characters, [A-Za-z0-9-]). */
const newMaintenanceReference = (refundId: number) => `R${refundId}-${randomBytes(6).toString('hex')}`;

/**
 * Asks the gateway to give back the money of a refunds row: the whole capture, as the server
 * recorded it, for one that bought nothing; what was asked before, for one asked again after a
 * refusal (a cancelled policy's premium less its fee). The row named by its merchant reference (and fort_id
 * when the reference has more than one capture) goes from due, or refused, to requested under a
 * new maintenance reference, and its REFUND is queued in the outbox in the same transaction
 * (payments/aps-refund.ts sends it). Of two requests at the same moment, one is taken: the other
 * finds the row requested already and is refused, so a capture is never asked back twice.
 */
export async function requestRefund(
  db: Db,
  target: { merchantReference: string; fortId?: string | null },
  options: { requestedBy: string; canSend: boolean },
  now: number,
): Promise<{ refundId: number; maintenanceReference: string; refundCents: number }> {
  const rows = await db
    .select()
    .from(t.refunds)
    .where(and(eq(t.refunds.merchantReference, target.merchantReference), ...(target.fortId ? [eq(t.refunds.fortId, target.fortId)] : [])))
    .orderBy(t.refunds.id);
  if (rows.length === 0) throw new RefundRequestError(`No refund is due for ${target.merchantReference}${target.fortId ? ` with fort_id ${target.fortId}` : ''}.`);
  if (rows.length > 1) throw new RefundRequestError(`${target.merchantReference} has ${rows.length} captures to refund: name one with --fort-id (${rows.map((row) => row.fortId).join(', ')}).`);
  const row = rows[0]!;
  if (row.status === 'refunded') throw new RefundRequestError(`${target.merchantReference} was refunded already (${row.answeredAt?.toISOString() ?? ''}).`);
  if (row.status === 'requested') throw new RefundRequestError(`The refund of ${target.merchantReference} is under way (${row.maintenanceReference}); its answer is shown by \`npm run broker -- refunds\`.`);
  if (!options.canSend) throw new RefundRequestError('Refunds cannot be sent: APS_API_URL is not set beside a real gateway (APS_GATEWAY_URL).');
  // Asked again after a refusal, a refund asks what it asked the first time: a cancelled policy's
  // premium less its fee, never the whole capture.
  const refundCents = row.refundCents ?? row.amountCents;
  const taken = await db.transaction((tx) => sendRefundInTx(tx, row.id, refundCents, options.requestedBy, now));
  if (!taken) throw new RefundRequestError(`The refund of ${target.merchantReference} was requested by someone else a moment ago.`);
  return { refundId: row.id, maintenanceReference: taken, refundCents };
}

/**
 * In the caller's transaction: a refunds row that is due or refused becomes requested for
 * `refundCents` under a new maintenance reference, and its REFUND is queued (aps-refund). Answers
 * the maintenance reference, or null when the row was not due or refused (taken by another).
 */
export async function sendRefundInTx(tx: Db, refundId: number, refundCents: number, requestedBy: string, now: number): Promise<string | null> {
  const maintenanceReference = newMaintenanceReference(refundId);
  const [updated] = await tx
    .update(t.refunds)
    .set({
      status: 'requested',
      refundCents,
      maintenanceReference,
      requestedAt: new Date(now),
      requestedBy,
      answeredAt: null,
      responseCode: null,
      responseMessage: null,
    })
    .where(and(eq(t.refunds.id, refundId), inArray(t.refunds.status, ['due', 'refused'])))
    .returning({ id: t.refunds.id });
  if (!updated) return null;
  const job: RefundJob = { refundId, maintenanceReference };
  await queueInTx(tx, { queue: 'aps-refund', kind: 'aps-refund', payload: { ...job } }, now);
  return maintenanceReference;
}

/** The gateway's answer to a REFUND, as aps-refund.ts read it (signed and matching what was sent). */
export interface RefundAnswer {
  refunded: boolean;
  responseCode: string;
  responseMessage: string;
}

/**
 * Records the gateway's answer to the REFUND `job` sent, in the transaction that marks its outbox
 * row sent: the refunds row becomes refunded or refused (only if it still waits for this very
 * request). A refund that went through makes an order that bought nothing 'refunded', and queues
 * the customer's e-mail in the order's language.
 */
export async function recordRefundAnswer(tx: Db, job: RefundJob, answer: RefundAnswer, at: Date): Promise<void> {
  const [refund] = await tx
    .update(t.refunds)
    .set({ status: answer.refunded ? 'refunded' : 'refused', answeredAt: at, responseCode: answer.responseCode, responseMessage: answer.responseMessage })
    .where(and(eq(t.refunds.id, job.refundId), eq(t.refunds.maintenanceReference, job.maintenanceReference), eq(t.refunds.status, 'requested')))
    .returning();
  if (!refund || !answer.refunded) return;
  const [order] = await tx
    .select({ id: t.orders.id, status: t.orders.status, lang: t.orders.lang, leadId: t.orders.leadId, contract: t.orders.contract, name: t.leads.name, email: t.leads.email })
    .from(t.orders)
    .innerJoin(t.leads, eq(t.leads.id, t.orders.leadId))
    .where(eq(t.orders.id, refund.orderId));
  if (!order) return;
  // An order that bought nothing is 'refunded' now; a cancelled policy's order keeps 'paid' (it bought the policy, later cancelled).
  if (order.status === 'refund' && refund.reason !== 'charged_again' && refund.reason !== 'policy_cancelled') {
    await tx.update(t.orders).set({ status: 'refunded' }).where(and(eq(t.orders.id, order.id), eq(t.orders.status, 'refund')));
  }
  const lang = order.lang === 'ar' ? 'ar' : 'en';
  // The customer who paid, as the order froze them (the lead's own details, for an order placed before contracts).
  const customer = order.contract?.customer ?? { name: order.name, email: order.email };
  const mail = refundMail(lang, {
    customerName: customer.name,
    amountCents: refund.refundCents ?? refund.amountCents,
    currency: refund.currency,
    merchantReference: refund.merchantReference,
    reason: refund.reason as RefundMailReason,
    feeCents: refund.amountCents - (refund.refundCents ?? refund.amountCents),
  });
  await queueRenderedMailInTx(tx, 'refund', { leadId: order.leadId, to: customer.email, ...mail }, at.getTime());
}
