import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/server/db/client';
import { seedDatabase } from '../../src/server/db/seed';
import { countOrders, listOrders, type OrderFilter } from '../../src/server/orders/order-admin';
import { atMost, plain } from './figures';

/**
 * The broker's order list at scale (issue 36, Done when: 100,000 leads and 20,000 orders, the
 * p99 of paging and search under 200 ms): a migrated, seeded embedded database in this process
 * gets 100,000 customers and leads and 20,000 orders (7 in 10 paid, with their policies) by SQL,
 * then each way the console asks for a page (the first, a deep one, one status; searched by
 * e-mail, phone as typed, merchant reference and policy number) is timed 200 times, the page and
 * its count together, as the console's table asks for both.
 */

const LEADS = 100_000;
const ORDERS = 20_000;
const RUNS = 200;
const BUDGET_MS = 200;
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function seedAtScale(database: Database): Promise<void> {
  const { db } = database;
  // Rows only the list reads: foreign keys and triggers are off while they are written, as
  // pg_restore writes a dump (the quotes, plans and insurers they name are not read here).
  await db.execute(sql`set session_replication_role = replica`);
  await db.execute(sql`
    insert into customers (id, name, email, phone_country_code, phone_number, complete_phone_number)
    select 1000000 + i, 'Bench Customer ' || i, 'bench' || i || '@example.com', '+961', (70000000 + i)::text, '+961' || (70000000 + i)
    from generate_series(1, ${LEADS}) as i`);
  await db.execute(sql`
    insert into leads (id, uuid, customer_id, device_uuid, session_id, lang, name, email, phone_country_code, phone_number, complete_phone_number,
      inbound_outbound, trip_type, product_type, start_date, end_date, no_of_days, destination_ids, source_id, no_of_traveller, is_family, created_at)
    select 1000000 + i, md5('lead' || i)::uuid::text, 1000000 + i, md5('device' || i)::uuid::text, md5('session' || i), case when i % 3 = 0 then 'ar' else 'en' end,
      'Bench Customer ' || i, 'bench' || i || '@example.com', '+961', (70000000 + i)::text, '+961' || (70000000 + i),
      false, 1, 1, date '2027-01-01', date '2027-01-10', 10, array[250], 422, 1, false, timestamptz '2026-12-01' - i * interval '1 minute'
    from generate_series(1, ${LEADS}) as i`);
  await db.execute(sql`
    insert into invoices (id, lead_id, quote_id, quote_ref_no, insurer_id, plan_id, plan_price_cents, addons, total_without_vat_cents, vat_percent, vat_cents, stamp_fee_cents, total_with_vat_cents)
    select 1000000 + i, 1000000 + i * 5, 1, 'QB' || i, 1000, 1, 10000, '[]'::jsonb, 10000, 11, 1100, 200, 11300
    from generate_series(1, ${ORDERS}) as i`);
  await db.execute(sql`
    insert into orders (id, lead_id, invoice_id, merchant_reference, plan_cents, addons_cents, discount_cents, vat_cents, stamp_cents, total_cents, vat_percent, lang,
      client_total_cents, status, created_at, paid_at)
    select 1000000 + i, 1000000 + i * 5, 1000000 + i, 'BENCH-' || i, 10000, 0, 0, 1100, 200, 11300, 11, 'en', 11300,
      case when i % 10 < 7 then 'paid' when i % 10 = 7 then 'pending' when i % 10 = 8 then 'failed' else 'void' end,
      timestamptz '2026-12-01' - i * 5 * interval '1 minute', case when i % 10 < 7 then timestamptz '2026-12-01' - i * 5 * interval '1 minute' end
    from generate_series(1, ${ORDERS}) as i`);
  await db.execute(sql`
    insert into policies (order_id, lead_id, policy_number, download_token)
    select 1000000 + i, 1000000 + i * 5, 'SFR-BENCH-' || i, md5('token' || i) || md5('more' || i)
    from generate_series(1, ${ORDERS}) as i where i % 10 < 7`);
  await db.execute(sql`set session_replication_role = origin`);
  await db.execute(sql`analyze`);
}

/** The p50 and p99 of `RUNS` page-and-count reads of `filter` at `offset`, the i-th run asking `pick(i)`. */
async function time(database: Database, pick: (run: number) => { filter: OrderFilter; offset?: number }, expectRows: boolean): Promise<{ p50: number; p99: number }> {
  const runs: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const { filter, offset = 0 } = pick(run);
    const started = performance.now();
    const [page, total] = await Promise.all([listOrders(database.db, filter, 50, offset), countOrders(database.db, filter)]);
    runs.push(performance.now() - started);
    if (expectRows && (page.length === 0 || total === 0)) throw new Error(`no orders for ${JSON.stringify(filter)} at ${offset}`);
  }
  runs.sort((a, b) => a - b);
  return { p50: runs[Math.floor(RUNS * 0.5)]!, p99: runs[Math.ceil(RUNS * 0.99) - 1]! };
}

export async function measureBrokerLists(): Promise<void> {
  const database = await openDatabase({ memory: true });
  try {
    await seedDatabase(database.db, { demoData: false });
    const started = performance.now();
    await seedAtScale(database);
    plain('broker lists: rows written', `${LEADS.toLocaleString('en-US')} leads, ${ORDERS.toLocaleString('en-US')} orders`, `in ${ms(performance.now() - started)}`);
    // A different order each run, so no run is answered from what the one before left in memory.
    const orderNumber = (run: number) => 1 + ((run * 97) % ORDERS);
    // Orders whose number ends in 0 to 6 are paid and hold a policy.
    const paidNumber = (run: number) => 10 * (1 + ((run * 61) % (ORDERS / 10 - 1))) + (run % 7);
    const cases: [string, (run: number) => { filter: OrderFilter; offset?: number }][] = [
      ['first page, newest first', () => ({ filter: {} })],
      ['a deep page (offset 19,900)', () => ({ filter: {}, offset: 19_900 })],
      ['status paid, page 3', () => ({ filter: { status: 'paid' }, offset: 100 })],
      ['search by e-mail', (run) => ({ filter: { search: `BENCH${orderNumber(run) * 5}@example.com` } })],
      ['search by phone as typed', (run) => ({ filter: { search: `70 ${String(orderNumber(run) * 5).padStart(6, '0')}` } })],
      ['search by merchant reference', (run) => ({ filter: { search: `BENCH-${orderNumber(run)}` } })],
      ['search by policy number', (run) => ({ filter: { search: `sfr-bench-${paidNumber(run)}` } })],
    ];
    for (const [name, pick] of cases) {
      const { p50, p99 } = await time(database, pick, true);
      atMost(`broker orders: ${name}, p99 of ${RUNS}`, p99, BUDGET_MS, ms, `p50 ${ms(p50)}; a page of 50 and its count`);
    }
  } finally {
    await database.close();
  }
}
