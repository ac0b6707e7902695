import { inArray } from 'drizzle-orm';
import type { Db } from './client';
import { settings } from './schema';
import { DEFAULT_SETTINGS, type SettingKey } from './seed-data';

export type Settings = { -readonly [K in SettingKey]: number };

/** Reads the broker's settings; a missing or non-numeric value falls back to its default. */
export async function readSettings<K extends SettingKey>(db: Db, keys: readonly K[]): Promise<Pick<Settings, K>> {
  const rows = await db.select().from(settings).where(inArray(settings.key, [...keys]));
  const found = new Map(rows.map((row) => [row.key, row.value]));
  return Object.fromEntries(
    keys.map((key) => {
      const value = found.get(key);
      return [key, typeof value === 'number' && Number.isFinite(value) ? value : DEFAULT_SETTINGS[key]];
    }),
  ) as Pick<Settings, K>;
}
