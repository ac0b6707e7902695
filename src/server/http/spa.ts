import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as v from 'valibot';
import { PAGES_TABLE, pagesTableSchema } from '../../contract/built-pages';

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

/**
 * A built page as the server answers it: with the runtime configuration, and gzipped once, when
 * it is first asked for gzipped (issue 34 item 6: gzipping all ten pages at start took 60–130 ms
 * of a restart, before the first page could be served).
 */
export interface ServedPage {
  html: string;
  readonly gzip: ReturnType<typeof gzipSync>;
}

function servedPage(html: string): ServedPage {
  let gzip: ReturnType<typeof gzipSync> | null = null;
  return {
    html,
    get gzip() {
      gzip ??= gzipSync(html);
      return gzip;
    },
  };
}

/** The web app's pages, as the build wrote them (src/web/prerender/built-pages.ts, issue 19). */
export interface BuiltPages {
  /** The page an address is answered with: its step's, else the entry page. */
  pageFor(pathname: string): ServedPage;
  /** Whether the address is one of the app's own pages (a step's or the entry page), not just the fallback. */
  hasPage(pathname: string): boolean;
  /** The CSP sources ('sha256-…') of the pages' inline scripts. */
  inlineScriptHashes: string[];
}

/**
 * Reads the built pages once and answers the one for a request's path, matched as the app's
 * route table matches it (trailing slashes dropped, case ignored); null when the SPA has not
 * been built. The CSP allows the pages' inline scripts by their hashes: the one that picks the
 * pre-rendered screen runs before any file could load, and hashes allow exactly that text, so
 * script-src keeps refusing injected scripts.
 */
export function loadBuiltPages(staticDir: string, config: WebRuntimeConfig): BuiltPages | null {
  const tableFile = path.join(staticDir, PAGES_TABLE);
  if (!existsSync(tableFile)) return null;
  const table = v.parse(pagesTableSchema, JSON.parse(readFileSync(tableFile, 'utf8')));
  // A Map, not the parsed object: an address like /constructor must not find Object's own keys.
  const fileOf = new Map(Object.entries(table.paths));
  const pages = new Map<string, ServedPage>();
  const scripts = new Set<string>();
  const prefixes = Object.entries(table.prefixes);
  for (const file of new Set([...fileOf.values(), ...prefixes.map(([, file]) => file), table.fallback])) {
    const built = readFileSync(path.join(staticDir, file), 'utf8');
    for (const [, body] of built.matchAll(/<script>([\s\S]*?)<\/script>/g)) scripts.add(body!);
    const html = injectRuntimeConfig(built, config);
    pages.set(file, servedPage(html));
  }
  const stepOf = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).toLowerCase();
  // /policy/<token>: a page under a prefix, one segment after it (the token), as the route table reads it.
  const prefixedFile = (pathname: string) => {
    const key = stepOf(pathname);
    const found = prefixes.find(([prefix]) => key.startsWith(prefix) && key.length > prefix.length && !key.slice(prefix.length).includes('/'));
    return found?.[1];
  };
  const fileFor = (pathname: string) => fileOf.get(stepOf(pathname)) ?? prefixedFile(pathname);
  return {
    pageFor: (pathname) => pages.get(fileFor(pathname) ?? table.fallback)!,
    hasPage: (pathname) => ['/', '/index.html'].includes(stepOf(pathname)) || fileFor(pathname) !== undefined,
    inlineScriptHashes: [...scripts].map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`),
  };
}
