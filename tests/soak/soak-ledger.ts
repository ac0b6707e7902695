import type { Database } from '../../src/server/db/client';
import { ORDER_HOLD_MS } from '../../src/server/orders/order-state';
import { equals, goal, info, type Figure } from './soak-figures';
import { countOf, outboxFiles, rowsOf, type SoakTarget } from './soak-servers';
import type { Acknowledged } from './customer-journey';

/**
 * What the database and the mail outbox hold once the servers stopped: paid orders against
 * policies against e-mails sent, coupon uses against limits, and the orders the sandbox took
 * money for. Read with plain SQL so a figure whose table another change renamed says so instead
 * of stopping the report.
 */

const quoteList = (values: readonly string[], pattern: RegExp) => values.filter((value) => pattern.test(value)).map((value) => `'${value}'`).join(',');

export interface LedgerExpectations {
  /** Paid orders the customers saw (payment-status paid with a policy). */
  paidByClients: number;
}

export async function ledgerFigures(target: SoakTarget, database: Database, expected: LedgerExpectations): Promise<Figure[]> {
  const figures: Figure[] = [];
  // Issue 18's durable work renamed mail_outbox to outbox (a queue column: mail, aps-feedback); either is read.
  const [renamed] = await rowsOf<{ yes: boolean }>(database, `select to_regclass('public.outbox') is not null as yes`);
  const queued = renamed?.yes === true;
  const mail = queued ? `(select * from outbox where queue = 'mail')` : 'mail_outbox';
  const paid = await countOf(database, `select count(*)::int as n from orders where status = 'paid'`);
  const policies = await countOf(database, `select count(*)::int as n from policies`);
  const sent = await countOf(database, `select count(*)::int as n from ${mail} m where kind = 'policy' and status = 'sent'`);
  const notOne = await countOf(
    database,
    `select count(*)::int as n from policies p where (select count(*) from ${mail} m where m.policy_id = p.id and m.status = 'sent') <> 1`,
  );
  const unsent = await rowsOf<{ queue: string; status: string; error: string | null; attempts: number; n: number }>(
    database,
    `select ${queued ? 'queue' : `'mail' as queue`}, status, last_error as error, max(attempts)::int as attempts, count(*)::int as n
       from ${queued ? 'outbox' : 'mail_outbox'} where status <> 'sent' group by 1, 2, 3 order by 1, 2, 3`,
  );
  const paidWithout = await countOf(database, `select count(*)::int as n from orders o where o.status = 'paid' and not exists (select 1 from policies p where p.order_id = o.id)`);
  const files = outboxFiles(target.outboxDir);
  const statuses = await rowsOf<{ status: string; n: number }>(database, `select status, count(*)::int as n from orders group by status order by status`);

  figures.push(goal('paid orders (database) / journeys paid (customers)', `${paid} / ${expected.paidByClients}`, 'equal', paid === expected.paidByClients));
  figures.push(goal('policies / paid orders', `${policies} / ${paid}`, 'equal', typeof paid === 'number' && policies === paid));
  figures.push(equals('paid orders without a policy', paidWithout, 0));
  figures.push(goal('policy e-mails sent (outbox) / policies', `${sent} / ${policies}`, 'equal', typeof sent === 'number' && sent === policies));
  figures.push(equals('policies without exactly one sent e-mail', notOne, 0));
  figures.push(
    goal(
      'outbox rows not sent (pending or failed)',
      unsent.map((row) => `${row.queue} ${row.status} ${row.n} (${row.error ?? 'not tried'}, up to ${row.attempts} attempts)`).join(', ') || '0',
      '0',
      unsent.length === 0,
    ),
  );
  figures.push(
    goal('.eml files / distinct Message-IDs / policies', `${files.files} / ${files.messageIds} / ${policies}`, 'all equal', files.files === files.messageIds && files.messageIds === policies),
  );
  figures.push(info('orders by status', statuses.map((row) => `${row.status} ${row.n}`).join(', ') || 'none'));
  const refunds = statuses.find((row) => row.status === 'refund')?.n ?? 0;
  figures.push(equals('refunds (a lead paid twice, a voided order paid)', Number(refunds), 0));

  // used_count counts paid orders only; a pending order holds a use while it is within its hold
  // and its lead's invoice is open (order-state.ts usesHeldByOthers). A crash can leave a lead
  // an order it never heard of (the checkout committed, the answer was lost, the customer
  // checked out again): once the lead is paid, that order holds nothing.
  for (const coupon of target.coupons) {
    const [row] = await rowsOf<{ used: number; limit: number | null; paid: number; holding: number; stale: number }>(
      database,
      `select c.used_count::int as used, c.usage_limit::int as limit,
              (select count(*) from orders o where o.coupon_id = c.id and o.status = 'paid')::int as paid,
              (select count(distinct o.lead_id) from orders o join invoices i on i.id = o.invoice_id
                where o.coupon_id = c.id and o.status = 'pending' and i.status = 'open'
                  and o.created_at > now() - interval '${ORDER_HOLD_MS} milliseconds')::int as holding,
              (select count(*) from orders o join invoices i on i.id = o.invoice_id
                where o.coupon_id = c.id and o.status = 'pending' and i.status <> 'open')::int as stale
         from coupons c where c.code = '${coupon.code}'`,
    );
    if (!row) {
      figures.push(goal(`coupon ${coupon.code}: uses / limit`, 'not found', `≤ ${coupon.limit}`, false));
      continue;
    }
    const [used, limit, paidWith, holding] = [row.used, row.limit, row.paid, row.holding].map(Number) as [number, number, number, number];
    figures.push(
      goal(
        `coupon ${coupon.code} (${coupon.percent} %): uses / limit (paid orders; pending holding a use; pending of a paid lead)`,
        `${row.used} / ${row.limit} (${row.paid}; ${row.holding}; ${row.stale})`,
        'uses = paid ≤ limit, uses + held ≤ limit',
        used === paidWith && used <= limit && used + holding <= limit,
      ),
    );
  }

  const sandboxPaid = await countOf(
    database,
    `select count(*)::int as n from aps_sandbox_sessions s where s.response->>'status' = '14'`,
  );
  const sandboxPending = await countOf(
    database,
    `select count(*)::int as n from aps_sandbox_sessions s join orders o on o.merchant_reference = s.request->>'merchant_reference'
      where s.response->>'status' = '14' and o.status = 'pending'`,
  );
  figures.push(info('payments the sandbox took (status 14)', sandboxPaid));
  figures.push(equals('orders the sandbox had paid, still pending', sandboxPending, 0));
  return figures;
}

/** Every lead, order and payment the API acknowledged with a 2xx before `before` is still there (and a paid one still paid). */
export async function lostFigures(database: Database, ack: Acknowledged, before: number): Promise<Figure[]> {
  const leads = ack.leads.filter((row) => row.at <= before).map((row) => row.uuid);
  const orders = ack.orders.filter((row) => row.at <= before).map((row) => row.reference);
  const paid = ack.paid.filter((row) => row.at <= before).map((row) => row.reference);
  const uuidList = quoteList(leads, /^[0-9a-f-]{36}$/i);
  const refList = quoteList(orders, /^[A-Za-z0-9_.-]{1,40}$/);
  const paidList = quoteList(paid, /^[A-Za-z0-9_.-]{1,40}$/);
  const leadsFound = uuidList ? await countOf(database, `select count(*)::int as n from leads where uuid in (${uuidList})`) : 0;
  const ordersFound = refList ? await countOf(database, `select count(*)::int as n from orders where merchant_reference in (${refList})`) : 0;
  const paidFound = paidList
    ? await countOf(database, `select count(*)::int as n from orders o join policies p on p.order_id = o.id where o.status = 'paid' and o.merchant_reference in (${paidList})`)
    : 0;
  const lost = (found: number | string, total: number) => (typeof found === 'number' ? total - found : found);
  return [
    equals(`acknowledged leads lost (of ${leads.length})`, lost(leadsFound, leads.length), 0),
    equals(`acknowledged orders lost (of ${orders.length})`, lost(ordersFound, orders.length), 0),
    equals(`orders seen paid, no longer paid with a policy (of ${paid.length})`, lost(paidFound, paid.length), 0),
  ];
}
