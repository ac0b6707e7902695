import { and, desc, eq, sql } from 'drizzle-orm';
import {
  CANCELLATION_REQUEST_FILTERS,
  type CancellationRequestFilter,
  type CancellationRequestItem,
} from '../../contract/broker-console';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { textTable } from '../text-table';

/**
 * The broker's side of the customers' cancellation requests (issue 37 item 2). A customer asks
 * from the policy page to cancel a policy that has not started (one request per policy); the
 * broker works it: cancelling the policy (policies/cancel-policy.ts) makes an open request done
 * in the same transaction, and declining it keeps the policy. `npm run broker --
 * cancellation-requests` and the console list them through listCancellationRequests.
 */

export { CANCELLATION_REQUEST_FILTERS, type CancellationRequestFilter, type CancellationRequestItem };

/** A request the broker named that cannot be declined, said to the broker as it is. */
export class CancellationRequestError extends Error {}

/** Which requests to list: of one status (or all), and optionally of one policy. */
export interface CancellationRequestQuery {
  status: CancellationRequestFilter;
  /** A policy number as typed (any case, spaces around it). */
  policyNumber?: string | null;
}

/** Cancellation requests, open ones first then newest first (at most `limit`), with their policy, customer, trip and plan. */
export async function listCancellationRequests(db: Db, query: CancellationRequestQuery, limit = 500): Promise<CancellationRequestItem[]> {
  const number = query.policyNumber?.trim().toUpperCase() || null;
  const rows = await db
    .select({ request: t.cancellationRequests, policy: { number: t.policies.policyNumber, cancelledAt: t.policies.cancelledAt }, order: { reference: t.orders.merchantReference, contract: t.orders.contract } })
    .from(t.cancellationRequests)
    .innerJoin(t.policies, eq(t.policies.id, t.cancellationRequests.policyId))
    .innerJoin(t.orders, eq(t.orders.id, t.policies.orderId))
    .where(and(query.status === 'all' ? undefined : eq(t.cancellationRequests.status, query.status), number === null ? undefined : eq(t.policies.policyNumber, number)))
    .orderBy(desc(sql`${t.cancellationRequests.status} = 'open'`), desc(t.cancellationRequests.createdAt), desc(t.cancellationRequests.id))
    .limit(limit);
  return rows.map(({ request, policy, order }) => ({
    id: request.id,
    policy_number: policy.number,
    merchant_reference: order.reference,
    customer_name: order.contract?.customer.name ?? '',
    email: order.contract?.customer.email ?? '',
    trip_start: order.contract?.trip.startDate ?? '',
    plan: { en: order.contract?.plan.nameEn ?? '', ar: order.contract?.plan.nameAr ?? '' },
    reason: request.reason,
    note: request.note,
    created: request.createdAt.toISOString(),
    status: request.status,
    handled_at: request.handledAt?.toISOString() ?? null,
    handled_by: request.handledBy,
    policy_cancelled: policy.cancelledAt?.toISOString() ?? null,
  }));
}

/**
 * Declines an open request (the broker keeps the policy): declined, when and by whom. A request
 * that is not open any more (done, or declined by someone else a moment ago) is refused, so of
 * two declines at once one is taken. Answers what the audit row says before and after.
 */
export async function declineCancellationRequest(db: Db, id: number, by: string, now: number) {
  const [found] = await db
    .select({ status: t.cancellationRequests.status, policyNumber: t.policies.policyNumber })
    .from(t.cancellationRequests)
    .innerJoin(t.policies, eq(t.policies.id, t.cancellationRequests.policyId))
    .where(eq(t.cancellationRequests.id, id));
  if (!found) throw new CancellationRequestError(`No cancellation request has the id ${id}.`);
  const [declined] = await db
    .update(t.cancellationRequests)
    .set({ status: 'declined', handledAt: new Date(now), handledBy: by })
    .where(and(eq(t.cancellationRequests.id, id), eq(t.cancellationRequests.status, 'open')))
    .returning({ id: t.cancellationRequests.id });
  if (!declined) {
    const [current] = await db.select({ status: t.cancellationRequests.status }).from(t.cancellationRequests).where(eq(t.cancellationRequests.id, id));
    throw new CancellationRequestError(`Cancellation request ${id} (${found.policyNumber}) is ${current?.status ?? found.status} already: only an open request can be declined.`);
  }
  return { policyNumber: found.policyNumber, before: { status: 'open', policy_number: found.policyNumber }, after: { status: 'declined' } };
}

/**
 * Inside the transaction that cancels a policy: its open request, if the customer made one,
 * becomes done under the name of who cancelled. Answers the request's id, or null when none was open.
 */
export async function completeCancellationRequestInTx(tx: Db, policyId: number, by: string, now: number): Promise<number | null> {
  const [done] = await tx
    .update(t.cancellationRequests)
    .set({ status: 'done', handledAt: new Date(now), handledBy: by })
    .where(and(eq(t.cancellationRequests.policyId, policyId), eq(t.cancellationRequests.status, 'open')))
    .returning({ id: t.cancellationRequests.id });
  return done?.id ?? null;
}

/** The requests as an aligned text table (or a one-line note when there are none). */
export function formatCancellationRequests(items: readonly CancellationRequestItem[], status: CancellationRequestFilter): string {
  if (items.length === 0) return status === 'all' ? 'No cancellation requests.' : `No ${status} cancellation requests.`;
  const header = ['id', 'created', 'status', 'policy', 'customer', 'email', 'starts', 'plan', 'reason', 'note', 'handled'];
  const rows = items.map((item) => [
    String(item.id),
    item.created,
    item.status,
    item.policy_number,
    item.customer_name,
    item.email,
    item.trip_start,
    item.plan.en,
    item.reason,
    item.note.replace(/\s+/g, ' ') || '-',
    item.handled_by ? `${item.handled_by} ${item.handled_at}` : '-',
  ]);
  return textTable(header, rows);
}
