import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { FULL_PAGE_SCREENSHOT_STYLE } from '../support/chromium';
import { leadAtCheckoutOverHttp, signedSender } from '../integration/server-journey-fixtures';
import { DESKTOP, MOBILE, baseUrl, browserForThisFile, describeFocus, openPage, otherLanguage, visit, type Lang, type OpenPage } from './harness';
import { axeViolations, finishAllowing, newTrip, pageSigningKey, quotesOfNewLead, saveLeadThroughApi, screenshot, textIn } from './journey-steps';
import { expectAnnounced, expectFocusKept, focusLosses, focusProblem, hasFocus, press, recordAccessibility, tabTo } from './keyboard';

/**
 * The paths the purchase walk (keyboard-purchase.test.ts) does not take, by keyboard in Chromium
 * against the real server, in English and in Arabic (issue 38, WCAG 2.2 AA):
 * - the agent's "Send by e-mail", on the quotes and on checkout: the focus stays on the button
 *   while it sends and after (2.4.3); the "link sent" toast is said through the page's announcer
 *   (4.1.3), covers neither the header nor the focused control, and no Tab stop hides under it
 *   (2.4.11);
 * - the language switch mid-journey: after its reload the focus is back on the switch (2.4.3);
 * - the quotes' smaller barriers: the compare bar one stop from a compared plan, the long
 *   destination list a button that shows it whole, 24 px add-on boxes (2.5.8), the per-traveller
 *   premium named by its plan.
 * axe runs on each page at 375 and 1280 px. Each language walks at one width (English at
 * 1280 px, Arabic at 375 px, as the purchase walk does) and is checked by axe at both.
 *
 * Every wait is on the page's state (an element, the focus, an announcement), never on a clock.
 */

const browser = browserForThisFile();
const VIEWPORT = { en: DESKTOP, ar: MOBILE } as const;
const AGENT = '&agent_id=101';

/** Resolves once the page has drawn two frames: what a new width changes (media queries, React's re-render on them) is laid out. */
function settled(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Fails (softly) with what axe found, at 375 and at 1280 px; the walk's own width comes back after.
 * Every card is drawn for it: a card far from the screen is skipped (content-visibility: auto,
 * quote-card.module.css), and axe, finding nothing drawn there, measured a card drawn at the
 * other width against the footer's colour.
 */
async function expectAxeCleanAtBothWidths(page: Page, where: string): Promise<void> {
  const walked = page.viewportSize();
  const drawn = await page.addStyleTag({ content: FULL_PAGE_SCREENSHOT_STYLE });
  for (const viewport of [MOBILE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await settled(page);
    expect.soft(await axeViolations(page), `axe on ${where} at ${viewport.width} px`).toEqual([]);
  }
  await drawn.evaluate((style) => (style as Element).remove());
  if (walked) {
    await page.setViewportSize(walked);
    await settled(page);
  }
}

/** A page at the language's width that records focus losses and announcements from its first load. */
async function walkingPage(lang: Lang): Promise<OpenPage> {
  const opened = await openPage(browser(), VIEWPORT[lang], 'full');
  await recordAccessibility(opened.context);
  return opened;
}

/** Whether the toast overlaps the sticky header or the focused control. */
function toastCovers(page: Page): Promise<{ header: boolean; focus: boolean }> {
  return page.evaluate(() => {
    const toast = document.querySelector('[data-testid="share-email-toast"]')!.getBoundingClientRect();
    const over = (element: Element | null) => {
      if (!element || element === document.body) return false;
      const box = element.getBoundingClientRect();
      return box.left < toast.right && toast.left < box.right && box.top < toast.bottom && toast.top < box.bottom;
    };
    return { header: over(document.querySelector('header')), focus: over(document.activeElement) };
  });
}

/**
 * From the page's start, Tab to "Send by e-mail" and press Enter: the focus stays on it while it
 * sends and once sent; "Link sent to <e-mail>" (`email`, or a part of it) is said politely; the toast covers neither the
 * header nor the focus; Shift+Tab up to the header's language switch and Tab back, every stop
 * seen; then the toast goes, and the focus is still on the button.
 */
async function shareByEmail(page: Page, lang: Lang, email: string, where: string): Promise<void> {
  const send = page.getByRole('button', { name: textIn(lang, 'Send by e-mail'), exact: true });
  await tabTo(page, send, { max: 30, what: `Send by e-mail on ${where}` });
  const toast = page.getByTestId('share-email-toast');
  await expectFocusKept(page, `Send by e-mail on ${where}`, async () => {
    const said = await expectAnnounced(page, `the link sent on ${where}`, async () => {
      await page.keyboard.press('Enter');
      await toast.waitFor({ state: 'visible' });
    }, { matches: (text) => text.includes(email), urgent: false });
    expect.soft(said.text, `on ${where}, what was said is what the toast shows`).toBe((await toast.innerText()).trim());
  });
  expect.soft(await hasFocus(send), `on ${where}, after sending the focus is on Send by e-mail, not on ${await describeFocus(page)}`).toBe(true);
  expect.soft(await focusProblem(page), `on ${where}, Send by e-mail is seen with the toast shown`).toBeNull();
  expect.soft(await toast.getAttribute('role'), `on ${where}, the toast is no status region mounted with its words`).not.toBe('status');
  expect.soft(await toastCovers(page), `on ${where}, the toast covers neither the header nor the focus`).toEqual({ header: false, focus: false });

  // Up to the header's controls (which the toast covered at the top, issue 38) and back: no stop
  // is hidden under the toast while it shows (tabTo checks each stop is seen). Whether it still
  // shows by then is the machine's speed against its 5 s, so that is not asserted: the check
  // above, right after sending, is the one that needs the toast.
  const languageSwitch = page.getByTestId('language-switch');
  await tabTo(page, languageSwitch, { backwards: true, what: `the language switch, from Send by e-mail on ${where}` });
  await screenshot(page, `agent-share-${where}-${lang}-${page.viewportSize()?.width ?? 0}`);
  await tabTo(page, send, { what: `Send by e-mail again on ${where}` });
  expect.soft(await axeViolations(page), `axe on ${where} with the toast shown`).toEqual([]);

  // The toast goes after its 5 s; the focus stays where it was.
  await toast.waitFor({ state: 'detached' });
  expect.soft(await hasFocus(send), `on ${where}, after the toast went the focus is on Send by e-mail, not on ${await describeFocus(page)}`).toBe(true);
  expect.soft(await focusLosses(page), `on ${where}, the focus never fell to <body>`).toEqual([]);
}

/**
 * Tabs to the language switch and presses Enter; resolves once the page has reloaded in the other
 * language and the app is live. (The "switching" notice covers the page for the second before the
 * reload, on purpose.)
 */
async function switchLanguageByKeyboard(page: Page, lang: Lang): Promise<{ languageSwitch: Locator; other: Lang }> {
  const languageSwitch = page.getByTestId('language-switch');
  await tabTo(page, languageSwitch, { what: 'the language switch' });
  const other = otherLanguage(lang);
  const reloaded = page.waitForEvent('load');
  await page.keyboard.press('Enter');
  await reloaded;
  await page.locator(`html[lang="${other}"][data-app="live"]`).waitFor({ state: 'attached' });
  return { languageSwitch, other };
}

describe.each(['en', 'ar'] as const)('by keyboard in %s, the paths the purchase walk does not take', (lang: Lang) => {
  test('agent mode: Send by e-mail on the quotes and on checkout keeps the focus; the toast is announced and hides no focused control', async () => {
    const opened = await walkingPage(lang);
    const { page } = opened;

    const trip = newTrip({ dobs: ['1988-06-01'] });
    await quotesOfNewLead(page, lang, trip, AGENT);
    await page.locator('[data-testid="quote-list"][aria-busy="false"]').waitFor();
    await shareByEmail(page, lang, trip.email, 'quotes');
    await expectAxeCleanAtBothWidths(page, 'the agent\'s quotes');

    // Checkout: a lead taken there through the API as the SPA does it, the agent's own.
    const send = signedSender(baseUrl(), await pageSigningKey());
    const uuid = await leadAtCheckoutOverHttp(send, { lang, providerId: 1000, agentId: 101 });
    await visit(page, `/checkout?uuid=${uuid}&lang=${lang}${AGENT}`);
    await page.getByTestId('price-summary').waitFor();
    // The lead's e-mail is the fixture's own (traveller<n>@example.com).
    await shareByEmail(page, lang, '@example.com', 'checkout');
    await expectAxeCleanAtBothWidths(page, 'the agent\'s checkout');
    await finishAllowing(opened);
  });

  test('the language switch on the quotes: after its reload the page is in the other language and the focus is back on the switch', async () => {
    const opened = await walkingPage(lang);
    const { page } = opened;
    await quotesOfNewLead(page, lang);
    await page.locator('[data-testid="quote-list"][aria-busy="false"]').waitFor();
    const { languageSwitch, other } = await switchLanguageByKeyboard(page, lang);
    await page.locator('[data-testid="quote-list"][aria-busy="false"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/compare-quotes');
    // Once the quotes have loaded in the new language, the focus is on the switch, and shown.
    await expect.poll(() => hasFocus(languageSwitch), { message: `the focus after the switch is on ${await describeFocus(page)}` }).toBe(true);
    expect(await languageSwitch.innerText()).toBe(lang === 'en' ? 'English' : 'العربية');
    expect.soft(await focusProblem(page), 'the switch is seen with the focus').toBeNull();
    expect.soft(await focusLosses(page), 'the reloaded page never dropped the focus').toEqual([]);
    // The walk goes on from the switch: Tab reaches the page's controls in the new language.
    await tabTo(page, page.getByRole('combobox', { name: textIn(other, 'Sort by') }), { max: 20, what: 'Sort by, in the new language' });
    await screenshot(page, `language-switched-quotes-${other}-${VIEWPORT[lang].width}`);
    await expectAxeCleanAtBothWidths(page, `the quotes after switching to ${other}`);
    await finishAllowing(opened);
  });

  test('the language switch on travel details (the page shown before the app is live) gives the focus back to the switch too', async () => {
    const opened = await walkingPage(lang);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const { languageSwitch, other } = await switchLanguageByKeyboard(page, lang);
    await expect.poll(() => hasFocus(languageSwitch), { message: `the focus after the switch is on ${await describeFocus(page)}` }).toBe(true);
    expect.soft(await focusProblem(page), 'the switch is seen with the focus').toBeNull();
    await expectAxeCleanAtBothWidths(page, `travel details after switching to ${other}`);
    await finishAllowing(opened);
  });

  test('the quotes: a compared plan is one stop from the compare bar, the long destination list opens whole, add-on boxes are 24 px, the premium button names its plan', async () => {
    const opened = await walkingPage(lang);
    const { page } = opened;
    // Five destinations: more than the summary's line holds.
    const { uuid } = await saveLeadThroughApi({ lang, destination_id: [250, 380, 724, 276, 300] });
    await visit(page, `/compare-quotes?uuid=${uuid}&lang=${lang}`);
    await page.locator('[data-testid="quote-list"][aria-busy="false"]').waitFor();

    // The destinations: a button, not a focusable paragraph; Enter shows the whole list.
    const places = page.getByTestId('quotes-destinations');
    expect(await places.evaluate((element) => element.tagName)).toBe('BUTTON');
    expect(await page.locator('p[tabindex="0"]').count()).toBe(0);
    await tabTo(page, places, { what: 'the destinations' });
    await press(page, 'Enter', 'opening the destinations');
    await expect.poll(() => places.getAttribute('aria-expanded')).toBe('true');
    expect(await places.evaluate((element) => [...element.querySelectorAll('*')].every((part) => part.scrollWidth <= part.clientWidth + 1))).toBe(true);

    // Each card's premium button says its plan; its add-on boxes are at least 24 px.
    const cards = page.getByTestId('quote-card');
    const [first, second] = [cards.nth(0), cards.nth(1)];
    const firstPlan = (await first.getByRole('heading', { level: 3 }).innerText()).trim();
    expect(await first.getByRole('button', { name: `${textIn(lang, 'Premium per traveller')} ${firstPlan}`, exact: true }).count()).toBe(1);
    for (const box of await first.locator('[data-testid="addon-checkbox"], [data-testid="compare-checkbox"]').all()) {
      const size = await box.boundingBox();
      expect(Math.min(size?.width ?? 0, size?.height ?? 0)).toBeGreaterThanOrEqual(24);
    }

    // Two plans to compare by keyboard; from the second plan's box the bar's button is two stops on.
    for (const card of [first, second]) {
      const box = card.getByTestId('compare-checkbox');
      await tabTo(page, box, { max: 60, what: 'Add to compare' });
      await press(page, 'Space', 'adding a plan to compare');
    }
    await tabTo(page, second.getByTestId('go-to-compare'), { max: 1, what: 'Go to the compare bar, the stop after the box' });
    await press(page, 'Enter', 'going to the compare bar');
    await expect.poll(() => hasFocus(page.getByTestId('compare-open'))).toBe(true);
    await screenshot(page, `quotes-compare-skip-${lang}-${VIEWPORT[lang].width}`);
    await expectAxeCleanAtBothWidths(page, 'the quotes with two plans to compare');
    await finishAllowing(opened);
  });
});
