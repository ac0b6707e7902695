import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { referenceVersion } from '../db/schema';

/** More cached values than this (countries filtered by many destination sets) start the map afresh. */
const MAX_ENTRIES = 500;

/**
 * What the reference data and the catalogue are worth in memory: each value is built once per
 * version of that data (reference_version, raised by a trigger on every change of those tables,
 * whoever makes it) and handed to every later request until the version moves.
 */
export interface ReferenceData {
  /** The value under `key`, built by `build` at most once per version (concurrent callers share one build). */
  get<T>(key: string, build: () => Promise<T>): Promise<T>;
  /** The current version of the data (checked as often as get checks it), for answers built from it and more. */
  version(): Promise<number>;
  /** This instance changed reference data (a broker command ran here): read the version again at the next get. */
  invalidate(): void;
}

/**
 * How often, at most, a running server (main.ts) asks the database whether reference data
 * changed: a change by another instance or psql shows within this, and for as long after the
 * database goes away the data still answers from memory.
 */
export const REFERENCE_CHECK_MS = 1000;

/**
 * Reference data in memory, checked against the database's reference_version at most once per
 * `checkMs` (0: at every get, as the test app does, so a test's direct write is seen at once).
 * One cheap read a second per busy instance is what tells it of a change another instance, the
 * broker CLI or psql made on PostgreSQL; an idle instance reads nothing. A check in flight is
 * shared by every request that needs it.
 */
export function createReferenceData(db: Db, options: { checkMs: number; now?: () => number }): ReferenceData {
  const now = options.now ?? Date.now;
  let known: { version: number; checkedAt: number } | null = null;
  let checking: Promise<number> | null = null;
  let entries = new Map<string, { version: number; value: Promise<unknown> }>();

  const readVersion = (): Promise<number> => {
    if (known && options.checkMs > 0 && now() - known.checkedAt < options.checkMs) return Promise.resolve(known.version);
    checking ??= db
      .select({ version: referenceVersion.version })
      .from(referenceVersion)
      .where(eq(referenceVersion.id, 1))
      .then(
        ([row]) => {
          checking = null;
          const version = row?.version ?? 0;
          if (known?.version !== version) entries = new Map();
          known = { version, checkedAt: now() };
          return version;
        },
        (error: unknown) => {
          checking = null;
          throw error;
        },
      );
    return checking;
  };

  return {
    async get<T>(key: string, build: () => Promise<T>): Promise<T> {
      const version = await readVersion();
      const cached = entries.get(key);
      if (cached && cached.version === version) return cached.value as Promise<T>;
      if (entries.size >= MAX_ENTRIES) entries = new Map();
      const value = build();
      const entry = { version, value };
      entries.set(key, entry);
      // A failed build is forgotten, so the next request tries again.
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
    version: readVersion,
    invalidate() {
      known = null;
    },
  };
}
