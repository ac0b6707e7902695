/**
 * Error codes shared by server, machines and SPA. The server sends a code per field; the SPA
 * maps each code to a translated message (src/web/i18n/error-messages.ts), so no text crosses
 * the machine boundary.
 */
export const ERROR_CODES = [
  'required',
  'invalid_type',
  'invalid_value',
  'too_long',
  'too_short',
  'out_of_range',
  'unknown_field',
  /** A control character (NUL included) or badly formed Unicode (RULINGS 25). */
  'invalid_characters',
  'invalid_json',
  'signature_missing',
  'signature_invalid',
  'timestamp_skew',
  'nonce_reused',
  'not_found',
  'rate_limited',
  'server_error',
  /** The policy page (issue 37): a cancellation asked for twice, or for a policy that started or is cancelled. */
  'cancellation_not_allowed',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Field path (dot separated) to the code of the first problem found there. */
export type FieldErrors = Record<string, ErrorCode | string>;
