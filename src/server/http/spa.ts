import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { STEP_IDS } from '../../../machines/journey.routes';
import { builtPageFile, builtPageFor } from '../../contract/built-pages';

/** Runtime configuration the SPA reads from <meta name="safar-config">, so no rebuild is needed. */
export interface WebRuntimeConfig {
  apiBaseUrl: string;
  signingKey: string;
  mainSiteUrl: string;
  /** RULINGS 16: which bot check the SPA runs, and reCAPTCHA's site key (empty with ALTCHA). */
  botCheck: 'altcha' | 'recaptcha';
  recaptchaSiteKey: string;
}

// The built page is re-serialised after pre-rendering (src/web/prerender), which writes the
// empty attribute as a bare `content`.
const META = /<meta name="safar-config" content(?:="[^"]*")?\s*\/?>/;

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Writes the runtime configuration into index.html's safar-config meta tag. */
export function injectRuntimeConfig(html: string, config: WebRuntimeConfig): string {
  const tag = `<meta name="safar-config" content="${escapeAttribute(JSON.stringify(config))}" />`;
  return META.test(html) ? html.replace(META, tag) : html.replace('</head>', `${tag}</head>`);
}

/** A built page as the server answers it: with the runtime configuration, and gzipped once. */
export interface ServedPage {
  html: string;
  gzip: ReturnType<typeof gzipSync>;
}

/**
 * Reads the built pages once (src/web/prerender writes one per step, issue 19) and answers the
 * one for a request's path; null when the SPA has not been built.
 */
export function loadBuiltPages(staticDir: string, config: WebRuntimeConfig): ((pathname: string) => ServedPage) | null {
  if (!existsSync(path.join(staticDir, 'index.html'))) return null;
  const pages = new Map<string, ServedPage>();
  for (const step of STEP_IDS) {
    const file = builtPageFile(step);
    if (!existsSync(path.join(staticDir, file))) throw new Error(`${path.join(staticDir, file)} is missing: the web app's build is incomplete (run npm run build)`);
    const html = injectRuntimeConfig(readFileSync(path.join(staticDir, file), 'utf8'), config);
    pages.set(file, { html, gzip: gzipSync(html) });
  }
  return (pathname) => pages.get(builtPageFor(pathname))!;
}

/**
 * The CSP sources ('sha256-…') of the built page's inline scripts: the one that picks the
 * pre-rendered first screen runs before any file could load (issue 19). Hashes allow exactly
 * that text and nothing else, so script-src keeps refusing injected scripts.
 */
export function inlineScriptHashes(staticDir: string): string[] {
  const files = [...new Set(STEP_IDS.map(builtPageFile))].map((file) => path.join(staticDir, file)).filter((file) => existsSync(file));
  const bodies = files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map(([, body]) => body!));
  return [...new Set(bodies)].map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
}
