import { sessionStore } from './local-store';

/**
 * Unsaved form values kept across the language switch's reload (spec §1: the switch stores the
 * language and reloads; issue 8 row 13), and on review across the customer's own reload too
 * (issue 38). A form on screen registers how to read its values; the switch (or, on review, the
 * page going away) asks for them just before reloading; the form takes them back after the reload.
 * Only one form registers at a time (the travel details form, or the review's travellers); the draft lives in
 * sessionStorage, so it stays in this tab and dies with it; a trip paid or issued drops it unread
 * (dropReloadDraft, from finished-trip.ts), as the journey's end clears what it stored.
 */
interface Draft {
  path: string;
  values: unknown;
}

let readValues: (() => unknown) | null = null;

const isDraft = (value: unknown): value is Draft =>
  typeof value === 'object' && value !== null && typeof (value as Draft).path === 'string' && 'values' in value;

/** Registers the form on screen; returns the unregister function (for an effect's cleanup). */
export function registerReloadDraft(read: () => unknown): () => void {
  readValues = read;
  return () => {
    if (readValues === read) readValues = null;
  };
}

/** Stores the registered form's values for the reload about to happen (nothing when none is). */
export function keepDraftForReload(path: string = globalThis.location?.pathname ?? ''): void {
  if (!readValues) return;
  sessionStore.setJson('reload_draft', { path, values: readValues() } satisfies Draft);
}

/** The draft stored for `path`, once: it is removed as it is read, whichever page reads it. */
export function takeReloadDraft<T>(guard: (value: unknown) => value is T, path: string = globalThis.location?.pathname ?? ''): T | null {
  const draft = sessionStore.getJson('reload_draft', isDraft);
  sessionStore.remove('reload_draft');
  return draft && draft.path === path && guard(draft.values) ? draft.values : null;
}

/** Drops the stored draft unread: the trip it holds was paid or issued, or the page came back with its typing. */
export function dropReloadDraft(): void {
  sessionStore.remove('reload_draft');
}

/** The registered form's values now, or null: the call-back form starts from what was typed (RULINGS 13). */
export function registeredValues(): unknown {
  return readValues ? readValues() : null;
}
