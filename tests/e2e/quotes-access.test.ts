import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import * as v from 'valibot';
import { compareQuotesEndpoint, type Quote } from '../../src/contract/quote.endpoints';
import { formatMoney } from '../../src/web/i18n/format';
import { DESKTOP, MOBILE, browserForThisFile, openPage, visit, type Lang } from './harness';
import { axeViolations, finishAllowing, saveLeadThroughApi, screenshot, textIn } from './journey-steps';

/**
 * Issue 21 on the plan pages in Chromium, in English at 1280 px and Arabic at 375 px, by
 * keyboard: with plans in compare, no focus stop is hidden under the fixed compare bar (WCAG
 * 2.4.11); each card's controls are named by its plan (2.4.6, 2.5.3); add-ons and compare are
 * announced (4.1.3); compare works on a phone, so at 200 % zoom too (1.4.4); and with reduced
 * motion asked for, the benefits drawer and "Show more" open without moving.
 *
 * SCREENSHOT_DIR=/some/dir also writes screenshots of the list with the bar and of the table.
 */

const browser = browserForThisFile();

const CASES = [
  { lang: 'en', viewport: DESKTOP },
  { lang: 'ar', viewport: MOBILE },
] as const;

const cards = (page: Page) => page.getByTestId('quote-card');
const announced = (page: Page) => page.getByTestId('announcer').textContent();
/** A plan's name as the page shows it (the server answers it in the page's language). */
const plan = (quote: Quote) => quote.wizard_plan_name;

/** Opens a new lead's quote list in `lang` and returns the quotes the server answered, in list order. */
async function openQuotes(page: Page, lang: Lang): Promise<Quote[]> {
  const { uuid } = await saveLeadThroughApi();
  const answered = page.waitForResponse((response) => response.url().endsWith(compareQuotesEndpoint.path));
  await visit(page, `/compare-quotes?uuid=${uuid}&lang=${lang}`);
  const quotes = v.parse(compareQuotesEndpoint.response, await (await answered).json()).data.quotes;
  await expect.poll(() => cards(page).count()).toBe(quotes.length);
  const ids = await cards(page).evaluateAll((elements) => elements.map((element) => Number(element.getAttribute('data-quote-id'))));
  return ids.map((id) => quotes.find((quote) => quote.id === id)!);
}

/** With SCREENSHOT_DIR set, the screen as it shows (the fixed bar where it sits), not the whole page. */
async function screenShot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

interface FocusStop {
  what: string;
  inCard: boolean;
  /** The point at the centre of the focused element is the element (or inside it): nothing covers it. */
  clear: boolean;
  coveredBy: string;
}

/** The focused element once the page has scrolled it into view (two frames later). */
function focusStop(page: Page): Promise<FocusStop> {
  return page.evaluate(
    () =>
      new Promise<FocusStop>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const element = document.activeElement as HTMLElement;
            const rect = element.getBoundingClientRect();
            const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
            const name = (node: Element | null) =>
              node ? `<${node.tagName.toLowerCase()} ${node.getAttribute('data-testid') ?? node.id ?? ''}> ${(node.textContent ?? '').trim().slice(0, 30)}` : 'nothing';
            resolve({
              what: `${name(element)} at ${Math.round(rect.top)}–${Math.round(rect.bottom)} of ${window.innerHeight}`,
              inCard: element.closest('[data-testid="quote-card"]') !== null,
              clear: hit !== null && (hit === element || element.contains(hit)),
              coveredBy: name(hit),
            });
          }),
        ),
      ),
  );
}

describe.each(CASES)('the plan pages by keyboard, in $lang at $viewport.width px', ({ lang, viewport }) => {
  test('with two plans in compare, every focus stop on the cards stays clear of the compare bar, and each add is announced', async () => {
    const opened = await openPage(browser(), viewport);
    const { page } = opened;
    const quotes = await openQuotes(page, lang);
    expect(quotes.length).toBeGreaterThanOrEqual(5);

    // Two plans into compare by the keyboard (the boxes show on phones too): each is announced.
    for (const [index, quote] of quotes.slice(0, 2).entries()) {
      const box = cards(page).nth(index).getByTestId('compare-checkbox');
      await box.focus();
      await page.keyboard.press('Space');
      const said = textIn(lang, 'Added {plan} to compare: {count} of {max} chosen', { plan: plan(quote), count: index + 1, max: 3 });
      await expect.poll(() => announced(page)).toBe(said);
    }
    await page.getByTestId('compare-tray').waitFor({ state: 'visible' });

    // From the first card's first control, Tab through every card to the bar.
    await cards(page).first().getByRole('button').first().focus();
    const stops: FocusStop[] = [];
    for (let presses = 0; presses < 200; presses++) {
      const stop = await focusStop(page);
      if (!stop.inCard) break;
      stops.push(stop);
      await page.keyboard.press('Tab');
    }
    await screenShot(page, `quotes-compare-bar-last-stop-${lang}-${viewport.width}`);
    // Every card's controls were visited (at least buy, compare and benefits on each).
    expect(stops.length).toBeGreaterThanOrEqual(quotes.length * 3);
    expect(stops.filter((stop) => !stop.clear).map((stop) => `${stop.what} covered by ${stop.coveredBy}`)).toEqual([]);
    await finishAllowing(opened);
  });

  test("each card's controls are named by its plan after their visible words, and an add-on says the plan's new total", async () => {
    const opened = await openPage(browser(), viewport);
    const { page } = opened;
    const quotes = await openQuotes(page, lang);
    for (const quote of quotes) {
      const card = page.locator(`[data-testid="quote-card"][data-quote-id="${quote.id}"]`);
      for (const shown of ['Buy now', 'All benefits', 'Add to compare']) {
        const name = `${textIn(lang, shown)} ${plan(quote)}`;
        // Exactly one control on the page has the name, and it is this card's.
        await expect.poll(() => page.getByRole(shown === 'Add to compare' ? 'checkbox' : 'button', { name, exact: true }).count()).toBe(1);
        expect(await card.getByRole(shown === 'Add to compare' ? 'checkbox' : 'button', { name, exact: true }).count()).toBe(1);
      }
    }

    // An add-on ticked by the keyboard: the card's total changes, and the announcer says it.
    const index = quotes.findIndex((quote) => quote.addon.some((addon) => !addon.disabled_addon));
    const quote = quotes[index]!;
    const addon = quote.addon.find((candidate) => !candidate.disabled_addon)!;
    const card = cards(page).nth(index);
    await card.locator(`[data-testid="addon-checkbox"][data-code="${addon.code}"]`).focus();
    await page.keyboard.press('Space');
    const total = formatMoney(quote.premium + addon.value, lang);
    await expect.poll(() => card.getByTestId('quote-total').innerText()).toBe(total);
    const cover = lang === 'ar' ? addon.label_ar : addon.label;
    await expect.poll(() => announced(page)).toBe(textIn(lang, '{plan}: {total} with {cover}', { plan: plan(quote), total, cover }));
    await finishAllowing(opened);
  });

  test('compare works on this screen: three plans chosen by the keyboard, the bar fits, and the table opens with each Proceed named by its plan', async () => {
    const opened = await openPage(browser(), viewport);
    const { page } = opened;
    const quotes = await openQuotes(page, lang);
    for (let index = 0; index < 3; index++) {
      await cards(page).nth(index).getByTestId('compare-checkbox').focus();
      await page.keyboard.press('Space');
    }
    const tray = page.getByTestId('compare-tray');
    await expect.poll(() => tray.getByTestId('compare-tray-item').count()).toBe(3);
    // The bar fits the screen's width, and its Compare button is whole on screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const button = await tray.getByTestId('compare-open').boundingBox();
    const size = page.viewportSize()!;
    expect(button!.x).toBeGreaterThanOrEqual(0);
    expect(button!.x + button!.width).toBeLessThanOrEqual(size.width);
    expect(button!.y + button!.height).toBeLessThanOrEqual(size.height);
    await screenShot(page, `quotes-compare-three-${lang}-${viewport.width}`);
    expect(await axeViolations(page)).toEqual([]);

    await tray.getByTestId('compare-open').focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/compare-offers');
    await page.getByTestId('offers-table').waitFor({ state: 'visible' });
    for (const quote of quotes.slice(0, 3))
      expect(await page.getByRole('button', { name: `${textIn(lang, 'Proceed')} ${plan(quote)}`, exact: true }).count()).toBe(1);
    await screenshot(page, `compare-offers-three-${lang}-${viewport.width}`);
    await finishAllowing(opened);
  });

  test('with reduced motion asked for, the benefits drawer and "Show more" open in place, without moving', async () => {
    const opened = await openPage(browser(), viewport);
    const { page } = opened;
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const quotes = await openQuotes(page, lang);
    const first = quotes[0]!;

    /**
     * Records, every frame for `ms` from the first frame that shows the element `selector` matches
     * (visible ones only), its box: a transition shows as boxes that differ from the last one. The
     * window opens when the element shows, not when `act` starts, so a busy machine's slow key
     * press cannot use it up; and the test waits for the recording to end, not for a time.
     */
    const framesDuring = async (selector: string, act: () => Promise<void>, ms = 700) => {
      await page.evaluate(
        ({ selector, ms }) => {
          const frames: string[] = [];
          const recording = window as unknown as { frames_: string[]; framesDone_: boolean };
          recording.frames_ = frames;
          recording.framesDone_ = false;
          let shownAt: number | null = null;
          const record = () => {
            const element = document.querySelector(selector);
            if (element) {
              const rect = element.getBoundingClientRect();
              const style = getComputedStyle(element);
              if (rect.width > 0 && rect.height > 0) {
                shownAt ??= performance.now();
                frames.push(`${Math.round(rect.left)},${Math.round(rect.top)},${Math.round(rect.width)}x${Math.round(rect.height)} opacity ${style.opacity}`);
              }
            }
            if (shownAt === null || performance.now() - shownAt < ms) requestAnimationFrame(record);
            else recording.framesDone_ = true;
          };
          requestAnimationFrame(record);
        },
        { selector, ms },
      );
      await act();
      await page.waitForFunction(() => (window as unknown as { framesDone_: boolean }).framesDone_);
      return page.evaluate(() => (window as unknown as { frames_: string[] }).frames_);
    };

    const drawer = await framesDuring('.mantine-Drawer-content', async () => {
      await page.locator(`[data-testid="quote-card"][data-quote-id="${first.id}"]`).getByTestId('open-benefits').focus();
      await page.keyboard.press('Enter');
    });
    expect(drawer.length).toBeGreaterThan(0);
    // Every frame it was drawn in shows it where it ends, fully opaque.
    expect(new Set(drawer)).toEqual(new Set([drawer.at(-1)]));
    expect(drawer.at(-1)).toMatch(/opacity 1$/);
    await page.keyboard.press('Escape');
    await page.getByTestId('benefits-drawer-body').waitFor({ state: 'detached' });

    const more = await framesDuring(`#quote-more-${first.id}`, async () => {
      await page.locator(`[data-testid="quote-card"][data-quote-id="${first.id}"]`).getByRole('button', { name: new RegExp(`^${textIn(lang, 'Show more')}`) }).focus();
      await page.keyboard.press('Enter');
    });
    expect(more.length).toBeGreaterThan(0);
    expect(new Set(more)).toEqual(new Set([more.at(-1)]));
    await finishAllowing(opened);
  });
});
