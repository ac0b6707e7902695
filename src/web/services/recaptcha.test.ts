import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Grecaptcha } from './recaptcha';

/**
 * reCAPTCHA mode of the bot-check service (RULINGS 16). Google's script is the edge of the
 * world: jsdom does not load it, so each test plays its part by putting a stub on
 * window.grecaptcha and firing the script element's load (or error) event.
 */

const SITE_KEY = '6LcSafarTestSiteKey_-0123456789abcdefghij';
const SCRIPT_SRC = `https://www.google.com/recaptcha/api.js?render=${SITE_KEY}`;

const recaptchaScripts = () =>
  [...document.head.querySelectorAll('script')].filter((script) => script.src.startsWith('https://www.google.com/recaptcha/'));

/** A stand-in for api.js: `ready` runs its callback, `execute` answers `token`. */
function stubGrecaptcha(token: string) {
  const grecaptcha = {
    ready: vi.fn((callback: () => void) => callback()),
    execute: vi.fn(async () => token),
  } satisfies Grecaptcha;
  window.grecaptcha = grecaptcha;
  return grecaptcha;
}

/** The service and its settings module, fresh: no script loaded yet, as on a new page. */
async function freshService(mode: 'altcha' | 'recaptcha') {
  vi.resetModules();
  const config = await import('./bot-check.config');
  config.configureBotCheck(mode === 'recaptcha' ? { mode, siteKey: SITE_KEY } : { mode });
  return import('./bot-check.service');
}

async function nextScript(): Promise<HTMLScriptElement> {
  await vi.waitFor(() => expect(recaptchaScripts()).toHaveLength(1));
  return recaptchaScripts()[0]!;
}

beforeEach(() => {
  for (const script of recaptchaScripts()) script.remove();
  delete window.grecaptcha;
});
afterEach(() => {
  delete window.grecaptcha;
});

describe('getBotCheckToken with BOT_CHECK=recaptcha', () => {
  it("loads api.js with the site key, then resolves with grecaptcha.execute(siteKey, { action: 'login' })", async () => {
    const { getBotCheckToken } = await freshService('recaptcha');
    const token = getBotCheckToken('en');
    const script = await nextScript();
    expect(script.src).toBe(SCRIPT_SRC);
    expect(script.async).toBe(true);
    const grecaptcha = stubGrecaptcha('recaptcha-token-1');
    script.dispatchEvent(new Event('load'));
    await expect(token).resolves.toBe('recaptcha-token-1');
    expect(grecaptcha.ready).toHaveBeenCalledOnce();
    expect(grecaptcha.execute).toHaveBeenCalledWith(SITE_KEY, { action: 'login' });
  });

  it('adds the script once: a second token is a second execute on the loaded script', async () => {
    const { getBotCheckToken, preloadBotCheck } = await freshService('recaptcha');
    preloadBotCheck();
    const script = await nextScript();
    const grecaptcha = stubGrecaptcha('recaptcha-token-2');
    script.dispatchEvent(new Event('load'));
    await expect(getBotCheckToken('ar')).resolves.toBe('recaptcha-token-2');
    await expect(getBotCheckToken('en')).resolves.toBe('recaptcha-token-2');
    expect(recaptchaScripts()).toHaveLength(1);
    expect(grecaptcha.execute).toHaveBeenCalledTimes(2);
  });

  it('rejects with BotCheckError when the script does not load, and the next attempt adds it again', async () => {
    const { BotCheckError, getBotCheckToken } = await freshService('recaptcha');
    const first = getBotCheckToken('en');
    (await nextScript()).dispatchEvent(new Event('error'));
    await expect(first).rejects.toBeInstanceOf(BotCheckError);
    expect(recaptchaScripts()).toHaveLength(0);

    const second = getBotCheckToken('en');
    const script = await nextScript();
    stubGrecaptcha('recaptcha-token-3');
    script.dispatchEvent(new Event('load'));
    await expect(second).resolves.toBe('recaptcha-token-3');
  });
});

describe('ALTCHA stays the default', () => {
  it('adds no Google script on the plan pages (preloadBotCheck does nothing)', async () => {
    const { preloadBotCheck } = await freshService('altcha');
    preloadBotCheck();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(recaptchaScripts()).toHaveLength(0);
  });
});
