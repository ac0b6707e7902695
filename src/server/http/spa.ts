import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

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

/** Reads the built index.html once; null when the SPA has not been built. */
export function loadIndexHtml(staticDir: string, config: WebRuntimeConfig): string | null {
  const file = path.join(staticDir, 'index.html');
  return existsSync(file) ? injectRuntimeConfig(readFileSync(file, 'utf8'), config) : null;
}

/**
 * The CSP sources ('sha256-…') of the built page's inline scripts: the one that picks the
 * pre-rendered first screen runs before any file could load (issue 19). Hashes allow exactly
 * that text and nothing else, so script-src keeps refusing injected scripts.
 */
export function inlineScriptHashes(staticDir: string): string[] {
  const file = path.join(staticDir, 'index.html');
  if (!existsSync(file)) return [];
  const scripts = readFileSync(file, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g);
  return [...scripts].map(([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
}
