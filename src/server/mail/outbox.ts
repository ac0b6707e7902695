import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { errorFacts, type LogError } from '../http/error-handler';
import { policyOutgoingMail, type DeliveryConfig } from '../policies/deliver-policy';
import { createMailer, type MailTransport } from './mailer';

/**
 * The mail outbox (issue 18 item 1). A message a customer must receive is a mail_outbox row,
 * written in the transaction that causes it (queuePolicyMailInTx, from issuePolicyInTx), so a
 * crash after the commit loses nothing: the worker of every instance sends due rows, at start,
 * on its poll and when nudged after a commit.
 *
 * Claiming: a short transaction takes up to BATCH due rows with FOR UPDATE SKIP LOCKED (PGlite and
 * PostgreSQL alike), counts the attempt and leases them (next_attempt_at = now + LEASE_MS), then
 * commits; the mail is built and sent outside it, so no transaction waits on SMTP. A second worker
 * skips locked rows and sees leased ones as not due. Sent: status sent, sent_at, and for a policy
 * its mailed_at, only after the transport accepted the message. Failed: retried after BACKOFF_MS
 * [attempt - 1], failed after the last attempt with the error's class in last_error. Every
 * attempt carries the row's Message-ID, so a resend after a crash between sending and marking is
 * recognisable as the same message.
 */

/** The waits after failed attempts 1…4; attempt 5 failing marks the row failed. */
export const BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000] as const;
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;
/** How long a claimed row is not due for other workers (a crash mid-send resends it after this). */
export const LEASE_MS = 2 * 60_000;
const BATCH = 5;

/** A new RFC 5322 Message-ID for a queued message: random, under the site's host name. */
export const newMessageId = (): string => `<${randomUUID()}@outbox.safar>`;

/** Queues a policy's certificate mail in the caller's transaction (a new message id each time); answers the row's id. */
export async function queuePolicyMailInTx(tx: Db, policyId: number, now: number): Promise<number> {
  const [row] = await tx
    .insert(t.mailOutbox)
    .values({
      messageId: newMessageId(),
      kind: 'policy',
      policyId,
      status: 'pending',
      nextAttemptAt: new Date(now),
      createdAt: new Date(now),
    })
    .returning({ id: t.mailOutbox.id });
  return row!.id;
}

export interface OutboxWorker {
  /** Sends every row due now, batch after batch; resolves with how many were sent. */
  drain(): Promise<number>;
  /** After a commit that queued mail: drains at once when the worker runs (no-op otherwise). */
  nudge(): Promise<void>;
  /** Starts the worker: a drain now (what a crash left pending), then one every pollMs (null: none); resolves after that first drain. */
  start(): Promise<void>;
  /** Stops polling and waits for a drain in progress. */
  stop(): Promise<void>;
}

export interface OutboxWorkerDeps {
  db: Db;
  config: DeliveryConfig;
  now: () => number;
  logError: LogError;
  /** The mail transport (default: the configured SMTP server or the .eml outbox directory). */
  transport?: MailTransport;
  /** Milliseconds between polls once started; null polls never (tests drain by hand). */
  pollMs: number | null;
  /** Whether nudge() drains without start() (the test app: mail right after the request). */
  nudgeWhenStopped?: boolean;
}

export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const { db, now } = deps;
  const mailer = createMailer(db, deps.config, now, deps.transport);
  let running = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<number> | null = null;
  let starting: Promise<void> | null = null;

  /** Claims up to BATCH due rows: attempt counted, leased so no other worker sends them meanwhile. */
  async function claim() {
    const at = now();
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: t.mailOutbox.id })
        .from(t.mailOutbox)
        .where(and(eq(t.mailOutbox.status, 'pending'), lte(t.mailOutbox.nextAttemptAt, new Date(at))))
        .orderBy(t.mailOutbox.nextAttemptAt, t.mailOutbox.id)
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(t.mailOutbox)
        .set({ attempts: sql`${t.mailOutbox.attempts} + 1`, nextAttemptAt: new Date(at + LEASE_MS) })
        .where(inArray(t.mailOutbox.id, due.map((row) => row.id)))
        .returning();
    });
  }

  async function sendOne(row: typeof t.mailOutbox.$inferSelect): Promise<boolean> {
    try {
      if (row.kind !== 'policy' || row.policyId === null) throw new UnknownMailKindError();
      const mail = await policyOutgoingMail(db, deps.config, row.policyId);
      await mailer.send({ ...mail, messageId: row.messageId });
    } catch (error) {
      const facts = errorFacts(error);
      const final = row.attempts >= MAX_ATTEMPTS;
      await db
        .update(t.mailOutbox)
        .set(
          final
            ? { status: 'failed', lastError: facts.error }
            : { lastError: facts.error, nextAttemptAt: new Date(now() + BACKOFF_MS[row.attempts - 1]!) },
        )
        .where(and(eq(t.mailOutbox.id, row.id), eq(t.mailOutbox.status, 'pending')));
      try {
        deps.logError({ event: 'policy_mail_failed', policy_id: row.policyId, outbox_id: row.id, attempt: row.attempts, final, ...facts });
      } catch {
        // A failing log sink must not stop the worker.
      }
      return false;
    }
    const at = new Date(now());
    await db.transaction(async (tx) => {
      await tx.update(t.mailOutbox).set({ status: 'sent', sentAt: at, lastError: null }).where(eq(t.mailOutbox.id, row.id));
      if (row.policyId !== null) {
        await tx.update(t.policies).set({ mailedAt: at }).where(and(eq(t.policies.id, row.policyId), isNull(t.policies.mailedAt)));
      }
    });
    return true;
  }

  async function drainOnce(): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await claim();
      if (rows.length === 0) return sent;
      for (const row of rows) if (await sendOne(row)) sent += 1;
    }
  }

  /** One drain at a time per worker; a drain asked for meanwhile runs once after it. */
  function drain(): Promise<number> {
    if (current) return current.then(() => drain());
    current = drainOnce().finally(() => {
      current = null;
    });
    return current;
  }

  async function safeDrain(): Promise<void> {
    try {
      await drain();
    } catch (error) {
      try {
        deps.logError({ event: 'policy_mail_failed', policy_id: null, outbox_id: 0, attempt: 0, final: false, ...errorFacts(error) });
      } catch {
        // ignore
      }
    }
  }

  function schedule() {
    if (stopped || deps.pollMs === null) return;
    timer = setTimeout(() => {
      void safeDrain().then(schedule);
    }, deps.pollMs);
    timer.unref?.();
  }

  return {
    drain,
    async nudge() {
      if (stopped || (!running && !deps.nudgeWhenStopped)) return;
      await safeDrain();
    },
    start() {
      // Called again (e.g. by a test after createApp started it): the same first drain.
      if (running && starting) return starting;
      running = true;
      stopped = false;
      starting = safeDrain().then(schedule);
      return starting;
    },
    async stop() {
      stopped = true;
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      if (current) await current.catch(() => 0);
    },
  };
}

/** An outbox row of a kind this worker cannot build. */
export class UnknownMailKindError extends Error {}
