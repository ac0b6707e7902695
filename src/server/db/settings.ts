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

/** A `settings set` the broker CLI refuses: the message says why. */
export class SettingsAdminError extends Error {}

/** What each setting may be set to (whole numbers): VAT in percent, the stamp fee in US cents. */
const SETTING_RANGES: Record<SettingKey, readonly [number, number]> = {
  max_traveller_count: [1, 50],
  family_child_max_age: [0, 30],
  vat_percent: [0, 100],
  stamp_fee_cents: [0, 1_000_000],
};

/** Every setting with its value now (the default where none is stored). */
export function listSettings(db: Db): Promise<Settings> {
  return readSettings(db, Object.keys(DEFAULT_SETTINGS) as SettingKey[]);
}

/**
 * `broker settings set KEY VALUE`: stores one setting. The write raises reference_version
 * (migration 0012), so every instance's in-memory get-vat and travel configs follow it.
 */
export async function setSetting(db: Db, key: string, text: string): Promise<{ key: SettingKey; value: number }> {
  if (!Object.hasOwn(DEFAULT_SETTINGS, key)) throw new SettingsAdminError(`Unknown setting "${key}": one of ${Object.keys(DEFAULT_SETTINGS).join(', ')}.`);
  const name = key as SettingKey;
  const [min, max] = SETTING_RANGES[name];
  const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw new SettingsAdminError(`${name} is a whole number from ${min} to ${max} (got "${text}").`);
  await db.insert(settings).values({ key: name, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
  return { key: name, value };
}
