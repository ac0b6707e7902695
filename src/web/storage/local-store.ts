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
  'callBack',
  'is_edit',
  'compare_data',
] as const;
export type StorageKey = (typeof STORAGE_KEYS)[number];

/** Keys cleared by `state=new` (spec §2): the drafts that tie the browser to a lead. */
export const DRAFT_KEYS: readonly StorageKey[] = ['uuid', 'personal_details', 'device_uuid', 'agent_id', 'session_id'];

/** Keys cleared when an agent link opens the app (spec §4 agent mode). */
export const AGENT_RESET_KEYS: readonly StorageKey[] = ['uuid', 'personal_details', 'device_uuid', 'agent_id'];

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Private modes can refuse storage; the journey still works for this page view.
    return null;
  }
}

export const localStore = {
  get(key: StorageKey): string | null {
    return storage()?.getItem(key) ?? null;
  },
  set(key: StorageKey, value: string): void {
    storage()?.setItem(key, value);
  },
  remove(key: StorageKey): void {
    storage()?.removeItem(key);
  },
  getJson<T>(key: StorageKey, guard: (value: unknown) => value is T): T | null {
    const raw = storage()?.getItem(key);
    if (!raw) return null;
    try {
      const value: unknown = JSON.parse(raw);
      return guard(value) ? value : null;
    } catch {
      return null;
    }
  },
  setJson(key: StorageKey, value: unknown): void {
    storage()?.setItem(key, JSON.stringify(value));
  },
  removeAll(keys: readonly StorageKey[]): void {
    for (const key of keys) storage()?.removeItem(key);
  },
};
