import type { Language } from '../../contract/endpoint';

/**
 * Money and date formats. Amounts read "$1,234" in both languages, as the spec shows them and
 * as card statements print them. Arabic dates use the Levantine month names Lebanese readers
 * use (تشرين الثاني, not نوفمبر) with Western digits, as on Lebanese passports and cards.
 */
const dollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Whole US dollars from integer cents: 123456 -> "$1,235" (RULINGS 17). */
export function formatMoney(cents: number, _lang: Language): string {
  return `$${dollars.format(Math.round(cents / 100))}`;
}

/** "23 Nov 2026" / "23 تشرين الثاني 2026". */
export function formatDate(date: Date, lang: Language): string {
  return new Intl.DateTimeFormat(lang === 'ar' ? 'ar-LB-u-nu-latn' : 'en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(date);
}
