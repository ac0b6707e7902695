import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { queuePolicyMailInTx } from './outbox';
import { textTable } from '../text-table';

/** The broker's view of the mail outbox: `npm run broker -- mail [--status S] [--json]` and `mail resend`. */

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** A broker's request the outbox cannot carry out (an unknown policy number); the CLI exits 2. */
export class MailAdminError extends Error {}

export interface MailListItem {
  id: number;
  kind: string;
  /** The policy the message is for (its certificate mail); null for other kinds. */
  policy_number: string | null;
  /** The address the message goes to: the order's customer e-mail. */
  to: string | null;
  status: string;
  attempts: number;
  /** The error class of the last failed attempt; null when none failed. */
  last_error: string | null;
  created: string;
  sent: string | null;
  message_id: string;
}

/** Outbox rows newest first (at most `limit`), optionally of one status. */
export async function listMail(db: Db, status: MailStatus | null = null, limit = 500): Promise<MailListItem[]> {
  const rows = await db
    .select({ row: t.mailOutbox, policyNumber: t.policies.policyNumber, contract: t.orders.contract })
    .from(t.mailOutbox)
    .leftJoin(t.policies, eq(t.policies.id, t.mailOutbox.policyId))
    .leftJoin(t.orders, eq(t.orders.id, t.policies.orderId))
    .where(status === null ? undefined : eq(t.mailOutbox.status, status))
    .orderBy(desc(t.mailOutbox.createdAt), desc(t.mailOutbox.id))
    .limit(limit);
  return rows.map(({ row, policyNumber, contract }) => ({
    id: row.id,
    kind: row.kind,
    policy_number: policyNumber,
    to: contract?.customer.email ?? null,
    status: row.status,
    attempts: row.attempts,
    last_error: row.lastError,
    created: row.createdAt.toISOString(),
    sent: row.sentAt?.toISOString() ?? null,
    message_id: row.messageId,
  }));
}

/** The outbox as an aligned text table (or a one-line note when it is empty). */
export function formatMail(items: readonly MailListItem[]): string {
  if (items.length === 0) return 'No mail in the outbox.';
  const header = ['id', 'kind', 'policy', 'to', 'status', 'attempts', 'last error', 'created', 'sent'];
  const rows = items.map((item) => [
    String(item.id),
    item.kind,
    item.policy_number ?? '—',
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
