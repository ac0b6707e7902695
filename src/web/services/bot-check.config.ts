/**
 * Which bot check the SPA runs (RULINGS 16), set once at start from the runtime configuration.
 * A module of its own, so the first load carries this and not the bot check itself.
 */
export type BotCheckSettings = { mode: 'altcha' } | { mode: 'recaptcha'; siteKey: string };

let settings: BotCheckSettings = { mode: 'altcha' };

export function configureBotCheck(next: BotCheckSettings): void {
  settings = next;
}

export function botCheckSettings(): BotCheckSettings {
  return settings;
}
