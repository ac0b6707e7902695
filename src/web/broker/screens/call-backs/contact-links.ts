import { HOME_PHONE_CODE, onlyDigits, toWesternDigits } from '../../../../contract/digits';

/**
 * The international digits of a phone number as the call-back stored it: "+961 71 123 456" and
 * "0096171123456" as they are; a national number (no "+" or "00") is taken as Lebanese, the
 * site's home code, with its leading 0 dropped ("03 123 456" → 9613123456).
 */
export function internationalDigits(phone: string): string {
  const compact = toWesternDigits(phone).trim();
  if (compact.startsWith('+')) return onlyDigits(compact);
  const digits = onlyDigits(compact);
  if (digits.startsWith('00')) return digits.slice(2);
  return `${HOME_PHONE_CODE.slice(1)}${digits.replace(/^0/, '')}`;
}

/** A tel: link for the phone, dialled internationally. */
export const telHref = (phone: string) => `tel:+${internationalDigits(phone)}`;

/** A WhatsApp chat with the phone (wa.me wants the international number, digits only). */
export const whatsAppHref = (phone: string) => `https://wa.me/${internationalDigits(phone)}`;
