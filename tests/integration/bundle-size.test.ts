import { readFileSync, readdirSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { STEP_IDS } from '../../machines/journey.routes';
import { builtPageFile } from '../../src/web/prerender/built-pages';
import { FIRST_LOAD_BUDGET_BYTES, FIRST_LOAD_CEILING_BYTES, LAZY_CHUNK_BUDGET_BYTES, kb, measureBundle, type BundleSizes } from '../support/bundle-size';
import { spaBuildForTests, type SpaBuild } from '../support/test-build';

/**
 * Issue 19 part 6: sizes are deterministic, so their budgets are checked here, on a real
 * production build of the SPA (timings stay in `npm run bench`). A phone on slow mobile data
 * fetches and runs the first load before it can show the travel details form.
 */

// The run's one production build (tests/support/test-build.ts), or this file's own when run alone.
let build: SpaBuild;
let outDir: string;
let sizes: BundleSizes;

beforeAll(async () => {
  build = await spaBuildForTests();
  outDir = build.dir;
  sizes = measureBundle(outDir);
}, 180_000);

afterAll(() => build?.release());

const listed = (files: BundleSizes['firstLoad']) => files.map((f) => `${f.file} ${kb(f.gzip)}`).join(', ');

describe('the production bundle (gzip)', () => {
  test('the first load (the entry chunk and what it imports statically) is at most 160 KB', () => {
    expect(sizes.firstLoad.length, 'the build has an entry chunk').toBeGreaterThan(0);
    expect(
      sizes.firstLoadTotal,
      `first load is ${kb(sizes.firstLoadTotal)} in ${sizes.firstLoad.length} files, over the budget of ${kb(FIRST_LOAD_BUDGET_BYTES)}: ${listed(sizes.firstLoad)}`,
    ).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });

  test('the first load has not grown past 141.5 KB, what it weighed before the screens after the purchase', () => {
    expect(sizes.firstLoadTotal, `first load is ${kb(sizes.firstLoadTotal)}: ${listed(sizes.firstLoad)}`).toBeLessThanOrEqual(FIRST_LOAD_CEILING_BYTES);
  });

  test('no lazy chunk is over 100 KB', () => {
    const over = sizes.lazy.filter((file) => file.gzip > LAZY_CHUNK_BUDGET_BYTES);
    expect(over.map((f) => `${f.file} ${kb(f.gzip)}`), `lazy chunks over the budget of ${kb(LAZY_CHUNK_BUDGET_BYTES)}`).toEqual([]);
  });
});

describe('the built pages (issue 19)', () => {
  const kebab = (step: string) => step.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

  test.each(STEP_IDS)("the page of step %s carries that step's screen pre-rendered in English and Arabic, and no other screen", (step) => {
    const html = readFileSync(path.join(outDir, builtPageFile(step)), 'utf8');
    const copies = html.split(/<div data-shell-lang="(en|ar)">/).slice(1);
    // split with a capture group: [lang, body, lang, body]
    expect(copies.filter((_, index) => index % 2 === 0)).toEqual(['en', 'ar']);
    for (const body of copies.filter((_, index) => index % 2 === 1)) {
      expect(body.match(/data-testid="screen-[a-z-]+"/g)).toEqual([`data-testid="screen-${kebab(step)}"`]);
    }
    // The loader and the chooser are in every page; the scripts are not asked for by the HTML itself.
    expect(html).toContain('function loadAfterFirstPaint');
    expect(html).not.toMatch(/<script type="module"[^>]*src=/);
    // The theme's variables come inlined from the stylesheet (mantine-theme-css.ts), the light
    // scheme's too, not from a <style> element of MantineProvider in each language's copy.
    expect(html).not.toMatch(/data-mantine-styles="(true|classes)"/);
    expect(html).toContain('--mantine-color-dimmed:var(--mantine-color-gray-7)');
  });
});

describe('the built assets (issue 19)', () => {
  test('every script, stylesheet and SVG has a Brotli and a gzip copy beside it, each the same file, the Brotli one smallest', () => {
    const assets = path.join(outDir, 'assets');
    const files = readdirSync(assets).filter((name) => /\.(js|css|svg)$/.test(name));
    expect(files.filter((name) => name.endsWith('.js')).length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const name of files) {
      const plain = readFileSync(path.join(assets, name));
      const br = readFileSync(path.join(assets, `${name}.br`));
      const gz = readFileSync(path.join(assets, `${name}.gz`));
      if (!brotliDecompressSync(br).equals(plain)) wrong.push(`${name}.br is not ${name}`);
      if (!gunzipSync(gz).equals(plain)) wrong.push(`${name}.gz is not ${name}`);
      if (plain.length > 4096 && br.length >= gz.length) wrong.push(`${name}.br is no smaller than ${name}.gz`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("the broker's console (issue 36 item 1)", () => {
  test("is a build of its own: no module or word of it is in the customer's files, and its page asks for its own files only, with no inline script", () => {
    const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(manifest).length).toBeGreaterThan(10);
    expect(Object.keys(manifest).filter((source) => source.includes('src/web/broker'))).toEqual([]);
    const assets = path.join(outDir, 'assets');
    const carrying = readdirSync(assets)
      .filter((name) => /\.(js|css)$/.test(name))
      .filter((name) => /\/broker\/api|Safar console/.test(readFileSync(path.join(assets, name), 'utf8')));
    expect(carrying).toEqual([]);
    const page = readFileSync(path.join(outDir, 'broker', 'index.html'), 'utf8');
    const files = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(files.length).toBeGreaterThan(1);
    expect(files.filter((file) => !file.startsWith('/broker/assets/'))).toEqual([]);
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // The console's own first load (its page's scripts) keeps the customer's budget too.
    const scripts = files.filter((file) => file.endsWith('.js')).map((file) => gzipSync(readFileSync(path.join(outDir, file.slice(1)))).length);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.reduce((sum, bytes) => sum + bytes, 0)).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });
});
