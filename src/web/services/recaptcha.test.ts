import { createChallenge } from 'altcha-lib/v1';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DetachedWindowAPI, Response as DomResponse } from 'happy-dom';
import type { Grecaptcha } from './recaptcha';

/**
 * reCAPTCHA mode of the bot-check service (RULINGS 16). Google's servers are the edge of the
 * world: happy-dom fetches the script the service adds, through a fetch interceptor that holds the
 * request until the test answers it, as Google would: a script (after the test has put a stub on
 * window.grecaptcha, which stands for what api.js defines) or an error.
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

/** Requests for Google's script, each held until the test answers it (`answer`), oldest first. */
const googleRequests: Array<{ url: string; answer: (status: 200 | 503) => void }> = [];
const settings = (window as unknown as { happyDOM: DetachedWindowAPI }).happyDOM.settings;
const { enableJavaScriptEvaluation, fetch: fetchSettings } = settings;
const { interceptor } = fetchSettings;

/** The service's script element once it is in the page, and Google's request for it. */
async function nextScript() {
  await vi.waitFor(() => {
    expect(recaptchaScripts()).toHaveLength(1);
    expect(googleRequests).toHaveLength(1);
  });
  const request = googleRequests.shift()!;
  return { script: recaptchaScripts()[0]!, url: request.url, answer: request.answer };
}

beforeEach(() => {
  for (const script of recaptchaScripts()) script.remove();
  delete window.grecaptcha;
  googleRequests.length = 0;
  // A script is fetched only where scripts run; the one Google sends here is empty.
  settings.enableJavaScriptEvaluation = true;
  settings.fetch.interceptor = {
    beforeAsyncRequest: ({ request }) => {
      if (!request.url.startsWith('https://www.google.com/')) throw new Error(`no request leaves the test: ${request.url}`);
      return new Promise((resolve) => {
        googleRequests.push({ url: request.url, answer: (status) => resolve(new window.Response(status === 200 ? '/* api.js */' : 'unavailable', { status, headers: { 'content-type': 'text/javascript' } }) as unknown as DomResponse) });
      });
    },
  };
});
afterEach(() => {
  delete window.grecaptcha;
  settings.enableJavaScriptEvaluation = enableJavaScriptEvaluation;
  settings.fetch.interceptor = interceptor;
});

describe('getBotCheckToken with BOT_CHECK=recaptcha', () => {
  it("loads api.js with the site key, then resolves with grecaptcha.execute(siteKey, { action: 'login' })", async () => {
    const { getBotCheckToken } = await freshService('recaptcha');
    const token = getBotCheckToken('en');
    const { script, url, answer } = await nextScript();
    expect(script.src).toBe(SCRIPT_SRC);
    expect(url).toBe(SCRIPT_SRC);
    expect(script.async).toBe(true);
    const grecaptcha = stubGrecaptcha('recaptcha-token-1');
    answer(200);
    await expect(token).resolves.toBe('recaptcha-token-1');
    expect(grecaptcha.ready).toHaveBeenCalledOnce();
    expect(grecaptcha.execute).toHaveBeenCalledWith(SITE_KEY, { action: 'login' });
  });

  it('adds the script once: a second token is a second execute on the loaded script', async () => {
    const { getBotCheckToken, preloadBotCheck } = await freshService('recaptcha');
    preloadBotCheck('en');
    const { answer } = await nextScript();
    const grecaptcha = stubGrecaptcha('recaptcha-token-2');
    answer(200);
    await expect(getBotCheckToken('ar')).resolves.toBe('recaptcha-token-2');
    await expect(getBotCheckToken('en')).resolves.toBe('recaptcha-token-2');
    expect(recaptchaScripts()).toHaveLength(1);
    expect(grecaptcha.execute).toHaveBeenCalledTimes(2);
  });

  it('rejects with BotCheckError when the script does not load, and the next attempt adds it again', async () => {
    const { BotCheckError, getBotCheckToken } = await freshService('recaptcha');
    const first = getBotCheckToken('en');
    (await nextScript()).answer(503);
    await expect(first).rejects.toBeInstanceOf(BotCheckError);
    expect(recaptchaScripts()).toHaveLength(0);

    const second = getBotCheckToken('en');
    const { answer } = await nextScript();
    stubGrecaptcha('recaptcha-token-3');
    answer(200);
    await expect(second).resolves.toBe('recaptcha-token-3');
  });
});

describe('ALTCHA stays the default', () => {
  /** The API edge replaced: bot-challenge answers a fresh altcha-lib challenge each time, and each request is counted. */
  async function serveChallenges() {
    const { configureHttpClient } = await import('./http-client');
    const served: string[] = [];
    configureHttpClient({
      baseUrl: 'http://bot-check.test',
      signingKey: 'test',
      fetch: async () => {
        const challenge = await createChallenge({ hmacKey: 'bot-check-test-key', maxnumber: 2000, expires: new Date(Date.now() + 10 * 60_000) });
        served.push(challenge.salt);
        return new Response(JSON.stringify({ status: 200, message: 'ok', data: challenge }), { status: 200, headers: { 'content-type': 'application/json' } });
      },
    });
    return served;
  }
  const saltOf = (token: string) => (JSON.parse(atob(token)) as { salt: string }).salt;

  afterEach(() => vi.useRealTimers());

  it('adds no Google script on the plan pages', async () => {
    const { preloadBotCheck } = await freshService('altcha');
    await serveChallenges();
    preloadBotCheck('en');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(recaptchaScripts()).toHaveLength(0);
  });

  it('on the plan pages a token is solved ahead when the page is idle; Buy now takes it without waiting for a challenge, and the next Buy now solves a new one (issue 19)', async () => {
    const { getBotCheckToken, preloadBotCheck } = await freshService('altcha');
    const served = await serveChallenges();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    preloadBotCheck('en');
    expect(served).toHaveLength(0);
    // happy-dom has no idle callbacks: whenIdle's timer (1.5 s) stands in for the idle page.
    vi.advanceTimersByTime(1500);
    vi.useRealTimers();
    await vi.waitFor(() => expect(served).toHaveLength(1));
    const first = await getBotCheckToken('en');
    expect(saltOf(first)).toBe(served[0]);
    expect(served).toHaveLength(1);
    const second = await getBotCheckToken('en');
    expect(served).toHaveLength(2);
    expect(saltOf(second)).toBe(served[1]);
  });

  it('a token solved ahead is not used after eight minutes (the server keeps a challenge ten), nor in another language (clock mocked)', async () => {
    const { getBotCheckToken, preloadBotCheck } = await freshService('altcha');
    const served = await serveChallenges();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    preloadBotCheck('en');
    vi.advanceTimersByTime(1500);
    vi.useRealTimers();
    await vi.waitFor(() => expect(served).toHaveLength(1));
    expect(saltOf(await getBotCheckToken('ar'))).toBe(served[1]);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    preloadBotCheck('en');
    vi.advanceTimersByTime(1500);
    vi.useRealTimers();
    await vi.waitFor(() => expect(served).toHaveLength(3));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 8 * 60_000 + 1);
    expect(saltOf(await getBotCheckToken('en'))).toBe(served[3]);
  });
});
