import type { PGlite, Transaction } from '@electric-sql/pglite';

/**
 * Seeded PGlite databases reused within a test file, and in the server project, whose files share
 * their worker's module cache, from one file to the next (issue 35: restoring the seeded template took
 * about 1.2 s a test database, most of the server tests' time).
 *
 * A test gets a lease on a PGlite. While the lease is open its queries reach the database; once
 * it is closed every call fails as "PGlite is closed", as a closed PGlite's would, so nothing an
 * app does after its test can write into the next test's database. Closing the lease waits for
 * its calls in flight, then puts the database back as the template left it:
 * - every table's rows, from a copy taken when the database was restored (temporary tables, which
 *   the app's schemas never see), with triggers and foreign keys off while they are written back;
 * - every sequence's value, the session's settings and advisory locks.
 * A database whose schema a test changed (a table, column, index, constraint, trigger or
 * function), or that could not be put back, is closed instead of reused, as is one that was
 * dumped (its dump would carry the copies).
 */

interface Pooled {
  client: PGlite;
  /** The statements that put the template's rows and sequences back. */
  reset: string;
  /** The schema as restored (schemaFingerprint). */
  schema: string;
}

const idle: Pooled[] = [];

const USER_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%' and n.nspname not like 'pg_temp%'`;

/** A digest of everything a reset cannot put back: the tables' columns, indexes, constraints, triggers and functions. */
async function schemaFingerprint(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ digest: string }>(`
    select md5(coalesce((select string_agg(format('%s.%s.%s.%s.%s', c.oid, a.attname, a.atttypid, a.attnotnull, a.attgenerated), ',' order by c.oid, a.attnum)
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where ${USER_SCHEMAS} and a.attnum > 0 and not a.attisdropped), '')
      || coalesce((select string_agg(c.oid::text || c.relkind::text, ',' order by c.oid) from pg_class c join pg_namespace n on n.oid = c.relnamespace where ${USER_SCHEMAS}), '')
      || coalesce((select string_agg(t.oid::text || t.tgenabled::text, ',' order by t.oid) from pg_trigger t), '')
      || coalesce((select string_agg(co.oid::text, ',' order by co.oid) from pg_constraint co join pg_namespace n on n.oid = co.connamespace where ${USER_SCHEMAS}), '')
      || coalesce((select string_agg(md5(p.prosrc), ',' order by p.oid) from pg_proc p join pg_namespace n on n.oid = p.pronamespace where ${USER_SCHEMAS}), '')) as digest`);
  return rows[0]!.digest;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Copies every table's rows into temporary tables and returns the statements that write them back. */
async function snapshot(client: PGlite): Promise<string> {
  const { rows: tables } = await client.query<{ name: string; columns: string[] }>(`
    select format('%I.%I', n.nspname, c.relname) as name,
      array_agg(a.attname::text order by a.attnum) as columns
    from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid
    where c.relkind = 'r' and ${USER_SCHEMAS} and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    group by n.nspname, c.relname order by 1`);
  const { rows: sequences } = await client.query<{ name: string; value: string; called: boolean }>(`
    select format('%I.%I', schemaname, sequencename) as name, coalesce(last_value, start_value)::text as value, last_value is not null as called
    from pg_sequences order by 1`);
  const copies = tables.map((table, index) => ({ ...table, copy: `pg_temp.safar_template_${index}`, list: table.columns.map(quote).join(', ') }));
  await client.exec(copies.map(({ name, copy, list }) => `create temporary table ${copy} as select ${list} from ${name};`).join('\n'));
  return [
    'set session_replication_role = replica;',
    `truncate ${copies.map(({ name }) => name).join(', ')};`,
    ...copies.map(({ name, copy, list }) => `insert into ${name} (${list}) overriding system value select ${list} from ${copy};`),
    ...sequences.map(({ name, value, called }) => `select setval('${name.replaceAll("'", "''")}', ${value}, ${called});`),
    'select pg_advisory_unlock_all();',
    'reset all;',
  ].join('\n');
}

/**
 * Puts a database back as the template left it; false when it cannot be (then it is closed): its
 * schema was changed, or a test left a transaction open (its `begin` never ended), in which the
 * reset would run and which the next test would find itself in.
 */
async function restore(pooled: Pooled): Promise<boolean> {
  try {
    if (pooled.client.isInTransaction()) return false;
    if ((await schemaFingerprint(pooled.client)) !== pooled.schema) return false;
    await pooled.client.exec(pooled.reset);
    return true;
  } catch {
    return false;
  }
}

/** A lease on a pooled PGlite: drizzle-orm/pglite calls only `query` and `transaction`. */
class Lease {
  closed = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(readonly pooled: Pooled) {}

  private call<T>(run: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('PGlite is closed'));
    const pending = run();
    const settled = pending.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(settled);
    void settled.then(() => this.inFlight.delete(settled));
    return pending;
  }

  query(sql: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) {
    return this.call(() => this.pooled.client.query(sql, params, options));
  }

  transaction<T>(callback: (tx: Transaction) => Promise<T>) {
    return this.call(() => this.pooled.client.transaction(callback));
  }

  /** Stops the lease and waits for what it had started. */
  async end(): Promise<void> {
    this.closed = true;
    while (this.inFlight.size) await Promise.all(this.inFlight);
  }
}

/**
 * A lease on an idle database of this worker, put back as the template left it, or on a new one
 * `restoreTemplate` makes. `release` ends it; `dump` makes the database one not to reuse.
 */
export async function leasePglite(restoreTemplate: () => Promise<PGlite>): Promise<{ client: PGlite; release(): Promise<void>; dump(): Promise<Blob> }> {
  let pooled = idle.pop();
  if (!pooled) {
    const client = await restoreTemplate();
    try {
      pooled = { client, schema: await schemaFingerprint(client), reset: await snapshot(client) };
    } catch (error) {
      await client.close();
      throw error;
    }
  }
  const lease = new Lease(pooled);
  let reusable = true;
  return {
    client: lease as unknown as PGlite,
    async release() {
      if (lease.closed) return;
      await lease.end();
      if (reusable && (await restore(lease.pooled))) idle.push(lease.pooled);
      else await lease.pooled.client.close().catch(() => undefined);
    },
    async dump() {
      reusable = false;
      await lease.pooled.client.exec('discard temp');
      return lease.pooled.client.dumpDataDir('none');
    },
  };
}

/**
 * Closes the idle databases after a file but the first `keep` of them (tests/support/
 * server-setup.ts). A file with a module cache of its own (the system project) keeps none: the
 * next file could not reach them. In the server project the cache, and so this pool, outlives the
 * file, and the next file of the worker leases what it kept instead of restoring the template
 * again (about 1.2 s a database); a few are kept, not every one a file held at once.
 */
export async function closeIdlePglites(keep = 0): Promise<void> {
  await Promise.all(idle.splice(keep).map(({ client }) => client.close().catch(() => undefined)));
}
