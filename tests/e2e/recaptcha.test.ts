import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process';
import { browserForThisFile, DESKTOP, visit } from './harness';
import { buyPlanThroughForm, familyTrip, PLAN } from './review-steps';

/**
 * BOT_CHECK=recaptcha in Chromium against the real server (RULINGS 16). The machine has no
 * internet, so Google is played at the edge of the world: the browser's requests for
 * https://www.google.com/recaptcha/* get a stand-in api.js, and siteverify is a fake in this
 * process that believes a token when it names the action `login`. The page's CSP, the lazy
 * loading and the token's way to the server are the real ones.
 */

const browser = browserForThisFile();
const SITE_KEY = '6LcSafarE2eSiteKey_-0123456789abcdefghijk';
const SECRET = 'safar-e2e-recaptcha-secret';

/** The stand-in api.js: grecaptcha whose tokens say which action and site key made them. */
const STUB_API_JS = `window.grecaptcha = {
  ready: function (callback) { setTimeout(callback, 0); },
  execute: function (siteKey, options) { return Promise.resolve('stub-token.' + options.action + '.' + siteKey); },
};`;

let siteverify: Server;
const verified: Record<string, string>[] = [];
let server: ServerProcess;
let origin = '';

beforeAll(async () => {
  siteverify = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      verified.push(form);
      const [, action] = (form.response ?? '').split('.');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: form.secret === SECRET, score: 0.9, action, hostname: '127.0.0.1', challenge_ts: new Date().toISOString() }));
    });
  });
  await new Promise<void>((resolve) => siteverify.listen(0, '127.0.0.1', resolve));
  const port = await freePort();
  server = startServerProcess({
    PORT: String(port),
    DATA_DIR: path.join(inject('dataDir'), '..', `recaptcha-${randomBytes(4).toString('hex')}`),
    SAFAR_STATIC_DIR: inject('staticDir'),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    BOT_CHECK: 'recaptcha',
    RECAPTCHA_SITE_KEY: SITE_KEY,
    RECAPTCHA_SECRET_KEY: SECRET,
    RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}/recaptcha/api/siteverify`,
  }, { bundle: true });
  await server.listening(90_000);
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => siteverify.close(() => resolve()));
});

test("BOT_CHECK=recaptcha: Google's script loads on the quote list only, Buy now sends a token for the action login, the server verifies it and review opens", async () => {
  const context = await browser().newContext({ viewport: DESKTOP, baseURL: origin });
  const problems: string[] = [];
  const googleRequests: string[] = [];
  await context.route('https://www.google.com/recaptcha/**', async (route) => {
    googleRequests.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'text/javascript', body: STUB_API_JS });
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));

  // First load: no Google script on the travel details step.
  await visit(page, '/traveller-details?lang=en');
  expect(googleRequests).toEqual([]);

  await buyPlanThroughForm(page, 'en', familyTrip(), PLAN.provider1000);
  // api.js was asked for once, with the site key, and allowed by the page's CSP.
  expect(googleRequests).toEqual([`https://www.google.com/recaptcha/api.js?render=${SITE_KEY}`]);
  expect(verified).toHaveLength(1);
  expect(verified[0]).toMatchObject({ secret: SECRET, response: `stub-token.login.${SITE_KEY}`, remoteip: '127.0.0.1' });
  expect(await page.evaluate(() => typeof (window as { grecaptcha?: unknown }).grecaptcha)).toBe('object');
  await context.close();
  expect(problems, 'console errors, page errors or CSP violations').toEqual([]);
});
