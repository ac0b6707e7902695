import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { MOBILE, TEXTS, browserForThisFile, finish, openPage, waitForApp, type Lang } from './harness';

const browser = browserForThisFile();

/** Holds the app's entry script until the returned function is called: the page shows only its HTML. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/index-*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

describe("the first paint is the page's pre-rendered screen: the entry page hydrated in place, any other replaced (issue 19)", () => {
  for (const lang of ['en', 'ar'] as Lang[]) {
    test(`${lang}: before any script, the page shows the travel details heading and header in ${lang}; the app then keeps those same elements`, async () => {
      const opened = await openPage(browser(), MOBILE, 'full');
      const { page } = opened;
      const release = await holdScripts(page);
      // Module scripts hold DOMContentLoaded back, so the page is read as soon as it commits.
      await page.goto(`/traveller-details?lang=${lang}`, { waitUntil: 'commit' });

      const heading = page.locator('main h1:visible');
      await heading.waitFor();
      expect(await heading.textContent()).toBe(TEXTS[lang].steps[0]);
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([lang, TEXTS[lang].dir]);
      expect(await page.locator('#splash').isVisible()).toBe(false);
      expect(await page.getByText(TEXTS[lang].stepOfFirst).first().isVisible()).toBe(true);
      await heading.evaluate((element) => element.setAttribute('data-painted-before-scripts', ''));

      release();
      await waitForApp(page);
      // Hydrated, not replaced: the element painted first is the one the app now runs.
      await expect.poll(() => page.locator('main h1[data-painted-before-scripts]').count()).toBe(1);
      expect(await page.locator('[data-shell-lang]').count()).toBe(1);
      await page.getByRole('button', { name: TEXTS[lang].otherLanguageLabel }).waitFor();
      await finish(opened);
    });
  }

  test("the form's fields keep the id React gives them as they mount: Mantine's useId, as built (dependency-patches.plugin.ts), renders no second time to swap in a random one", async () => {
    const opened = await openPage(browser(), MOBILE, 'full');
    await opened.page.goto('/traveller-details?lang=en');
    await waitForApp(opened.page);
    const fields = opened.page.locator('main input[id^="mantine-"]');
    await fields.first().waitFor();
    const ids = await fields.evaluateAll((inputs) => inputs.map((input) => input.id));
    expect(ids.length).toBeGreaterThan(3);
    // React's useId ("_r_1f_"), where Mantine's own hook ends on a random "mantine-k3j9x0q2b".
    for (const id of ids) expect(id).toMatch(/^mantine-_r_[0-9a-z]+_$/);
    await finish(opened);
  });

  test('a journey the screen was not rendered for (a session in the address) paints the pre-rendered screen, then the app renders its own in its place, with no error', async () => {
    const opened = await openPage(browser(), MOBILE, 'full');
    const { page } = opened;
    const release = await holdScripts(page);
    await page.goto('/traveller-details?sid=returning-session', { waitUntil: 'commit' });
    await page.locator('main h1:visible').waitFor();
    release();
    await waitForApp(page);
    expect(await page.locator('[data-shell-lang]').count()).toBe(0);
    expect(await page.locator('main h1').textContent()).toBe(TEXTS.en.steps[0]);
    await finish(opened);
  });

  for (const lang of ['en', 'ar'] as Lang[]) {
    test(`${lang}: a step's page (checkout, deep-linked) paints its own pre-rendered outline in ${lang} before any script; the app then renders what the journey shows in its place`, async () => {
      const opened = await openPage(browser(), MOBILE, 'full');
      const { page } = opened;
      const release = await holdScripts(page);
      await page.goto(`/checkout?lang=${lang}`, { waitUntil: 'commit' });

      const heading = page.locator('main h1:visible');
      await heading.waitFor();
      expect(await heading.getAttribute('data-testid')).toBe('screen-checkout');
      expect(await heading.textContent()).toBe(TEXTS[lang].steps[3]);
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir, document.documentElement.dataset.app])).toEqual([lang, TEXTS[lang].dir, undefined]);
      await heading.evaluate((element) => element.setAttribute('data-painted-before-scripts', ''));

      release();
      await waitForApp(page);
      // Replaced, not hydrated: the outline was rendered for no lead in particular, and with no
      // lead in the address the journey opens travel details.
      expect(await page.locator('[data-shell-lang]').count()).toBe(0);
      expect(await page.locator('[data-painted-before-scripts]').count()).toBe(0);
      expect(await page.locator('main h1').textContent()).toBe(TEXTS[lang].steps[0]);
      await finish(opened);
    });
  }
});
