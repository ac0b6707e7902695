import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Manifest } from 'vite';

/**
 * The bundle budgets of issue 19 (DESIGN.md "What runs"), measured one way for the test that
 * enforces them (tests/integration/bundle-size.test.ts) and for `npm run bench` that prints them.
 */
export const FIRST_LOAD_BUDGET_BYTES = 160 * 1024;
export const LAZY_CHUNK_BUDGET_BYTES = 100 * 1024;
/**
 * The first load may not grow past what it was when the product was called done (141.5 KB),
 * whatever the budget above leaves: a new screen is a lazy chunk, never a heavier first visit.
 */
export const FIRST_LOAD_CEILING_BYTES = Math.round(141.5 * 1024);

export interface SizedFile {
  /** Path inside the build, e.g. "assets/index-abc123.js". */
  file: string;
  /** Its size gzipped (zlib's default level, as a server's gzip sends it). */
  gzip: number;
}

export interface BundleSizes {
  /** The entry chunk and every chunk it imports statically, recursively: what a first visit must fetch and run before the app starts. */
  firstLoad: SizedFile[];
  firstLoadTotal: number;
  /** Every other JavaScript file of the build (lazy screens and what only they import), largest first. */
  lazy: SizedFile[];
}

/** The first load and the lazy chunks of a build made with a manifest (test-build.ts spaBuildForTests). */
export function measureBundle(outDir: string): BundleSizes {
  const manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  if (entries.length === 0) throw new Error(`the manifest of ${outDir} names no entry chunk`);

  // Static imports only: a dynamic import() is a lazy chunk fetched when its screen is needed.
  const firstLoadKeys = new Set<string>();
  const visit = (key: string) => {
    if (firstLoadKeys.has(key)) return;
    firstLoadKeys.add(key);
    for (const imported of manifest[key]!.imports ?? []) visit(imported);
  };
  entries.forEach(visit);

  const sized = (file: string): SizedFile => ({ file, gzip: gzipSync(readFileSync(path.join(outDir, file))).length });
  const firstLoadFiles = new Set([...firstLoadKeys].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js')));
  // From the folder rather than the manifest, so no emitted script escapes the lazy budget; the
  // broker's console (broker/, a build of its own for the team) has its own budget (bundle-size.test.ts).
  const allJs = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js') && !file.startsWith(`broker${path.sep}`));
  const firstLoad = [...firstLoadFiles].map(sized).sort((a, b) => b.gzip - a.gzip);
  const lazy = allJs.filter((file) => !firstLoadFiles.has(file)).map(sized).sort((a, b) => b.gzip - a.gzip);
  return { firstLoad, firstLoadTotal: firstLoad.reduce((sum, file) => sum + file.gzip, 0), lazy };
}

/** "12.3 KB": sizes as the budgets are written (1 KB = 1024 bytes). */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
