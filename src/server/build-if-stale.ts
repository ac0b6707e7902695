import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, markBuiltAt, staleness } from './build-staleness';
import { SERVER_BUNDLE, bundleServer } from './server-bundle';
import { currentTemplate } from './db/embedded-template';

/**
 * What `npm start` runs before it serves (issue 19 part 4): the app (dist/) and the server bundle
 * (dist-server/main.js) are each built again only when one of their sources is newer, and one line
 * says what was built and why, or that both are current. A start with current builds then costs
 * the stat calls, not the 5 s of a Vite build.
 */

/** The last file the two builds write: the console's page (the customer's build empties dist/ first). */
export const APP_BUILD = path.join(ROOT, 'dist', 'broker', 'index.html');
/**
 * What the SPA and console builds read (checked with a Vite plugin that listed every module it loaded): the
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
  'vite.broker.config.ts',
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
  // The broker's console (issue 36): a build of its own, so the customer's pages stay as they are.
  await build({ configFile: path.join(ROOT, 'vite.broker.config.ts'), logLevel: 'warn' });
  markBuiltAt(APP_BUILD, startedAtMs);
  return reason;
}

/**
 * The template of a new embedded data directory (db/embedded-template.ts), built when its inputs
 * changed; answers why it was built, or null. The builder (PGlite, the migrations, the seed) is
 * loaded only then: a start with a current template pays for hashing its inputs, a few milliseconds.
 */
export async function buildTemplateIfStale(): Promise<string | null> {
  if (currentTemplate()) return null;
  const { buildTemplateIfStale: build } = await import('./db/embedded-template-build');
  return build();
}

/**
 * Whether `npm start` is about to create an embedded data directory: only then is the template
 * worth building at start. A restart on existing data after a migration changed is not held up by
 * a template it would not use (the bench, and `--template`, build it regardless).
 */
export function startCreatesDataDir(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.DATABASE_URL) return false;
  return !existsSync(path.resolve(env.DATA_DIR || './data', 'pglite', 'PG_VERSION'));
}

const TEMPLATE_NAME = 'the data directory template';

/** The line of a start whose builds are all current (with the template when it was checked). */
export function currentBuildsLine(ms: number, checkedTemplate: boolean): string {
  return `Builds are current: dist/${checkedTemplate ? ',' : ' and'} ${path.relative(ROOT, SERVER_BUNDLE)}${checkedTemplate ? ` and ${TEMPLATE_NAME}` : ''} (checked in ${ms} ms).`;
}

/** The builds, each when stale (the template unless told not to); answers the one line `npm start` prints. */
export async function buildIfStale(options: { force?: boolean; template?: boolean } = {}): Promise<string> {
  const startedAt = performance.now();
  const app = await buildAppIfStale(options);
  const server = await bundleServer(options);
  const template = options.template === false ? null : await buildTemplateIfStale();
  const ms = Math.round(performance.now() - startedAt);
  const templateName = TEMPLATE_NAME;
  const checkedTemplate = options.template !== false;
  if (!app && !server && !template) return currentBuildsLine(ms, checkedTemplate);
  const built = [app && `the app, dist/ (${app})`, server && `the server, ${path.relative(ROOT, SERVER_BUNDLE)} (${server})`, template && `${templateName} (${template})`].filter(Boolean);
  const current = [!app && 'dist/', !server && path.relative(ROOT, SERVER_BUNDLE), checkedTemplate && !template && templateName].filter(Boolean);
  return `Built ${built.join(' and ')} in ${ms} ms${current.length ? `; ${current.join(' and ')} current` : ''}.`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildIfStale({ force: process.argv.includes('--force'), template: process.argv.includes('--template') || startCreatesDataDir() })
    .then((line) => console.log(line))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
