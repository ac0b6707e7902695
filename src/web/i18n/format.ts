import type { Language } from '../../contract/endpoint';
import { dollarsAndCents, groupThousands } from '../../contract/money';
import { MONTH_NAMES } from '../../contract/month-names';

export { formatList } from '../../contract/list-format';

/**
 * Money, list and date formats. Amounts read "$1,234" in both languages, as the spec shows them
 * and as card statements print them. Arabic dates use the Levantine month names Lebanese
 * readers use (تشرين الثاني, not نوفمبر) with Western digits, as on Lebanese passports and cards.
 */

/** Unicode LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE. */
export const LRI = '\u2066';
export const PDI = '\u2069';

/**
 * Text that must read left to right whatever surrounds it. In a right-to-left line the bidi
 * algorithm otherwise moves "$" and "+" to the far side of the digits ("+$30" shows as
 * "30$+"); an isolate keeps the amount one left-to-right unit that its neighbours cannot
 * reorder, in text nodes, labels and accessible names alike (issue 8 row 12).
 */
export const isolateLtr = (text: string): string => `${LRI}${text}${PDI}`;

/**
 * Whole US dollars from integer cents: 123456 -> "$1,235" (RULINGS 17), isolated from the
 * line's direction. The one place that writes an amount: every price on screen comes from here.
 * `signed` writes an add-on's extra cost, "+$30", and `minus` a discount, "−$12", with the sign
 * inside the isolate. `cents` writes the exact amount, "$94.57" and "$48.00" (RULINGS 26): what
 * a customer is asked to pay, from the checkout price summary on, where every line must add up
 * to the total to the cent. Western digits in both languages.
 */
export function formatMoney(cents: number, _lang: Language, options: { signed?: boolean; minus?: boolean; cents?: boolean } = {}): string {
  const amount = options.cents ? `$${dollarsAndCents(cents)}` : `$${groupThousands(Math.round(cents / 100))}`;
  return isolateLtr(options.minus ? `\u2212${amount}` : options.signed ? `+${amount}` : amount);
}

/** "23 Nov 2026" / "23 تشرين الثاني 2026", as Intl's en-GB and ar-LB (Western digits) write them. */
export function formatDate(date: Date, lang: Language): string {
  return `${date.getDate()} ${MONTH_NAMES[lang][date.getMonth()]} ${date.getFullYear()}`;
}

/**
 * A "YYYY-MM-DD" day as formatDate writes it, read as a local date so the day shown is the
 * calendar day in any time zone; anything else is shown as it came.
 */
export function formatIsoDate(iso: string, lang: Language): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso) || !year || !month || !day) return iso;
  return formatDate(new Date(year, month - 1, day), lang);
}
