import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCheckoutEndpoint } from '../../contract/checkout.endpoints';
import type { CancellationRequestItem } from '../../contract/broker-console';
import { parseBrokerArgs, runBrokerArgs } from '../admin/broker-commands';
import { listAudit } from '../admin/audit-log';
import * as t from '../db/schema';
import { FIXED_NOW, type LeadTestApp } from '../../../tests/integration/lead-fixtures';
import { createPaymentTestApp, leadAtCheckout } from '../../../tests/integration/payment-fixtures';
import { listCancellationRequests } from './cancellation-requests';

/**
 * The broker's side of the customers' cancellation requests (issue 37 item 2): `npm run broker
 * -- cancellation-requests` lists them (open by default, newest first), `decline ID` keeps the
 * policy under the broker's name with its audit row, and cancelling the policy makes its open
 * request done in the same transaction. Policies are bought with FREE100 (nothing to refund);
 * the requests are written as the customer's policy page writes them (one row per policy).
 */

let app: LeadTestApp;
const CLI = { actor: 'cli:maya', canSendRefunds: false };
const broker = (...argv: string[]) => runBrokerArgs(app.db, argv, FIXED_NOW, CLI);

beforeAll(async () => {
  app = await createPaymentTestApp();
});
afterAll(() => app.close());

/** A policy bought with FREE100 by `name`, starting 1 April 2026 on the test's plain plan. */
async function policyOf(name: { first: string; last: string }) {
  const lead = await leadAtCheckout(app, { names: [name] });
  const res = await app.send(tempCheckoutEndpoint.path, { uuid: lead.uuid, total_price_vat: 0, language: 'en', coupon: 'FREE100' });
  expect(res.status).toBe(200);
  const [row] = await app.db
    .select({ policy: t.policies, order: t.orders })
    .from(t.policies)
    .innerJoin(t.orders, eq(t.orders.id, t.policies.orderId))
    .where(eq(t.policies.leadId, lead.leadId));
  return { ...row!.policy, merchantReference: row!.order.merchantReference, email: row!.order.contract!.customer.email, customerName: row!.order.contract!.customer.name };
}

/** The customer's request, as the policy page writes it, `minutesAgo` before the clock. */
async function requestOf(policyId: number, reason: string, note: string, minutesAgo: number) {
  const [row] = await app.db
    .insert(t.cancellationRequests)
    .values({ policyId, reason, note, createdAt: new Date(FIXED_NOW - minutesAgo * 60_000) })
    .returning();
  return row!;
}

const requestRow = async (id: number) => (await app.db.select().from(t.cancellationRequests).where(eq(t.cancellationRequests.id, id)))[0]!;

describe('cancellation-requests', () => {
  it('lists the open requests newest first with policy, order, customer, trip start, plan, reason and note; --status and --json; none says so', async () => {
    expect(await broker('cancellation-requests')).toMatchObject({ code: 0, out: 'No open cancellation requests.', err: '' });
    const older = await policyOf({ first: 'Rania', last: 'Haddad' });
    const newer = await policyOf({ first: 'Karim', last: 'Nassar' });
    const first = await requestOf(older.id, 'visa_refused', 'The embassy said no.', 30);
    const second = await requestOf(newer.id, 'trip_cancelled', '', 5);

    const json = await broker('cancellation-requests', '--json');
    expect(json.code).toBe(0);
    const items = json.json as CancellationRequestItem[];
    expect(items.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(items[1]).toEqual({
      id: first.id,
      policy_number: older.policyNumber,
      merchant_reference: older.merchantReference,
      customer_name: older.customerName,
      email: older.email,
      trip_start: '2026-04-01',
      plan: { en: 'Test Plain Plan', ar: expect.any(String) as unknown },
      reason: 'visa_refused',
      note: 'The embassy said no.',
      created: new Date(FIXED_NOW - 30 * 60_000).toISOString(),
      status: 'open',
      handled_at: null,
      handled_by: null,
      policy_cancelled: null,
    });

    const text = await broker('cancellation-requests');
    const lines = text.out.split('\n');
    expect(lines[0]).toMatch(/^id\s+created\s+status\s+policy\s+customer\s+email\s+starts\s+plan\s+reason\s+note\s+handled$/);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toContain(newer.policyNumber);
    expect(lines[3]).toContain(older.policyNumber);
    expect(lines[3]).toContain('The embassy said no.');
    expect(lines[3]).toContain('2026-04-01');

    expect(await broker('cancellation-requests', '--status', 'declined')).toMatchObject({ code: 0, out: 'No declined cancellation requests.' });
    expect((await broker('cancellation-requests', '--status=all', '--json')).json).toHaveLength(2);
    expect((await listCancellationRequests(app.db, { status: 'all', policyNumber: ` ${older.policyNumber.toLowerCase()} ` })).map((item) => item.id)).toEqual([first.id]);
  });

  it('decline ID: declined under the broker\'s name, with its audit row; a second decline and an unknown id are refused with the reason, writing nothing', async () => {
    const policy = await policyOf({ first: 'Lina', last: 'Khoury' });
    const request = await requestOf(policy.id, 'other', 'Changed my mind.', 1);
    const run = await broker('cancellation-requests', 'decline', String(request.id));
    expect(run).toMatchObject({ code: 0, out: `Declined cancellation request ${request.id}: ${policy.policyNumber} stays in force.`, err: '' });
    expect(await requestRow(request.id)).toMatchObject({ status: 'declined', handledBy: 'cli:maya', handledAt: new Date(FIXED_NOW) });
    const [entry] = (await listAudit(app.db)).filter((item) => item.action === 'cancellation-requests.decline' && item.target === `cancellation request ${request.id}`);
    expect(entry).toMatchObject({ actor: 'cli:maya', before: { status: 'open', policy_number: policy.policyNumber }, after: { status: 'declined' } });
    expect((await app.db.select().from(t.policies).where(eq(t.policies.id, policy.id)))[0]!.cancelledAt).toBeNull();

    const listed = (await broker('cancellation-requests', '--status', 'declined', '--json')).json as CancellationRequestItem[];
    expect(listed.find((item) => item.id === request.id)).toMatchObject({ status: 'declined', handled_by: 'cli:maya', handled_at: new Date(FIXED_NOW).toISOString() });
    expect(((await broker('cancellation-requests', '--json')).json as CancellationRequestItem[]).map((item) => item.id)).not.toContain(request.id);

    const audits = (await listAudit(app.db)).length;
    for (const [id, said] of [
      [request.id, `Cancellation request ${request.id} (${policy.policyNumber}) is declined already: only an open request can be declined.`],
      [999_999, 'No cancellation request has the id 999999.'],
    ] as const) {
      const refused = await broker('cancellation-requests', 'decline', String(id));
      expect({ code: refused.code, first: refused.err.split('\n')[0] }).toEqual({ code: 2, first: said });
    }
    expect(await listAudit(app.db)).toHaveLength(audits);
  });

  it('two declines at once: one is taken, the other refused', async () => {
    const policy = await policyOf({ first: 'Omar', last: 'Saleh' });
    const request = await requestOf(policy.id, 'visa_refused', '', 1);
    const runs = await Promise.all([0, 1].map(() => broker('cancellation-requests', 'decline', String(request.id))));
    expect(runs.map((run) => run.code).sort()).toEqual([0, 2]);
    expect((await listAudit(app.db)).filter((item) => item.target === `cancellation request ${request.id}`)).toHaveLength(1);
  });

  it('cancelling the policy makes its open request done in the same change, under the name of who cancelled; a declined request stays declined', async () => {
    const policy = await policyOf({ first: 'Maya', last: 'Aoun' });
    const request = await requestOf(policy.id, 'trip_cancelled', 'Flight cancelled.', 2);
    const run = await broker('policies', 'cancel', policy.policyNumber, '--reason', 'trip_cancelled');
    expect(run.code).toBe(0);
    expect(run.out).toBe(
      `Cancelled ${policy.policyNumber}: its certificate now says CANCELLED, nothing was paid by card, so nothing is refunded, and the customer is e-mailed. The customer's cancellation request ${request.id} is done.`,
    );
    expect(await requestRow(request.id)).toMatchObject({ status: 'done', handledBy: 'cli:maya', handledAt: new Date(FIXED_NOW) });
    const [entry] = (await listAudit(app.db)).filter((item) => item.action === 'policies.cancel' && item.target === policy.policyNumber);
    expect(entry!.after).toMatchObject({ cancelled: true, cancellation_request: { id: request.id, status: 'done' } });
    const [item] = await listCancellationRequests(app.db, { status: 'done', policyNumber: policy.policyNumber });
    expect(item).toMatchObject({ status: 'done', handled_by: 'cli:maya', policy_cancelled: new Date(FIXED_NOW).toISOString() });

    const kept = await policyOf({ first: 'Sami', last: 'Frem' });
    const declined = await requestOf(kept.id, 'other', '', 2);
    expect((await broker('cancellation-requests', 'decline', String(declined.id))).code).toBe(0);
    const later = await broker('policies', 'cancel', kept.policyNumber, '--reason', 'other');
    expect(later.out).not.toContain('cancellation request');
    expect(await requestRow(declined.id)).toMatchObject({ status: 'declined' });

    // --status all: the open ones first (older than the ones worked here), then the rest newest first.
    const all = ((await broker('cancellation-requests', '--status', 'all', '--json')).json as CancellationRequestItem[]).map((item) => item.status);
    expect(all.slice(0, 2)).toEqual(['open', 'open']);
    expect(all.slice(2)).not.toContain('open');
    expect(all.length).toBeGreaterThan(4);
  });
});

describe('the command line of cancellation-requests', () => {
  it.each([
    [['cancellation-requests'], { kind: 'cancellation-requests', json: false, status: 'open' }],
    [['cancellation-requests', '--json', '--status', 'all'], { kind: 'cancellation-requests', json: true, status: 'all' }],
    [['cancellation-requests', '--status=done'], { kind: 'cancellation-requests', json: false, status: 'done' }],
    [['cancellation-requests', 'decline', '12'], { kind: 'cancellation-requests-decline', id: 12 }],
  ])('reads %j', (argv, expected) => {
    expect(parseBrokerArgs(argv)).toEqual(expected);
  });

  it.each([
    [['cancellation-requests', '--status', 'closed'], '--status is one of open, done, declined, all (got "closed").'],
    [['cancellation-requests', 'decline'], 'cancellation-requests decline takes one request id (a number).'],
    [['cancellation-requests', 'decline', 'x1'], 'cancellation-requests decline takes one request id (a number).'],
    [['cancellation-requests', 'decline', '1', '2'], 'cancellation-requests decline takes one request id (a number).'],
    [['cancellation-requests', 'extra'], 'Unknown argument "extra".'],
  ])('refuses %j with a message', (argv, said) => {
    expect(parseBrokerArgs(argv)).toBe(said);
  });

  it('the usage names both commands', async () => {
    const run = await broker('cancellation-requests', '--status', 'x');
    expect(run.code).toBe(2);
    expect(run.err).toContain('npm run broker -- cancellation-requests [--status open|done|declined|all] [--json]');
    expect(run.err).toContain('npm run broker -- cancellation-requests decline ID');
  });
});
