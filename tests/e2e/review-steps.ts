import { todayIso } from '../../src/contract/dates';
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { visit, type Lang } from './harness';
import { fields, fillTrip, newTrip, quotesOfNewLead, quotesOpened, textIn, typeInto, type Trip } from './journey-steps';

/**
 * The review step as a person takes it in Chromium: buy a named plan from the quote list, then
 * fill the traveller form found by its labels. Shared by the review and checkout end-to-end files.
 */

/** Plans of the demo catalogue with the spec's special providers (src/server/db/seed-catalogue.ts). */
export const PLAN = {
  provider3: { en: 'Schengen Visa Care', ar: 'رعاية تأشيرة شنغن' },
  provider1000: { en: 'Europe Flex', ar: 'أوروبا المرنة' },
} as const;

export const LEBANON = { en: 'Lebanon', ar: 'لبنان' } as const;
export const SPOUSE = { en: 'Spouse', ar: 'الزوج / الزوجة' } as const;
export const DAUGHTER = { en: 'Daughter', ar: 'ابنة' } as const;
export const MR = { en: 'Mr', ar: 'السيد' } as const;
export const MRS = { en: 'Mrs', ar: 'السيدة' } as const;
export const MASTER = { en: 'Master', ar: 'الطفل' } as const;
export const MALE = { en: 'Male', ar: 'ذكر' } as const;
export const FEMALE = { en: 'Female', ar: 'أنثى' } as const;

/** A family of three (41, 39 and 11 years old) to France, starting in 10 days. */
export function familyTrip() {
  const year = Number(todayIso().slice(0, 4));
  return newTrip({ dobs: [`${year - 41}-01-10`, `${year - 39}-02-11`, `${year - 11}-03-12`], family: true });
}

/**
 * Saves the trip's lead through the API, opens its quotes in `lang` (with `query`, such as
 * `&agent_id=101`), buys the named plan and waits for /review-details. The travel details form
 * itself is walked in Chromium by travel-details, quotes, model-paths and the keyboard walks;
 * the files that start at a plan do not type it again (issue 35 item 2).
 */
export async function buyPlan(page: Page, lang: Lang, trip: Trip, plan: { en: string; ar: string }, query = ''): Promise<string> {
  const { uuid } = await quotesOfNewLead(page, lang, trip, query);
  await buyFromList(page, lang, plan);
  return uuid;
}

/** Enters the trip in the travel details form of the page's own server, then buys the named plan: for a file whose server is its own. */
export async function buyPlanThroughForm(page: Page, lang: Lang, trip: Trip, plan: { en: string; ar: string }): Promise<string> {
  await visit(page, `/traveller-details?lang=${lang}`);
  await fillTrip(page, lang, trip);
  await fields(page, lang).proceed.click();
  const { uuid } = await quotesOpened(page);
  await buyFromList(page, lang, plan);
  return uuid!;
}

async function buyFromList(page: Page, lang: Lang, plan: { en: string; ar: string }): Promise<void> {
  const card = page.getByTestId('quote-card').filter({ has: page.getByText(plan[lang], { exact: true }) });
  await card.getByTestId('buy-now').click();
  await page.waitForURL((url) => url.pathname === '/review-details');
  await page.getByTestId('traveller-form').waitFor();
}

/** The traveller form's fields in the page's language, found by their labels. */
export function reviewFields(page: Page, lang: Lang) {
  const form = page.getByTestId('traveller-form');
  const box = (msgid: string) => form.getByRole('textbox', { name: textIn(lang, msgid), exact: true });
  const combo = (msgid: string) => form.getByRole('combobox', { name: textIn(lang, msgid), exact: true });
  return {
    form,
    title: combo('Title'),
    first: box('First name'),
    middle: box('Middle name (optional)'),
    last: box('Last name'),
    dob: box('Date of birth'),
    gender: combo('Gender'),
    passport: box('Passport number'),
    residence: combo('Country of residence'),
    nationality: combo('Nationality'),
    relationship: combo('Relationship to traveller 1'),
    heading: page.getByTestId('traveller-form-title'),
    previous: page.getByTestId('traveller-previous'),
    proceed: page.getByTestId('traveller-proceed'),
  };
}

/**
 * Picks an option of a select (a searchable one is typed into first), with the select in the
 * middle of the screen, so that its list opens on screen and the click needs no scroll. A click
 * that scrolled the page could take the select off the screen, and Mantine then hides its list
 * (hideDetached) until the select is seen again: on a busy machine the click was aimed while the
 * list was still being placed, scrolled the select away, and waited 30 s for an option the page
 * no longer showed (a fresh clone's run, review.test.ts, 2026-12-04).
 */
export async function choose(page: Page, select: Locator, option: string, search?: string): Promise<void> {
  await select.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await select.click();
  if (search) await select.pressSequentially(search);
  const target = page.getByRole('option', { name: option, exact: true });
  // Playwright's own wait, not expect.poll: the bench's scripted purchase runs these steps outside
  // vitest (tests/bench/purchase-waits.ts), where expect.poll throws.
  await page.waitForFunction(
    (element) => element !== null && element.getBoundingClientRect().top >= 0 && element.getBoundingClientRect().bottom <= window.innerHeight,
    await target.elementHandle(),
  );
  await target.click();
}

/** The error shown under a field, by its message. */
export const errorText = (page: Page, lang: Lang, msgid: string) => page.getByTestId('traveller-form').getByText(textIn(lang, msgid), { exact: true });

/** Waits for the next traveller's form (the saved one closes, the next opens 0.5 s later). */
export async function travellerOpened(page: Page, lang: Lang, number: number): Promise<void> {
  const msgid = number === 1 ? 'Traveller {number} (you)' : 'Traveller {number}';
  await expect.poll(() => page.getByTestId('traveller-form-title').innerText().catch(() => '')).toBe(textIn(lang, msgid, { number }));
}


/** A provider-1000 traveller through review (title and passport only), up to /checkout. */
export async function reviewPassportOnly(page: Page, lang: Lang, passport = 'P0123456'): Promise<void> {
  const f = reviewFields(page, lang);
  await travellerOpened(page, lang, 1);
  await choose(page, f.title, MRS[lang]);
  await typeInto(f.passport, passport);
  await f.proceed.click();
  await page.waitForURL((url) => url.pathname === '/checkout');
}
