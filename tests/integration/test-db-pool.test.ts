import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { createTestDatabase, leaseTestPglite, onPostgres } from '../support/test-db';

/** The rows a query answers (Db's execute is typed for either driver). */
async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Every table's rows and every sequence's value, as one digest per table and sequence. */
async function contents(db: Db): Promise<Record<string, string>> {
  const tables = await rowsOf<{ name: string }>(db, sql`
    select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname in ('public', 'drizzle') order by 1`);
  const digests: Record<string, string> = {};
  for (const { name } of tables) {
    const rows = await rowsOf<{ digest: string }>(db, sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${name} t`));
    digests[name] = rows[0]!.digest;
  }
  const sequences = await rowsOf<{ name: string; value: string | null }>(db, sql`select sequencename as name, last_value::text as value from pg_sequences`);
  for (const { name, value } of sequences) digests[`sequence ${name}`] = String(value);
  return digests;
}

/** A customer row, by e-mail, the way a test or a late app call would write one. */
const customer = (email: string) =>
  sql`insert into customers (name, email, phone_country_code, phone_number, complete_phone_number) values ('Pool', ${email}, '+961', '3000000', ${`+961${email.length}`})`;

async function columnsOf(db: Db, table: string): Promise<string[]> {
  const rows = await rowsOf<{ name: string }>(db, sql`select column_name as name from information_schema.columns where table_name = ${table} order by 1`);
  return rows.map(({ name }) => name);
}

// The pool is PGlite's (tests/support/pglite-pool.ts); on PostgreSQL each test database is a new copy.
describe.skipIf(onPostgres)('test databases reused within a file (tests/support/pglite-pool.ts)', () => {
  it('gives the next test the template as it was: rows written, changed and deleted, sequences, settings and locks put back', async () => {
    const first = await createTestDatabase();
    const template = await contents(first.db);
    expect(Object.keys(template)).toContain('public.leads');
    await first.db.execute(customer('pool@safar.example'));
    await first.db.execute(sql`update coupons set used_count = used_count + 7`);
    await first.db.execute(sql`delete from countries where id = (select min(id) from countries)`);
    await first.db.execute(sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`);
    await first.db.execute(sql`set statement_timeout = 1234`);
    await first.db.execute(sql`select pg_advisory_lock(42)`);
    expect(await contents(first.db)).not.toEqual(template);
    await first.close();

    const second = await createTestDatabase();
    try {
      expect(await contents(second.db)).toEqual(template);
      const rows = await rowsOf<{ timeout: string; locks: number }>(
        second.db,
        sql`select current_setting('statement_timeout') as timeout, (select count(*)::int from pg_locks where locktype = 'advisory') as locks`,
      );
      expect(rows[0]).toEqual({ timeout: '0', locks: 0 });
    } finally {
      await second.close();
    }
  });

  it('fails every call made through a closed database, as a closed PGlite does, and never writes into the next test', async () => {
    const first = await createTestDatabase();
    await first.close();
    // drizzle wraps the driver's error: its cause is PGlite's own words.
    await expect(first.db.execute(customer('late@safar.example'))).rejects.toMatchObject({ cause: { message: 'PGlite is closed' } });
    await expect(first.db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow('PGlite is closed');
    const next = await createTestDatabase();
    try {
      const rows = await rowsOf<{ n: number }>(next.db, sql`select count(*)::int as n from customers where email = 'late@safar.example'`);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await next.close();
    }
  });

  it('lets a write in flight when the test closes finish, then puts the database back', async () => {
    const first = await createTestDatabase();
    const template = await contents(first.db);
    const writing = first.db.transaction(async (tx) => {
      await tx.execute(customer('inflight@safar.example'));
      await tx.execute(sql`select pg_sleep(0.05)`);
    });
    const closing = first.close();
    await expect(writing).resolves.toBeUndefined();
    await closing;
    const next = await createTestDatabase();
    try {
      expect(await contents(next.db)).toEqual(template);
    } finally {
      await next.close();
    }
  });

  it('does not reuse a database a test left inside an open transaction: the next test is in none', async () => {
    // On the pool's leases themselves: opening a database through the app's driver may commit
    // what was left open, which would hide what this checks.
    const email = (who: string) => `insert into customers (name, email, phone_country_code, phone_number, complete_phone_number) values ('Pool', '${who}@safar.example', '+961', '3000000', '+961${who.length}')`;
    const open = await leaseTestPglite();
    await open.client.query('begin');
    await open.client.query(email('left-open'));
    await open.release();
    const next = await leaseTestPglite();
    try {
      await next.client.query(email('next-test'));
      // Inside the transaction left open, this would undo the next test's own write too.
      await next.client.query('rollback');
      const { rows } = await next.client.query<{ left: number; own: number }>(
        `select count(*) filter (where email = 'left-open@safar.example')::int as left, count(*) filter (where email = 'next-test@safar.example')::int as own from customers`,
      );
      expect(rows[0]).toEqual({ left: 0, own: 1 });
    } finally {
      await next.release();
    }
  });

  it('does not reuse a database whose schema a test changed, or one it dumped', async () => {
    const changed = await createTestDatabase();
    await changed.db.execute(sql`alter table customers add column pool_probe text`);
    await changed.close();
    const next = await createTestDatabase();
    expect(await columnsOf(next.db, 'customers')).not.toContain('pool_probe');
    const dump = await next.dump!();
    await next.close();
    // The dump carries no copy of the template's rows: it opens as the app's tables alone.
    const reopened = await PGlite.create({ loadDataDir: dump });
    try {
      const { rows } = await reopened.query<{ n: number }>(`select count(*)::int as n from pg_class where relpersistence = 't'`);
      expect(rows[0]!.n).toBe(0);
    } finally {
      await reopened.close();
    }
  });
});
