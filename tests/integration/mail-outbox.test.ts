import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type Mail from 'nodemailer/lib/mailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/server/app';
import { parseBrokerArgs, runBrokerCommand } from '../../src/server/admin/broker-commands';
import { openDatabase } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import { sendEmailByPageEndpoint } from '../../src/contract/quote.endpoints';
import { BACKOFF_MS, createOutboxWorker, LEASE_MS, MAX_ATTEMPTS } from '../../src/server/mail/outbox';
import { testConfig } from '../support/test-app';
import { onPostgres } from '../support/test-db';
import { FIXED_NOW, leadBody, type LeadTestApp } from './lead-fixtures';
import { apsResponse, createPaymentTestApp, pendingOrder, postNotice, type PendingOrder } from './payment-fixtures';
import { WAIT_GUARD_MS } from '../support/wait-guard';

/**
 * The mail outbox (issue 18 item 1): the certificate mail is an outbox row written in the
 * transaction that pays the order, sent by the worker (drained by hand here: the worker is not
 * started and not nudged), once, with one Message-ID on every attempt, retried with backoff, and
 * picked up at start by a new app on the same database after a "crash", and sent once even when
 * the crash falls between the transport's acceptance and the mark. Share-page mails are outbox
 * rows too. The broker lists and resends with `npm run broker -- mail`.
 */

/** The test app without a running worker: mail waits in the outbox until a test drains it. */
const idle = { mailWorker: { pollMs: null, start: false, nudgeWhenStopped: false } } as const;

let app: LeadTestApp;
beforeAll(async () => {
  app = await createPaymentTestApp(idle);
});
afterAll(() => app.close());

const outboxOf = (target: Pick<LeadTestApp, 'db'>, policyId: number) =>
  target.db.select().from(t.outbox).where(eq(t.outbox.policyId, policyId)).orderBy(t.outbox.id);
const policyOf = async (target: Pick<LeadTestApp, 'db'>, orderId: number) => (await target.db.select().from(t.policies).where(eq(t.policies.orderId, orderId)))[0]!;
const policyMails = async (target: Pick<LeadTestApp, 'db'>, leadId: number) =>
  (await target.db.select().from(t.mailLog).where(eq(t.mailLog.leadId, leadId))).filter((row) => row.kind === 'policy');

/** Pays a pending order through the gateway's feedback, as APS would. */
async function pay(target: LeadTestApp, pending: PendingOrder) {
  const res = await postNotice(target, 'feedback', apsResponse(pending.order));
  expect(res.status).toBe(200);
  return policyOf(target, pending.order.id);
}

describe('the policy mail is written in the paying transaction and sent by the worker', () => {
  it('a payment notice leaves exactly one pending outbox row and no mail before the worker runs; one drain sends it once, marks it sent and sets mailed_at', async () => {
    const pending = await pendingOrder(app);
    const policy = await pay(app, pending);

    expect(policy.mailedAt).toBeNull();
    expect(await policyMails(app, pending.lead.leadId)).toEqual([]);
    const [row] = await outboxOf(app, policy.id);
    expect(await outboxOf(app, policy.id)).toEqual([
      expect.objectContaining({ kind: 'policy', status: 'pending', attempts: 0, lastError: null, sentAt: null, createdAt: new Date(FIXED_NOW) }),
    ]);
    expect(row!.messageId).toMatch(/^<[0-9a-f-]{36}@[a-z.]+>$/);

    expect(await app.app.mailWorker.drain()).toBe(1);
    expect(await outboxOf(app, policy.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1, lastError: null, sentAt: new Date(FIXED_NOW) })]);
    expect((await policyOf(app, pending.order.id)).mailedAt).toEqual(new Date(FIXED_NOW));
    const mails = await policyMails(app, pending.lead.leadId);
    expect(mails).toHaveLength(1);
    // The message carries the outbox row's Message-ID, so a resend after a crash is recognisable.
    expect(readFileSync(mails[0]!.file!, 'latin1')).toContain(`Message-ID: ${row!.messageId}`);

    expect(await app.app.mailWorker.drain()).toBe(0);
    expect(await policyMails(app, pending.lead.leadId)).toHaveLength(1);
  });

  it('two workers draining at the same time send a claimed row once (FOR UPDATE SKIP LOCKED and the lease)', async () => {
    const pending = await pendingOrder(app);
    const policy = await pay(app, pending);
    const worker = () => createOutboxWorker({ db: app.db, config: testConfig(), now: () => FIXED_NOW, logError: () => {}, pollMs: null });
    const [first, second] = await Promise.all([worker().drain(), worker().drain()]);
    expect(first + second).toBe(1);
    expect(await policyMails(app, pending.lead.leadId)).toHaveLength(1);
    expect(await outboxOf(app, policy.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1 })]);
  });
});

describe('an instance killed while it held rows (SIGKILL between the claim and the mark)', () => {
  it('takes its own claims back when it starts again, at once; another instance waits out the lease', async () => {
    const pending = await pendingOrder(app);
    const policy = await pay(app, pending);
    // What a SIGKILL mid-delivery leaves: the attempt counted, the row leased to the dead instance.
    await app.db
      .update(t.outbox)
      .set({ attempts: 1, claimedBy: 'host-a:8080', nextAttemptAt: new Date(FIXED_NOW + LEASE_MS) })
      .where(eq(t.outbox.policyId, policy.id));
    const worker = (instanceId: string) =>
      createOutboxWorker({ db: app.db, config: testConfig(), now: () => FIXED_NOW, logError: () => {}, pollMs: null, instanceId });

    const other = worker('host-b:8080');
    await other.start();
    await other.stop();
    expect(await outboxOf(app, policy.id)).toEqual([expect.objectContaining({ status: 'pending', claimedBy: 'host-a:8080' })]);
    expect(await policyMails(app, pending.lead.leadId)).toHaveLength(0);

    const restarted = worker('host-a:8080');
    await restarted.start();
    await restarted.stop();
    expect(await outboxOf(app, policy.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, claimedBy: null })]);
    expect(await policyMails(app, pending.lead.leadId)).toHaveLength(1);
  });
});

class TransportDownError extends Error {}

describe('a mail transport that fails (the transport mocked at the edge)', () => {
  let failing: LeadTestApp;
  let clock = FIXED_NOW;
  const attempts: Mail.Options[] = [];
  beforeAll(async () => {
    failing = await createPaymentTestApp({
      ...idle,
      now: () => clock,
      mailTransport: {
        sendMail: async (options) => {
          attempts.push(options);
          throw new TransportDownError();
        },
      },
    });
  });
  afterAll(() => failing.close());

  it('is retried after 10 s, 1 min, 5 min and 30 min with the same Message-ID, then marked failed with the error class only', async () => {
    const pending = await pendingOrder(failing);
    const policy = await pay(failing, pending);
    const [queued] = await outboxOf(failing, policy.id);

    expect(await failing.app.mailWorker.drain()).toBe(0);
    for (const [index, wait] of BACKOFF_MS.entries()) {
      const [row] = await outboxOf(failing, policy.id);
      expect(row).toMatchObject({ status: 'pending', attempts: index + 1, lastError: 'TransportDownError', nextAttemptAt: new Date(clock + wait) });
      // Not due yet: a drain a moment before its time tries nothing.
      clock += wait - 1;
      await failing.app.mailWorker.drain();
      expect(attempts).toHaveLength(index + 1);
      clock += 1;
      await failing.app.mailWorker.drain();
      expect(attempts).toHaveLength(index + 2);
    }
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
    expect(new Set(attempts.map((options) => options.messageId))).toEqual(new Set([queued!.messageId]));
    expect(await outboxOf(failing, policy.id)).toEqual([expect.objectContaining({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'TransportDownError', sentAt: null })]);
    expect((await policyOf(failing, pending.order.id)).mailedAt).toBeNull();

    const lines = failing.errors.filter((line): line is Extract<ErrorLogLine, { event: 'policy_mail_failed' }> => line.event === 'policy_mail_failed');
    expect(lines.map((line) => [line.attempt, line.final, line.error])).toEqual([
      [1, false, 'TransportDownError'],
      [2, false, 'TransportDownError'],
      [3, false, 'TransportDownError'],
      [4, false, 'TransportDownError'],
      [5, true, 'TransportDownError'],
    ]);
    // Facts only: no address or name in the logs or the row.
    expect(JSON.stringify(failing.errors)).not.toContain(pending.lead.body.email);

    clock += 24 * 3600_000;
    await failing.app.mailWorker.drain();
    expect(attempts).toHaveLength(MAX_ATTEMPTS);
  });
});

// The crash is simulated by reopening a PGlite dump in a new app, which a PostgreSQL server has no equivalent of.
describe('a running worker sends beside the answer, not before it (issue 19)', () => {
  it('the payment notice answers while the transport still holds the certificate mail (the transport mocked at the edge), and the mail is sent once it lets go', async () => {
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const sent: Mail.Options[] = [];
    const running = await createPaymentTestApp({
      mailWorker: { pollMs: null, start: true, nudgeWhenStopped: false },
      mailTransport: {
        sendMail: async (options) => {
          await held;
          sent.push(options);
          return { accepted: [options.to], messageId: options.messageId };
        },
      },
    });
    try {
      const pending = await pendingOrder(running);
      // Before, the notice waited for the PDF and SMTP: it would never answer while the transport holds.
      const answer = await Promise.race([postNotice(running, 'feedback', apsResponse(pending.order)), new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 5000))]);
      expect(answer === 'still waiting' ? answer : answer.status).toBe(200);
      const policy = await policyOf(running, pending.order.id);
      expect(await outboxOf(running, policy.id)).toEqual([expect.objectContaining({ kind: 'policy', status: 'pending' })]);
      expect(sent).toHaveLength(0);
      letGo();
      await vi.waitFor(async () => expect(await outboxOf(running, policy.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1 })]), { timeout: WAIT_GUARD_MS });
      expect(sent).toHaveLength(1);
    } finally {
      letGo();
      await running.close();
    }
  });
});

describe.runIf(!onPostgres)('a crash between the commit and the mail (PGlite only: the crash is a dump reopened)', () => {
  it('the paid policy\'s mail is sent by the worker of the next app on the same database when it starts', async () => {
    const first = await createPaymentTestApp(idle);
    const pending = await pendingOrder(first);
    const policy = await pay(first, pending);
    // The process dies here: the worker never ran.
    const dump = await first.dump();
    await first.close();

    const database = await openDatabase({ memory: true, loadDataDir: dump });
    const next = createApp({ db: database.db, config: testConfig(), staticDir: null, now: () => FIXED_NOW, logError: () => {}, mailWorker: { pollMs: null, start: true } });
    try {
      await next.mailWorker.start();
      const target = { db: database.db };
      expect(await outboxOf(target, policy.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1, sentAt: new Date(FIXED_NOW) })]);
      expect(await policyMails(target, pending.lead.leadId)).toHaveLength(1);
      expect((await policyOf(target, pending.order.id)).mailedAt).toEqual(new Date(FIXED_NOW));
    } finally {
      await next.mailWorker.stop();
      await database.close();
    }
  });
});

/** The .eml files in `dir` that carry `text` (a policy number, a Message-ID). */
const emlWith = (dir: string, text: string) =>
  readdirSync(dir).filter((file) => file.endsWith('.eml') && readFileSync(path.join(dir, file), 'latin1').includes(text));
const logRowsOf = (target: Pick<LeadTestApp, 'db'>, messageId: string) => target.db.select().from(t.mailLog).where(eq(t.mailLog.messageId, messageId));

/**
 * The state a process killed between the transport's acceptance and the outbox's mark leaves in
 * the database: the mark is one transaction, so none of it committed; the row is still pending
 * under the lease its claim took, the policy not marked mailed. `logged: false` is a kill one
 * step earlier, after the .eml was written but before its mail_log row.
 */
async function loseTheMark(target: Pick<LeadTestApp, 'db'>, row: { id: number; messageId: string; policyId: number | null }, claimedAt: number, logged: boolean) {
  await target.db.update(t.outbox).set({ status: 'pending', sentAt: null, nextAttemptAt: new Date(claimedAt + LEASE_MS) }).where(eq(t.outbox.id, row.id));
  await target.db.update(t.policies).set({ mailedAt: null }).where(eq(t.policies.id, row.policyId!));
  if (!logged) await target.db.delete(t.mailLog).where(eq(t.mailLog.messageId, row.messageId));
}

describe('a crash between the transport accepting a message and the outbox marking it sent', () => {
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'safar-crash-outbox-'));
  let clock = FIXED_NOW;
  let target: LeadTestApp;
  beforeAll(async () => {
    target = await createPaymentTestApp({ ...idle, now: () => clock, config: testConfig({ outboxDir }) });
  });
  afterAll(() => target.close());
  // Each case pays at the fixed clock, as the signed requests are stamped.
  beforeEach(() => {
    clock = FIXED_NOW;
  });

  it.each([
    ['after its mail_log row', true],
    ['after the .eml, before its mail_log row', false],
  ])('file transport, killed %s: the next worker waits out the lease, then marks it sent without a second .eml (one file, one log row)', async (_when, logged) => {
    const pending = await pendingOrder(target);
    const policy = await pay(target, pending);
    const claimedAt = clock;
    expect(await target.app.mailWorker.drain()).toBe(1);
    const [row] = await outboxOf(target, policy.id);
    expect(emlWith(outboxDir, row!.messageId)).toHaveLength(1);
    await loseTheMark(target, { ...row!, policyId: policy.id }, claimedAt, logged);

    // The restarted server's worker: the row is leased, so not yet…
    const next = createOutboxWorker({ db: target.db, config: testConfig({ outboxDir }), now: () => clock, logError: () => {}, pollMs: null });
    clock += LEASE_MS - 1;
    expect(await next.drain()).toBe(0);
    // …then it is due again, and the message id is recognised as delivered.
    clock += 1;
    expect(await next.drain()).toBe(1);

    expect(await outboxOf(target, policy.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, sentAt: new Date(clock) })]);
    expect((await policyOf(target, pending.order.id)).mailedAt).toEqual(new Date(clock));
    const files = emlWith(outboxDir, row!.messageId);
    expect(files).toHaveLength(1);
    expect(emlWith(outboxDir, policy.policyNumber)).toEqual(files);
    const logs = await logRowsOf(target, row!.messageId);
    expect(logs).toEqual([expect.objectContaining({ kind: 'policy', file: path.join(outboxDir, files[0]!) })]);
    expect(await policyMails(target, pending.lead.leadId)).toHaveLength(1);
    // Nothing half-written is left beside it.
    expect(readdirSync(outboxDir).filter((file) => !file.endsWith('.eml'))).toEqual([]);
  });

  it('SMTP (the transport mocked at the edge), killed after it answered 250: the next worker does not hand the same message id to the transport again', async () => {
    const accepted: Mail.Options[] = [];
    const smtp = await createPaymentTestApp({
      ...idle,
      now: () => clock,
      mailTransport: {
        sendMail: async (options) => {
          accepted.push(options);
          return { messageId: options.messageId };
        },
      },
    });
    try {
      const pending = await pendingOrder(smtp);
      const policy = await pay(smtp, pending);
      const claimedAt = clock;
      expect(await smtp.app.mailWorker.drain()).toBe(1);
      const [row] = await outboxOf(smtp, policy.id);
      await loseTheMark(smtp, { ...row!, policyId: policy.id }, claimedAt, true);
      clock += LEASE_MS;
      expect(await smtp.app.mailWorker.drain()).toBe(1);
      expect(accepted.map((options) => options.messageId)).toEqual([row!.messageId]);
      expect(await outboxOf(smtp, policy.id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2 })]);
      expect(await logRowsOf(smtp, row!.messageId)).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });
});

describe('the share-page mail an agent sends is an outbox row too', () => {
  it('answers { sent: true } with the mail queued (worded as the agent saw the step); a worker that never ran leaves it to the next app, which sends it once', async () => {
    const outboxDir = mkdtempSync(path.join(tmpdir(), 'safar-share-crash-'));
    const first = await createPaymentTestApp({ ...idle, config: testConfig({ outboxDir }) });
    try {
      const lead = await first.save(leadBody());
      const res = await first.send(sendEmailByPageEndpoint.path, { uuid: lead.uuid, pagename: 'compare-quotes', link: 'http://safar.test/compare-quotes' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ data: { sent: true } });
      const row = await first.leadRow(lead.uuid);
      const queued = await first.db.select().from(t.outbox).where(and(eq(t.outbox.queue, 'mail'), eq(t.outbox.kind, 'share-compare-quotes')));
      expect(queued).toEqual([
        expect.objectContaining({ status: 'pending', attempts: 0, policyId: null, payload: expect.objectContaining({ leadId: row.id, to: row.email, subject: 'Your travel insurance quotes from Safar' }) as unknown }),
      ]);
      expect(await first.db.select().from(t.mailLog).where(eq(t.mailLog.leadId, row.id))).toEqual([]);

      // The process stops here; the next one starts its worker over the same database.
      const next = createApp({ db: first.db, config: testConfig({ outboxDir }), staticDir: null, now: () => FIXED_NOW, logError: () => {}, mailWorker: { pollMs: null, start: true } });
      await next.mailWorker.start();
      await next.mailWorker.stop();
      const logs = await first.db.select().from(t.mailLog).where(eq(t.mailLog.leadId, row.id));
      expect(logs).toEqual([expect.objectContaining({ kind: 'share-compare-quotes', toAddress: row.email, messageId: queued[0]!.messageId })]);
      expect(emlWith(outboxDir, queued[0]!.messageId)).toEqual([path.basename(logs[0]!.file!)]);
      expect(await first.db.select().from(t.outbox).where(eq(t.outbox.id, queued[0]!.id))).toEqual([expect.objectContaining({ status: 'sent', attempts: 1 })]);
    } finally {
      await first.close();
    }
  });
});

describe('the outbox folder keeps e-mails private (issue 33 part 4)', () => {
  it('the file transport creates the outbox folder 0700 and each policy .eml 0600, whatever the umask (this process runs under 022)', async () => {
    const outboxDir = path.join(mkdtempSync(path.join(tmpdir(), 'safar-private-outbox-')), 'outbox');
    const target = await createPaymentTestApp({ ...idle, config: testConfig({ outboxDir }) });
    try {
      const policy = await pay(target, await pendingOrder(target));
      expect(await target.app.mailWorker.drain()).toBe(1);
      const files = emlWith(outboxDir, policy.policyNumber);
      expect(files).toHaveLength(1);
      expect((statSync(path.join(outboxDir, files[0]!)).mode & 0o777).toString(8)).toBe('600');
      expect((statSync(outboxDir).mode & 0o777).toString(8)).toBe('700');
    } finally {
      await target.close();
    }
  });
});

describe('npm run broker -- mail', () => {
  async function broker(argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const command = parseBrokerArgs(argv);
    if (typeof command === 'string') return { code: 2, out: '', err: command };
    const code = await runBrokerCommand(app.db, command, { out: (text) => out.push(text), err: (text) => err.push(text) }, FIXED_NOW);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('lists the outbox newest first with kind, policy, to, status and attempts, filters by status, and resend queues the certificate mail again under a new message id', async () => {
    const pending = await pendingOrder(app);
    const policy = await pay(app, pending);

    const listed = await broker(['mail', '--status', 'pending', '--json']);
    expect(listed.code).toBe(0);
    const items = JSON.parse(listed.out) as Array<Record<string, unknown>>;
    expect(items).toEqual([expect.objectContaining({ kind: 'policy', policy_number: policy.policyNumber, to: pending.lead.body.email, status: 'pending', attempts: 0, last_error: null, sent: null })]);

    await app.app.mailWorker.drain();
    const table = await broker(['mail']);
    expect(table.code).toBe(0);
    const lines = table.out.split('\n');
    expect(lines[0]).toMatch(/^id\s+kind\s+policy\/order\s+to\s+status\s+attempts\s+last error\s+created\s+sent$/);
    expect(lines[2]).toContain(policy.policyNumber);
    expect(lines[2]).toContain('sent');
    expect((await broker(['mail', '--status=pending'])).out).toBe('No mail in the outbox.');

    const resent = await broker(['mail', 'resend', policy.policyNumber.toLowerCase()]);
    expect(resent.code).toBe(0);
    expect(resent.out).toContain(policy.policyNumber);
    const rows = await outboxOf(app, policy.id);
    expect(rows.map((row) => row.status)).toEqual(['sent', 'pending']);
    expect(rows[1]!.messageId).not.toBe(rows[0]!.messageId);
    expect(await app.app.mailWorker.drain()).toBe(1);
    expect(await policyMails(app, pending.lead.leadId)).toHaveLength(2);

    expect(await broker(['mail', 'resend', 'SFR-26-NOSUCH00'])).toMatchObject({ code: 2, err: expect.stringContaining('No policy numbered "SFR-26-NOSUCH00"') as unknown });
    expect(await broker(['mail', '--status', 'lost'])).toMatchObject({ code: 2, err: expect.stringContaining('--status is one of pending, sent, failed') as unknown });
    expect(await broker(['mail', 'resend'])).toMatchObject({ code: 2, err: 'mail resend takes one policy number.' });
  });
});
