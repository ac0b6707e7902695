import { expect } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { focusInPage } from './harness';
import { WAIT_GUARD_MS } from '../support/wait-guard';

/**
 * The keyboard-only journey's tools (issue 21): move focus with the keys a person uses and check,
 * at every stop the focus passes, that it is shown (WCAG 2.4.7) and not hidden under the sticky
 * header, the fixed compare bar or anything else (2.4.11); read what the live regions said (4.1.3).
 */

/** Why the focus is not where a keyboard user can see it, or null when it is (harness.ts focusInPage). */
export async function focusProblem(page: Page): Promise<string | null> {
  return (await page.evaluate(focusInPage, [])).problem;
}

/** Fails, saying where and on what, unless the focus is shown and not obscured. */
export async function expectFocusShown(page: Page, where: string): Promise<void> {
  const focus = await page.evaluate(focusInPage, []);
  expect.soft(focus.problem, `${where}: focus on ${focus.description}`).toBeNull();
}

/** Whether the focused element is one of `target`'s elements or inside one. */
export function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluateAll((elements) => elements.some((element) => element.contains(document.activeElement)));
}

/**
 * Presses Tab (Shift+Tab with `backwards`) until the focus is in `target` (no press when it is
 * there already), checking at every stop on the way that the focus is shown and not obscured:
 * hidden focus shows up on the stops passed, not only on the one aimed at. Fails after `max`
 * presses, listing the stops.
 */
export async function tabTo(page: Page, target: Locator, { max = 40, backwards = false, what = 'the target' }: { max?: number; backwards?: boolean; what?: string } = {}): Promise<void> {
  if (await hasFocus(target)) return;
  const key = backwards ? 'Shift+Tab' : 'Tab';
  const passed: string[] = [];
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press(key);
    // One call to the page a stop: where the focus is, whether it is shown, whether it arrived.
    const focus = await target.evaluateAll(focusInPage);
    passed.push(`${focus.description}${focus.name === null ? '' : ` aria-label="${focus.name}"`}`);
    expect.soft(focus.problem, `${key} ×${presses} on the way to ${what}: focus on ${focus.description}`).toBeNull();
    if (focus.within) return;
  }
  throw new Error(`${max} × ${key} never reached ${what}; the stops were:\n${passed.join('\n')}`);
}

/** Presses a key and checks the focus is then shown and not obscured. */
export async function press(page: Page, key: string, where = key): Promise<void> {
  await page.keyboard.press(key);
  await expectFocusShown(page, `after ${where}`);
}

/**
 * Types text into the focused field, as a person does, key by key. Each key is sent alone and
 * handled (React's render included) before the next; there is no pause between keys. A 5 ms pause
 * gave the page a frame to draw every third key or so, which no check reads, and cost about 4 ms
 * of CPU a key (issue 35: docs/testing.md).
 */
export async function type(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text);
}

/** Something the page said through its live regions (src/web/shell/announcer.tsx). */
export interface Announcement {
  text: string;
  urgent: boolean;
}

/** A moment the focus fell to <body> and stayed there: what had it, on which page. */
export interface FocusLoss {
  from: string;
  path: string;
}

/** How long focus may rest on <body> in passing (a step change focusing its heading) before it counts as lost. */
const FOCUS_LOSS_GRACE_MS = 150;

/**
 * Records, on every page the context loads, every message written into the page's two live
 * regions (emptied and written again for each message, so each write is one announcement, read
 * by `announcements`) and every moment the focus fell to <body> while the window had it (read by
 * `focusLosses`): a control disabled or removed under the focus loses it for keyboard users.
 */
export async function recordAccessibility(context: BrowserContext): Promise<void> {
  await context.addInitScript((graceMs: number) => {
    const lost: { from: string; path: string }[] = [];
    (window as unknown as { __focusLost: typeof lost }).__focusLost = lost;
    document.addEventListener(
      'focusout',
      (event) => {
        if (event.relatedTarget) return;
        const target = event.target as Element;
        const from = `<${target.tagName.toLowerCase()}${target.getAttribute('data-testid') ? ` data-testid="${target.getAttribute('data-testid')}"` : ''}> ${(target.getAttribute('aria-label') ?? target.textContent ?? '').trim().slice(0, 40)}`;
        window.setTimeout(() => {
          const active = document.activeElement;
          if ((active === null || active === document.body) && document.hasFocus()) lost.push({ from, path: location.pathname });
        }, graceMs);
      },
      true,
    );
    const said: { text: string; urgent: boolean }[] = [];
    (window as unknown as { __announced: typeof said }).__announced = said;
    const last = new Map<string, string>();
    const read = () => {
      for (const [testId, urgent] of [
        ['announcer', false],
        ['announcer-urgent', true],
      ] as const) {
        const text = (document.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '').trim();
        if (text && text !== last.get(testId)) said.push({ text, urgent });
        last.set(testId, text);
      }
    };
    new MutationObserver(read).observe(document, { subtree: true, childList: true, characterData: true });
  }, FOCUS_LOSS_GRACE_MS);
}

/** Every time the focus was lost on the current page so far. */
export function focusLosses(page: Page): Promise<FocusLoss[]> {
  return page.evaluate(() => (window as unknown as { __focusLost?: FocusLoss[] }).__focusLost ?? []);
}

/**
 * Runs `action` (a key press and the wait for what it leads to: a new step of the app, a
 * dialog, a saved coupon; not a page load) and fails (softly) if the focus fell to <body> meanwhile.
 */
export async function expectFocusKept(page: Page, what: string, action: () => Promise<void>): Promise<void> {
  const before = (await focusLosses(page)).length;
  await action();
  await page.waitForTimeout(FOCUS_LOSS_GRACE_MS + 50);
  const lost = (await focusLosses(page)).slice(before);
  expect.soft(lost, `${what}: the focus was lost`).toEqual([]);
}

/** Everything announced on the current page so far. */
export function announcements(page: Page): Promise<Announcement[]> {
  return page.evaluate(() => (window as unknown as { __announced?: Announcement[] }).__announced ?? []);
}

/**
 * Runs `action`, then waits for a new announcement that `matches` (polite or urgent as asked);
 * returns it. The failure lists what was said, if anything.
 */
export async function expectAnnounced(
  page: Page,
  what: string,
  action: () => Promise<void>,
  { matches = () => true, urgent }: { matches?: (text: string) => boolean; urgent?: boolean } = {},
): Promise<Announcement> {
  const before = (await announcements(page)).length;
  await action();
  const fits = (said: Announcement) => matches(said.text) && (urgent === undefined || said.urgent === urgent);
  let found: Announcement | undefined;
  let said: Announcement[] = [];
  // Waits on the live regions until the hang guard: a busy machine only makes it take longer.
  const deadline = Date.now() + WAIT_GUARD_MS;
  while (Date.now() < deadline) {
    said = (await announcements(page)).slice(before);
    found = said.find(fits);
    if (found) return found;
    await page.waitForTimeout(100);
  }
  expect.soft(said, `${what} was not announced${urgent === undefined ? '' : urgent ? ' urgently' : ' politely'}: what the live regions said since`).toContainEqual('an announcement');
  return { text: '', urgent: false };
}

/** The digits of an amount ("$1,234" → "1234"). */
export const digits = (text: string) => text.replace(/[^\d]/g, '');

/** The numbers a text holds, amounts without their separators ("7 plans, $1,234.50" → ["7", "123450"]). */
export const numbers = (text: string) => (text.match(/\d[\d,٬]*(?:\.\d+)?/g) ?? []).map(digits);

/** The brand in a tab title, per language: page chrome, so in Arabic the wordmark "Safar سفر" (issue 38). */
const BRAND = { en: 'Safar', ar: 'Safar سفر' } as const;

/** Fails (softly) unless the tab is titled "<the page's h1> · Safar" in the page's language; returns the h1. */
export async function expectTitled(page: Page, lang: 'en' | 'ar', where: string): Promise<string> {
  const heading = (await page.locator('main h1').first().innerText()).trim();
  const wanted = `${heading} · ${BRAND[lang]}`;
  // The title follows the heading a render later: wait on it until the hang guard.
  const deadline = Date.now() + WAIT_GUARD_MS;
  while (Date.now() < deadline && (await page.title()) !== wanted) await page.waitForTimeout(100);
  expect.soft(await page.title(), `${where}: the tab's title`).toBe(wanted);
  return heading;
}
