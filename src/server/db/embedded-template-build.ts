import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { tightenDataDirModes } from '../data-dir-modes';
import { openDatabase } from './client';
import { lockFileOf } from './embedded-lock';
import { TEMPLATES_DIR, templateDirOf, templateDirs, templateKey } from './embedded-template';
import { seedDatabase } from './seed';

/**
 * Builds the template of a new embedded data directory (embedded-template.ts) when the current
 * one is missing, and answers why it built it, or null. It is what a first start would make:
 * initdb, every migration and the seed without demo data (a sandbox start adds those to its copy,
 * as it does to any database); built under another name and renamed into place once whole, so a
 * build cut short is never copied. Older templates are removed.
 */
export async function buildTemplateIfStale(templatesDir = TEMPLATES_DIR): Promise<string | null> {
  const key = templateKey();
  const target = templateDirOf(key, templatesDir);
  if (existsSync(path.join(target, 'PG_VERSION'))) return null;
  const building = `${target}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  try {
    const database = await openDatabase({ dataDir: building, template: null });
    try {
      await seedDatabase(database.db, { demoData: false });
    } finally {
      await database.close();
    }
    tightenDataDirModes(building);
    rmSync(target, { recursive: true, force: true });
    renameSync(building, target);
  } finally {
    rmSync(building, { recursive: true, force: true });
    rmSync(lockFileOf(building), { force: true });
  }
  const older = templateDirs(templatesDir).filter((dir) => dir !== target && !dir.includes('.building-'));
  // Another build's folder in progress (`.building-<pid>`) is left to it.
  for (const dir of older) rmSync(dir, { recursive: true, force: true });
  return older.length ? `its migrations, seed or packages changed: template ${key}` : `there was none yet: template ${key}`;
}
