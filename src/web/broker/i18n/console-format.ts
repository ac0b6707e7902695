import { dollarsAndCents } from '../../../contract/money';
import type { ConsoleLanguage } from './console-language';

/**
 * Numbers, money, dates and ages as the console shows them, with Intl in the UI's language and
 * Western digits in both (as Lebanese readers write them): en-GB and ar-LB with the latn system.
 */

const LOCALES: Record<ConsoleLanguage, string> = { en: 'en-GB-u-nu-latn', ar: 'ar-LB-u-nu-latn' };

/** Unicode LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE: "$" stays before its digits in an Arabic line. */
const isolateLtr = (text: string) => `\u2066${text}\u2069`;

export const localeOf = (lang: ConsoleLanguage) => LOCALES[lang];

/**
 * Numbers are grouped and pointed the same way in both languages (1,240 and 33.1%), as the
 * customer's pages and every amount of money are: ar-LB's own 1.240 and 33,1% would put two
 * styles on one screen beside $1,234.50.
 */
const NUMBERS = 'en-GB-u-nu-latn';

export function formatNumber(value: number, _lang: ConsoleLanguage): string {
  return new Intl.NumberFormat(NUMBERS, { maximumFractionDigits: 1 }).format(value);
}

/** A per cent given to one decimal (12.5 → "12.5%"); an em dash when there is none. */
export function formatPercent(value: number | null, _lang: ConsoleLanguage): string {
  if (value === null) return '—';
  return new Intl.NumberFormat(NUMBERS, { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);
}

/** Integer cents as dollars and cents, "$1,234.50", in both languages. */
export function formatMoney(cents: number, _lang?: ConsoleLanguage): string {
  return isolateLtr(`${cents < 0 ? '−' : ''}$${dollarsAndCents(cents)}`);
}

const parsed = (value: string) => {
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time);
};

/** Day, month name and year: "3 Dec 2026", and in Arabic the Levantine month, "3 كانون الأول 2026". */
const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric' };

/** A moment (ISO timestamp) as a date and time in the reader's time zone; anything else as it came. */
export function formatDateTime(value: string | null, lang: ConsoleLanguage): string {
  if (!value) return '—';
  const date = parsed(value);
  return date ? new Intl.DateTimeFormat(LOCALES[lang], { ...DAY, hour: 'numeric', minute: '2-digit' }).format(date) : value;
}

/** A calendar day ("2026-11-23", or the day of a timestamp) as a date; a bare day is read as UTC so the day shown is the day given. */
export function formatDay(value: string | null, lang: ConsoleLanguage): string {
  if (!value) return '—';
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const day = parsed(bare ? `${value}T00:00:00Z` : value);
  if (!day) return value;
  return new Intl.DateTimeFormat(LOCALES[lang], { ...DAY, timeZone: bare ? 'UTC' : undefined }).format(day);
}

/** Names as a list in the UI's language: "France, Italy" / "فرنسا وإيطاليا". */
export function formatList(items: string[], lang: ConsoleLanguage): string {
  return new Intl.ListFormat(LOCALES[lang], { type: 'conjunction' }).format(items);
}

/** A short day for a chart's axis, "23 Nov". */
export function formatShortDay(value: string, lang: ConsoleLanguage): string {
  const day = parsed(`${value}T00:00:00Z`);
  return day ? new Intl.DateTimeFormat(LOCALES[lang], { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(day) : value;
}

/** How long ago `value` was, "3 days ago" / "قبل ٣ أيام" with Western digits, at the largest unit that fits. */
export function formatAge(value: string, lang: ConsoleLanguage, now: number = Date.now()): string {
  const date = parsed(value);
  if (!date) return value;
  const seconds = Math.round((date.getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(LOCALES[lang], { numeric: 'auto' });
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  return format.format(0, 'minute');
}

/** A country's name from its ISO code in the UI's language ("FR" → "France" / "فرنسا"); the code when unknown. */
export function formatCountry(code: string, lang: ConsoleLanguage): string {
  try {
    return new Intl.DisplayNames([LOCALES[lang]], { type: 'region' }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
