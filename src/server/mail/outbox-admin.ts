import { and, desc, eq } from 'drizzle-orm';
import type { MailListItem } from '../../contract/broker-console';
import { MAIL_STATUSES, type MailStatus } from '../../contract/broker-console';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { queuePolicyMailInTx } from './outbox';
import { feedbackFields } from '../payments/sandbox-feedback';
import { APS_FEEDBACK_PATH } from '../routes/payments.routes';
import { textTable } from '../text-table';

/**
 * The broker's view of the outbox: `npm run broker -- mail [--status S] [--json]` lists both of its
 * queues (mail, and the APS sandbox's feedback, whose failed rows say why: "HTTP 500"), and
 * `mail resend` queues a certificate mail again.
 */

export { MAIL_STATUSES, type MailStatus };

/** A broker's request the outbox cannot carry out (an unknown policy number); the CLI exits 2. */
export class MailAdminError extends Error {}

export type { MailListItem };

const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Outbox rows newest first (at most `limit`), optionally of one status. */
export async function listMail(db: Db, status: MailStatus | null = null, limit = 500): Promise<MailListItem[]> {
  const rows = await db
    .select({ row: t.outbox, policyNumber: t.policies.policyNumber, contract: t.orders.contract })
    .from(t.outbox)
    .leftJoin(t.policies, eq(t.policies.id, t.outbox.policyId))
    .leftJoin(t.orders, eq(t.orders.id, t.policies.orderId))
    .where(status === null ? undefined : eq(t.outbox.status, status))
    .orderBy(desc(t.outbox.createdAt), desc(t.outbox.id))
    .limit(limit);
  return rows.map(({ row, policyNumber, contract }) => {
    const feedback = row.queue === 'aps-feedback' ? feedbackFields(row) : null;
    // A REFUND (payments/aps-refund.ts) is named by its maintenance reference and goes to the gateway.
    const refund = row.queue === 'aps-refund' ? textOf(row.payload?.maintenanceReference) : null;
    return {
      id: row.id,
      kind: row.kind,
      policy_number: policyNumber,
      reference: feedback?.merchant_reference ?? refund,
      to: feedback ? APS_FEEDBACK_PATH : row.queue === 'aps-refund' ? 'APS REFUND' : (contract?.customer.email ?? textOf(row.payload?.to)),
      status: row.status,
      attempts: row.attempts,
      last_error: row.lastError,
      created: row.createdAt.toISOString(),
      sent: row.sentAt?.toISOString() ?? null,
      message_id: row.messageId,
    };
  });
}

/** The outbox as an aligned text table (or a one-line note when it is empty). */
export function formatMail(items: readonly MailListItem[]): string {
  if (items.length === 0) return 'No mail in the outbox.';
  const header = ['id', 'kind', 'policy/order', 'to', 'status', 'attempts', 'last error', 'created', 'sent'];
  const rows = items.map((item) => [
    String(item.id),
    item.kind,
    item.policy_number ?? item.reference ?? '—',
    item.to ?? '—',
    item.status,
    String(item.attempts),
    item.last_error ?? '',
    item.created,
    item.sent ?? '—',
  ]);
  return textTable(header, rows);
}

/** Queues a policy's certificate mail again, under a new message id; answers the new row's id. */
export async function resendPolicyMail(db: Db, policyNumber: string, now: number): Promise<number> {
  const number = policyNumber.trim().toUpperCase();
  const [policy] = await db.select({ id: t.policies.id }).from(t.policies).where(eq(t.policies.policyNumber, number));
  if (!policy) throw new MailAdminError(`No policy numbered "${policyNumber}".`);
  return queuePolicyMailInTx(db, policy.id, now);
}

/**
 * Gives a failed outbox row (a mail, a feedback or a REFUND the worker gave up on after its last
 * attempt) its attempts back and makes it due now, under the same message id, so the far side
 * still recognises it as the same message (issue 36 item 3: Retry). Answers its status and
 * attempts before; a row that is not failed is refused (a pending one is still being tried).
 */
export async function retryOutboxRow(db: Db, id: number, now: number): Promise<{ status: string; attempts: number; last_error: string | null }> {
  const [row] = await db.select().from(t.outbox).where(eq(t.outbox.id, id));
  if (!row) throw new MailAdminError(`No outbox row has the id ${id}.`);
  if (row.status !== 'failed') throw new MailAdminError(`Outbox row ${id} is ${row.status}: only a failed row is retried.`);
  const [retried] = await db
    .update(t.outbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: new Date(now), claimedBy: null })
    .where(and(eq(t.outbox.id, id), eq(t.outbox.status, 'failed')))
    .returning({ id: t.outbox.id });
  if (!retried) throw new MailAdminError(`Outbox row ${id} was retried by someone else a moment ago.`);
  return { status: row.status, attempts: row.attempts, last_error: row.lastError };
}
