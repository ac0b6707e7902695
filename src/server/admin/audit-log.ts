import { desc } from 'drizzle-orm';
import type { AuditListItem } from '../../contract/broker-console';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { textTable } from '../text-table';

/**
 * The audit log (issue 36 item 3): `audited` runs a change in a transaction and writes its row in
 * the same one (who, when, what, which, before and after), so a change the database kept always
 * has its row; `npm run broker -- audit` lists them newest first.
 */

export interface AuditEntry {
  actor: string;
  action: string;
  target: string;
}

/** What a change did: its result, and what it touched before and after (null: nothing there). */
export interface AuditedChange<R> {
  result: R;
  before: unknown;
  after: unknown;
}

/** Runs `change` in a transaction with its audit row; a change that throws leaves neither. */
export function audited<R>(db: Db, entry: AuditEntry, now: number, change: (tx: Db) => Promise<AuditedChange<R>>): Promise<R> {
  return db.transaction(async (tx) => {
    const { result, before, after } = await change(tx);
    await tx.insert(t.auditLog).values({ at: new Date(now), ...entry, before: before ?? null, after: after ?? null });
    return result;
  });
}

export type { AuditListItem };

/** The audit log newest first (at most `limit`). */
export async function listAudit(db: Db, limit = 500): Promise<AuditListItem[]> {
  const rows = await db.select().from(t.auditLog).orderBy(desc(t.auditLog.at), desc(t.auditLog.id)).limit(limit);
  return rows.map((row) => ({ at: row.at.toISOString(), actor: row.actor, action: row.action, target: row.target, before: row.before, after: row.after }));
}

/** The audit log as an aligned text table, before and after as compact JSON. */
export function formatAudit(items: readonly AuditListItem[]): string {
  if (items.length === 0) return 'No changes recorded.';
  const json = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));
  return textTable(
    ['at', 'who', 'what', 'which', 'before', 'after'],
    items.map((item) => [item.at, item.actor, item.action, item.target, json(item.before), json(item.after)]),
  );
}
