import * as v from 'valibot';

/**
 * reCAPTCHA v3, the bot check chosen by BOT_CHECK=recaptcha (RULINGS 16): the browser gets a
 * token for the action `login` from Google's script, and the server asks Google's siteverify
 * whether it is a person's. The score is Google's guess (1.0 very likely a person).
 */

/** The action the SPA executes (grecaptcha.execute(siteKey, { action: 'login' })), as RULINGS 16 names it. */
export const RECAPTCHA_ACTION = 'login';

export interface RecaptchaSettings {
  secretKey: string;
  /** Google's siteverify, or a stand-in (RECAPTCHA_VERIFY_URL). */
  verifyUrl: string;
  /** The lowest score that passes (RECAPTCHA_MIN_SCORE). */
  minScore: number;
  /** How long siteverify may take before the token counts as not verified (RECAPTCHA_TIMEOUT_MS). */
  timeoutMs: number;
  /** The host the token must have been made on, or null to take any (see botCheckOf). */
  hostname: string | null;
}

/**
 * passed: a person's token for `login` on our host. failed: Google says no, or the score, action
 * or host is wrong. unavailable: siteverify could not be asked (down, slow, not its JSON) or
 * refused our secret key, so nothing is known about the token; the caller refuses it all the
 * same, and `reason` is for the operator's log.
 */
export type RecaptchaVerdict =
  | { verdict: 'passed' }
  | { verdict: 'failed' }
  | { verdict: 'unavailable'; reason: RecaptchaUnavailable };

export type RecaptchaUnavailable = 'timeout' | 'network' | 'http_status' | 'not_siteverify' | 'secret_refused';

/** What siteverify answers; fields it may add later are ignored. */
const siteverifySchema = v.object({
  success: v.boolean(),
  score: v.optional(v.number()),
  action: v.optional(v.string()),
  hostname: v.optional(v.string()),
  'error-codes': v.optional(v.array(v.string())),
});

/** Error codes that mean our secret key is wrong, not the customer's token. */
const SECRET_ERRORS = new Set(['missing-input-secret', 'invalid-input-secret']);

/**
 * Asks siteverify about `token` (POST secret, response and, when known, remoteip) and judges
 * the answer. Never throws: a network error, a timeout, an HTTP error or a body that is not a
 * siteverify answer is `unavailable`.
 */
export async function verifyRecaptchaToken(
  token: string,
  remoteIp: string | null,
  settings: RecaptchaSettings,
  fetchImpl: typeof fetch = fetch,
): Promise<RecaptchaVerdict> {
  const form = new URLSearchParams({ secret: settings.secretKey, response: token });
  if (remoteIp) form.set('remoteip', remoteIp);
  let answer: unknown;
  try {
    const res = await fetchImpl(settings.verifyUrl, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
    if (!res.ok) return { verdict: 'unavailable', reason: 'http_status' };
    answer = await res.json();
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    return { verdict: 'unavailable', reason: timedOut ? 'timeout' : error instanceof SyntaxError ? 'not_siteverify' : 'network' };
  }
  const parsed = v.safeParse(siteverifySchema, answer);
  if (!parsed.success) return { verdict: 'unavailable', reason: 'not_siteverify' };
  const { success, score, action, hostname } = parsed.output;
  if (parsed.output['error-codes']?.some((code) => SECRET_ERRORS.has(code))) return { verdict: 'unavailable', reason: 'secret_refused' };
  const passed =
    success &&
    action === RECAPTCHA_ACTION &&
    score !== undefined &&
    score >= settings.minScore &&
    (settings.hostname === null || hostname === settings.hostname);
  return { verdict: passed ? 'passed' : 'failed' };
}
