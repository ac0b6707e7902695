import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { DESKTOP, MOBILE, TEXTS, finish, openPage, pathAndQuery, readStorage, visit, waitForApp, browserForThisFile } from './harness';
import { LANGUAGE_RELOAD_DELAY_MS } from '../../src/web/i18n/locale';
import { saveLeadThroughApi } from './journey-steps';

const DRAFT_KEYS = ['uuid', 'session_id', 'personal_details', 'device_uuid', 'agent_id'] as const;

const browser = browserForThisFile();

// A real lead: its pages load its quotes, so a made-up uuid would be refused by the server.
let leadUuid: string | null = null;
beforeAll(async () => {
  leadUuid = (await saveLeadThroughApi()).uuid;
});
const lead = () => leadUuid!;

/** The test id of the screen heading shown in <main>. */
const screenId = (page: Page) => page.locator('main h1').getAttribute('data-testid');

/** Waits until the address bar shows `expected` (path and query) and returns what it shows. */
async function urlBecomes(page: Page, expected: string): Promise<string> {
  await page.waitForURL((url) => `${url.pathname}${url.search}` === expected).catch(() => {});
  return pathAndQuery(page);
}

/** The header step marked current on the desktop stepper. */
const currentStep = (page: Page) => page.locator('[data-testid^="wizard-step-"][aria-current="step"]').getAttribute('data-testid');

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

async function scrollToBottom(page: Page): Promise<number> {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  return scrollY(page);
}

describe('routes', () => {
  test('an unknown path (/nope?x=1) lands on /traveller-details and keeps ?x=1', async () => {
    const opened = await openPage(browser());
    await visit(opened.page, '/nope?x=1');
    expect(await urlBecomes(opened.page, '/traveller-details?x=1')).toBe('/traveller-details?x=1');
    expect(await screenId(opened.page)).toBe('screen-traveller-details');
    await finish(opened);
  });

  test('/compare-quotes without a uuid is sent to /traveller-details', async () => {
    const opened = await openPage(browser());
    await visit(opened.page, '/compare-quotes');
    expect(await urlBecomes(opened.page, '/traveller-details')).toBe('/traveller-details');
    expect(await screenId(opened.page)).toBe('screen-traveller-details');
    await finish(opened);
  });

  test('a deep link with a lead (/compare-quotes?uuid=<lead>&sid=s1) shows Compare quotes with wizard step 2 current, and a refresh keeps it', async () => {
    const opened = await openPage(browser());
    const { page } = opened;
    await visit(page, `/compare-quotes?uuid=${lead()}&sid=s1`);
    expect(pathAndQuery(page)).toBe(`/compare-quotes?uuid=${lead()}&sid=s1`);
    expect(await screenId(page)).toBe('screen-compare-quotes');
    expect(await currentStep(page)).toBe('wizard-step-quotes');
    expect(await page.getByTestId('wizard-step-travel').getAttribute('data-status')).toBe('done');

    await page.reload();
    await waitForApp(page);
    expect(pathAndQuery(page)).toBe(`/compare-quotes?uuid=${lead()}&sid=s1`);
    expect(await screenId(page)).toBe('screen-compare-quotes');
    expect(await currentStep(page)).toBe('wizard-step-quotes');
    await finish(opened);
  });

  test('a deep link to a later step with a uuid (/checkout?uuid=<lead>, a fresh load) opens it; a lead with no plan chosen is then sent to its quotes', async () => {
    const opened = await openPage(browser());
    await opened.page.goto(`/checkout?uuid=${lead()}`);
    // The journey opens checkout (a refused deep link would land on travel details), and checkout,
    // finding no chosen plan, hands over to the lead's quotes.
    await opened.page.waitForURL((url) => url.pathname === '/compare-quotes');
    expect(pathAndQuery(opened.page)).toBe(`/compare-quotes?uuid=${lead()}`);
    await opened.page.getByTestId('screen-compare-quotes').waitFor();
    expect(await currentStep(opened.page)).toBe('wizard-step-quotes');
    await finish(opened);
  });
});

describe('the journey machine guards in-app URL changes', () => {
  test("the header's done step 'Travel details' goes back keeping the query (uuid, sid, x); Back returns to /compare-quotes and Forward to /traveller-details", async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    await visit(page, `/compare-quotes?x=1&uuid=${lead()}&sid=s1`);

    await page.getByTestId('wizard-step-travel').click();
    expect(await urlBecomes(page, `/traveller-details?x=1&uuid=${lead()}&sid=s1`)).toBe(`/traveller-details?x=1&uuid=${lead()}&sid=s1`);
    expect(await screenId(page)).toBe('screen-traveller-details');
    expect(await currentStep(page)).toBe('wizard-step-travel');

    await page.goBack();
    expect(await urlBecomes(page, `/compare-quotes?x=1&uuid=${lead()}&sid=s1`)).toBe(`/compare-quotes?x=1&uuid=${lead()}&sid=s1`);
    await page.getByTestId('screen-compare-quotes').waitFor();
    expect(await currentStep(page)).toBe('wizard-step-quotes');

    await page.goForward();
    expect(await urlBecomes(page, `/traveller-details?x=1&uuid=${lead()}&sid=s1`)).toBe(`/traveller-details?x=1&uuid=${lead()}&sid=s1`);
    await page.getByTestId('screen-traveller-details').waitFor();
    expect(await currentStep(page)).toBe('wizard-step-travel');
    await finish(opened);
  });

  test('header steps only jump back: clicking the upcoming "Compare quotes" step on /traveller-details changes nothing', async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    await visit(page, `/compare-quotes?uuid=${lead()}&sid=s1`);
    await page.getByTestId('wizard-step-travel').click();
    await urlBecomes(page, `/traveller-details?uuid=${lead()}&sid=s1`);

    await page.getByTestId('wizard-step-quotes').click({ force: true });
    await page.waitForTimeout(300);
    expect(pathAndQuery(page)).toBe(`/traveller-details?uuid=${lead()}&sid=s1`);
    expect(await screenId(page)).toBe('screen-traveller-details');
    await finish(opened);
  });

  test('at 375 px the mobile wizard shows "Step 2 of 4" on Compare quotes and its back link returns to Travel details keeping the query', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/compare-quotes?uuid=${lead()}&sid=s1`);
    const mobile = page.getByTestId('wizard-mobile');
    expect(await mobile.locator('[aria-current="step"]').innerText()).toContain(TEXTS.en.stepOfSecond);
    await mobile.getByRole('button', { name: TEXTS.en.steps[0] }).click();
    expect(await urlBecomes(page, `/traveller-details?uuid=${lead()}&sid=s1`)).toBe(`/traveller-details?uuid=${lead()}&sid=s1`);
    expect(await screenId(page)).toBe('screen-traveller-details');
    await finish(opened);
  });

  test('history.pushState to a never-visited /checkout without a uuid, then popstate, is corrected back to /traveller-details', async () => {
    const opened = await openPage(browser());
    const { page } = opened;
    await visit(page, '/traveller-details');
    await page.evaluate(() => {
      history.pushState(null, '', '/checkout');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(await urlBecomes(page, '/traveller-details')).toBe('/traveller-details');
    expect(await screenId(page)).toBe('screen-traveller-details');
    expect(await currentStep(page)).toBe('wizard-step-travel');
    await finish(opened);
  });

  test('history.pushState to a never-visited /checkout keeping the lead, then popstate, is refused too (only visited steps)', async () => {
    const opened = await openPage(browser());
    const { page } = opened;
    await visit(page, `/traveller-details?uuid=${lead()}&sid=s1`);
    await page.evaluate((uuid) => {
      history.pushState(null, '', `/checkout?uuid=${uuid}&sid=s1`);
      dispatchEvent(new PopStateEvent('popstate'));
    }, lead());
    expect(await urlBecomes(page, `/traveller-details?uuid=${lead()}&sid=s1`)).toBe(`/traveller-details?uuid=${lead()}&sid=s1`);
    expect(await screenId(page)).toBe('screen-traveller-details');
    await finish(opened);
  });

  test('every navigation scrolls to top: after scrolling down, clicking the header step leaves window.scrollY at 0', async () => {
    // A short window so the page scrolls at desktop width.
    const opened = await openPage(browser(), { width: DESKTOP.width, height: 500 });
    const { page } = opened;
    await visit(page, `/compare-quotes?uuid=${lead()}&sid=s1`);
    expect(await scrollToBottom(page), 'the page must be scrollable for this test').toBeGreaterThan(100);
    // A DOM click, so the browser does not scroll the step into view first.
    await page.getByTestId('wizard-step-travel').dispatchEvent('click');
    await urlBecomes(page, `/traveller-details?uuid=${lead()}&sid=s1`);
    await page.getByTestId('screen-traveller-details').waitFor();
    await expect.poll(() => scrollY(page)).toBe(0);
    await finish(opened);
  });

  test('a corrected (refused) URL change also leaves the page scrolled to top', async () => {
    const opened = await openPage(browser(), { width: DESKTOP.width, height: 500 });
    const { page } = opened;
    await visit(page, '/traveller-details');
    expect(await scrollToBottom(page), 'the page must be scrollable for this test').toBeGreaterThan(100);
    await page.evaluate(() => {
      history.pushState(null, '', '/review-details');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await urlBecomes(page, '/traveller-details');
    await expect.poll(() => scrollY(page)).toBe(0);
    await finish(opened);
  });
});

describe('start-up query and language', () => {
  test('state=new is removed from the URL and clears the stored uuid, session_id, personal_details, device_uuid and agent_id (language stays)', async () => {
    const opened = await openPage(browser());
    const { page } = opened;
    await visit(page, '/traveller-details');
    await page.evaluate((keys) => {
      for (const key of keys) localStorage.setItem(key, `seed-${key}`);
      localStorage.setItem('language', 'en');
      localStorage.setItem('coupon', 'KEEP');
    }, [...DRAFT_KEYS]);

    await visit(page, '/traveller-details?state=new&x=1');
    expect(await urlBecomes(page, '/traveller-details?x=1')).toBe('/traveller-details?x=1');
    const stored = await readStorage(page, [...DRAFT_KEYS, 'language', 'coupon']);
    expect(stored).toEqual({
      uuid: null,
      session_id: null,
      personal_details: null,
      device_uuid: null,
      agent_id: null,
      language: 'en',
      coupon: 'KEEP',
    });
    await finish(opened);
  });

  test('another state value is removed from the URL but clears nothing', async () => {
    const opened = await openPage(browser());
    const { page } = opened;
    await visit(page, '/traveller-details');
    await page.evaluate((keys) => {
      for (const key of keys) localStorage.setItem(key, `seed-${key}`);
    }, [...DRAFT_KEYS]);

    await visit(page, '/traveller-details?state=old');
    expect(await urlBecomes(page, '/traveller-details')).toBe('/traveller-details');
    const stored = await readStorage(page, DRAFT_KEYS);
    expect(stored).toEqual(Object.fromEntries(DRAFT_KEYS.map((key) => [key, `seed-${key}`])));
    await finish(opened);
  });

  test('lang=ar stores language "ar", and a later visit without lang stays in Arabic', async () => {
    const opened = await openPage(browser());
    const { page } = opened;
    await visit(page, '/traveller-details?lang=ar');
    expect((await readStorage(page, ['language'])).language).toBe('ar');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');

    await visit(page, '/traveller-details');
    expect(await page.locator('html').getAttribute('lang')).toBe('ar');
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect((await page.locator('main h1').innerText()).trim()).toBe(TEXTS.ar.steps[0]);
    await finish(opened);
  });

  test('clicking the language switch shows the switching notice, stores the other language and reloads 1 s later into it (the page\'s clock is Playwright\'s, moved by the test)', async () => {
    const opened = await openPage(browser());
    const { page } = opened;
    await page.clock.install();
    await visit(page, '/traveller-details?x=1');
    expect(await page.locator('html').getAttribute('dir')).toBe('ltr');
    await page.evaluate(() => {
      (window as unknown as { beforeSwitch?: boolean }).beforeSwitch = true;
    });

    await pauseTheClock(page);
    await page.getByTestId('language-switch').click();
    const notice = page.getByRole('status').filter({ hasText: TEXTS.ar.switchingNotice });
    await notice.waitFor({ state: 'visible' });
    expect((await readStorage(page, ['language'])).language).toBe('ar');

    await reloadsAfterTheDelay(page);
    await waitForApp(page);
    expect(await page.evaluate(() => (window as unknown as { beforeSwitch?: boolean }).beforeSwitch)).toBeUndefined();
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    expect(await page.locator('html').getAttribute('lang')).toBe('ar');
    expect((await page.locator('main h1').innerText()).trim()).toBe(TEXTS.ar.steps[0]);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/traveller-details');
    expect(url.searchParams.get('x')).toBe('1');
    await finish(opened);
  });

  test('the switch does not reload before its 1 s: the notice is still shown on the same page, in the old direction, until the clock reaches it', async () => {
    const opened = await openPage(browser());
    const { page } = opened;
    await page.clock.install();
    await visit(page, '/traveller-details?lang=ar');
    await page.evaluate(() => {
      (window as unknown as { beforeSwitch?: boolean }).beforeSwitch = true;
    });
    await pauseTheClock(page);
    await page.getByTestId('language-switch').click();
    await page.getByRole('status').filter({ hasText: TEXTS.en.switchingNotice }).waitFor({ state: 'visible' });
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');

    await reloadsAfterTheDelay(page);
    await page.waitForFunction(() => document.documentElement.dir === 'ltr', undefined);
    await waitForApp(page);
    expect((await page.locator('main h1').innerText()).trim()).toBe(TEXTS.en.steps[0]);
    expect((await readStorage(page, ['language'])).language).toBe('en');
    await finish(opened);
  });
});

/**
 * Stops the page's clock: timers set from now on fire only as the test moves it. It stops a
 * minute ahead of where the page's clock was read, since that clock runs on until the call lands
 * (a moment ahead can already be past on a busy machine, which pauseAt refuses).
 */
async function pauseTheClock(page: Page) {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 60_000);
}

/**
 * With the page's clock paused before the switch was clicked: 1 ms short of the delay, the page
 * has not reloaded (the marker set before the click is still there); at the delay, it reloads.
 * The clock then runs on, so the reloaded app's own timers fire as they would.
 */
async function reloadsAfterTheDelay(page: Page) {
  await page.clock.runFor(LANGUAGE_RELOAD_DELAY_MS - 1);
  expect(await page.evaluate(() => (window as unknown as { beforeSwitch?: boolean }).beforeSwitch), 'reloaded before the delay').toBe(true);
  const reloaded = page.waitForEvent('load');
  // The reload starts inside this call, so its answer may be lost with the page it ran in.
  await page.clock.runFor(1).catch(() => undefined);
  await reloaded;
  await page.clock.resume();
}
