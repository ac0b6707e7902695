import type { TravelDetailsCode } from './travel-details.rules';

/**
 * Numbers as customers type and paste them (spec §5, RULINGS 25): one normaliser for every
 * numeric field of the app (phones now; passports, dates and amounts at review and checkout),
 * shared by the SPA's number input and by the server, which stores Western digits only.
 * Pure and dependency-free so the contract, the machines and both ends can use it.
 */

export const HOME_PHONE_CODE = '+961';

/** Digits allowed for a phone number under a calling code (spec §5). */
export function phoneDigitRange(code: string): { min: number; max: number; code: TravelDetailsCode } {
  return code === HOME_PHONE_CODE ? { min: 7, max: 8, code: 'phone_digits_961' } : { min: 8, max: 10, code: 'phone_digits_other' };
}

/** Arabic-Indic (U+0660–0669) and Eastern Arabic-Indic / Persian (U+06F0–06F9) digits. */
const NON_WESTERN_DIGIT = /[\u0660-\u0669\u06f0-\u06f9]/g;

/**
 * The text with Arabic-keyboard digits written as 0–9; everything else is left as it is.
 * An Arabic or Persian keyboard types ٧١ or ۷۱ where an English one types 71.
 */
export function toWesternDigits(text: string): string {
  return text.replace(NON_WESTERN_DIGIT, (digit) => String(digit.charCodeAt(0) & 0x0f));
}

/** Western digits only: Arabic-keyboard digits converted, every other character dropped. */
export function onlyDigits(text: string): string {
  return toWesternDigits(text).replace(/\D/g, '');
}

/**
 * What a person may write around a phone number and the server drops: spaces (no-break ones
 * too), dashes, dots, brackets and direction marks. A "+", a letter or a control character
 * stays, so it is refused (RULINGS 25).
 */
const PHONE_SEPARATORS = /[ \u00a0\u2000-\u200a\u202f\u3000\u200e\u200f\u2066-\u2069().\-\u2010-\u2015]/g;

/**
 * The phone number as the API receives it with Western digits and no separators
 * ("٧١ ١٢٣-٤٥٦" → "71123456"). The server checks the rest, so nothing is capped here.
 */
export function phoneNumberText(text: string): string {
  return toWesternDigits(text).replace(PHONE_SEPARATORS, '');
}

/**
 * The national number the server reads and stores (RULINGS 25): phoneNumberText, then a leading
 * international prefix of the selected code (or of +961) dropped, written with "+" or "00". A
 * letter, a control character or another country's prefix stays, so the rules refuse it.
 * "+961 71 123-456", "00961 71 123 456" and "71 123 456" under +961 all give "71123456".
 */
export function nationalPhoneNumber(text: string, countryCode: string): string {
  const phone = phoneNumberText(text);
  const codes = [...new Set([countryCode.replace(/\D/g, ''), HOME_PHONE_CODE.slice(1)])].filter(Boolean);
  for (const code of codes) {
    for (const prefix of [`+${code}`, `00${code}`]) if (phone.startsWith(prefix)) return phone.slice(prefix.length);
  }
  return phone;
}

/**
 * The national number in what was typed or pasted, uncapped: digits normalised, everything
 * else stripped, and an international prefix dropped from the front, written with "+" or "00"
 * (`+961 71 123 456`, `00961 71 123 456`, or the selected code). Without "+" or "00", the code
 * is dropped only when the digits are too many for a national number ("96171123456").
 */
export function nationalDigits(text: string, countryCode: string): string {
  const compact = toWesternDigits(text).replace(/[^\d+]/g, '');
  const codeDigits = countryCode.replace(/\D/g, '');
  const prefixes = [...new Set([codeDigits, HOME_PHONE_CODE.slice(1)])].filter(Boolean);
  const international = /^(\+|00)/.exec(compact);
  if (international) {
    const rest = compact.slice(international[0].length).replace(/\D/g, '');
    const prefix = prefixes.find((p) => rest.startsWith(p));
    return prefix ? rest.slice(prefix.length) : rest;
  }
  const digits = compact.replace(/\D/g, '');
  if (codeDigits && digits.length > phoneDigitRange(countryCode).max && digits.startsWith(codeDigits)) return digits.slice(codeDigits.length);
  return digits;
}

/**
 * The phone field's value (spec §5 "strip non-digits and cap length"): the national number
 * of `nationalDigits`, THEN capped at the most digits the calling code allows, so a pasted
 * `+961 71 123 456` gives `71123456` rather than the first 8 characters of the raw text.
 */
export function phoneDigits(text: string, countryCode: string): string {
  return nationalDigits(text, countryCode).slice(0, phoneDigitRange(countryCode).max);
}

/** A typed date is DD/MM/YYYY: 10 characters (spec §5). */
export const DATE_TEXT_MAX_LENGTH = 10;

/**
 * A typed or pasted date reduced to digits and slashes: Arabic-keyboard digits converted,
 * the other usual separators (- . \ and the Arabic date separator) read as slashes, repeated
 * slashes merged, anything else dropped. Not capped: the date field lays out the slashes first.
 */
export function dateDigits(text: string): string {
  return toWesternDigits(text)
    .replace(/[-.\\\u2044\u2215\u060d]/g, '/')
    .replace(/[^\d/]/g, '')
    .replace(/\/{2,}/g, '/');
}

/**
 * A calling code from a link or storage, kept only when it is one of `known` (the codes of
 * get-country-codes); anything else is the home code +961 (spec §2: country_code defaults to 961).
 */
export function knownCallingCode(code: string | null | undefined, known: readonly string[]): string {
  return code && known.includes(code) ? code : HOME_PHONE_CODE;
}
