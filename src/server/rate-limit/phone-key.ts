import { nationalPhoneNumber } from '../../contract/digits';

/**
 * The key the call-back limit counts a phone number under: calling code digits + the national
 * number the server stores (nationalPhoneNumber) with one leading trunk 0 dropped, so every way
 * of typing one number (`3555455`, `03555455`, `03 555 455`, `+961 3 555 455`) shares one count.
 */
export function phoneKey(countryCode: string, phoneNumber: string): string {
  const national = nationalPhoneNumber(phoneNumber, countryCode).replace(/\D/g, '');
  return `${countryCode.replace(/\D/g, '')}${national.startsWith('0') ? national.slice(1) : national}`;
}
