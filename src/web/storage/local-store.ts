/**
 * The locally stored keys of spec §3, behind one module: nothing else in the app touches
 * localStorage. Values are strings; JSON values go through getJson/setJson.
 */
export const STORAGE_KEYS = [
  'language',
  'agent_id',
  'uuid',
  'device_uuid',
  'session_id',
  'map_id',
  'personal_details',
  'interested_policy',
  'selected_premium',
  'traveller_index',
  'travellerLength',
  'coupon',
  'thankyou',
  // The lead the thank-you flag was stored for (issue 37): it finishes that lead's journey only.
  'thankyou_lead',
  'callBack',
  'is_edit',
  'compare_data',
] as const;
export type StorageKey = (typeof STORAGE_KEYS)[number];

/** Keys cleared by `state=new` (spec §2): the drafts that tie the browser to a lead. */
export const DRAFT_KEYS: readonly StorageKey[] = ['uuid', 'personal_details', 'device_uuid', 'agent_id', 'session_id'];

/** Keys cleared when an agent link opens the app (spec §4 agent mode). */
export const AGENT_RESET_KEYS: readonly StorageKey[] = ['uuid', 'personal_details', 'device_uuid', 'agent_id'];

/** The browser's storage of that kind, or null where it is refused (private modes, sandboxed frames). */
function storageOf(kind: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return globalThis[kind] ?? null;
  } catch {
    // Private modes can refuse storage; the journey still works for this page view.
    return null;
  }
}

/**
 * One key-value store over a browser storage, with JSON values read through a guard. Writes
 * never throw: a full or refused storage loses only what it would have kept.
 */
function keyedStore<K extends string>(kind: 'localStorage' | 'sessionStorage') {
  const write = (key: K, value: string) => {
    try {
      storageOf(kind)?.setItem(key, value);
    } catch {
      // Quota exceeded or storage refused: the page goes on without it.
    }
  };
  return {
    get(key: K): string | null {
      return storageOf(kind)?.getItem(key) ?? null;
    },
    set: write,
    remove(key: K): void {
      storageOf(kind)?.removeItem(key);
    },
    getJson<T>(key: K, guard: (value: unknown) => value is T): T | null {
      const raw = storageOf(kind)?.getItem(key);
      if (!raw) return null;
      try {
        const value: unknown = JSON.parse(raw);
        return guard(value) ? value : null;
      } catch {
        return null;
      }
    },
    setJson(key: K, value: unknown): void {
      write(key, JSON.stringify(value));
    },
    removeAll(keys: readonly K[]): void {
      for (const key of keys) storageOf(kind)?.removeItem(key);
    },
  };
}

/** The spec's locally stored keys (spec §3). */
export const localStore = keyedStore<StorageKey>('localStorage');

/** Keys kept in sessionStorage: this tab only, gone when it closes. */
export type SessionKey = 'reload_draft' | 'language_switched';

/**
 * What one tab carries across its own reload (the language switch reloads the page, spec §1),
 * beside the spec's local keys so storage stays in this one module.
 */
export const sessionStore = keyedStore<SessionKey>('sessionStorage');
