import type { Language } from '../../contract/endpoint';

/**
 * Number and date formats. Arabic uses Arabic month and day names with Western digits, as
 * Lebanese banks and passports do, so prices and phone numbers read the same in both languages.
 */
const intlLocale = (lang: Language) => (lang === 'ar' ? 'ar-LB-u-nu-latn' : 'en-GB');

/** Whole US dollars from integer cents: 123456 -> "$1,235" (RULINGS 17). */
export function formatMoney(cents: number, lang: Language): string {
  return new Intl.NumberFormat(intlLocale(lang), {
    style: 'currency',
    currency: 'USD',
    currencyDisplay: 'narrowSymbol',
    maximumFractionDigits: 0,
    minimumFractionDigits: 0,
  }).format(Math.round(cents / 100));
}

export function formatNumber(value: number, lang: Language): string {
  return new Intl.NumberFormat(intlLocale(lang)).format(value);
}

/** "23 Nov 2026" / "23 نوفمبر 2026". */
export function formatDate(date: Date, lang: Language): string {
  return new Intl.DateTimeFormat(intlLocale(lang), { day: 'numeric', month: 'short', year: 'numeric' }).format(date);
}
