import { readRuntimeJson } from '../runtime-config';

/**
 * Which bot check the SPA runs (RULINGS 16): ALTCHA by default, reCAPTCHA v3 when the server's
 * runtime configuration names it with a site key. Read when a bot token is first needed, from
 * the bot check's own lazy chunk, so the first load carries none of it.
 */
export type BotCheckSettings = { mode: 'altcha' } | { mode: 'recaptcha'; siteKey: string };

/** The settings in the injected configuration: reCAPTCHA only with a site key to run it with. */
export function botCheckOf(config: Record<string, unknown> | null): BotCheckSettings {
  const siteKey = typeof config?.recaptchaSiteKey === 'string' ? config.recaptchaSiteKey : '';
  return config?.botCheck === 'recaptcha' && siteKey !== '' ? { mode: 'recaptcha', siteKey } : { mode: 'altcha' };
}

let settings: BotCheckSettings | null = null;

/** Sets the bot check explicitly (the tests; the page reads its own configuration). */
export function configureBotCheck(next: BotCheckSettings): void {
  settings = next;
}

export function botCheckSettings(): BotCheckSettings {
  // Outside a page (a test in Node) there is no configuration: the default.
  settings ??= botCheckOf(typeof document === 'undefined' ? null : readRuntimeJson());
  return settings;
}
