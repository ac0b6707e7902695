import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { templateDirOf, templateDirs, templateKey } from './embedded-template';
import { buildTemplateIfStale } from './embedded-template-build';
import { seedDatabase } from './seed';

/**
 * Issue 34 item 6: a new embedded data directory is a copy of a template made once, instead of
 * initdb, every migration and the whole seed at the first start. The copy must be the same
 * database the long way makes, and the start must still migrate and seed it as any other.
 */

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
let scratch: string;
let templates: string;
let template: string;
let built: string | null;

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'safar-template-'));
  templates = path.join(scratch, 'templates');
  mkdirSync(templates);
  // A finished template of other inputs, which the build replaces.
  mkdirSync(path.join(templates, 'pglite-template-0000000000000000'));
  built = await buildTemplateIfStale(templates);
  template = templateDirOf(templateKey(), templates);
}, 240_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What db.execute answers on PGlite. */
type Rows<T> = { rows: T[] };

/**
 * Every table's rows as one digest per table, without the columns a clock fills and without the
 * reference version (a counter each seed statement bumps, whatever it changed).
 */
async function contents(database: Database): Promise<Record<string, string>> {
  const tables = (await database.db.execute(
    sql`select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' and table_name <> 'reference_version' order by 1`,
  )) as unknown as Rows<{ name: string }>;
  const digests: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const [schema, table] = name.split('.');
    const row = `(to_jsonb(t) - 'created_at' - 'updated_at')::text`;
    const result = (await database.db.execute(
      sql.raw(`select md5(string_agg(${row}, ',' order by ${row})) as digest, count(*)::int as count from "${schema}"."${table}" t`),
    )) as unknown as Rows<{ digest: string | null; count: number }>;
    digests[name] = `${result.rows[0]!.count} ${result.rows[0]!.digest ?? ''}`;
  }
  return digests;
}

describe('the template of a new data directory', () => {
  it('is built whole, owner-only, under a name of its inputs; the build replaces older templates and is not repeated while current', async () => {
    expect(built).toMatch(/^its migrations, seed or packages changed: template [0-9a-f]{16}$/);
    expect(existsSync(path.join(template, 'PG_VERSION'))).toBe(true);
    expect(templateDirs(templates)).toEqual([template]);
    expect(statSync(template).mode & 0o077).toBe(0);
    expect(statSync(path.join(template, 'global', 'pg_control')).mode & 0o077).toBe(0);
    expect(existsSync(`${template}.lock`)).toBe(false);
    expect(await buildTemplateIfStale(templates)).toBeNull();
  });

  // The long way is taken by a start whose template cannot be copied (gone, or another account's):
  // it runs initdb instead of failing, and its database is the one a copy must equal. (One initdb
  // for both checks: each is about 8 core-seconds, issue 35.)
  it('a template that cannot be copied makes the start run initdb instead of fail; a start on a copy finds the same database as that start, every migration and the seed', async () => {
    const copied = await openDatabase({ dataDir: path.join(scratch, 'copied'), template });
    const made = await openDatabase({ dataDir: path.join(scratch, 'made'), template: path.join(scratch, 'no-such-template') });
    try {
      expect(copied.created).toMatchObject({ from: 'template' });
      expect(made.created).toMatchObject({ from: 'initdb' });
      const migrations = (await made.db.execute(sql`select count(*)::int as count from drizzle.__drizzle_migrations`)) as unknown as Rows<{ count: number }>;
      expect(migrations.rows[0]!.count).toBeGreaterThan(10);
      // As main.ts does at every start: a sandbox start adds its demo data to either.
      await seedDatabase(copied.db, { demoData: true });
      await seedDatabase(made.db, { demoData: true });
      const expected = await contents(made);
      expect(Object.keys(expected)).toEqual(expect.arrayContaining(['public.countries', 'public.plans', 'public.coupons', 'drizzle.__drizzle_migrations']));
      expect(await contents(copied)).toEqual(expected);
    } finally {
      await copied.close();
      await made.close();
    }
    // Reopened, an existing directory is neither copied nor created again.
    const again = await openDatabase({ dataDir: path.join(scratch, 'copied'), template });
    expect(again.created).toBeUndefined();
    await again.close();
  }, 240_000);

  it('a copy cut short (no PG_VERSION yet) is copied again over what it left, then opens', async () => {
    const dir = path.join(scratch, 'cut-short');
    cpSync(template, dir, { recursive: true, filter: (source) => !source.endsWith('PG_VERSION') });
    writeFileSync(path.join(dir, 'global', 'pg_control'), 'half written');
    const database = await openDatabase({ dataDir: dir, template });
    try {
      expect(database.created).toMatchObject({ from: 'template' });
      const countries = (await database.db.execute(sql`select count(*)::int as count from countries`)) as unknown as Rows<{ count: number }>;
      expect(countries.rows[0]!.count).toBeGreaterThan(200);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('is keyed by the content of its inputs: a changed migration is a new template, a touched one is not', () => {
    const root = path.join(scratch, 'inputs');
    for (const file of ['src/server/db/migrations', 'src/server/db/seed.ts', 'src/server/db/seed-data.ts', 'src/server/db/seed-catalogue.ts', 'package-lock.json']) {
      cpSync(path.join(ROOT, file), path.join(root, file), { recursive: true });
    }
    const key = templateKey(root);
    expect(key).toBe(templateKey());
    const migration = path.join(root, 'src/server/db/migrations', readdirSync(path.join(root, 'src/server/db/migrations')).find((name) => name.endsWith('.sql'))!);
    utimesSync(migration, new Date(), new Date(Date.now() + 60_000));
    expect(templateKey(root)).toBe(key);
    writeFileSync(migration, '-- changed\n', { flag: 'a' });
    expect(templateKey(root)).not.toBe(key);
  });
});
