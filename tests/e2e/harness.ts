import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { chromiumOfThisProcess } from '../support/chromium';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process';
import { WAIT_GUARD_MS } from '../support/wait-guard';

/** The two widths the shell is checked at: a small phone and a laptop (mobile breakpoint 768 px, spec §9). */
export const MOBILE = { width: 375, height: 812 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

export type Lang = 'en' | 'ar';

/** The texts the shell shows, per language (Arabic from locales/ar/messages.po). */
export const TEXTS = {
  en: {
    dir: 'ltr',
    steps: ['Travel details', 'Compare quotes', 'Review details', 'Purchase insurance'],
    stepOfFirst: 'Step 1 of 4',
    stepOfSecond: 'Step 2 of 4',
    skipLink: 'Skip to main content',
    otherLanguageLabel: 'العربية',
    switchingNotice: 'Switching to English…',
  },
  ar: {
    dir: 'rtl',
    steps: ['تفاصيل السفر', 'مقارنة العروض', 'مراجعة البيانات', 'شراء التأمين'],
    stepOfFirst: 'الخطوة 1 من 4',
    stepOfSecond: 'الخطوة 2 من 4',
    skipLink: 'انتقل إلى المحتوى الرئيسي',
    otherLanguageLabel: 'English',
    switchingNotice: 'جارٍ التبديل إلى العربية…',
  },
} as const satisfies Record<Lang, unknown>;

export const otherLanguage = (lang: Lang): Lang => (lang === 'en' ? 'ar' : 'en');

// Set by serverOfThisFile: that file's pages, and callApi, go to its own server.
let ownBaseUrl: string | null = null;

export function baseUrl(): string {
  return ownBaseUrl ?? inject('baseUrl');
}

export interface OwnServer {
  /** Its DATA_DIR: after stop(), tests may open its database (src/server/db/client.ts) and read it. */
  dataDir: string;
  mailOutbox: string;
  /** Stops the server (idempotent); its database can then be opened by the test. */
  stop(): Promise<void>;
}

/**
 * Gives this test file a real server of its own (a fresh data directory, the SPA build of the
 * run): for tests that check what the database holds at the end, which the shared server's
 * PGlite directory cannot show while it runs. baseUrl(), openPage and callApi then point to it.
 */
export function serverOfThisFile(): OwnServer {
  const dataDir = path.join(inject('dataDir'), '..', `own-${randomBytes(4).toString('hex')}`);
  let server: ServerProcess | null = null;
  beforeAll(async () => {
    const port = await freePort();
    server = startServerProcess({
      PORT: String(port),
      DATA_DIR: dataDir,
      SIGNING_SECRET: randomBytes(24).toString('hex'),
      SAFAR_STATIC_DIR: inject('staticDir'),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }, { bundle: true });
    await server.listening(90_000);
    ownBaseUrl = `http://127.0.0.1:${port}`;
  });
  const stop = async () => {
    const running = server;
    server = null;
    if (running) await running.stop();
  };
  afterAll(async () => {
    // The worker's next file uses the run's server again (this module stays loaded: isolate: false).
    ownBaseUrl = null;
    await stop();
  });
  return { dataDir, mailOutbox: path.join(dataDir, 'outbox'), stop };
}

const openContexts = new Set<BrowserContext>();

/** Closes every context a test opened, also when the test failed before closing it (use in afterEach). */
export async function closeOpenContexts(): Promise<void> {
  const contexts = [...openContexts];
  openContexts.clear();
  await Promise.all(contexts.map((context) => context.close().catch(() => {})));
}

export interface OpenPage {
  context: BrowserContext;
  page: Page;
  /** Console errors (a CSP violation is one), uncaught page errors and CSP violation events, in order. */
  problems: string[];
  /** Console warnings, kept apart: they are not failures by themselves. */
  warnings: string[];
}

/**
 * How much the page moves. A test that checks what a step shows or saves asks for `reduce`, the
 * setting of a customer who turns animations off (prefers-reduced-motion, which the theme
 * respects): no drawer, modal or list animates, so the page draws far fewer frames, and Chromium
 * spent about a sixth less CPU on a file (checkout.test.ts, 48 against 40 core-seconds in its
 * renderer). The walks that check what most customers see as the page moves ask for `full`: the
 * keyboard walks, the model-path sample, first paint, layout shift, and focus and announcements
 * (where the focus lands after a drawer's transition).
 */
export type Motion = 'reduce' | 'full';

/**
 * A fresh context (empty storage) and page at the given viewport, with every console error,
 * uncaught error and Content-Security-Policy violation recorded for the test to assert on.
 */
export async function openPage(browser: Browser, viewport: { width: number; height: number } = DESKTOP, motion: Motion = 'reduce'): Promise<OpenPage> {
  const context = await browser.newContext({ viewport, baseURL: baseUrl(), reducedMotion: motion === 'reduce' ? 'reduce' : 'no-preference' });
  openContexts.add(context);
  context.on('close', () => openContexts.delete(context));
  // Every wait on this page (a locator, a URL, a response) fails only after the hang guard.
  context.setDefaultTimeout(WAIT_GUARD_MS);
  const page = await context.newPage();
  const problems: string[] = [];
  const warnings: string[] = [];
  page.on('console', (message) => {
    const where = message.location().url ? ` (${message.location().url}:${message.location().lineNumber})` : '';
    if (message.type() === 'error') problems.push(`console error: ${message.text()}${where}`);
    if (message.type() === 'warning') warnings.push(`console warning: ${message.text()}${where}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // Chromium reports CSP violations as console errors; the event is listened to as well so a
  // violation is caught even if that console message ever changes.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return { context, page, problems, warnings };
}

/**
 * One page for the read-only checks of one screen (issue 35): opened by `open` for the first test
 * that asks for it, kept for the next tests of the describe block it is made in, and closed after
 * them. Each page a test opens costs about 0.8 core-seconds of Chromium (a context, a renderer, the
 * app's load); a check that only reads the page has no need of its own. A test on it must leave it
 * as it found it (reading, or moving the focus only) and, instead of finish(), check
 * `problems` with `expectNoProblems`. The afterEach that closes a test's contexts leaves it open.
 */
export function sharedPage<P extends OpenPage>(open: () => Promise<P>): () => Promise<P> {
  let opening: Promise<P> | null = null;
  afterAll(async () => {
    const shared = await opening?.catch(() => null);
    opening = null;
    await shared?.context.close().catch(() => {});
  });
  return () =>
    (opening ??= open().then((opened) => {
      openContexts.delete(opened.context);
      return opened;
    }));
}

/** Fails the test if the page logged errors or CSP violations: finish() for a page that stays open. */
export function expectNoProblems(opened: OpenPage): void {
  expect(opened.problems, 'console errors, page errors or CSP violations').toEqual([]);
}

/** Closes the test's context, then fails the test if the page logged errors or CSP violations. */
export async function finish(opened: OpenPage): Promise<void> {
  await opened.context.close();
  expectNoProblems(opened);
}

/**
 * Waits until the app has rendered: it has marked the page live (safar-app.tsx; before that the
 * page shows its pre-rendered screen, whose controls do nothing yet) and the screen's h1 is shown.
 */
export async function waitForApp(page: Page): Promise<void> {
  await page.locator('html[data-app="live"]').waitFor({ state: 'attached' });
  await page.locator('main h1').waitFor({ state: 'visible' });
}

/** Opens a path of the app (relative to baseUrl) and waits until it has rendered. */
export async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForApp(page);
}

/** Path and query of the page's current URL, e.g. "/traveller-details?x=1". */
export function pathAndQuery(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

export function readStorage(page: Page, keys: readonly string[]): Promise<Record<string, string | null>> {
  return page.evaluate((names) => Object.fromEntries(names.map((name) => [name, localStorage.getItem(name)])), [...keys]);
}

/**
 * Where the focus is, read in one call to the page: a description of the focused element for
 * assertion messages, its aria-label, whether it is in `targets` (a locator's elements through
 * `Locator.evaluateAll`; none through `page.evaluate`), and why a keyboard user cannot see it, or null
 * when they can: focus on <body> (lost), no focus indicator, a rectangle outside the viewport,
 * or another element on top of its centre. A native control drawn by its label (a radio kept
 * with opacity 0 under its label, segmented-choice.tsx) shows its indicator, and is seen,
 * through that label. Runs in the page, so it uses nothing from outside itself.
 */
export function focusInPage(targets: Element[]): FocusReading {
  const element = document.activeElement;
  if (!element) return { description: 'nothing', name: null, within: false, problem: 'focus is on <body>: it was lost' };
  const testId = element.getAttribute('data-testid');
  const description = `<${element.tagName.toLowerCase()}${element.id ? ` id="${element.id}"` : ''}${testId ? ` data-testid="${testId}"` : ''}> ${(element.textContent ?? '').trim().slice(0, 40)}`;
  const reading = { description, name: element.getAttribute('aria-label'), within: targets.some((target) => target.contains(element)) };
  const problem = (): string | null => {
    if (element === document.body || element === document.documentElement) return 'focus is on <body>: it was lost';
    const labels = element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement ? [...(element.labels ?? [])] : [];
    const drawnByLabel = Number(getComputedStyle(element).opacity) === 0 && labels.length > 0;
    const drawer = drawnByLabel ? labels[0]! : element;
    const style = getComputedStyle(drawer);
    const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const ringed = style.boxShadow !== 'none' && style.boxShadow !== '';
    if (!outlined && !ringed) return `no focus indicator (outline ${style.outlineStyle} ${style.outlineWidth}, box-shadow ${style.boxShadow})`;
    if (style.visibility === 'hidden' || Number(style.opacity) === 0) return 'the focused element is invisible';
    const box = drawer.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return 'the focused element has no size';
    const viewport = { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight };
    // A pixel of rounding either way: the browser's own scrolling to the focus can leave a sub-pixel sliver.
    if (box.top < -1.5 || box.left < -1.5 || box.bottom > viewport.height + 1.5 || box.right > viewport.width + 1.5) {
      return `outside the viewport: ${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}×${Math.round(box.height)} in ${viewport.width}×${viewport.height}`;
    }
    const atCentre = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const seen = (candidate: Element | null) => candidate !== null && (element.contains(candidate) || labels.some((label) => label.contains(candidate)));
    if (!seen(atCentre)) {
      const cover = atCentre?.closest('[data-testid]')?.getAttribute('data-testid') ?? atCentre?.closest('header, footer, nav, [role=dialog]')?.tagName.toLowerCase();
      return `obscured: its centre shows <${atCentre?.tagName.toLowerCase() ?? 'nothing'}>${cover ? ` of ${cover}` : ''}`;
    }
    return null;
  };
  return { ...reading, problem: problem() };
}

/** What `focusInPage` reads. */
export interface FocusReading {
  description: string;
  name: string | null;
  within: boolean;
  problem: string | null;
}

/** Describes the focused element for assertion messages. */
export async function describeFocus(page: Page): Promise<string> {
  return (await page.evaluate(focusInPage, [])).description;
}

/**
 * What a page shows, for a failure's report (issue 35 item 1): its address, whether the app is
 * live, the heading, every open dialog and alert, the field errors, and where the focus is.
 */
export async function describeScreen(page: Page): Promise<string> {
  if (page.isClosed()) return 'the page is closed';
  try {
    const shown = await page.evaluate(() => {
      const texts = (selector: string) => [...document.querySelectorAll(selector)].map((element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200)).filter(Boolean);
      return {
        live: document.documentElement.dataset.app ?? 'no',
        heading: texts('main h1')[0] ?? 'none',
        dialogs: texts('[role="dialog"]'),
        alerts: texts('[role="alert"], .mantine-InputWrapper-error'),
      };
    });
    return `${page.url()} (app ${shown.live}); heading: ${shown.heading}; dialogs: ${JSON.stringify(shown.dialogs)}; alerts and field errors: ${JSON.stringify(shown.alerts)}; focus on ${await describeFocus(page)}`;
  } catch (error) {
    return `${page.url()}: not readable (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

/**
 * The worker's one Chromium (support/chromium.ts chromiumOfThisProcess) for this test file:
 * launched by the worker's first file and kept for the next, each test's contexts closed after
 * it. Returns a getter for it.
 */
export function browserForThisFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromiumOfThisProcess();
  });
  afterEach(async (context) => {
    // A failed wait says what it waited for; this says what the screen showed instead.
    if (context.task.result?.state === 'fail') {
      for (const open of openContexts) for (const page of open.pages()) console.error(`[what the screen showed when the test failed] ${await describeScreen(page)}`);
    }
    await closeOpenContexts();
  });
  afterAll(async () => {
    // The next file's tests run in the same browser: nothing of this file's is left open in it.
    await closeOpenContexts();
  });
  return () => {
    if (!browser) throw new Error('Chromium is not running: browserForThisFile() runs in beforeAll');
    return browser;
  };
}
