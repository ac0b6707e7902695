import { parseIsoDate } from '../../../../contract/dates';
import { DATE_TEXT_MAX_LENGTH, dateDigits } from '../../../../contract/digits';

/** Typed dates are DD/MM/YYYY: 10 characters, digits and slashes only (spec §5). */
export { DATE_TEXT_MAX_LENGTH };

/**
 * What the date field shows after a keystroke or a paste: digits and slashes only, at most 10
 * characters once normalised. Arabic-keyboard digits count as digits (٢٥ is 25) and pasted
 * separators (25-12-1990, 25.12.1990) as slashes: the app's one normaliser (contract/digits).
 * Typing forward adds the slash after the day and the month, so a phone's number pad (which
 * has no slash) is enough; pasted digits ("25121990") get their slashes too.
 */
export function normalizeDateText(next: string, previous: string): string {
  let text = dateDigits(next);
  if (!text.includes('/') && text.length > 2) {
    text = text.length > 4 ? `${text.slice(0, 2)}/${text.slice(2, 4)}/${text.slice(4)}` : `${text.slice(0, 2)}/${text.slice(2)}`;
  }
  const typingForward = next.length > previous.length;
  if (typingForward && (/^\d{2}$/.test(text) || /^\d{1,2}\/\d{2}$/.test(text))) text += '/';
  return text.slice(0, DATE_TEXT_MAX_LENGTH);
}

/** A complete, real DD/MM/YYYY date as "YYYY-MM-DD"; null for anything else (31/02 included). */
export function parseDateText(text: string): string | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const iso = `${match[3]}-${match[2]!.padStart(2, '0')}-${match[1]!.padStart(2, '0')}`;
  return parseIsoDate(iso) === null ? null : iso;
}

export function formatDateText(iso: string | null): string {
  if (!iso || parseIsoDate(iso) === null) return '';
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
}

export const isWithin = (iso: string, min: string | undefined, max: string | undefined) =>
  (min === undefined || iso >= min) && (max === undefined || iso <= max);

/** The typed text as a date inside the bounds, or null when it is incomplete, invalid or outside. */
export function acceptedDate(text: string, min?: string, max?: string): string | null {
  const iso = parseDateText(text);
  return iso && isWithin(iso, min, max) ? iso : null;
}
