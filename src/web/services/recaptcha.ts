/**
 * reCAPTCHA v3 in the browser (BOT_CHECK=recaptcha, RULINGS 16). Google's script is added to the
 * page only when a token is first needed or the plan list is shown, never on first load.
 */

/** The part of Google's grecaptcha object v3 uses. */
export interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): PromiseLike<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

export const RECAPTCHA_SCRIPT_URL = 'https://www.google.com/recaptcha/api.js';
/** The action the server checks (src/server/bot-check/recaptcha.ts RECAPTCHA_ACTION). */
export const RECAPTCHA_ACTION = 'login';
/** How long the script and Google's answer may take before the check counts as failed. */
export const RECAPTCHA_TIMEOUT_MS = 15_000;

let loading: Promise<Grecaptcha> | null = null;

/**
 * Adds api.js?render=<site key> once and resolves with window.grecaptcha when it has run. A
 * script that fails to load is removed, so the next attempt tries again.
 */
export function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${RECAPTCHA_SCRIPT_URL}?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.addEventListener('load', () => {
      if (window.grecaptcha) resolve(window.grecaptcha);
      else reject(new Error('reCAPTCHA script loaded without grecaptcha'));
    });
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error('reCAPTCHA script did not load'));
    });
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('reCAPTCHA did not answer in time')), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A fresh token for the action `login` (grecaptcha.ready, then execute). Tokens live two minutes: get one per request. */
export function getRecaptchaToken(siteKey: string): Promise<string> {
  const token = loadRecaptcha(siteKey).then(
    (grecaptcha) =>
      new Promise<string>((resolve, reject) => {
        grecaptcha.ready(() => {
          grecaptcha.execute(siteKey, { action: RECAPTCHA_ACTION }).then(resolve, reject);
        });
      }),
  );
  return withTimeout(token, RECAPTCHA_TIMEOUT_MS);
}
