import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, which playwright-core drives (no downloaded browser, TOOLCHAIN.md). */
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

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

let found: Promise<string> | null = null;

/**
 * The Chromium executable for the end-to-end tests (DESIGN.md "What runs"): CHROME_PATH when it
 * names an existing file, else Debian's /usr/bin/chromium; on Debian as root with neither, Debian's
 * `chromium` package is installed (about 30 s); otherwise an Error says what to do.
 */
export function findChromium(): Promise<string> {
  found ??= locateChromium().catch((error: unknown) => {
    found = null;
    throw error;
  });
  return found;
}

async function locateChromium(): Promise<string> {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;

  const isRoot = process.getuid?.() === 0;
  const isDebian = existsSync('/etc/debian_version');
  if (isRoot && isDebian) {
    console.log('Chromium not found: installing Debian\'s chromium package (about 30 s)…');
    await run('apt-get', ['update']);
    await run('apt-get', ['install', '-y', 'chromium']);
    if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
    throw new Error(`apt-get install chromium finished but ${DEBIAN_CHROMIUM} does not exist.`);
  }

  const envNote = fromEnv ? ` (CHROME_PATH is set to ${fromEnv}, which does not exist)` : '';
  throw new Error(
    `Chromium was not found${envNote}. The end-to-end tests need it: install Chromium ` +
      `(on Debian or Ubuntu: sudo apt-get install chromium) or set CHROME_PATH to a Chromium or Chrome executable.`,
  );
}

/** A headless Chromium driven by playwright-core. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await findChromium();
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
}

/**
 * A headless Chromium that other processes connect to (connectChromium) at the returned
 * endpoint: the Chromium suite's one browser, started by its global setup, in which every test
 * file opens its own contexts. `close` stops it.
 */
export async function launchChromiumServer(): Promise<{ wsEndpoint: string; close(): Promise<void> }> {
  const executablePath = await findChromium();
  const server = await chromium.launchServer({ executablePath, args: [...CHROMIUM_ARGS] });
  return { wsEndpoint: server.wsEndpoint(), close: () => server.close() };
}

/** A connection to a Chromium started by launchChromiumServer; closing it closes only this connection's contexts. */
export function connectChromium(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}

/**
 * The style a full-page screenshot is taken with: cards below the screen are skipped until
 * scrolled near (content-visibility: auto, quote-card.module.css), so a capture of the whole
 * page draws every one of them as the customer who scrolls sees it.
 */
export const FULL_PAGE_SCREENSHOT_STYLE = '* { content-visibility: visible !important; }';
