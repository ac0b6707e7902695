import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { errorFacts, type LogError } from '../http/error-handler';
import { policyOutgoingMail, type DeliveryConfig } from '../policies/deliver-policy';
import { createMailer, type MailTransport, type OutgoingMail } from './mailer';

/**
 * The outbox (issue 18 item 1). Work that must reach the world outside the database is an outbox
 * row, written in the transaction that causes it, so a crash after the commit loses nothing: the
 * worker of its queue, in every instance, delivers due rows at start, on its poll and when nudged
 * after a commit. Two queues share the table and this worker: `mail` (createOutboxWorker: the
 * policy certificate mail, queued in the paying transaction; share-page mails) and `aps-feedback`
 * (payments/sandbox-feedback.ts: the embedded gateway's direct transaction feedback, queued in the
 * transaction that answers the sandbox session). They are two workers so that delivering a
 * feedback, whose receiver issues a policy and nudges the mail worker, never waits on itself.
 *
 * Claiming: a short transaction takes up to BATCH due rows of the queue with FOR UPDATE SKIP
 * LOCKED (PGlite and PostgreSQL alike), counts the attempt and leases them (next_attempt_at = now
 * + LEASE_MS), then commits; the work is done outside it, so no transaction waits on SMTP or HTTP.
 * A second worker skips locked rows and sees leased ones as not due. Sent: status sent and
 * sent_at (and the queue's own marks, e.g. a policy's mailed_at) in one transaction, only after
 * the far side accepted. Failed: retried after BACKOFF_MS[attempt - 1], failed after the last
 * attempt with the reason in last_error. Every attempt carries the row's message id; the mailer
 * does not send a message id twice (mail/mailer.ts), and the gateway's notification endpoint
 * applies a notice once, so a crash between acceptance and the mark delivers nothing twice.
 */

/** The waits after failed attempts 1…4; attempt 5 failing marks the row failed. */
export const BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000] as const;
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;
/**
 * How long a claimed row is not due for other workers: another instance takes over a dead
 * instance's rows after this. An instance that restarts takes its own claims back at once (start).
 */
export const LEASE_MS = 2 * 60_000;
const BATCH = 5;

export type OutboxRow = typeof t.outbox.$inferSelect;
export type OutboxQueue = OutboxRow['queue'];

/** A new RFC 5322 Message-ID for a queued message: random, under the site's host name. */
export const newMessageId = (): string => `<${randomUUID()}@outbox.safar>`;

/** Queues a piece of work in the caller's transaction, under a new message id; answers the row's id. */
export async function queueInTx(
  tx: Db,
  work: { queue: OutboxQueue; kind: string; policyId?: number; payload?: Record<string, unknown> },
  now: number,
): Promise<number> {
  const [row] = await tx
    .insert(t.outbox)
    .values({
      messageId: newMessageId(),
      queue: work.queue,
      kind: work.kind,
      policyId: work.policyId ?? null,
      payload: work.payload ?? null,
      status: 'pending',
      nextAttemptAt: new Date(now),
      createdAt: new Date(now),
    })
    .returning({ id: t.outbox.id });
  return row!.id;
}

/** Queues a policy's certificate mail in the caller's transaction (a new message id each time); answers the row's id. */
export const queuePolicyMailInTx = (tx: Db, policyId: number, now: number): Promise<number> =>
  queueInTx(tx, { queue: 'mail', kind: 'policy', policyId }, now);

/** A mail worded when it was asked for (a share-page mail: what the agent's customer sees then), kept as the row's payload. */
export type RenderedMail = Pick<OutgoingMail, 'leadId' | 'to' | 'subject' | 'text' | 'html'>;

/** Queues a rendered mail (kind: share-<page>, …) in the caller's transaction or on its own; answers the row's id. */
export const queueRenderedMailInTx = (tx: Db, kind: string, mail: RenderedMail, now: number): Promise<number> =>
  queueInTx(tx, { queue: 'mail', kind, payload: { ...mail } }, now);

/**
 * The far side answered, but not with acceptance (the notification endpoint's HTTP 500): the
 * reason, a short fixed text without personal data, is what last_error and the broker show.
 */
export class DeliveryRefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface OutboxWorker {
  /** Delivers every row due now, batch after batch; resolves with how many were delivered. */
  drain(): Promise<number>;
  /**
   * After a commit that queued work: a running worker starts a drain in the background and
   * resolves at once; a stopped one with nudgeWhenStopped (a test app) drains before resolving;
   * any other stopped worker does nothing.
   */
  nudge(): Promise<void>;
  /** Starts the worker: a drain now (what a crash left pending), then one every pollMs (null: none); resolves after that first drain. */
  start(): Promise<void>;
  /** Stops polling and waits for a drain in progress. */
  stop(): Promise<void>;
}

/** When a worker drains: polling once started, and whether nudge() drains when it is not started. */
export interface WorkerSchedule {
  /** Milliseconds between polls once started; null polls never (tests drain by hand). */
  pollMs: number | null;
  /** Whether nudge() drains without start() (the test app: the work is done right after the request). */
  nudgeWhenStopped?: boolean;
  /**
   * Who this worker is across restarts (main.ts: instanceIdOf). Claims carry it, and start() makes
   * the rows this instance had claimed when it died due again, instead of waiting out LEASE_MS.
   * Default: a new id per worker (a test app), whose claims only the lease ends.
   */
  instanceId?: string;
}

export interface QueueWorkerDeps extends WorkerSchedule {
  db: Db;
  queue: OutboxQueue;
  now: () => number;
  /** Delivers one claimed row: resolves once the far side accepted it, throws otherwise. */
  deliver(row: OutboxRow): Promise<void>;
  /** Marks of the queue's own, written in the transaction that marks the row sent. */
  onDelivered?(tx: Db, row: OutboxRow, at: Date): Promise<void>;
  /** Told about a failed attempt (facts only); final: the row is failed now. Its own failure is ignored. */
  onFailure(row: OutboxRow | null, failure: { error: string; code?: string }, final: boolean): void;
}

/** The worker of one queue of the outbox (see the top of this file). */
export function createQueueWorker(deps: QueueWorkerDeps): OutboxWorker {
  const { db, now, queue } = deps;
  const instanceId = deps.instanceId ?? randomUUID();
  let running = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<number> | null = null;
  let starting: Promise<void> | null = null;

  const report = (row: OutboxRow | null, failure: { error: string; code?: string }, final: boolean) => {
    try {
      deps.onFailure(row, failure, final);
    } catch {
      // A failing log sink must not stop the worker.
    }
  };

  /** Claims up to BATCH due rows of the queue: attempt counted, leased so no other worker delivers them meanwhile. */
  async function claim() {
    const at = now();
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: t.outbox.id })
        .from(t.outbox)
        .where(and(eq(t.outbox.queue, queue), eq(t.outbox.status, 'pending'), lte(t.outbox.nextAttemptAt, new Date(at))))
        .orderBy(t.outbox.nextAttemptAt, t.outbox.id)
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(t.outbox)
        .set({ attempts: sql`${t.outbox.attempts} + 1`, nextAttemptAt: new Date(at + LEASE_MS), claimedBy: instanceId })
        .where(inArray(t.outbox.id, due.map((row) => row.id)))
        .returning();
    });
  }

  async function deliverOne(row: OutboxRow): Promise<boolean> {
    try {
      await deps.deliver(row);
    } catch (error) {
      const facts = errorFacts(error);
      const lastError = error instanceof DeliveryRefusedError ? error.reason : facts.error;
      const final = row.attempts >= MAX_ATTEMPTS;
      await db
        .update(t.outbox)
        .set(final ? { status: 'failed', lastError, claimedBy: null } : { lastError, claimedBy: null, nextAttemptAt: new Date(now() + BACKOFF_MS[row.attempts - 1]!) })
        .where(and(eq(t.outbox.id, row.id), eq(t.outbox.status, 'pending')));
      report(row, { ...facts, error: lastError }, final);
      return false;
    }
    const at = new Date(now());
    await db.transaction(async (tx) => {
      await tx.update(t.outbox).set({ status: 'sent', sentAt: at, lastError: null, claimedBy: null }).where(eq(t.outbox.id, row.id));
      await deps.onDelivered?.(tx, row, at);
    });
    return true;
  }

  async function drainOnce(): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await claim();
      if (rows.length === 0) return sent;
      for (const row of rows) if (await deliverOne(row)) sent += 1;
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

  /**
   * The rows this instance claimed before it died (SIGKILL mid-delivery): due now. Their attempt
   * may have reached the far side; the message id makes delivering it again harmless.
   */
  async function releaseOwnClaims(): Promise<void> {
    await db
      .update(t.outbox)
      .set({ claimedBy: null, nextAttemptAt: new Date(now()) })
      .where(and(eq(t.outbox.queue, queue), eq(t.outbox.status, 'pending'), eq(t.outbox.claimedBy, instanceId)));
  }

  async function safeDrain(): Promise<void> {
    try {
      await drain();
    } catch (error) {
      report(null, errorFacts(error), false);
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
      if (stopped) return;
      // A started worker drains in the background: the request that queued the mail (a payment
      // notice, a 100 % order, a share) answers without waiting on a PDF and SMTP, and the row,
      // committed already, is delivered either way (issue 19). A test app's stopped worker
      // drains before nudge resolves, so a test reads the mail right after the request.
      if (running) void safeDrain();
      else if (deps.nudgeWhenStopped) await safeDrain();
    },
    start() {
      // Called again (e.g. by a test after createApp started it): the same first drain.
      if (running && starting) return starting;
      running = true;
      stopped = false;
      starting = releaseOwnClaims()
        .catch((error: unknown) => report(null, errorFacts(error), false))
        .then(safeDrain)
        .then(schedule);
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

export interface OutboxWorkerDeps extends WorkerSchedule {
  db: Db;
  config: DeliveryConfig;
  now: () => number;
  logError: LogError;
  /** The mail transport (default: the configured SMTP server or the .eml outbox directory). */
  transport?: MailTransport;
}

/** The mail queue's worker: certificate mails built at each attempt, rendered mails from their payload. */
export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker {
  const { db } = deps;
  const mailer = createMailer(db, deps.config, deps.now, deps.transport);
  return createQueueWorker({
    db,
    queue: 'mail',
    now: deps.now,
    pollMs: deps.pollMs,
    nudgeWhenStopped: deps.nudgeWhenStopped,
    instanceId: deps.instanceId,
    async deliver(row) {
      await mailer.send(await mailOf(db, deps.config, row), { messageId: row.messageId, outboxId: row.id, queuedAt: row.createdAt });
    },
    async onDelivered(tx, row, at) {
      if (row.policyId === null) return;
      await tx.update(t.policies).set({ mailedAt: at }).where(and(eq(t.policies.id, row.policyId), isNull(t.policies.mailedAt)));
    },
    onFailure(row, failure, final) {
      deps.logError({ event: 'policy_mail_failed', policy_id: row?.policyId ?? null, outbox_id: row?.id ?? 0, attempt: row?.attempts ?? 0, final, ...failure });
    },
  });
}

/** The message a mail row stands for: a policy's certificate mail, built now, or the mail rendered when it was queued. */
async function mailOf(db: Db, config: DeliveryConfig, row: OutboxRow): Promise<OutgoingMail> {
  if (row.kind === 'policy' && row.policyId !== null) return policyOutgoingMail(db, config, row.policyId);
  const mail = row.payload as Partial<RenderedMail> | null;
  if (mail && typeof mail.to === 'string' && typeof mail.subject === 'string' && typeof mail.text === 'string' && typeof mail.html === 'string') {
    return { kind: row.kind, leadId: typeof mail.leadId === 'number' ? mail.leadId : null, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html };
  }
  throw new UnknownMailKindError();
}

/** An outbox row of a kind this worker cannot build. */
export class UnknownMailKindError extends Error {}
