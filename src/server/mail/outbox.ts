import { randomUUID } from 'node:crypto';
import { and, eq, exists, inArray, isNull, lt, lte, ne, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { errorFacts, type LogError } from '../http/error-handler';
import { policyOutgoingMail, type DeliveryConfig } from '../policies/deliver-policy';
import { createMailer, type MailTransport, type OutgoingMail } from './mailer';

/**
 * The outbox (issue 18 item 1). Work that must reach the world outside the database is an outbox
 * row, written in the transaction that causes it, so a crash after the commit loses nothing: the
 * worker of its queue, in every instance, delivers due rows at start, on its poll and when nudged
 * after a commit. Three queues share the table and this worker: `mail` (createOutboxWorker: the
 * policy certificate mail, queued in the paying transaction; share-page mails), `aps-feedback`
 * (payments/sandbox-feedback.ts: the embedded gateway's direct transaction feedback, queued in the
 * transaction that answers the sandbox session) and `aps-refund` (payments/aps-refund.ts: the
 * gateway's REFUND command, queued in the transaction that requests the refund). They are separate
 * workers so that delivering a feedback, whose receiver issues a policy and nudges the mail
 * worker, never waits on itself, nor a mail on a refund.
 *
 * Claiming: a short transaction takes up to BATCH due rows of the queue with FOR UPDATE SKIP
 * LOCKED (PGlite and PostgreSQL alike), counts the attempt and leases them (next_attempt_at = now
 * + LEASE_MS), then commits; the work is done outside it, so no transaction waits on SMTP or HTTP.
 * A second worker skips locked rows and sees claimed ones as not due. Sent: status sent and
 * sent_at (and the queue's own marks, e.g. a policy's mailed_at) in one transaction, only after
 * the far side accepted. Failed: retried after BACKOFF_MS[attempt - 1], failed after the last
 * attempt with the reason in last_error. Every attempt carries the row's message id; the mailer
 * does not send a message id twice (mail/mailer.ts), and the gateway's notification endpoint
 * applies a notice once, so a crash between acceptance and the mark delivers nothing twice.
 *
 * A dead instance (issue 34 item 4): every started worker writes its instance's heartbeat
 * (outbox_instances.heartbeat_at = the database's now()) every HEARTBEAT_MS, and so does every
 * claim. At each claim, a worker gives back to the queue the claims of any other instance whose
 * heartbeat is older than TAKEOVER_AFTER_MS (N = 10 s), so a SIGKILLed instance's rows are sent
 * by the others about N + pollMs after its last heartbeat instead of after LEASE_MS. Both ages are
 * the database's clock, so hosts whose clocks disagree cannot take each other for dead. The lease
 * stays, for claims of an instance that never wrote a heartbeat (claimed before this version).
 *
 * An instance that is only slow (an event loop stalled past N, a paused VM, a pool that kept its
 * heartbeat waiting) must not deliver what was taken from it. Before each row, its worker renews
 * its heartbeat only if it is still fresh and checks the row is still its own, in one statement
 * (stillMine); a takeover locks the stale instance's heartbeat row (FOR UPDATE) while it releases
 * its claims, so the two never interleave: either the takeover found the heartbeat stale first and
 * the slow instance skips the row (and gives it back if it still held it), or the heartbeat was
 * renewed first and the takeover leaves the instance alone. What is left is an instance that
 * stalls for more than N inside one delivery, after its check: then a row can reach the far side
 * twice, under the same message id, which the mailer (mail_log, the .eml name) and the
 * notification endpoint (a notice applies once) recognise; over SMTP, receivers drop a second
 * copy of a Message-ID. The marks are written only by the row's holder (a failure) or are true
 * whoever writes them (sent).
 *
 * An outage is not the message's fault: a full disk (ENOSPC, EDQUOT, PostgreSQL class 53) or the
 * database going away (class 08, 57P01–57P03) while delivering keeps the row pending, gives its
 * attempt back and tries again after OUTAGE_RETRY_MS, however long it lasts; the notification
 * endpoint answering 503 is the same. A drain that fails on the database (the claim, a mark)
 * polls again after a wait that doubles up to MAX_POLL_BACKOFF_MS, and the rows it held are given
 * back at its next drain instead of waiting out the lease.
 */

/** The waits after failed attempts 1…4; attempt 5 failing marks the row failed. */
export const BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000] as const;
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;
/**
 * How long a claimed row is not due for other workers when its holder has no heartbeat row (a
 * claim made before heartbeats existed); a holder with one loses its claims only by the takeover.
 * An instance that restarts takes its own claims back at once (start).
 */
export const LEASE_MS = 2 * 60_000;
const BATCH = 5;
/** How often a started worker writes its instance's heartbeat. */
export const HEARTBEAT_MS = 2_000;
/**
 * N: a heartbeat older than this (database clock) is an instance taken for dead, whose claims go
 * back to the queue. Five heartbeats missed: long enough that a live instance under load (a busy
 * pool, a GC pause, a stalled event loop of a few seconds) keeps its claims, short enough that a
 * dead one's wait stays under 15 s with a poll of a second.
 */
export const TAKEOVER_AFTER_MS = 10_000;
/** When a delivery met an outage (a full disk, the database away), the row is tried again after this, its attempt given back. */
export const OUTAGE_RETRY_MS = 10_000;
/** A drain that failed (the database away) polls again after pollMs, doubled at each failure in a row up to this. */
export const MAX_POLL_BACKOFF_MS = 10_000;

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
  constructor(
    readonly reason: string,
    /** The far side is ours and said it is in an outage (503): not the message's fault. */
    readonly outage = false,
  ) {
    super(reason);
  }
}

/** SQLSTATEs of a database that is away or out of room: class 08 (connection), 53 (insufficient resources), 57P01–57P03 (shut down, starting). */
const DATABASE_OUTAGE = /^(08...|53...|57P0[123])$/;

/**
 * Whether a delivery failed because of an outage rather than the message: a full disk where the
 * .eml is written (ENOSPC, EDQUOT, anywhere in the cause chain), the database away or full, or
 * our own endpoint saying so (DeliveryRefusedError with outage).
 */
export function isOutage(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    if (current instanceof DeliveryRefusedError && current.outage) return true;
    const code = (current as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || (typeof code === 'string' && DATABASE_OUTAGE.test(code))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The wait before the next poll after `failures` failed drains in a row: pollMs, doubled at each
 * failure up to MAX_POLL_BACKOFF_MS (never below pollMs), so a database away costs a few error
 * lines a minute, not a spin, and the first poll that works brings the wait back to pollMs.
 */
export function pollWaitMs(pollMs: number, failures: number): number {
  return failures === 0 ? pollMs : Math.min(pollMs * 2 ** Math.min(failures, 30), Math.max(pollMs, MAX_POLL_BACKOFF_MS));
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
   * Who this worker is across restarts (main.ts: host:port, or "embedded"). Claims carry it, its
   * heartbeat is written under it, and start() makes the rows this instance had claimed when it
   * died due again at once. Default: a new id per worker (a test app).
   */
  instanceId?: string;
}

export interface QueueWorkerDeps<Delivered = void> extends WorkerSchedule {
  db: Db;
  queue: OutboxQueue;
  now: () => number;
  /** Delivers one claimed row: resolves once the far side accepted it (with what it answered), throws otherwise. */
  deliver(row: OutboxRow): Promise<Delivered>;
  /** Marks of the queue's own, written in the transaction that marks the row sent, from what deliver resolved with. */
  onDelivered?(tx: Db, row: OutboxRow, at: Date, delivered: Delivered): Promise<void>;
  /** Told about a failed attempt (facts only); final: the row is failed now. Its own failure is ignored. */
  onFailure(row: OutboxRow | null, failure: { error: string; code?: string }, final: boolean): void;
  /**
   * How many rows of a claimed batch are delivered at once (default 1: one after the other, so a
   * worker that stalls holds one delivery under way, not the batch). More for a queue whose far
   * side takes a notice once and whose deliveries wait on the network, not this process.
   */
  concurrency?: number;
}

/**
 * The onFailure of a queue whose far side is an HTTP endpoint (the sandbox's feedback, the
 * gateway's REFUND): nothing for an attempt that will be tried again; one error line, under
 * `route`, when a row is given up (`<gaveUp> (<reason>)`) or a drain failed (the reason alone).
 */
export function logGivingUp(logError: LogError, route: string, gaveUp: string): QueueWorkerDeps<unknown>['onFailure'] {
  return (row, failure, final) => {
    if (row !== null && !final) return;
    logError({
      event: 'error',
      request_id: randomUUID(),
      method: 'POST',
      route,
      error: row === null ? failure.error : `${gaveUp} (${failure.error})`,
      ...(failure.code ? { code: failure.code } : {}),
    });
  };
}

/** The worker of one queue of the outbox (see the top of this file). */
export function createQueueWorker<Delivered = void>(deps: QueueWorkerDeps<Delivered>): OutboxWorker {
  const { db, now, queue } = deps;
  const instanceId = deps.instanceId ?? randomUUID();
  let running = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<number> | null = null;
  let starting: Promise<void> | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  /** Drains that failed in a row: the poll waits longer after each (the database away). */
  let failures = 0;
  /** A drain failed while it may have held rows: the next drain gives them back first. */
  let orphaned = false;

  const report = (row: OutboxRow | null, failure: { error: string; code?: string }, final: boolean) => {
    try {
      deps.onFailure(row, failure, final);
    } catch {
      // A failing log sink must not stop the worker.
    }
  };

  const instances = t.outboxInstances;
  /** The database's now() minus N: a heartbeat older than this is an instance taken for dead. */
  const staleBefore = sql`now() - ${TAKEOVER_AFTER_MS}::int * interval '1 millisecond'`;

  /** Writes this instance's heartbeat: the database's now(). */
  const beat = (tx: Db) =>
    tx
      .insert(instances)
      .values({ instanceId, heartbeatAt: sql`now()` })
      .onConflictDoUpdate({ target: instances.instanceId, set: { heartbeatAt: sql`now()` } });

  /**
   * Gives back to the queue (every queue: the other queue's worker finds them due at its next
   * poll) the claims of other instances whose heartbeat is older than N. Their heartbeat rows are
   * locked until the commit, and one another worker holds already is skipped: it is being taken
   * over, or that instance is renewing it right now (then it is alive).
   */
  async function takeOver(tx: Db, at: number): Promise<void> {
    const dead = await tx
      .select({ id: instances.instanceId })
      .from(instances)
      .where(
        and(
          ne(instances.instanceId, instanceId),
          lt(instances.heartbeatAt, staleBefore),
          exists(
            tx
              .select({ id: t.outbox.id })
              .from(t.outbox)
              .where(and(eq(t.outbox.claimedBy, instances.instanceId), eq(t.outbox.status, 'pending'))),
          ),
        ),
      )
      .for('update', { of: instances, skipLocked: true });
    if (dead.length === 0) return;
    // Back to where they stood in the queue (their claim's time: the lease it set, less LEASE_MS),
    // ahead of what became due since, and due now whatever the dead instance's clock said.
    await tx
      .update(t.outbox)
      .set({ claimedBy: null, nextAttemptAt: sql`least(${t.outbox.nextAttemptAt} - ${LEASE_MS}::int * interval '1 millisecond', to_timestamp(${at}::float8 / 1000))` })
      .where(and(eq(t.outbox.status, 'pending'), inArray(t.outbox.claimedBy, dead.map((row) => row.id))));
  }

  /**
   * Claims up to BATCH due rows of the queue: attempt counted, leased so no other worker delivers
   * them meanwhile, and this instance's heartbeat written with them; a dead instance's claims are
   * made due first. A row another instance holds is never due while that instance has a heartbeat
   * row, whatever this instance's clock says of the lease: only the takeover (database clock)
   * takes it. The lease is for claims of an instance without one (claimed before this version).
   */
  async function claim() {
    const at = now();
    return db.transaction(async (tx) => {
      await takeOver(tx, at);
      const holderBeats = tx.select({ id: instances.instanceId }).from(instances).where(eq(instances.instanceId, t.outbox.claimedBy));
      const due = await tx
        .select({ id: t.outbox.id })
        .from(t.outbox)
        .where(
          and(
            eq(t.outbox.queue, queue),
            eq(t.outbox.status, 'pending'),
            lte(t.outbox.nextAttemptAt, new Date(at)),
            or(isNull(t.outbox.claimedBy), notExists(holderBeats)),
          ),
        )
        .orderBy(t.outbox.nextAttemptAt, t.outbox.id)
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      await beat(tx);
      const claimed = await tx
        .update(t.outbox)
        .set({ attempts: sql`${t.outbox.attempts} + 1`, nextAttemptAt: new Date(at + LEASE_MS), claimedBy: instanceId })
        .where(inArray(t.outbox.id, due.map((row) => row.id)))
        .returning();
      // In the queue's order: RETURNING follows no order, and a row just given back is stored last.
      const place = new Map(due.map((row, index) => [row.id, index]));
      return claimed.sort((a, b) => place.get(a.id)! - place.get(b.id)!);
    });
  }

  /**
   * Right before a delivery: renews this instance's heartbeat if it is still fresh and answers
   * whether the row is still this instance's to deliver, in one statement. Under a takeover that
   * holds the heartbeat row, the renewal waits for it and then finds the heartbeat stale.
   */
  async function stillMine(row: OutboxRow): Promise<boolean> {
    const result = (await db.execute(sql`
      with renewed as (
        update ${instances} set heartbeat_at = now()
        where ${instances.instanceId} = ${instanceId} and ${instances.heartbeatAt} >= ${staleBefore}
        returning 1
      )
      select 1 as mine from ${t.outbox}
      where ${t.outbox.id} = ${row.id} and ${t.outbox.status} = 'pending' and ${t.outbox.claimedBy} = ${instanceId}
        and exists (select 1 from renewed)`)) as unknown as { rows: unknown[] };
    if (result.rows.length > 0) return true;
    // Taken for dead while it stalled: what it still holds goes back to the queue (due now), for
    // whichever worker claims it next, this one included.
    await db
      .update(t.outbox)
      .set({ claimedBy: null, nextAttemptAt: new Date(now()) })
      .where(and(eq(t.outbox.id, row.id), eq(t.outbox.status, 'pending'), eq(t.outbox.claimedBy, instanceId)));
    return false;
  }

  async function deliverOne(row: OutboxRow): Promise<boolean> {
    if (!(await stillMine(row))) return false;
    let delivered: Delivered;
    try {
      delivered = await deps.deliver(row);
    } catch (error) {
      const facts = errorFacts(error);
      const lastError = error instanceof DeliveryRefusedError ? error.reason : facts.error;
      // Only the row's holder records a failure: a row taken over meanwhile is the new holder's.
      const held = and(eq(t.outbox.id, row.id), eq(t.outbox.status, 'pending'), eq(t.outbox.claimedBy, instanceId));
      if (isOutage(error)) {
        // A full disk or a database away: the attempt is given back and the row waits the outage out.
        await db
          .update(t.outbox)
          .set({ lastError, claimedBy: null, attempts: sql`greatest(${t.outbox.attempts} - 1, 0)`, nextAttemptAt: new Date(now() + OUTAGE_RETRY_MS) })
          .where(held);
        report(row, { ...facts, error: lastError }, false);
        return false;
      }
      const final = row.attempts >= MAX_ATTEMPTS;
      await db
        .update(t.outbox)
        .set(final ? { status: 'failed', lastError, claimedBy: null } : { lastError, claimedBy: null, nextAttemptAt: new Date(now() + BACKOFF_MS[row.attempts - 1]!) })
        .where(held);
      report(row, { ...facts, error: lastError }, final);
      return false;
    }
    const at = new Date(now());
    await db.transaction(async (tx) => {
      await tx.update(t.outbox).set({ status: 'sent', sentAt: at, lastError: null, claimedBy: null }).where(eq(t.outbox.id, row.id));
      await deps.onDelivered?.(tx, row, at, delivered);
    });
    return true;
  }

  async function drainOnce(): Promise<number> {
    let sent = 0;
    try {
      if (orphaned) {
        // No drain of this worker runs now, so whatever this queue's rows it still holds were left
        // by the drain that failed: due again now, not after the lease (no one takes them over
        // from a live instance).
        await releaseOwnClaims();
        orphaned = false;
      }
      const concurrency = Math.max(1, deps.concurrency ?? 1);
      for (;;) {
        const rows = await claim();
        if (rows.length === 0) return sent;
        for (let start = 0; start < rows.length; start += concurrency) {
          // Each settles before the drain goes on or fails, so nothing it claimed is still under way after it.
          const settled = await Promise.allSettled(rows.slice(start, start + concurrency).map(deliverOne));
          sent += settled.filter((result) => result.status === 'fulfilled' && result.value).length;
          const failed = settled.find((result) => result.status === 'rejected');
          if (failed) throw failed.reason;
        }
      }
    } catch (error) {
      orphaned = true;
      throw error;
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
      failures = 0;
    } catch (error) {
      failures += 1;
      report(null, errorFacts(error), false);
    }
  }

  function schedule() {
    if (stopped || deps.pollMs === null) return;
    timer = setTimeout(() => {
      void safeDrain().then(schedule);
    }, pollWaitMs(deps.pollMs, failures));
    timer.unref?.();
  }

  /**
   * The heartbeat, every HEARTBEAT_MS while started. A failure is not reported: the database away
   * fails the drains too, and they say so.
   */
  function startHeartbeat() {
    if (heartbeat) return;
    // Wrapped, so a client that throws at once rather than rejecting still never reaches the process.
    const tick = () => void Promise.resolve().then(() => beat(db)).catch(() => undefined);
    tick();
    heartbeat = setInterval(tick, HEARTBEAT_MS);
    heartbeat.unref?.();
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
      startHeartbeat();
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
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      if (current) await current.catch(() => 0);
      // Nothing is being delivered now: what this queue's rows it still holds (a drain that failed
      // on the database) are due at once for the other instances, not after the lease.
      await releaseOwnClaims().catch(() => undefined);
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
