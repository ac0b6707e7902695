import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase, type Database } from '../../src/server/db/client';
import { seedDatabase } from '../../src/server/db/seed';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A key that changes whenever the migrations or the seed change. */
function templateKey(): string {
  const hash = createHash('sha256');
  const migrations = path.join(root, 'src/server/db/migrations');
  for (const file of readdirSync(migrations, { recursive: true }).map(String).sort()) {
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(readFileSync(path.join(migrations, file)));
  }
  for (const file of ['seed.ts', 'seed-data.ts', 'seed-catalogue.ts']) hash.update(readFileSync(path.join(root, 'src/server/db', file)));
  return hash.digest('hex').slice(0, 16);
}

let template: Promise<Blob> | null = null;

/**
 * A migrated, seeded database snapshot. Built once (about 3 s) and kept in the temp folder,
 * so every test file after the first restores it in about half a second.
 */
function seededTemplate(): Promise<Blob> {
  template ??= (async () => {
    const file = path.join(os.tmpdir(), `safar-test-db-${templateKey()}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await openDatabase({ memory: true });
    await seedDatabase(database.db);
    const dump = await database.dump!();
    await database.close();
    const bytes = Buffer.from(await dump.arrayBuffer());
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    return new Blob([bytes]);
  })();
  return template;
}

/** A throwaway, migrated and seeded PGlite database in memory (a real PostgreSQL engine). */
export async function createTestDatabase(): Promise<Database> {
  return openDatabase({ memory: true, loadDataDir: await seededTemplate() });
}

/**
 * A fresh, empty PGlite (no migrations). Initialising one takes about 4 s, restoring a dump of
 * one about 0.5 s, so the dump is kept in the temp folder per PGlite version.
 */
export async function emptyPglite(): Promise<PGlite> {
  const manifest = fileURLToPath(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url));
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const file = path.join(os.tmpdir(), `safar-empty-pglite-${version}.tar`);
  if (existsSync(file)) return PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) });
  const db = await PGlite.create();
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
  renameSync(partial, file);
  return db;
}
