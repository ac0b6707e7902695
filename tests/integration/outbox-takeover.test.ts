import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import type Mail from 'nodemailer/lib/mailer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { createOutboxWorker, LEASE_MS, MAX_ATTEMPTS, OUTAGE_RETRY_MS, pollWaitMs, TAKEOVER_AFTER_MS } from '../../src/server/mail/outbox';
import type { MailTransport } from '../../src/server/mail/mailer';
import { createSandboxFeedbackWorker, queueSandboxFeedbackInTx } from '../../src/server/payments/sandbox-feedback';
import { testConfig } from '../support/test-app';
import { FIXED_NOW, type LeadTestApp } from './lead-fixtures';
import { apsResponse, createPaymentTestApp, pendingOrder, postNotice } from './payment-fixtures';
import { WAIT_GUARD_MS } from '../support/wait-guard';

/**
 * Issue 34 item 4: outbox claims of a dead instance go back to the queue once its heartbeat is
 * TAKEOVER_AFTER_MS old by the database's clock, and an instance that was only slow delivers
 * nothing that was taken from it. Heartbeats are aged in the database (now() - age), never waited
 * for; app clocks are the workers' injected `now`. Also the outbox's side of an outage: a full
 * disk keeps the row and its attempts, and a database away neither kills nor spins the poll.
 */

const idle = { mailWorker: { pollMs: null, start: false, nudgeWhenStopped: false } } as const;
const outboxDir = mkdtempSync(path.join(tmpdir(), 'safar-takeover-outbox-'));

let app: LeadTestApp;
beforeAll(async () => {
  app = await createPaymentTestApp({ ...idle, config: testConfig({ outboxDir }) });
});
afterAll(() => app.close());

/** Pays a pending order through the gateway's feedback: one queued certificate mail. */
async function paidMailRow() {
  const pending = await pendingOrder(app);
  expect((await postNotice(app, 'feedback', apsResponse(pending.order))).status).toBe(200);
  const [policy] = await app.db.select().from(t.policies).where(eq(t.policies.orderId, pending.order.id));
  const [row] = await app.db.select().from(t.outbox).where(eq(t.outbox.policyId, policy!.id));
  return row!;
}

const rowById = async (id: number) => (await app.db.select().from(t.outbox).where(eq(t.outbox.id, id)))[0]!;
const logRows = (messageIds: string[]) => app.db.select().from(t.mailLog).where(inArray(t.mailLog.messageId, messageIds));
const emlWith = (messageId: string) => readdirSync(outboxDir).filter((file) => file.endsWith('.eml') && readFileSync(path.join(outboxDir, file), 'latin1').includes(messageId));

/** Sets an instance's heartbeat to the database's now() minus `ms` (written if it had none). */
async function heartbeatAged(instanceId: string, ms: number) {
  const at = sql`now() - ${ms}::int * interval '1 millisecond'`;
  await app.db.insert(t.outboxInstances).values({ instanceId, heartbeatAt: at }).onConflictDoUpdate({ target: t.outboxInstances.instanceId, set: { heartbeatAt: at } });
}

/** What a SIGKILL mid-delivery leaves: the attempt counted, the row claimed by the dead instance under its lease. */
const claimedBy = (id: number, instanceId: string) =>
  app.db.update(t.outbox).set({ attempts: 1, claimedBy: instanceId, nextAttemptAt: new Date(FIXED_NOW + LEASE_MS) }).where(eq(t.outbox.id, id));

/** A mail worker of one instance over the test database. */
const mailWorker = (instanceId: string, options: { now?: () => number; transport?: MailTransport; db?: Db; pollMs?: number | null; logError?: () => void } = {}) =>
  createOutboxWorker({
    db: options.db ?? app.db,
    config: testConfig({ outboxDir }),
    now: options.now ?? (() => FIXED_NOW),
    logError: options.logError ?? (() => {}),
    pollMs: options.pollMs ?? null,
    instanceId,
    transport: options.transport,
  });

/** An SMTP server's acceptance, recorded (the transport mocked at the edge). */
function recordingTransport(hold?: Promise<void>) {
  const messageIds: string[] = [];
  const transport: MailTransport = {
    async sendMail(options: Mail.Options) {
      messageIds.push(String(options.messageId));
      if (hold && messageIds.length === 1) await hold;
      return { messageId: options.messageId };
    },
  };
  return { messageIds, transport };
}

describe('a dead instance (its heartbeat older than N by the database clock)', () => {
  it(`keeps its claims while its heartbeat is ${TAKEOVER_AFTER_MS / 1000 - 1} s old, even to an instance whose clock is an hour past the lease; at ${TAKEOVER_AFTER_MS / 1000 + 1} s another instance takes them back and sends each once`, async () => {
    const row = await paidMailRow();
    await claimedBy(row.id, 'dead-a:8080');
    await heartbeatAged('dead-a:8080', TAKEOVER_AFTER_MS - 1_000);
    const other = mailWorker('live-b:8080', { now: () => FIXED_NOW + 3_600_000 });

    expect(await other.drain()).toBe(0);
    expect(await rowById(row.id)).toMatchObject({ status: 'pending', claimedBy: 'dead-a:8080', attempts: 1 });
    expect(emlWith(row.messageId)).toEqual([]);

    await heartbeatAged('dead-a:8080', TAKEOVER_AFTER_MS + 1_000);
    expect(await other.drain()).toBe(1);
    expect(await rowById(row.id)).toMatchObject({ status: 'sent', claimedBy: null, attempts: 2 });
    expect(await logRows([row.messageId])).toHaveLength(1);
    expect(emlWith(row.messageId)).toHaveLength(1);
  });

  it('its claims go back to where they stood in the queue (when they were claimed), ahead of rows that became due after it died', async () => {
    const claimed = await paidMailRow();
    const later = await paidMailRow();
    const clock = FIXED_NOW + 60_000;
    await claimedBy(claimed.id, 'dead-j:8080');
    // Queued after the claim, due a minute later, before the takeover.
    await app.db.update(t.outbox).set({ nextAttemptAt: new Date(FIXED_NOW + 30_000) }).where(eq(t.outbox.id, later.id));
    await heartbeatAged('dead-j:8080', TAKEOVER_AFTER_MS + 1_000);
    const smtp = recordingTransport();
    expect(await mailWorker('live-k:8080', { now: () => clock, transport: smtp.transport }).drain()).toBe(2);
    expect(smtp.messageIds).toEqual([claimed.messageId, later.messageId]);
  });

  it('its claims in every queue go back at once: a mail worker\'s claim frees the dead instance\'s feedback row too, which the feedback worker then posts once', async () => {
    const mail = await paidMailRow();
    const feedbackId = await app.db.transaction((tx) => queueSandboxFeedbackInTx(tx as unknown as Db, { merchant_reference: 'TAKEOVER-1' }, FIXED_NOW));
    await claimedBy(mail.id, 'dead-c:8080');
    await claimedBy(feedbackId, 'dead-c:8080');
    await heartbeatAged('dead-c:8080', TAKEOVER_AFTER_MS + 1_000);
    const posted: string[] = [];
    const feedback = createSandboxFeedbackWorker({
      db: app.db,
      config: testConfig(),
      now: () => FIXED_NOW,
      logError: () => {},
      pollMs: null,
      instanceId: 'live-d:8080',
      gatewayFetch: async (_input, init) => {
        posted.push(String(init?.body));
        return new Response('ok', { status: 200 });
      },
    });

    expect(await mailWorker('live-d:8080').drain()).toBe(1);
    expect(await rowById(feedbackId)).toMatchObject({ status: 'pending', claimedBy: null });
    expect(await feedback.drain()).toBe(1);
    expect(posted).toEqual(['merchant_reference=TAKEOVER-1']);
    expect(await rowById(feedbackId)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

describe('an instance that is only slow (stalled past N inside a batch, its heartbeat stale)', () => {
  it('after another instance took its batch over, it delivers none of the rows it had not started; the one it was inside reaches the transport again under the same Message-ID and is logged once', async () => {
    const first = await paidMailRow();
    const second = await paidMailRow();
    let letGo!: () => void;
    const slow = recordingTransport(new Promise<void>((resolve) => (letGo = resolve)));
    const fast = recordingTransport();
    const stalled = mailWorker('slow-e:8080', { transport: slow.transport });
    const other = mailWorker('live-f:8080', { transport: fast.transport });

    const stalledDrain = stalled.drain();
    await vi.waitFor(() => expect(slow.messageIds).toEqual([first.messageId]), { timeout: WAIT_GUARD_MS });
    // Its heartbeat timer stalled with it.
    await heartbeatAged('slow-e:8080', TAKEOVER_AFTER_MS + 1_000);
    expect(await other.drain()).toBe(2);
    expect(fast.messageIds).toEqual([first.messageId, second.messageId]);

    letGo();
    await stalledDrain;
    expect(slow.messageIds).toEqual([first.messageId]);
    expect((await logRows([first.messageId, second.messageId])).map((log) => log.messageId).sort()).toEqual([first.messageId, second.messageId].sort());
    expect(await rowById(first.id)).toMatchObject({ status: 'sent', claimedBy: null });
    expect(await rowById(second.id)).toMatchObject({ status: 'sent', claimedBy: null, attempts: 2 });
  });

  it('before anyone took over, it gives the rows it had not started back to the queue and claims them afresh, so none is delivered under a stale heartbeat', async () => {
    const first = await paidMailRow();
    const second = await paidMailRow();
    let letGo!: () => void;
    const slow = recordingTransport(new Promise<void>((resolve) => (letGo = resolve)));
    const stalled = mailWorker('slow-g:8080', { transport: slow.transport });

    const stalledDrain = stalled.drain();
    await vi.waitFor(() => expect(slow.messageIds).toEqual([first.messageId]), { timeout: WAIT_GUARD_MS });
    await heartbeatAged('slow-g:8080', TAKEOVER_AFTER_MS + 1_000);
    letGo();
    expect(await stalledDrain).toBe(2);
    expect(slow.messageIds).toEqual([first.messageId, second.messageId]);
    expect(await rowById(first.id)).toMatchObject({ status: 'sent', attempts: 1 });
    // Claimed a second time, under a renewed heartbeat.
    expect(await rowById(second.id)).toMatchObject({ status: 'sent', attempts: 2 });
  });
});

/** A fs error as node raises it. */
const fsError = (code: string) => Object.assign(new Error(`${code}: no space left on device, write`), { code, errno: -28, syscall: 'write' });

describe('a full disk where the mail is written (the transport failing with ENOSPC or EDQUOT, mocked at the edge)', () => {
  it.each(['ENOSPC', 'EDQUOT'])('%s more often than the attempts allow: the row stays pending with no attempt spent, is tried again every OUTAGE_RETRY_MS, and is sent once when there is room again', async (code) => {
    const row = await paidMailRow();
    let clock = FIXED_NOW;
    const outage = MAX_ATTEMPTS + 2;
    const tried: string[] = [];
    const worker = mailWorker(`disk-${code}`, {
      now: () => clock,
      transport: {
        async sendMail(options: Mail.Options) {
          tried.push(String(options.messageId));
          if (tried.length <= outage) throw fsError(code);
          return { messageId: options.messageId };
        },
      },
    });
    for (let attempt = 1; attempt <= outage; attempt += 1) {
      expect(await worker.drain()).toBe(0);
      expect(tried).toHaveLength(attempt);
      expect(await rowById(row.id)).toMatchObject({ status: 'pending', attempts: 0, claimedBy: null, nextAttemptAt: new Date(clock + OUTAGE_RETRY_MS) });
      clock += OUTAGE_RETRY_MS - 1;
      expect(await worker.drain()).toBe(0);
      expect(tried).toHaveLength(attempt);
      clock += 1;
    }
    expect(await worker.drain()).toBe(1);
    expect(new Set(tried)).toEqual(new Set([row.messageId]));
    expect(await rowById(row.id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await logRows([row.messageId])).toHaveLength(1);
  });
});

/** What node-postgres raises when the server shuts the connection down (pg_ctl stop, a failover). */
const adminShutdown = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' });

/** The database client at the edge: every call of `methods` throws the shutdown while `away()` says so. */
function databaseAway(db: Db, away: (method: string) => boolean): Db {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (away(String(property))) throw adminShutdown();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('the database away (57P01) under a started worker', () => {
  it('the poll neither dies nor spins: each failed poll is one error line and waits twice as long as the last, and the worker sends the row by itself once the database is back', async () => {
    const row = await paidMailRow();
    let away = true;
    const lines: unknown[] = [];
    const pollMs = 20;
    const worker = mailWorker('away-h', { db: databaseAway(app.db, () => away), pollMs, logError: () => lines.push(1) });
    const started = performance.now();
    await worker.start();
    try {
      await vi.waitFor(() => expect(lines.length).toBeGreaterThanOrEqual(5), { timeout: WAIT_GUARD_MS });
      // Start's release and first drain, then polls after 40, 80 and 160 ms: timers never fire early.
      expect(performance.now() - started).toBeGreaterThanOrEqual(pollWaitMs(pollMs, 1) + pollWaitMs(pollMs, 2) + pollWaitMs(pollMs, 3));
      away = false;
      await vi.waitFor(async () => expect(await rowById(row.id)).toMatchObject({ status: 'sent', attempts: 1 }), { timeout: WAIT_GUARD_MS });
    } finally {
      away = false;
      await worker.stop();
    }
  });

  it('a drain cut off after its claim (the mark failed) gives the row back at its next drain instead of after the lease: sent once, marked sent', async () => {
    const row = await paidMailRow();
    let transactions = 0;
    const smtp = recordingTransport();
    // The first transaction is the claim; the second, the mark after the transport accepted.
    const worker = mailWorker('away-i', { db: databaseAway(app.db, (method) => method === 'transaction' && (transactions += 1) === 2), transport: smtp.transport });
    await expect(worker.drain()).rejects.toThrow('administrator command');
    expect(await rowById(row.id)).toMatchObject({ status: 'pending', claimedBy: 'away-i', attempts: 1 });

    expect(await worker.drain()).toBe(1);
    expect(smtp.messageIds).toEqual([row.messageId]);
    expect(await rowById(row.id)).toMatchObject({ status: 'sent', claimedBy: null, attempts: 2 });
    expect(await logRows([row.messageId])).toHaveLength(1);
  });
});
