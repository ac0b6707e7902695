import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { parseBrokerArgs, runBrokerCommand } from '../../src/server/admin/broker-commands';
import * as t from '../../src/server/db/schema';
import type { ErrorLogLine } from '../../src/server/http/error-handler';
import { BACKOFF_MS, LEASE_MS, MAX_ATTEMPTS, OUTAGE_RETRY_MS } from '../../src/server/mail/outbox';
import { createSandboxFeedbackWorker, feedbackFields } from '../../src/server/payments/sandbox-feedback';
import { testConfig } from '../support/test-app';
import { FIXED_NOW, type LeadTestApp } from './lead-fixtures';
import { createPaymentTestApp, orderRow, payOnCardPage, pendingOrder } from './payment-fixtures';

/**
 * The APS sandbox's direct transaction feedback as a durable outbox row (issue 18 item 1): queued
 * in the transaction that answers the card page, delivered by the aps-feedback worker to the
 * notification endpoint, retried with the outbox's backoff, claimed by one worker only, and
 * delivered by the next app's worker when the app stopped before its own ran, so an order the
 * sandbox paid is settled without anyone replaying it. Here the customer never comes back to
 * return_url: the feedback alone settles the order. Workers are drained by hand (not started, not
 * nudged) unless a test starts them.
 */

const IDLE = { pollMs: null, start: false, nudgeWhenStopped: false } as const;
const idleWorkers = { mailWorker: IDLE, feedbackWorker: IDLE } as const;

/** The feedback rows of an order (its merchant_reference is in the signed fields). */
async function feedbackRows(target: Pick<LeadTestApp, 'db'>, reference: string) {
  const rows = await target.db.select().from(t.outbox).where(eq(t.outbox.queue, 'aps-feedback')).orderBy(t.outbox.id);
  return rows.filter((row) => feedbackFields(row).merchant_reference === reference);
}

const policiesOf = (target: Pick<LeadTestApp, 'db'>, orderId: number) => target.db.select().from(t.policies).where(eq(t.policies.orderId, orderId));
const mailRowsOf = (target: Pick<LeadTestApp, 'db'>, policyId: number) =>
  target.db.select().from(t.outbox).where(and(eq(t.outbox.queue, 'mail'), eq(t.outbox.policyId, policyId)));

describe('a paid order whose feedback was not delivered before the app stopped', () => {
  let first: LeadTestApp;
  const outboxDir = mkdtempSync(path.join(tmpdir(), 'safar-feedback-restart-'));
  beforeAll(async () => {
    first = await createPaymentTestApp({ ...idleWorkers, config: testConfig({ outboxDir }) });
  });
  afterAll(() => first.close());

  /** The next server over the same database, its feedback worker started as main.ts starts it, the gateway's POSTs routed into it. */
  function nextApp(clock: () => number = () => FIXED_NOW) {
    const next: ReturnType<typeof createApp> = createApp({
      db: first.db,
      config: testConfig({ outboxDir }),
      staticDir: null,
      now: clock,
      logError: () => {},
      gatewayFetch: async (input, init) => next.request(String(input), init),
      mailWorker: IDLE,
      feedbackWorker: { pollMs: null, start: true },
    });
    return next;
  }

  it('stays pending with one queued feedback (the signed answer); the next app settles it at start: paid, one policy, one queued certificate mail, sent once', async () => {
    const { order } = await pendingOrder(first);
    const answer = await payOnCardPage(first, order);
    // The app stops here: the answer and its feedback row are committed, nothing was delivered.
    expect((await orderRow(first, order.merchantReference)).status).toBe('pending');
    const [queued, ...others] = await feedbackRows(first, order.merchantReference);
    expect(others).toEqual([]);
    expect(queued).toMatchObject({ kind: 'aps-feedback', status: 'pending', attempts: 0, policyId: null });
    expect(feedbackFields(queued!)).toEqual(answer);

    const next = nextApp();
    try {
      await next.feedbackWorker.start();
      expect(await orderRow(first, order.merchantReference)).toMatchObject({ status: 'paid', fortId: answer.fort_id, responseCode: '14000' });
      const policies = await policiesOf(first, order.id);
      expect(policies).toHaveLength(1);
      expect(await feedbackRows(first, order.merchantReference)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1, lastError: null })]);
      expect(await mailRowsOf(first, policies[0]!.id)).toEqual([expect.objectContaining({ kind: 'policy', status: 'pending' })]);
      expect(await next.mailWorker.drain()).toBe(1);
      expect(await next.feedbackWorker.drain()).toBe(0);
      expect(await policiesOf(first, order.id)).toHaveLength(1);
      expect(await mailRowsOf(first, policies[0]!.id)).toEqual([expect.objectContaining({ status: 'sent' })]);
    } finally {
      await next.feedbackWorker.stop();
    }
  });

  it('killed after the endpoint answered 200 but before the mark: delivered again after the lease, the notice repeated, still one policy and one mail', async () => {
    const { order } = await pendingOrder(first);
    await payOnCardPage(first, order);
    let clock = FIXED_NOW;
    const next = nextApp(() => clock);
    try {
      await next.feedbackWorker.start();
      const [row] = await feedbackRows(first, order.merchantReference);
      const [policy] = await policiesOf(first, order.id);
      // What the kill leaves: the mark never committed, the row still under its claim's lease.
      await first.db.update(t.outbox).set({ status: 'pending', sentAt: null, nextAttemptAt: new Date(FIXED_NOW + LEASE_MS) }).where(eq(t.outbox.id, row!.id));
      clock += LEASE_MS;
      expect(await next.feedbackWorker.drain()).toBe(1);
      expect(await feedbackRows(first, order.merchantReference)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2 })]);
      expect(await policiesOf(first, order.id)).toEqual([expect.objectContaining({ id: policy!.id })]);
      expect(await mailRowsOf(first, policy!.id)).toHaveLength(1);
      const notices = await first.db.select().from(t.paymentNotices).where(eq(t.paymentNotices.orderId, order.id));
      expect(notices.map((notice) => notice.verdict).sort()).toEqual(['applied', 'repeated']);
    } finally {
      await next.feedbackWorker.stop();
    }
  });
});

describe('a notification endpoint that does not acknowledge (mocked at the edge)', () => {
  let clock = FIXED_NOW;
  const posts: Record<string, string>[] = [];
  let answers: Array<() => Response | Promise<Response>> = [];
  let target: LeadTestApp;
  beforeAll(async () => {
    target = await createPaymentTestApp({
      ...idleWorkers,
      now: () => clock,
      gatewayFetch: async (_input, init) => {
        posts.push(Object.fromEntries(new URLSearchParams(String(init?.body))));
        return answers[posts.length - 1]!();
      },
    });
  });
  afterAll(() => target.close());

  async function broker(argv: string[]) {
    const out: string[] = [];
    const command = parseBrokerArgs(argv);
    if (typeof command === 'string') throw new Error(command);
    const code = await runBrokerCommand(target.db, command, { out: (text) => out.push(text), err: (text) => out.push(text) }, FIXED_NOW);
    return { code, out: out.join('\n') };
  }

  it('HTTP 500 every time: the same fields after 10 s, 1 min, 5 min and 30 min, then the row failed with "HTTP 500", listed by npm run broker -- mail, one log line', async () => {
    clock = FIXED_NOW;
    posts.length = 0;
    answers = Array.from({ length: MAX_ATTEMPTS + 1 }, () => () => new Response('down', { status: 500 }));
    const { order } = await pendingOrder(target);
    const answer = await payOnCardPage(target, order);

    expect(await target.app.feedbackWorker.drain()).toBe(0);
    for (const [index, wait] of BACKOFF_MS.entries()) {
      const [row] = await feedbackRows(target, order.merchantReference);
      expect(row).toMatchObject({ status: 'pending', attempts: index + 1, lastError: 'HTTP 500', nextAttemptAt: new Date(clock + wait) });
      clock += wait - 1;
      await target.app.feedbackWorker.drain();
      expect(posts).toHaveLength(index + 1);
      clock += 1;
      await target.app.feedbackWorker.drain();
      expect(posts).toHaveLength(index + 2);
    }
    expect(posts).toEqual(Array.from({ length: MAX_ATTEMPTS }, () => answer));
    const [failed] = await feedbackRows(target, order.merchantReference);
    expect(failed).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, lastError: 'HTTP 500', sentAt: null });
    expect((await orderRow(target, order.merchantReference)).status).toBe('pending');

    const listed = await broker(['mail', '--status', 'failed', '--json']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toContainEqual(
      expect.objectContaining({ id: failed!.id, kind: 'aps-feedback', reference: order.merchantReference, to: '/payments/aps/feedback', status: 'failed', attempts: MAX_ATTEMPTS, last_error: 'HTTP 500' }),
    );
    const table = (await broker(['mail', '--status', 'failed'])).out.split('\n');
    expect(table.find((line) => line.includes(order.merchantReference))).toMatch(/aps-feedback\s+\S+\s+\/payments\/aps\/feedback\s+failed\s+5\s+HTTP 500\s/);

    const gaveUp = target.errors.filter((line): line is Extract<ErrorLogLine, { event: 'error' }> => line.event === 'error' && line.route === '/payments/aps/feedback');
    expect(gaveUp).toEqual([expect.objectContaining({ method: 'POST', error: 'ApsSandboxFeedbackGaveUp (HTTP 500)' })]);
    // Facts only: the customer's e-mail, in the signed fields, is not logged.
    expect(JSON.stringify(target.errors)).not.toContain(answer.customer_email);
  });

  it('a 500, then no answer, then the real endpoint: posted at 0 s, 10 s and 70 s, and the third settles the order (paid, one policy); nothing logged', async () => {
    clock = FIXED_NOW;
    posts.length = 0;
    const errorsBefore = target.errors.length;
    answers = [
      () => new Response('busy', { status: 500 }),
      () => {
        throw new TypeError('fetch failed');
      },
    ];
    const { order } = await pendingOrder(target);
    await payOnCardPage(target, order);
    answers.push(() =>
      target.app.request('/payments/aps/feedback', { method: 'POST', body: new URLSearchParams(posts.at(-1)).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    );

    await target.app.feedbackWorker.drain();
    expect((await feedbackRows(target, order.merchantReference))[0]).toMatchObject({ attempts: 1, lastError: 'HTTP 500' });
    clock += BACKOFF_MS[0];
    await target.app.feedbackWorker.drain();
    expect((await feedbackRows(target, order.merchantReference))[0]).toMatchObject({ attempts: 2, lastError: 'no answer (TypeError)' });
    clock += BACKOFF_MS[1];
    expect(await target.app.feedbackWorker.drain()).toBe(1);

    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((post) => JSON.stringify(post))).size).toBe(1);
    expect(await feedbackRows(target, order.merchantReference)).toEqual([expect.objectContaining({ status: 'sent', attempts: 3, lastError: null })]);
    expect((await orderRow(target, order.merchantReference)).status).toBe('paid');
    expect(await policiesOf(target, order.id)).toHaveLength(1);
    expect(target.errors.slice(errorsBefore)).toEqual([]);
  });
});

describe('a notification endpoint in an outage (503: its database away or its disk full; mocked at the edge)', () => {
  it('answers 503 more often than the attempts allow: the row stays pending with no attempt spent, is posted again every OUTAGE_RETRY_MS, and the first 200 settles the order once', async () => {
    let clock = FIXED_NOW;
    const posts: string[] = [];
    const outage = MAX_ATTEMPTS + 2;
    const target: LeadTestApp = await createPaymentTestApp({
      ...idleWorkers,
      now: () => clock,
      gatewayFetch: async (input, init) => {
        posts.push(String(init?.body));
        if (posts.length <= outage) return new Response('away', { status: 503, headers: { 'retry-after': '5' } });
        return target.app.request(String(input), init);
      },
    });
    try {
      const { order } = await pendingOrder(target);
      await payOnCardPage(target, order);
      for (let tried = 1; tried <= outage; tried += 1) {
        expect(await target.app.feedbackWorker.drain()).toBe(0);
        expect(posts).toHaveLength(tried);
        expect(await feedbackRows(target, order.merchantReference)).toEqual([
          expect.objectContaining({ status: 'pending', attempts: 0, lastError: 'HTTP 503', nextAttemptAt: new Date(clock + OUTAGE_RETRY_MS) }),
        ]);
        // Not due a moment before its time.
        clock += OUTAGE_RETRY_MS - 1;
        expect(await target.app.feedbackWorker.drain()).toBe(0);
        expect(posts).toHaveLength(tried);
        clock += 1;
      }
      expect(await target.app.feedbackWorker.drain()).toBe(1);
      expect(new Set(posts).size).toBe(1);
      expect(await feedbackRows(target, order.merchantReference)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1, lastError: null })]);
      expect((await orderRow(target, order.merchantReference)).status).toBe('paid');
      expect(await policiesOf(target, order.id)).toHaveLength(1);
      // Not given up, so no error line: an outage is not the feedback's failure.
      expect(target.errors.filter((line) => line.event === 'error')).toEqual([]);
    } finally {
      await target.close();
    }
  });
});

describe('a batch of feedbacks (issue 34: a busy notification endpoint)', () => {
  it('is posted all at once: five due feedbacks are all under way before the endpoint answers any, then each is marked sent', async () => {
    const target = await createPaymentTestApp(idleWorkers);
    try {
      const references: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        const { order } = await pendingOrder(target);
        await payOnCardPage(target, order);
        references.push(order.merchantReference);
      }
      const underWay: string[] = [];
      let allThere!: () => void;
      const gate = new Promise<void>((resolve) => (allThere = resolve));
      const worker = createSandboxFeedbackWorker({
        db: target.db,
        config: testConfig(),
        now: () => FIXED_NOW,
        logError: () => {},
        pollMs: null,
        gatewayFetch: async (input, init) => {
          underWay.push(String(init?.body));
          if (underWay.length === 5) allThere();
          // The endpoint answers none until all five have arrived: one after the other would never get there.
          await gate;
          return target.app.request(String(input), init);
        },
      });
      expect(await worker.drain()).toBe(5);
      expect(underWay).toHaveLength(5);
      for (const reference of references) {
        expect(await feedbackRows(target, reference)).toEqual([expect.objectContaining({ status: 'sent', attempts: 1 })]);
        expect((await orderRow(target, reference)).status).toBe('paid');
      }
    } finally {
      await target.close();
    }
  });
});

describe('two instances over one database', () => {
  it('draining the same due feedback at once post it once (FOR UPDATE SKIP LOCKED and the lease)', async () => {
    const target = await createPaymentTestApp(idleWorkers);
    try {
      const { order } = await pendingOrder(target);
      await payOnCardPage(target, order);
      let posted = 0;
      const worker = () =>
        createSandboxFeedbackWorker({
          db: target.db,
          config: testConfig(),
          now: () => FIXED_NOW,
          logError: () => {},
          pollMs: null,
          gatewayFetch: async (input, init) => {
            posted += 1;
            return target.app.request(String(input), init);
          },
        });
      const [a, b] = await Promise.all([worker().drain(), worker().drain()]);
      expect(a + b).toBe(1);
      expect(posted).toBe(1);
      expect((await orderRow(target, order.merchantReference)).status).toBe('paid');
    } finally {
      await target.close();
    }
  });
});
