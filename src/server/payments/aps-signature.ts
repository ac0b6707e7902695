import { createHash, timingSafeEqual } from 'node:crypto';

/** A flat APS parameter set as posted (form fields) or received (return / direct feedback). */
export type ApsFields = Record<string, string | number | null | undefined>;

export type ApsShaAlgorithm = 'sha256' | 'sha512';

/**
 * The signature of an Amazon Payment Services (formerly PayFort) request or response:
 * hex(hash(phrase + k1=v1 + k2=v2 + … + phrase)), RULINGS 19.
 *
 * Checked against the official SDK payfort/payfort-php-sdk:
 * - `PayfortIntegration.php`, `calculateSignature()`: `ksort($arrData)`, then `$shaString .= "$k=$v"`
 *   for every entry (no separator between pairs), wrapped as `phrase . string . phrase`, and
 *   `hash($SHAType, …)` (lower-case hex; SHAType "sha256" by default, "sha1"/"sha512" allowed).
 *   Requests are signed before `signature` is added; on a response `processResponse()` unsets
 *   `signature` (and its own non-APS fields `r`, `integration_type`, `3ds`) and signs the rest with the
 *   response phrase. Every other received field is signed, whatever it is named.
 * - `src/AmazonPaymentServices/Core/APSSignature.php`, `calculateSignature()`: the same rule
 *   (ksort, `key=value`, phrase on both sides); only nested wallet values (`apple_header`,
 *   `apple_paymentMethod`, written as `key={k=v, k=v}`) are special and `installment_detail` is
 *   left out. Safar sends and accepts no nested values, so only flat fields are handled here.
 *
 * Hence here: `signature` is dropped; an empty string is signed as `key=` (PHP concatenates it, and
 * a posted empty form field is received that way); null/undefined mean "not sent" (the field is
 * absent from the form) and are left out. Keys sort by UTF-16 code unit, which for APS's ASCII
 * parameter names is ksort's byte order. Callers drop their own routing fields before verifying.
 */
export function apsSignature(fields: ApsFields, phrase: string, algorithm: ApsShaAlgorithm = 'sha256'): string {
  const pairs = Object.keys(fields)
    .filter((key) => key !== 'signature' && fields[key] !== null && fields[key] !== undefined)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((key) => `${key}=${String(fields[key])}`)
    .join('');
  return createHash(algorithm).update(`${phrase}${pairs}${phrase}`, 'utf8').digest('hex');
}

/**
 * Whether `fields.signature` is the signature of the other fields under `phrase`, compared in
 * constant time (case-insensitively: hex digits). A missing or malformed signature is false.
 */
export function verifyApsSignature(fields: ApsFields, phrase: string, algorithm: ApsShaAlgorithm = 'sha256'): boolean {
  const given = fields.signature;
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(apsSignature(fields, phrase, algorithm), 'utf8');
  const received = Buffer.from(given.toLowerCase(), 'utf8');
  return received.length === expected.length && timingSafeEqual(received, expected);
}
