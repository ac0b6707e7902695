import { and, eq, isNull } from 'drizzle-orm';
import { todayIso } from '../../contract/dates';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { cancellationMail, type CancelReason } from '../mail/cancellation-mail';
import { queueRenderedMailInTx } from '../mail/outbox';
import { sendRefundInTx } from '../orders/refunds';
import { completeCancellationRequestInTx } from './cancellation-requests';

/**
 * Cancelling a policy (issue 36 item 5, RULINGS 29): a visa refused, a trip cancelled before it
 * starts. The broker names the policy and why; the policy is marked cancelled (its certificate then
 * says CANCELLED), the premium goes back through the gateway less the plan's cancellation fee
 * (plans.cancellation_fee_cents: the whole total less the fee, never below nothing), and the
 * customer is e-mailed in the order's language, all in one transaction. The refund is a refunds
 * row of the order's own capture (reason policy_cancelled), requested at once: the aps-refund
 * worker sends it like any other (payments/aps-refund.ts), and its answer e-mails the customer
 * again. A policy whose start date has come is cancelled only with the broker's note saying why;
 * an order paid without the card (a 100 % coupon) has nothing to refund. Of two cancellations at
 * once, one is taken. The customer's open cancellation request (issue 37 item 2), when there is
 * one, is done in the same transaction, under the name of who cancelled.
 */

export const CANCEL_REASONS = ['visa_refused', 'trip_cancelled', 'other'] as const;

/** A cancellation that cannot be made, said to the broker as it is. */
export class CancelPolicyError extends Error {}

export interface CancelRequest {
  policyNumber: string;
  reason: CancelReason;
  /** The broker's note: required once the policy has started. */
  note: string | null;
}

export interface CancelOutcome {
  policyNumber: string;
  /** What goes back to the card, cents (0: nothing). */
  refundCents: number;
  feeCents: number;
  /** The REFUND's maintenance reference, when there is one. */
  maintenanceReference: string | null;
  /** The customer's cancellation request this cancellation answered (now done); null when none was open. */
  cancellationRequestId: number | null;
}

export async function cancelPolicy(
  db: Db,
  request: CancelRequest,
  options: { cancelledBy: string; canSendRefunds: boolean },
  now: number,
): Promise<CancelOutcome> {
  const number = request.policyNumber.trim().toUpperCase();
  const [found] = await db
    .select({ policy: t.policies, order: t.orders })
    .from(t.policies)
    .innerJoin(t.orders, eq(t.orders.id, t.policies.orderId))
    .where(eq(t.policies.policyNumber, number));
  if (!found?.order.contract) throw new CancelPolicyError(`No policy is numbered ${number}.`);
  const { policy, order } = found;
  const contract = order.contract!;
  if (policy.cancelledAt) throw new CancelPolicyError(`${number} was cancelled already (${policy.cancelledAt.toISOString()}).`);
  const note = request.note?.trim() || null;
  if (todayIso(now) >= contract.trip.startDate && !note) {
    throw new CancelPolicyError(`${number} started on ${contract.trip.startDate}: a cancellation after the start needs the broker's note (--note "why").`);
  }
  const [plan] = await db.select({ feeCents: t.plans.cancellationFeeCents }).from(t.plans).where(eq(t.plans.id, contract.plan.id));
  const feeCents = plan?.feeCents ?? 0;
  // Paid by card: its capture is the order's fort_id. A 100 % coupon took nothing.
  const captured = order.fortId && order.totalCents > 0;
  const refundCents = captured ? Math.max(0, order.totalCents - feeCents) : 0;
  if (refundCents > 0 && !options.canSendRefunds) throw new CancelPolicyError('Refunds cannot be sent: APS_API_URL is not set beside a real gateway (APS_GATEWAY_URL).');

  return db.transaction(async (tx) => {
    const at = new Date(now);
    const [cancelled] = await tx
      .update(t.policies)
      .set({ cancelledAt: at, cancelReason: request.reason, cancelNote: note, cancelledBy: options.cancelledBy })
      .where(and(eq(t.policies.id, policy.id), isNull(t.policies.cancelledAt)))
      .returning({ id: t.policies.id });
    if (!cancelled) throw new CancelPolicyError(`${number} was cancelled by someone else a moment ago.`);
    let maintenanceReference: string | null = null;
    if (refundCents > 0) {
      const [refund] = await tx
        .insert(t.refunds)
        .values({
          orderId: order.id,
          merchantReference: order.merchantReference,
          fortId: order.fortId!,
          amountCents: order.totalCents,
          currency: order.currency,
          reason: 'policy_cancelled',
          createdAt: at,
        })
        .returning({ id: t.refunds.id });
      maintenanceReference = await sendRefundInTx(tx, refund!.id, refundCents, options.cancelledBy, now);
    }
    const mail = cancellationMail(order.lang === 'ar' ? 'ar' : 'en', {
      customerName: contract.customer.name,
      policyNumber: number,
      reason: request.reason,
      refundCents,
      feeCents: refundCents > 0 ? feeCents : 0,
    });
    await queueRenderedMailInTx(tx, 'policy-cancelled', { leadId: order.leadId, to: contract.customer.email, ...mail }, now);
    const cancellationRequestId = await completeCancellationRequestInTx(tx, policy.id, options.cancelledBy, now);
    return { policyNumber: number, refundCents, feeCents, maintenanceReference, cancellationRequestId };
  });
}
