import { describe, expect, test } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { addDays, todayIso } from '../../src/contract/dates';
import { DESKTOP, MOBILE, browserForThisFile, describeFocus, openPage, visit, type Lang } from './harness';
import { COUNTRY, axeViolations, fields, finishAllowing, newTrip, textIn, typed } from './journey-steps';
import { MR, MRS, PLAN, reviewFields, travellerOpened } from './review-steps';
import { futureExpiry } from './sandbox-steps';
import { announcements, digits, expectAnnounced, expectFocusKept, expectFocusShown, expectTitled, focusLosses, focusProblem, hasFocus, numbers, press, recordAccessibility, tabTo, type } from './keyboard';

/**
 * The whole purchase with the keyboard alone, in Chromium against the real server (issue 21):
 * in English at 1280 px and in Arabic at 375 px. Only Tab, Shift+Tab, Enter, Space, Escape, the
 * arrows and typing move the page; the only address opened is the first. At every stop the
 * focus passes it must be shown and not hidden (under the sticky header or the compare bar);
 * after a dialog closes the focus must come back; each status change must reach the live region;
 * each page names the tab after its heading. axe runs on every page.
 *
 * The checks of focus, announcements and titles are soft: one run reports every barrier of the
 * journey, not only the first, and the test still fails on any.
 */

const browser = browserForThisFile();

const ITALY = { en: 'Italy', ar: 'إيطاليا' } as const;
/** The sandbox's test card (RULINGS 20). */
const GOOD_CARD = '4005550000000001';

/** The arrow that moves a calendar to the next day: the one pointing the way the page reads. */
const NEXT_DAY = { en: 'ArrowRight', ar: 'ArrowLeft' } as const;

/** Fails (softly) with what axe found on the page. */
async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  expect.soft(await axeViolations(page), `axe on ${where}`).toEqual([]);
}

/** The text of the option a combobox's aria-activedescendant points to, or null. */
function activeOption(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const id = document.activeElement?.getAttribute('aria-activedescendant');
    return id ? (document.getElementById(id)?.textContent?.trim() ?? null) : null;
  });
}

/** Whether the focused combobox's aria-activedescendant, if any, names an element of the page. */
function activeDescendantExists(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const id = document.activeElement?.getAttribute('aria-activedescendant');
    return !id || document.getElementById(id) !== null;
  });
}

/**
 * Picks an option of the focused select with the keyboard: ArrowDown opens the list and moves
 * through it until the option named `option` (any option, when null) is the active one, then
 * Enter takes it. Returns the option's text.
 */
async function chooseOption(page: Page, option: string | null, max = 40): Promise<string> {
  const seen: (string | null)[] = [];
  for (let presses = 0; presses < max; presses++) {
    await page.keyboard.press('ArrowDown');
    const active = await activeOption(page);
    seen.push(active);
    if (active !== null && (option === null || active === option)) {
      await press(page, 'Enter', `choosing "${active}"`);
      return active;
    }
  }
  throw new Error(`ArrowDown never reached the option "${option}"; the options were ${JSON.stringify(seen)} (focus on ${await describeFocus(page)})`);
}

/**
 * Opens the calendar of a date field from its button, moves one day on with the arrow that points
 * the way the page reads, and takes that day. A calendar that does not take the focus is closed
 * again (Escape) and the date typed instead, so the journey goes on.
 */
async function pickNextDayInCalendar(page: Page, lang: Lang, field: Locator): Promise<void> {
  const label = (await field.evaluate((input) => (input as HTMLInputElement).labels?.[0]?.textContent ?? '')).replace(/\s*\*\s*$/, '').trim();
  const button = page.getByRole('button', { name: textIn(lang, '{label}: calendar', { label }), exact: true });
  await tabTo(page, button, { what: `${label}: calendar` });
  await press(page, 'Enter', `opening ${label}'s calendar`);
  const days = page.locator('[role="dialog"] button[data-date]');
  const focusedDay = () => page.evaluate(() => (document.activeElement?.matches('[role="dialog"] button[data-date]') ? document.activeElement.getAttribute('data-date') : null));
  // Waits on the focus itself, up to the hang guard: a count of short sleeps ran out on a busy machine.
  const from = await page
    .waitForFunction(() => (document.activeElement?.matches('[role="dialog"] button[data-date]') ? document.activeElement.getAttribute('data-date') : null))
    .then((day) => day.jsonValue(), () => null);
  expect.soft(from, `Enter on "${label}: calendar" puts the focus on a day of the calendar (${await days.count()} days shown), not on ${await describeFocus(page)}`).not.toBeNull();
  if (from === null) {
    await press(page, 'Escape', `closing ${label}'s calendar`);
    await tabTo(page, field, { backwards: true, what: label });
    await type(page, typed(addDays(todayIso(), 1)));
    return;
  }
  await press(page, NEXT_DAY[lang], `${NEXT_DAY[lang]} in the calendar`);
  expect.soft(await focusedDay(), `${NEXT_DAY[lang]} (towards the reading direction) moves to the next day`).toBe(addDays(from, 1));
  const chosen = (await focusedDay()) ?? from;
  await press(page, 'Enter', 'taking the day');
  await expect.poll(() => field.inputValue(), { message: 'the day taken in the calendar' }).toBe(typed(chosen));
  await expectFocusShown(page, `after ${label}'s calendar closed`);
}

/**
 * Whether an announcement says how many plans are shown: it holds the number, or the heading's
 * words for it (Arabic names one or two plans in words).
 */
/** Arabic counts one plan and two plans in words («خطة واحدة», «خطتان»), not digits. */
const PLANS_IN_WORDS: Record<number, string> = { 1: 'خطة واحدة', 2: 'خطتان' };

function countsPlans(text: string, plans: number, heading: string): boolean {
  const inWords = PLANS_IN_WORDS[plans];
  return numbers(text).includes(String(plans)) || (inWords !== undefined && text.includes(inWords)) || text.includes(heading.trim());
}

/** Selects what the focused field holds and types `text` over it. */
async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await type(page, text);
}

/** How long each of the app's saves takes here: long enough that a control disabled while saving loses the focus for sure. */
const SAVE_DELAY_MS = 600;

/**
 * Makes every POST of the page to the server take SAVE_DELAY_MS longer, as on a slow mobile
 * network: whether the focus survives a save must not depend on how fast the server answers.
 */
async function slowSaves(context: BrowserContext): Promise<void> {
  await context.route('**/miscellaneous/**', async (route) => {
    if (route.request().method() === 'POST') await new Promise((resolve) => setTimeout(resolve, SAVE_DELAY_MS));
    await route.continue();
  });
}

/** Waits until the focus is in `target` (after a page change moved it there). */
async function focusReaches(page: Page, target: Locator, what: string): Promise<void> {
  await expect.poll(() => hasFocus(target), { message: `${what}: focus on ${await describeFocus(page)}` }).toBe(true);
}

test('the checks see a focus without indicator, covered, scrolled away or lost, and every message of the live regions', async () => {
  const opened = await openPage(browser(), DESKTOP, 'full');
  const { page } = opened;
  await recordAccessibility(opened.context);
  await visit(page, '/traveller-details?lang=en');
  const f = fields(page, 'en');
  await f.form.waitFor();
  await tabTo(page, f.name, { what: 'Full name' });
  expect(await focusProblem(page)).toBeNull();

  const hideRings = await page.addStyleTag({ content: '*:focus-visible { outline: none !important; box-shadow: none !important }' });
  expect(await focusProblem(page)).toMatch(/^no focus indicator/);
  await hideRings.evaluate((style) => (style as Element).remove());
  expect(await focusProblem(page)).toBeNull();

  await page.evaluate(() => {
    const box = document.activeElement!.getBoundingClientRect();
    const cover = document.createElement('div');
    cover.id = 'cover';
    Object.assign(cover.style, { position: 'fixed', left: `${box.left - 5}px`, top: `${box.top - 5}px`, width: `${box.width + 10}px`, height: `${box.height + 10}px`, zIndex: '9999', background: 'white' });
    document.body.append(cover);
  });
  expect(await focusProblem(page)).toMatch(/^obscured/);
  await page.evaluate(() => document.getElementById('cover')!.remove());

  await page.evaluate(() => {
    document.body.style.paddingBlockEnd = '3000px';
    window.scrollBy(0, 2000);
  });
  expect(await focusProblem(page)).toMatch(/^outside the viewport/);

  // A focused button disabled under the focus loses it.
  await tabTo(page, f.proceed, { what: 'Proceed' });
  const lost = (await focusLosses(page)).length;
  await f.proceed.evaluate((button) => ((button as HTMLButtonElement).disabled = true));
  await expect.poll(async () => (await focusLosses(page)).length).toBe(lost + 1);
  expect(await focusProblem(page)).toMatch(/lost/);

  // The same words written twice are two announcements; the urgent region is told apart.
  const said = (await announcements(page)).length;
  await page.evaluate(async () => {
    const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
    const polite = document.querySelector('[data-testid="announcer"]')!;
    for (const text of ['Saved', '', 'Saved']) {
      polite.textContent = text;
      await pause();
    }
    document.querySelector('[data-testid="announcer-urgent"]')!.textContent = 'Refused';
  });
  await expect.poll(async () => (await announcements(page)).slice(said)).toEqual([
    { text: 'Saved', urgent: false },
    { text: 'Saved', urgent: false },
    { text: 'Refused', urgent: true },
  ]);
  await opened.context.close();
});

describe.each([
  { lang: 'en', viewport: DESKTOP },
  { lang: 'ar', viewport: MOBILE },
] as const)('the keyboard-only purchase in $lang at $viewport.width px', ({ lang, viewport }: { lang: Lang; viewport: { width: number; height: number } }) => {
  test('travel details → quotes (sort, filter, an add-on, compare two) → compare table → review of two travellers with the DOB dialog → checkout with coupons → payments page → sandbox card → the policy: focus always shown, dialogs give focus back, every change announced, every page titled', async () => {
    const opened = await openPage(browser(), viewport, 'full');
    const { page, context } = opened;
    await recordAccessibility(context);
    await slowSaves(context);
    const trip = newTrip();
    const f = fields(page, lang);

    // ── Travel details ──────────────────────────────────────────────────────────────────────
    await visit(page, `/traveller-details?lang=${lang}`);
    await f.form.waitFor({ state: 'visible' });
    await expectTitled(page, lang, 'travel details');
    await expectNoAxeViolations(page, 'travel details');

    // The first Tab reaches the skip link; from there the form, stop by stop.
    await press(page, 'Tab', 'the first Tab');
    await tabTo(page, f.destinations, { what: 'Destinations' });
    expect.soft(await f.destinations.evaluate((input) => (input as HTMLInputElement).required || input.getAttribute('aria-required') === 'true'), 'Destinations is exposed as required').toBe(true);
    for (const country of [COUNTRY[lang], ITALY[lang]]) {
      await type(page, country.slice(0, 4));
      await expect.poll(() => page.getByRole('option', { name: country, exact: true }).isVisible()).toBe(true);
      await chooseOption(page, country, 10);
      expect.soft(await activeDescendantExists(page), `after choosing ${country}, aria-activedescendant names an element of the page`).toBe(true);
    }
    await press(page, 'Escape', 'closing the destinations list');
    const pills = f.form.locator('.mantine-Pill-root');
    await expect.poll(() => pills.count()).toBe(2);
    // A chosen country that is not the last can be removed: its pill's button is a Tab stop named after it.
    const removeItaly = f.form.getByRole('button', { name: new RegExp(ITALY[lang]) });
    const italyRemoved = await tabTo(page, removeItaly, { backwards: true, max: 4, what: `the remove button of ${ITALY[lang]}'s pill` }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect.soft(italyRemoved, `${ITALY[lang]}, not the last country chosen, can be removed with the keyboard`).toBeNull();
    if (italyRemoved === null) {
      await press(page, 'Enter', `removing ${ITALY[lang]}`);
      await pills.filter({ hasText: ITALY[lang] }).waitFor({ state: 'detached' });
    } else {
      // Back to the field, to go on.
      await tabTo(page, f.destinations, { what: 'Destinations' });
    }

    // The start date from its calendar: opened by Enter, the arrow pointing the way the page
    // reads moves to the next day, Enter takes it and the focus comes back from the calendar.
    await pickNextDayInCalendar(page, lang, f.start);
    await tabTo(page, f.end, { what: 'End date' });
    await type(page, typed(trip.end));

    await tabTo(page, f.addTraveller, { what: 'Add a traveller' });
    await expectAnnounced(page, 'a traveller added', () => press(page, 'Enter', 'adding a traveller'));
    expect(await f.travellers.inputValue()).toBe('2');
    for (const [index, dob] of trip.dobs.entries()) {
      await tabTo(page, f.dob(index), { what: `traveller ${index + 1}'s date of birth` });
      await type(page, typed(dob));
    }
    await tabTo(page, f.name, { what: 'Full name' });
    await type(page, trip.name);
    await tabTo(page, f.phone, { what: 'Phone number' });
    await type(page, trip.phone);
    await tabTo(page, f.email, { what: 'Email' });
    await type(page, trip.email);
    // Back up the form with Shift+Tab: no stop may slip under the sticky header.
    await tabTo(page, f.destinations, { backwards: true, what: 'Destinations, backwards' });
    await tabTo(page, f.proceed, { what: 'Proceed' });
    // The focus stays on Proceed while the details are saved, then moves to the quotes' heading.
    await expectFocusKept(page, 'Proceed on travel details', async () => {
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/compare-quotes');
      await focusReaches(page, page.locator('main h1'), 'the quotes put the focus on their heading');
    });

    // ── Quotes ──────────────────────────────────────────────────────────────────────────────
    const cards = page.getByTestId('quote-card');
    await page.locator('[data-testid="quote-list"][aria-busy="false"]').waitFor();
    const allPlans = await cards.count();
    expect(allPlans).toBeGreaterThan(2);
    await expectTitled(page, lang, 'quotes');
    await expectNoAxeViolations(page, 'quotes');

    // Sort by medical limit.
    const sort = page.getByRole('combobox', { name: textIn(lang, 'Sort by') });
    await tabTo(page, sort, { what: 'Sort by' });
    await expectAnnounced(page, 'a sort change', async () => void (await chooseOption(page, textIn(lang, 'Medical limit: high to low'))));

    // Filter by one insurer, then clear the filter (Backspace): each says how many plans are shown.
    const count = page.getByTestId('quotes-count');
    const unfilteredHeading = await count.innerText();
    const insurers = page.getByRole('combobox', { name: textIn(lang, 'Insurers') });
    await tabTo(page, insurers, { what: 'Insurers' });
    const filtered = await expectAnnounced(page, 'a filter', async () => void (await chooseOption(page, null)));
    const shown = await cards.count();
    expect(shown).toBeLessThan(allPlans);
    const filteredHeading = await count.innerText();
    expect.soft(filteredHeading, 'after a filter, the heading no longer counts every plan').not.toBe(unfilteredHeading);
    // A heading that counts in digits counts the plans shown (Arabic may count one or two in words).
    expect.soft(numbers(filteredHeading)[0] ?? String(shown), `after a filter, the heading "${filteredHeading}" counts the ${shown} plans shown`).toBe(String(shown));
    expect.soft(countsPlans(filtered.text, shown, filteredHeading), `the filter announcement "${filtered.text}" says how many plans are shown`).toBe(true);
    await press(page, 'Escape', 'closing the insurers list');
    const unfiltered = await expectAnnounced(page, 'clearing the filter', () => press(page, 'Backspace', 'removing the insurer'));
    await expect.poll(() => cards.count()).toBe(allPlans);
    await expect.poll(() => count.innerText()).toBe(unfilteredHeading);
    expect.soft(countsPlans(unfiltered.text, allPlans, unfilteredHeading), `the announcement after clearing the filter "${unfiltered.text}" says how many plans are shown`).toBe(true);

    // Europe Flex and one other plan: an add-on on Europe Flex changes its price, both go to compare.
    const flex = cards.filter({ has: page.getByText(PLAN.provider1000[lang], { exact: true }) }).first();
    const other = cards.filter({ hasNot: page.getByText(PLAN.provider1000[lang], { exact: true }) }).first();
    const flexName = PLAN.provider1000[lang];
    const otherName = (await other.getByRole('heading').first().innerText()).trim();
    const addon = flex.locator('[data-testid="addon-checkbox"]:not([disabled])').first();
    await tabTo(page, addon, { max: 80, what: `an add-on of ${flexName}` });
    const priceBefore = await flex.getByTestId('quote-total').innerText();
    const priced = await expectAnnounced(page, 'an add-on changing the price', () => press(page, 'Space', 'ticking the add-on'));
    await expect.poll(() => flex.getByTestId('quote-total').innerText()).not.toBe(priceBefore);
    const flexTotal = await flex.getByTestId('quote-total').innerText();
    expect.soft(numbers(priced.text), `the add-on's announcement "${priced.text}" says the new price`).toContain(digits(flexTotal));

    // Compare is offered at every width (issue 21: at 200 % zoom a desktop is this narrow).
    const compareOffered = await flex.getByTestId('compare-checkbox').isVisible();
    expect.soft(compareOffered, `"Add to compare" is offered at ${viewport.width} px`).toBe(true);
    const chosen = compareOffered ? await compareTwoAndChoose(page, lang, [flex, flexName], [other, otherName]) : flex.getByTestId('buy-now');
    await tabTo(page, chosen, { backwards: await isBehind(chosen), max: 80, what: `Buy ${flexName}` });
    const r = reviewFields(page, lang);
    await expectFocusKept(page, `Buy ${flexName}`, async () => {
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => url.pathname === '/review-details');
      await travellerOpened(page, lang, 1);
    });

    // ── Review: traveller 1 types a date of birth other than the quoted one ─────────────────
    await expectTitled(page, lang, 'review');
    await expectNoAxeViolations(page, 'review');
    await tabTo(page, r.title, { what: 'Title' });
    await chooseOption(page, MRS[lang]);
    await tabTo(page, r.dob, { what: 'Date of birth' });
    await retype(page, typed(addDays(trip.dobs[0]!, -365)));
    await tabTo(page, r.passport, { what: 'Passport number' });
    await type(page, lang === 'en' ? 'KB1234567' : 'KA1234567');
    await tabTo(page, r.proceed, { what: 'Proceed' });
    const dobDialog = page.getByTestId('dob-error-dialog');
    await expectFocusKept(page, 'Proceed until the DOB dialog opens', async () => {
      await page.keyboard.press('Enter');
      await dobDialog.waitFor();
      await focusReaches(page, dobDialog, 'the DOB dialog takes the focus');
    });
    await expectFocusShown(page, 'in the DOB dialog');
    await expectNoAxeViolations(page, 'the DOB dialog');
    await page.keyboard.press('Escape');
    await dobDialog.waitFor({ state: 'hidden' });
    await expectFocusShown(page, 'after the DOB dialog closed with Escape');
    expect.soft(await hasFocus(r.form), `the focus comes back to the traveller form, not ${await describeFocus(page)}`).toBe(true);
    // The quoted date again; Shift+Tab from wherever the focus came back to.
    if (!(await hasFocus(r.dob))) await tabTo(page, r.dob, { backwards: await isBehind(r.dob), max: 60, what: 'Date of birth again' });
    await retype(page, typed(trip.dobs[0]!));
    await tabTo(page, r.proceed, { what: 'Proceed' });
    await expectFocusKept(page, 'saving traveller 1 until traveller 2 opens', () =>
      expectAnnounced(page, 'traveller 1 saved', async () => {
        await page.keyboard.press('Enter');
        await travellerOpened(page, lang, 2);
      }).then(() => undefined),
    );
    // The new form's title takes the focus as it opens; the walk goes on from there, not from
    // the "saved" notice it passes through (keys pressed before would land on the notice).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { message: "traveller 2's form title has the focus" }).toBe('traveller-form-title');

    // ── Review: traveller 2 ─────────────────────────────────────────────────────────────────
    await tabTo(page, r.title, { backwards: await isBehind(r.title), what: 'Title of traveller 2' });
    await chooseOption(page, MR[lang]);
    await tabTo(page, r.first, { what: 'First name' });
    await type(page, 'Karim');
    await tabTo(page, r.last, { what: 'Last name' });
    await type(page, 'Haddad');
    await tabTo(page, r.passport, { what: 'Passport number' });
    await type(page, lang === 'en' ? 'KB7654321' : 'KA7654321');
    // Back up the form with Shift+Tab: no stop may slip under the sticky header.
    await tabTo(page, r.title, { backwards: true, what: 'Title, backwards' });
    await tabTo(page, r.proceed, { what: 'Proceed' });
    const total = page.getByTestId('price-total');
    await expectFocusKept(page, 'saving traveller 2 until checkout opens', () =>
      expectAnnounced(page, 'traveller 2 saved', async () => {
        await page.keyboard.press('Enter');
        // If the form stays, the harness says why (its messages, a dialog, the focus: describeScreen).
        await page.waitForURL((url) => url.pathname === '/checkout');
        await page.getByTestId('price-summary').waitFor();
      }).then(() => undefined),
    );

    // ── Checkout: a refused coupon, SAFAR10, Remove, SAFAR10 again ──────────────────────────
    await expectTitled(page, lang, 'checkout');
    await expectNoAxeViolations(page, 'checkout');
    const full = await total.innerText();
    const couponInput = page.getByTestId('coupon-input');
    const apply = page.getByTestId('coupon-apply');
    await tabTo(page, couponInput, { what: 'Coupon code' });
    await type(page, 'NOSUCH1');
    await tabTo(page, apply, { what: 'Apply' });
    const refusal = page.getByTestId('coupon-box').locator('[id$="-error"]');
    let refused = { text: '' };
    await expectFocusKept(page, 'Apply with an unknown code', async () => {
      refused = await expectAnnounced(page, 'a refused coupon', async () => {
        await page.keyboard.press('Enter');
        await refusal.waitFor();
      });
    });
    await expectFocusShown(page, 'after the refused coupon');
    expect.soft(refused.text, 'the refusal announced is the one shown').toContain((await refusal.innerText()).trim());

    await tabTo(page, couponInput, { backwards: true, what: 'Coupon code again' });
    await retype(page, 'SAFAR10');
    await tabTo(page, apply, { what: 'Apply' });
    let applied = { text: '' };
    await expectFocusKept(page, 'Apply SAFAR10', async () => {
      applied = await expectAnnounced(page, 'a coupon applied', async () => {
        await page.keyboard.press('Enter');
        await page.getByTestId('coupon-applied').waitFor();
        await expect.poll(() => total.innerText()).not.toBe(full);
      });
    });
    const discounted = await total.innerText();
    await expectFocusShown(page, 'after the coupon was applied');
    expect.soft(numbers(applied.text), `the applied coupon's announcement "${applied.text}" says the new total`).toContain(digits(discounted));

    const remove = page.getByTestId('coupon-remove');
    await tabTo(page, remove, { backwards: await isBehind(remove), what: 'Remove' });
    let removed = { text: '' };
    await expectFocusKept(page, 'Remove the coupon', async () => {
      removed = await expectAnnounced(page, 'a coupon removed', async () => {
        await page.keyboard.press('Enter');
        await expect.poll(() => total.innerText()).toBe(full);
      });
    });
    await expectFocusShown(page, 'after the coupon was removed');
    expect.soft(numbers(removed.text), `the removed coupon's announcement "${removed.text}" says the total`).toContain(digits(full));

    await tabTo(page, couponInput, { backwards: await isBehind(couponInput), what: 'Coupon code, third time' });
    await retype(page, 'SAFAR10');
    await expectAnnounced(page, 'the coupon applied again', () => press(page, 'Enter', 'Enter in the coupon box'));
    await expect.poll(() => total.innerText()).toBe(discounted);

    const pay = page.getByTestId('checkout-pay');
    await tabTo(page, pay, { what: 'Proceed to payment' });
    await page.keyboard.press('Enter');

    // ── The payments page and the sandbox gateway (the server's pages) ──────────────────────
    await page.waitForURL((url) => /^\/pay\/[A-Za-z0-9_.-]+$/.test(url.pathname));
    await expectServerPageTitled(page, 'the payments page');
    await expectNoAxeViolations(page, 'the payments page');
    await tabTo(page, page.locator('form button[type="submit"]').first(), { what: 'Pay on the payments page' });
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.startsWith('/sandbox/aps/'));
    await page.locator('input[name="card_number"]').waitFor();
    await expectServerPageTitled(page, 'the sandbox card page');
    await expectNoAxeViolations(page, 'the sandbox card page');
    for (const [name, value] of [
      ['card_number', GOOD_CARD],
      ['expiry_date', futureExpiry()],
      ['card_security_code', '123'],
      ['card_holder_name', 'RANIA HADDAD'],
    ] as const) {
      await tabTo(page, page.locator(`input[name="${name}"]`), { what: name });
      await type(page, value);
    }
    await tabTo(page, page.locator('button[name="action"][value="pay"]'), { what: 'Pay on the card page' });
    await page.keyboard.press('Enter');

    // ── The policy ──────────────────────────────────────────────────────────────────────────
    await page.waitForURL((url) => url.pathname === '/payment-result');
    await page.getByTestId('payment-paid').waitFor();
    const outcome = await expectTitled(page, lang, 'the payment result');
    expect(outcome, 'the result names its outcome').toBe(textIn(lang, 'Your policy is ready'));
    await expectNoAxeViolations(page, 'the payment result');
    await tabTo(page, page.getByTestId('certificate-download'), { what: 'the certificate' });

    // The unknown coupon's refusal (422) is the browser's console error provoked on purpose.
    await finishAllowing(opened, [422]);
  });
});

/**
 * Adds two plans to compare from their cards, opens the compare table and returns the first
 * plan's button there, to buy it with.
 */
async function compareTwoAndChoose(page: Page, lang: Lang, ...plans: [Locator, string][]): Promise<Locator> {
  for (const [card, name] of plans) {
    const compare = card.getByTestId('compare-checkbox');
    // Tabbing down the list with the compare bar shown: no stop may hide under it.
    await tabTo(page, compare, { max: 80, backwards: await isBehind(compare), what: `${name}'s Add to compare` });
    const added = await expectAnnounced(page, `${name} added to compare`, () => press(page, 'Space', `adding ${name} to compare`));
    expect.soft(added.text, 'the compare announcement names the plan').toContain(name);
  }
  const openCompare = page.getByTestId('compare-open');
  await tabTo(page, openCompare, { max: 120, what: 'Compare' });
  await expectFocusKept(page, 'Compare', async () => {
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/compare-offers');
    await focusReaches(page, page.locator('main h1'), 'the compare table puts the focus on its heading');
  });
  await page.getByTestId('offers-table').waitFor({ state: 'visible' });
  await expectTitled(page, lang, 'the compare table');
  await expectNoAxeViolations(page, 'the compare table');
  return page.getByTestId('offers-plan').filter({ hasText: plans[0]![1] }).getByTestId('offers-proceed');
}

/** Whether `target` comes before the focused element in the document (so Shift+Tab, not Tab, goes there). */
function isBehind(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const focused = document.activeElement;
    if (!focused || focused === document.body) return false;
    return (focused.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
  });
}

/** A server page's tab title begins with its heading. */
async function expectServerPageTitled(page: Page, where: string): Promise<void> {
  const heading = (await page.locator('h1').first().innerText()).trim();
  expect.soft(await page.title(), `${where}: the tab's title begins with its heading`).toMatch(new RegExp(`^${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
}
