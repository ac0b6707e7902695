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

const META = /<meta name="safar-config" content="[^"]*"\s*\/?>/;

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
