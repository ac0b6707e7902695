import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, markBuiltAt, staleness } from './build-staleness';
import { SERVER_BUNDLE, bundleServer } from './server-bundle';

/**
 * What `npm start` runs before it serves (issue 19 part 4): the app (dist/) and the server bundle
 * (dist-server/main.js) are each built again only when one of their sources is newer, and one line
 * says what was built and why, or that both are current. A start with current builds then costs
 * the stat calls, not the 5 s of a Vite build.
 */

export const APP_BUILD = path.join(ROOT, 'dist', 'index.html');
/**
 * What the SPA build reads (checked with a Vite plugin that listed every module it loaded): the
 * page, the web code and what it imports (contract, machines), the catalogues, the build's own
 * configuration, and the locked packages.
 */
const APP_SOURCES = [
  'index.html',
  'src/web',
  'src/contract',
  'machines',
  'locales',
  'vite.config.ts',
  'lingui.config.ts',
  'tsconfig.json',
  'package-lock.json',
] as const;

/** Why dist/ must be built again (a sentence), or null when it is current. */
export function appStaleness(): string | null {
  return staleness(APP_BUILD, APP_SOURCES, 'the app build');
}

/** Builds dist/ when it is stale (or always with force); answers why it was built, or null. */
export async function buildAppIfStale(options: { force?: boolean } = {}): Promise<string | null> {
  const reason = options.force ? 'asked to' : appStaleness();
  if (!reason) return null;
  const startedAtMs = Date.now();
  // Loaded only when needed: importing Vite alone costs a start with a current build some 300 ms.
  const { build } = await import('vite');
  await build({ root: ROOT, configFile: path.join(ROOT, 'vite.config.ts'), logLevel: 'warn' });
  markBuiltAt(APP_BUILD, startedAtMs);
  return reason;
}

/** Both builds, each when stale; answers the one line `npm start` prints. */
export async function buildIfStale(options: { force?: boolean } = {}): Promise<string> {
  const startedAt = performance.now();
  const app = await buildAppIfStale(options);
  const server = await bundleServer(options);
  const ms = Math.round(performance.now() - startedAt);
  if (!app && !server) return `Builds are current: dist/ and ${path.relative(ROOT, SERVER_BUNDLE)} (checked in ${ms} ms).`;
  const built = [app && `the app, dist/ (${app})`, server && `the server, ${path.relative(ROOT, SERVER_BUNDLE)} (${server})`].filter(Boolean);
  const current = [!app && 'dist/', !server && path.relative(ROOT, SERVER_BUNDLE)].filter(Boolean);
  return `Built ${built.join(' and ')} in ${ms} ms${current.length ? `; ${current.join(' and ')} current` : ''}.`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildIfStale({ force: process.argv.includes('--force') })
    .then((line) => console.log(line))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
