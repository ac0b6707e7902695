import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's two builds of Chromium, which playwright-core drives (no downloaded browser,
 * TOOLCHAIN.md); each file's name is its package's name.
 * - `headless-shell`: Chromium's headless shell, the build Playwright itself runs headless tests
 *   in. Same engine (Blink, V8, the same version), without the desktop browser around it. The
 *   tests run in it: in a fresh clone's `npm test` the Chromium suite took 932 s in it against
 *   1,463 to 1,614 s in the full browser (issue 35 item 2, docs/decisions.md).
 * - `browser`: the full browser, for Lighthouse (the bench), which measures what customers' Chrome
 *   does.
 */
const DEBIAN_CHROMIUM = { 'headless-shell': '/usr/bin/chromium-headless-shell', browser: '/usr/bin/chromium' } as const;
export type ChromiumBuild = keyof typeof DEBIAN_CHROMIUM;

/** Launch flags checked to work here (TOOLCHAIN.md): headless, no sandbox as root, no background traffic. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit code ${code}`})`)),
    );
  });
}

const found = new Map<ChromiumBuild, Promise<string>>();

/**
 * The Chromium executable of a build (DESIGN.md "What runs"): CHROME_PATH when it names an
 * existing file, else Debian's build (/usr/bin/chromium-headless-shell for the tests,
 * /usr/bin/chromium for Lighthouse). On Debian as root without it, that package is installed
 * (about 30 s); if that fails, the other Debian build is used when it is there. Otherwise an Error
 * says what to do.
 */
export function findChromium(build: ChromiumBuild = 'headless-shell'): Promise<string> {
  let finding = found.get(build);
  if (!finding) {
    finding = locateChromium(build).catch((error: unknown) => {
      found.delete(build);
      throw error;
    });
    found.set(build, finding);
  }
  return finding;
}

async function locateChromium(build: ChromiumBuild): Promise<string> {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  const wanted = DEBIAN_CHROMIUM[build];
  if (existsSync(wanted)) return wanted;
  const other = Object.values(DEBIAN_CHROMIUM).find((file) => file !== wanted)!;

  const isRoot = process.getuid?.() === 0;
  const isDebian = existsSync('/etc/debian_version');
  let installError: unknown = null;
  if (isRoot && isDebian) {
    const name = path.basename(wanted);
    console.log(`${wanted} not found: installing Debian's ${name} package (about 30 s)…`);
    try {
      await run('apt-get', ['update']);
      await run('apt-get', ['install', '-y', name]);
      if (existsSync(wanted)) return wanted;
      installError = new Error(`apt-get install ${name} finished but ${wanted} does not exist.`);
    } catch (error) {
      installError = error;
    }
  }
  if (existsSync(other)) {
    if (installError) console.log(`Using ${other} instead: ${installError instanceof Error ? installError.message : String(installError)}`);
    return other;
  }
  if (installError) throw installError;

  const envNote = fromEnv ? ` (CHROME_PATH is set to ${fromEnv}, which does not exist)` : '';
  throw new Error(
    `Chromium was not found${envNote}. The end-to-end tests need it: install Chromium ` +
      `(on Debian or Ubuntu: sudo apt-get install chromium-headless-shell, or chromium) or set CHROME_PATH to a Chromium or Chrome executable.`,
  );
}

/** A headless Chromium driven by playwright-core. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await findChromium();
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
}

let workerChromium: Promise<Browser> | null = null;

/**
 * This process's one headless Chromium, launched by its first caller and kept for every later
 * one: the Chromium suite's worker runs its files one after another in one process (vite.config.ts,
 * `isolate: false`), and each file opens its contexts in this browser (tests/e2e/harness.ts).
 * Driven over its own pipe, not through a Playwright server that relays every message (issue 35
 * item 2): a file's review walk used 72 core-seconds with the run's one browser behind the
 * vitest process's relay, 64 with its own. Playwright stops it when the process exits.
 */
export async function chromiumOfThisProcess(): Promise<Browser> {
  // A browser that crashed, or was closed, is replaced: one file's crash does not fail the next files.
  // Only the browser found gone is dropped: a caller that got here meanwhile may have launched the next.
  const current = workerChromium;
  if (current && !(await current.then((browser) => browser.isConnected(), () => false)) && workerChromium === current) workerChromium = null;
  workerChromium ??= launchChromium().catch((error: unknown) => {
    workerChromium = null;
    throw error;
  });
  return workerChromium;
}

/**
 * The style a full-page screenshot is taken with: cards below the screen are skipped until
 * scrolled near (content-visibility: auto, quote-card.module.css), so a capture of the whole
 * page draws every one of them as the customer who scrolls sees it.
 */
export const FULL_PAGE_SCREENSHOT_STYLE = '* { content-visibility: visible !important; }';
