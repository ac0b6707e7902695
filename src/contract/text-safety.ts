/**
 * RULINGS 25: control characters and badly formed Unicode are refused with a field code, never
 * stored. PostgreSQL cannot store a NUL in text at all (it failed the whole request with a
 * 500 that also logged the customer's details), and a lone surrogate is not text: it cannot be
 * encoded, printed on a policy or sent in an e-mail.
 *
 * The check walks a whole JSON body, so every string of every endpoint, keys included, is held
 * to it in one place rather than field by field.
 */

/** C0 controls (tab and newline included: no field of the contract is multi-line), DEL and C1 controls. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True when the text holds a control character or is not well-formed UTF-16 (a lone surrogate). */
export function isUnsafeText(text: string): boolean {
  return CONTROL.test(text) || LONE_SURROGATE.test(text);
}

/** A place in the body: its key and its parent, so a path is only spelled out when it is reported. */
interface Place {
  key: string;
  parent: Place | null;
}

function pathOf(place: Place | null): string {
  const keys: string[] = [];
  for (let at = place; at !== null; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.') || '_';
}

/**
 * Dotted paths ("travellers_info.1.first_name") of every string in `value` that isUnsafeText,
 * or of the object key itself when a key is unsafe. Empty when the whole value is clean. It
 * walks with its own stack, not recursion, and links each place to its parent instead of
 * copying paths, so a body nested 20,000 levels deep (which JSON.parse accepts) costs neither
 * the call stack nor quadratic memory.
 */
export function unsafeTextPaths(value: unknown): string[] {
  const found: string[] = [];
  const pending: { value: unknown; place: Place | null }[] = [{ value, place: null }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: item, place } = next;
    if (typeof item === 'string') {
      if (isUnsafeText(item)) found.push(pathOf(place));
    } else if (Array.isArray(item)) {
      item.forEach((entry, index) => pending.push({ value: entry, place: { key: String(index), parent: place } }));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, entry] of Object.entries(item)) {
        // An unsafe key is reported under a safe stand-in: echoing it would carry the bad text back.
        if (isUnsafeText(key)) found.push(pathOf({ key: '_key', parent: place }));
        else pending.push({ value: entry, place: { key, parent: place } });
      }
    }
  }
  return found;
}
