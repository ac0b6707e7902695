import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proceedBuyNowEndpoint, proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import type { BotCheckConfig } from '../../src/server/config';
import * as t from '../../src/server/db/schema';
import { createTestApp, testConfig, writeBuiltPages } from '../support/test-app';
import { ARABIC, expectErrorEnvelope } from './expect-envelope';
import { createLeadTestApp, FIXED_NOW, leadBody, type LeadTestApp } from './lead-fixtures';
import { freshBotToken, insertQuote, insertTestCatalogue, PLAN } from './order-fixtures';

/**
 * BOT_CHECK=recaptcha (RULINGS 16): proceed-review and proceed-buy-now take a reCAPTCHA v3
 * token, which the server checks at the verify endpoint. Google is the edge of the world, so
 * each test's siteverify is a local fake on 127.0.0.1 that answers per token.
 */

const SECRET = 'recaptcha-test-secret-key';
const SITE_KEY = '6LcSafarTestSiteKey_-0123456789abcdefghij';

type FakeAnswer = { json: unknown } | { status: number; text: string } | 'hang';

/** A fake siteverify: records each POSTed form, answers by the `response` field. */
class FakeSiteverify {
  readonly forms: Record<string, string>[] = [];
  /** For each token it left hanging: how long the app waited before it dropped the connection. */
  readonly droppedAfter = new Map<string, number>();
  private readonly answers = new Map<string, FakeAnswer>();
  private readonly server: Server;
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      const arrived = performance.now();
      void readBody(req).then((body) => {
        const form = Object.fromEntries(new URLSearchParams(body));
        this.forms.push(form);
        const answer = this.answers.get(form.response ?? '') ?? { json: { success: false, 'error-codes': ['invalid-input-response'] } };
        if (answer === 'hang') {
          // Never answers: the app must give up on its own.
          req.socket.once('close', () => this.droppedAfter.set(form.response ?? '', performance.now() - arrived));
          return;
        }
        if ('json' in answer) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer.json));
        } else {
          res.writeHead(answer.status, { 'content-type': 'text/html' });
          res.end(answer.text);
        }
      });
    });
  }

  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/recaptcha/api/siteverify`;
  }

  answer(token: string, answer: FakeAnswer) {
    this.answers.set(token, answer);
  }

  /** Google's answer for a token made on `hostname` for `action` with `score`. */
  verdict(token: string, fields: { score?: number; action?: string; hostname?: string } = {}) {
    this.answer(token, {
      json: { success: true, challenge_ts: '2026-03-15T10:00:00Z', hostname: 'safar.test', score: 0.9, action: 'login', ...fields },
    });
  }

  close() {
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

function recaptchaConfig(verifyUrl: string, overrides: Partial<Extract<BotCheckConfig, { mode: 'recaptcha' }>> = {}): BotCheckConfig {
  return { mode: 'recaptcha', siteKey: SITE_KEY, secretKey: SECRET, verifyUrl, minScore: 0.5, timeoutMs: 400, ...overrides };
}

let fake: FakeSiteverify;
let app: LeadTestApp;
let tokenNumber = 0;
const nextToken = () => `03AFcWeA-recaptcha-token-${(tokenNumber += 1)}`;

beforeAll(async () => {
  fake = new FakeSiteverify();
  await fake.start();
  // TRUST_PROXY so the test can say who is calling (app.request has no socket).
  app = await createLeadTestApp({ config: testConfig({ botCheck: recaptchaConfig(fake.url), trustProxy: true }) });
  await insertTestCatalogue(app.db);
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

/** A saved lead with a live quote of the plain plan. */
async function quotedLead(on: LeadTestApp = app) {
  const saved = await on.save(leadBody());
  const lead = await on.leadRow(saved.uuid);
  const quoteId = await insertQuote(on.db, lead.id, { planId: PLAN.plain, insurerId: 1000, premiumCents: 12_000 });
  return { uuid: saved.uuid, leadId: lead.id, quoteId };
}

let tick = 0;
/** proceed-review (or buy-now) from 203.0.113.7, in `lang`. */
function proceedWith(on: LeadTestApp, body: { uuid: string; policy_id: number; bot_token: string; lang?: 'en' | 'ar' }, endpointPath = proceedReviewEndpoint.path) {
  return on.post(endpointPath, body, { nowMs: FIXED_NOW + 10_000 + (tick += 1), headers: { 'X-Forwarded-For': '203.0.113.7' } });
}

const invoiceOf = async (leadId: number) => (await app.db.select().from(t.invoices).where(eq(t.invoices.leadId, leadId)))[0];

/** Expects the 403 refusal naming bot_token with `code`, and its message in the asked language. */
async function expectRefused(res: Response, code: string, lang: 'en' | 'ar' = 'en') {
  const body = await expectErrorEnvelope(res, 403);
  expect(body.data.errors).toEqual({ bot_token: code });
  if (lang === 'ar') expect(body.message).toMatch(ARABIC);
  else expect(body.message).not.toMatch(ARABIC);
  return body.message;
}

describe('BOT_CHECK=recaptcha: proceed-review checks the token at siteverify', () => {
  it('takes a token Google scores 0.9 for the action login: POSTs secret, response and remoteip, and builds the invoice', async () => {
    const { uuid, leadId, quoteId } = await quotedLead();
    const token = nextToken();
    fake.verdict(token, { score: 0.9 });
    const res = await proceedWith(app, { uuid, policy_id: quoteId, bot_token: token });
    expect(res.status).toBe(200);
    expect(fake.forms.at(-1)).toEqual({ secret: SECRET, response: token, remoteip: '203.0.113.7' });
    expect(await invoiceOf(leadId)).toMatchObject({ quoteId });
  });

  it('takes proceed-buy-now the same way', async () => {
    const { uuid, quoteId } = await quotedLead();
    const token = nextToken();
    fake.verdict(token);
    expect((await proceedWith(app, { uuid, policy_id: quoteId, bot_token: token }, proceedBuyNowEndpoint.path)).status).toBe(200);
  });

  it('takes a token once: the same token again is refused with bot_check_failed, though siteverify says yes again', async () => {
    const first = await quotedLead();
    const second = await quotedLead();
    const token = nextToken();
    fake.verdict(token);
    expect((await proceedWith(app, { uuid: first.uuid, policy_id: first.quoteId, bot_token: token })).status).toBe(200);
    await expectRefused(await proceedWith(app, { uuid: second.uuid, policy_id: second.quoteId, bot_token: token }), 'bot_check_failed');
    expect(await invoiceOf(second.leadId)).toBeUndefined();
  });

  it('refuses a low score (0.3 under RECAPTCHA_MIN_SCORE 0.5) with 403 bot_check_failed, in English and Arabic, saving nothing', async () => {
    const { uuid, leadId, quoteId } = await quotedLead();
    const [en, ar] = [nextToken(), nextToken()];
    fake.verdict(en, { score: 0.3 });
    fake.verdict(ar, { score: 0.3 });
    const english = await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: en }), 'bot_check_failed');
    const arabic = await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: ar, lang: 'ar' }), 'bot_check_failed', 'ar');
    expect(english).toMatch(/security check/);
    expect(arabic).toMatch(/التحقق الأمني/);
    expect(await invoiceOf(leadId)).toBeUndefined();
  });

  it('takes a score exactly at the threshold (0.5)', async () => {
    const { uuid, quoteId } = await quotedLead();
    const token = nextToken();
    fake.verdict(token, { score: 0.5 });
    expect((await proceedWith(app, { uuid, policy_id: quoteId, bot_token: token })).status).toBe(200);
  });

  it('refuses a token made for another action (signup), or with no action or score', async () => {
    const { uuid, quoteId } = await quotedLead();
    const [signup, noAction] = [nextToken(), nextToken()];
    fake.verdict(signup, { action: 'signup' });
    fake.answer(noAction, { json: { success: true, hostname: 'safar.test' } });
    await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: signup }), 'bot_check_failed');
    await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: noAction }), 'bot_check_failed');
  });

  it('refuses a token siteverify calls invalid (success false), and garbage', async () => {
    const { uuid, quoteId } = await quotedLead();
    const token = nextToken();
    fake.answer(token, { json: { success: false, 'error-codes': ['timeout-or-duplicate'] } });
    await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: token }), 'bot_check_failed');
    await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: 'not a token' }), 'bot_check_failed');
  });

  it('refuses an ALTCHA token: in this mode only reCAPTCHA decides', async () => {
    const { uuid, quoteId } = await quotedLead();
    const altcha = await freshBotToken(app.send);
    await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: altcha }), 'bot_check_failed');
  });
});

describe('BOT_CHECK=recaptcha: a verify endpoint that cannot answer is a refusal, never a 5xx', () => {
  it('refuses with 403 bot_check_unavailable, en and ar, when siteverify does not answer within RECAPTCHA_TIMEOUT_MS', async () => {
    const { uuid, leadId, quoteId } = await quotedLead();
    const [en, ar] = [nextToken(), nextToken()];
    fake.answer(en, 'hang');
    fake.answer(ar, 'hang');
    const logged = app.errors.length;
    const english = await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: en }), 'bot_check_unavailable');
    // The app gave up at its configured 400 ms, not at the 5,000 ms default: the customer is not
    // kept waiting on Google. Timed by the fake, from the request to the dropped connection, so a
    // busy machine's slow queries around it do not count.
    await expect.poll(() => fake.droppedAfter.has(en)).toBe(true);
    expect(fake.droppedAfter.get(en)).toBeLessThan(5000);
    // The operator learns of it: every purchase is refused while siteverify is silent.
    expect(app.errors.slice(logged)).toEqual([{ event: 'bot_check_unavailable', reason: 'timeout' }]);
    const arabic = await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: ar, lang: 'ar' }), 'bot_check_unavailable', 'ar');
    expect(english).toMatch(/could not be completed just now/);
    expect(arabic).toMatch(/تعذّر إتمام التحقق الأمني/);
    expect(await invoiceOf(leadId)).toBeUndefined();
  });

  it('refuses with bot_check_unavailable when siteverify answers 500 or something that is not its JSON', async () => {
    const { uuid, quoteId } = await quotedLead();
    const [error, html, shape] = [nextToken(), nextToken(), nextToken()];
    fake.answer(error, { status: 500, text: 'Internal Server Error' });
    fake.answer(html, { status: 200, text: '<html>captive portal</html>' });
    fake.answer(shape, { json: { ok: true } });
    const logged = app.errors.length;
    for (const token of [error, html, shape]) {
      await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: token }), 'bot_check_unavailable');
    }
    expect(app.errors.slice(logged).map((line) => 'reason' in line && line.reason)).toEqual(['http_status', 'not_siteverify', 'not_siteverify']);
  });

  it('refuses with bot_check_unavailable, and logs secret_refused, when siteverify rejects our secret key (a setup fault, not the customer’s)', async () => {
    const { uuid, quoteId } = await quotedLead();
    const token = nextToken();
    fake.answer(token, { json: { success: false, 'error-codes': ['invalid-input-secret'] } });
    const logged = app.errors.length;
    await expectRefused(await proceedWith(app, { uuid, policy_id: quoteId, bot_token: token }), 'bot_check_unavailable');
    expect(app.errors.slice(logged)).toEqual([{ event: 'bot_check_unavailable', reason: 'secret_refused' }]);
  });

  it('refuses with bot_check_unavailable when nothing listens at RECAPTCHA_VERIFY_URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/recaptcha/api/siteverify`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = await createLeadTestApp({ config: testConfig({ botCheck: recaptchaConfig(deadUrl) }) });
    try {
      await insertTestCatalogue(down.db);
      const { uuid, quoteId } = await quotedLead(down);
      const res = await proceedWith(down, { uuid, policy_id: quoteId, bot_token: nextToken() });
      await expectRefused(res, 'bot_check_unavailable');
      expect(down.errors).toEqual([{ event: 'bot_check_unavailable', reason: 'network' }]);
    } finally {
      await down.close();
    }
  });
});

describe('BOT_CHECK=recaptcha over https: the token must come from PUBLIC_URL’s host', () => {
  it('refuses a token made on another host, takes one made on safar.example.com', async () => {
    const secure = await createLeadTestApp({
      config: testConfig({ publicUrl: 'https://safar.example.com', botCheck: recaptchaConfig(fake.url) }),
    });
    try {
      await insertTestCatalogue(secure.db);
      const { uuid, quoteId } = await quotedLead(secure);
      const [elsewhere, ours] = [nextToken(), nextToken()];
      fake.verdict(elsewhere, { hostname: 'copycat.example' });
      fake.verdict(ours, { hostname: 'safar.example.com' });
      await expectRefused(await proceedWith(secure, { uuid, policy_id: quoteId, bot_token: elsewhere }), 'bot_check_failed');
      expect((await proceedWith(secure, { uuid, policy_id: quoteId, bot_token: ours })).status).toBe(200);
    } finally {
      await secure.close();
    }
  });
});

describe('BOT_CHECK=recaptcha in the page: runtime config and CSP', () => {
  const INDEX_HTML = '<!doctype html><html><head><meta name="safar-config" content="" /></head><body><div id="root"></div></body></html>';
  let staticDir: string;

  beforeAll(() => {
    staticDir = mkdtempSync(path.join(os.tmpdir(), 'safar-recaptcha-spa-'));
    writeBuiltPages(staticDir, () => INDEX_HTML);
  });
  afterAll(() => rmSync(staticDir, { recursive: true, force: true }));

  const pageOf = async (botCheck: BotCheckConfig) => {
    const served = await createTestApp({ staticDir, config: testConfig({ botCheck }) });
    try {
      const res = await served.app.request('/compare-quotes');
      expect(res.status).toBe(200);
      return { html: await res.text(), csp: res.headers.get('content-security-policy') ?? '' };
    } finally {
      await served.close();
    }
  };

  it('hands the SPA the mode and the site key, never the secret, and allows Google’s script and frame', async () => {
    const { html, csp } = await pageOf(recaptchaConfig('https://www.google.com/recaptcha/api/siteverify'));
    expect(html).toContain('&quot;botCheck&quot;:&quot;recaptcha&quot;');
    expect(html).toContain(`&quot;recaptchaSiteKey&quot;:&quot;${SITE_KEY}&quot;`);
    expect(html).not.toContain(SECRET);
    expect(csp).toMatch(/(^|;)\s*script-src 'self' https:\/\/www\.google\.com\/recaptcha\/ https:\/\/www\.gstatic\.com\/recaptcha\/\s*(;|$)/);
    expect(csp).toMatch(/(^|;)\s*frame-src https:\/\/www\.google\.com\/recaptcha\/ https:\/\/recaptcha\.google\.com\/recaptcha\/\s*(;|$)/);
  });

  it('with ALTCHA (the default) allows nothing of Google’s and hands out no site key', async () => {
    const { html, csp } = await pageOf({ mode: 'altcha' });
    expect(html).toContain('&quot;botCheck&quot;:&quot;altcha&quot;');
    expect(html).toContain('&quot;recaptchaSiteKey&quot;:&quot;&quot;');
    expect(csp).toMatch(/(^|;)\s*script-src 'self'\s*(;|$)/);
    expect(csp).not.toMatch(/google|gstatic|frame-src/);
  });
});
