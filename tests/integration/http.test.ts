import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countriesEndpoint } from '../../src/contract/reference.endpoints';
import { STEP_IDS, STEP_PATHS } from '../../machines/journey.routes';
import { createTestApp, TEST_SIGNING_SECRET, testConfig, writeBuiltPages, type TestApp } from '../support/test-app';

const MAIN_SITE_URL = 'https://www.safar.example';
/** A built page as the prerender step writes one per step: each names its file, to tell them apart. */
const builtPage = (file: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8" />
<meta name="safar-config" content="" />
<title>Safar</title></head><body><div id="root" data-page="${file}"></div><script type="module" src="/assets/app.js"></script></body></html>`;

// Repetitive on purpose: well above hono/compress's 1 KB threshold, and compressible.
const APP_JS = `console.log("safar");\n${'export const filler = "0123456789abcdef";\n'.repeat(200)}`;

const PRECOMPRESSED_BR = brotliCompressSync(APP_JS);
const PRECOMPRESSED_GZ = gzipSync(APP_JS, { level: 9 });

const SECRET = 'secret-beside-the-static-dir';

let t: TestApp;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'safar-spa-'));
  // A file next to the static dir, which no URL may reach.
  writeFileSync(path.join(root, 'secret.txt'), SECRET);
  const staticDir = path.join(root, 'www');
  mkdirSync(staticDir);
  writeBuiltPages(staticDir, builtPage);
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'assets', 'app.js'), APP_JS);
  // As the build writes every script (precompress.plugin.ts): Brotli and gzip copies beside it.
  writeFileSync(path.join(staticDir, 'assets', 'built.js'), APP_JS);
  writeFileSync(path.join(staticDir, 'assets', 'built.js.br'), PRECOMPRESSED_BR);
  writeFileSync(path.join(staticDir, 'assets', 'built.js.gz'), PRECOMPRESSED_GZ);
  t = await createTestApp({ staticDir });
});
afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

/** The runtime configuration as the SPA reads it: the meta tag's attribute, HTML-unescaped. */
function runtimeConfig(html: string): unknown {
  const match = /<meta name="safar-config" content="([^"]*)"/.exec(html);
  expect(match).not.toBeNull();
  const unescaped = match![1]!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return JSON.parse(unescaped);
}

function expectSecurityHeaders(res: Response) {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/(^|;)\s*script-src 'self'\s*(;|$)/);
  expect(csp).toMatch(/(^|;)\s*frame-ancestors 'none'\s*(;|$)/);
  expect(csp).toMatch(/(^|;)\s*object-src 'none'\s*(;|$)/);
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  // Strict-Transport-Security depends on PUBLIC_URL: see "row 8: HSTS" below.
}

describe('security headers', () => {
  it('are sent with an SPA page', async () => {
    const res = await t.app.request('/traveller-details');
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
  });

  it('are sent with API answers, successful or refused', async () => {
    const ok = await t.post(countriesEndpoint.path, { lang: 'en' });
    const refused = await t.post(countriesEndpoint.path, { lang: 'en' }, { headers: { 'X-Signature': undefined } });
    expect([ok.status, refused.status]).toEqual([200, 401]);
    expectSecurityHeaders(ok);
    expectSecurityHeaders(refused);
  });
});

describe('row 8: HSTS only when PUBLIC_URL is https', () => {
  it('row 8: no Strict-Transport-Security over plain http (PUBLIC_URL http://), on pages and API answers', async () => {
    // The shared test app's PUBLIC_URL is http://safar.test.
    const page = await t.app.request('/traveller-details');
    const api = await t.post(countriesEndpoint.path, { lang: 'en' });
    expect([page.status, api.status]).toEqual([200, 200]);
    expect(page.headers.get('strict-transport-security')).toBeNull();
    expect(api.headers.get('strict-transport-security')).toBeNull();
    expectSecurityHeaders(page);
  });

  it('row 8: Strict-Transport-Security for a year with subdomains when PUBLIC_URL is https, on pages, API answers and refusals', async () => {
    const secure = await createTestApp({ staticDir: path.join(root, 'www'), config: testConfig({ publicUrl: 'https://safar.example.com' }) });
    try {
      const page = await secure.app.request('/traveller-details');
      const api = await secure.post(countriesEndpoint.path, { lang: 'en' });
      const refused = await secure.post(countriesEndpoint.path, { lang: 'en' }, { headers: { 'X-Signature': undefined } });
      expect([page.status, api.status, refused.status]).toEqual([200, 200, 401]);
      for (const res of [page, api, refused]) {
        expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
        expectSecurityHeaders(res);
      }
    } finally {
      await secure.close();
    }
  });
});

describe('request log', () => {
  it('writes one JSON line per request with exactly time, method, path, status, ms', async () => {
    const before = t.logs.length;
    await t.post(countriesEndpoint.path, { lang: 'en' });
    await t.app.request('/healthz');
    expect(t.logs.length - before).toBe(2);
    const [post, get] = t.logs.slice(before);
    for (const line of [post!, get!]) {
      expect(Object.keys(line).sort()).toEqual(['method', 'ms', 'path', 'status', 'time']);
      expect(new Date(line.time).toISOString()).toBe(line.time);
      expect(line.ms).toBeGreaterThanOrEqual(0);
      expect(() => JSON.parse(JSON.stringify(line))).not.toThrow();
    }
    expect(post).toMatchObject({ method: 'POST', path: countriesEndpoint.path, status: 200 });
    expect(get).toMatchObject({ method: 'GET', path: '/healthz', status: 200 });
  });

  it('never logs the query string or the body', async () => {
    const before = t.logs.length;
    const res = await t.post(`${countriesEndpoint.path}?email=a@b.c&name=Rania`, {
      lang: 'en',
      email: 'rania.haddad@example.com',
    });
    expect(res.status).toBe(422);
    const lines = t.logs.slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ path: countriesEndpoint.path, status: 422 });
    const text = JSON.stringify(lines);
    for (const secret of ['a@b.c', 'email', 'Rania', 'rania.haddad@example.com', '?']) expect(text).not.toContain(secret);
  });
});

describe('the SPA', () => {
  // The build's files under /pages are never plain files, and no address finds a key of Object's own.
  it.each(['/traveller-details', '/some/unknown/path', '/', '/index.html', '/pages/checkout.html', '/pages/index.json', '/constructor', '/__proto__', '/hasOwnProperty'])('serves index.html, the entry page, with the runtime config at %s', async (url) => {
    const res = await t.app.request(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    expect(html).toContain('<div id="root" data-page="index.html"></div>');
    expect(html).toContain('&quot;signingKey&quot;');
    expect(runtimeConfig(html)).toEqual({
      apiBaseUrl: '',
      signingKey: TEST_SIGNING_SECRET,
      mainSiteUrl: MAIN_SITE_URL,
      botCheck: 'altcha',
      recaptchaSiteKey: '',
    });
  });

  it.each(STEP_IDS.filter((step) => step !== 'travellerDetails'))("answers the address of step %s with that step's own pre-rendered page, with the runtime config (issue 19)", async (step) => {
    for (const url of [STEP_PATHS[step], `${STEP_PATHS[step].toUpperCase()}/?uuid=x`]) {
      const res = await t.app.request(url, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.status).toBe(200);
      const html = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
      expect(html).toContain(`<div id="root" data-page="pages${STEP_PATHS[step]}.html"></div>`);
      expect(runtimeConfig(html)).toMatchObject({ signingKey: TEST_SIGNING_SECRET });
    }
  });

  it("answers a policy's own address, /policy/<token> in any case, with the policy page's outline; a longer path with the entry page (issue 37)", async () => {
    const token = 'ab'.repeat(32);
    const pageOf = async (url: string) => {
      const res = await t.app.request(url, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(res.status).toBe(200);
      return /data-page="([^"]+)"/.exec(gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8'))?.[1];
    };
    expect(await pageOf(`/policy/${token}`)).toBe('pages/policy.html');
    expect(await pageOf(`/POLICY/${token.toUpperCase()}/?lang=ar`)).toBe('pages/policy.html');
    expect(await pageOf(`/policy/${token}/more`)).not.toBe('pages/policy.html');
  });

  it('serves hashed assets cached for a year', async () => {
    const res = await t.app.request('/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(APP_JS);
  });

  it('answers 404 for a missing asset, never index.html cached for a year', async () => {
    const res = await t.app.request('/assets/missing-3f2a1b.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
  });

  it.each(['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/assets/%2e%2e/%2e%2e/secret.txt'])(
    'never serves a file outside the static dir (%s)',
    async (url) => {
      const res = await t.app.request(url);
      expect(await res.text()).not.toContain(SECRET);
    },
  );

  it('gzips a JS asset above 1 KB when the client accepts gzip', async () => {
    const res = await t.app.request('/assets/app.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBeLessThan(APP_JS.length);
    expect(gunzipSync(bytes).toString('utf8')).toBe(APP_JS);
  });

  it.each([
    ['gzip, deflate, br, zstd', 'br', PRECOMPRESSED_BR, brotliDecompressSync],
    ['gzip, deflate', 'gzip', PRECOMPRESSED_GZ, gunzipSync],
  ] as const)("sends a built script's precompressed copy as it is, not compressed again (Accept-Encoding %s: %s, issue 19)", async (accepted, encoding, copy, decompress) => {
    const res = await t.app.request('/assets/built.js', { headers: { 'Accept-Encoding': accepted } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe(encoding);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.equals(copy)).toBe(true);
    expect(decompress(bytes).toString('utf8')).toBe(APP_JS);
  });

  it('sends a built script plain to a client that accepts no compression', async () => {
    const res = await t.app.request('/assets/built.js');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe(APP_JS);
  });

  it('does not compress for a client that does not accept it', async () => {
    const res = await t.app.request('/assets/app.js');
    expect(res.headers.get('content-encoding')).toBeNull();
  });

  it('serves index.html gzipped when the client accepts gzip (compressed once, issue 19)', async () => {
    const res = await t.app.request('/traveller-details', { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    expect(runtimeConfig(html)).toMatchObject({ signingKey: TEST_SIGNING_SECRET, mainSiteUrl: MAIN_SITE_URL });
  });

  it('answers GET /healthz with 200', async () => {
    const res = await t.app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 200, message: 'OK' });
  });
});

describe('the built page: pre-rendered first screen (issue 19)', () => {
  // As the prerender step writes it: the empty attribute re-serialised bare, and the inline
  // script that picks the first screen before any file loads.
  const CHOOSER = "document.documentElement.setAttribute('data-shell','en');";
  const BUILT_HTML = `<!doctype html><html lang="en"><head><meta name="safar-config" content><script>${CHOOSER}</script></head><body><div id="root"></div></body></html>`;
  let built: TestApp;
  let builtRoot: string;
  beforeAll(async () => {
    builtRoot = mkdtempSync(path.join(os.tmpdir(), 'safar-built-'));
    writeBuiltPages(builtRoot, () => BUILT_HTML);
    built = await createTestApp({ staticDir: builtRoot });
  });
  afterAll(async () => {
    await built.close();
    rmSync(builtRoot, { recursive: true, force: true });
  });

  it('writes the runtime config into a bare content attribute, once', async () => {
    const html = await (await built.app.request('/traveller-details')).text();
    expect(html.match(/name="safar-config"/g)).toHaveLength(1);
    expect(runtimeConfig(html)).toMatchObject({ signingKey: TEST_SIGNING_SECRET });
  });

  it("allows exactly the page's inline script by its hash, and no other inline script", async () => {
    const res = await built.app.request('/traveller-details');
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')![1]!.split(' ');
    const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(scriptSrc).toEqual(["'self'", hash(CHOOSER)]);
    expect(scriptSrc).not.toContain(hash(`${CHOOSER} `));
    expect(scriptSrc).not.toContain("'unsafe-inline'");
  });
});
