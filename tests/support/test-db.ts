import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
