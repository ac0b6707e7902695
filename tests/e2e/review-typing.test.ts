import { describe, expect, test } from 'vitest';
import { DESKTOP, MOBILE, browserForThisFile, finish, openPage } from './harness';
import { newTrip, screenshotBothWidths, typeInto } from './journey-steps';
import { MR, MRS, PLAN, buyPlan, choose, errorText, reviewFields, travellerOpened } from './review-steps';

/**
 * Issue 17 in Chromium, with a real pointer: one press of Proceed checks the whole traveller form
 * (the blur of the field being typed in no longer moves the button from under the pointer), and
 * what was typed into a traveller's form survives Previous and a language switch.
 */

const browser = browserForThisFile();

describe.each(['en', 'ar'] as const)('review form in %s', (lang) => {
  test('one click on Proceed after clearing the first name shows every error and focuses the first invalid field', async () => {
    const opened = await openPage(browser(), lang === 'en' ? DESKTOP : MOBILE);
    const { page } = opened;
    await buyPlan(page, lang, newTrip({ dobs: ['1988-06-15'] }), PLAN.provider1000);
    const f = reviewFields(page, lang);
    await travellerOpened(page, lang, 1);
    // Clear the first name and leave the cursor in it, as a person does before reaching for Proceed.
    await f.first.click();
    await f.first.fill('');
    await f.proceed.click();

    for (const message of ['Please select type', 'Please enter your first name, last name or full name', 'Please enter passport number']) {
      await expect.poll(() => errorText(page, lang, message).isVisible()).toBe(true);
    }
    await expect.poll(() => f.title.evaluate((element) => element === document.activeElement)).toBe(true);
    await screenshotBothWidths(page, `review-one-click-${lang}`);

    // A symbol in the passport stays where it was typed, and the field says why it is refused.
    await typeInto(f.passport, 'ab#123');
    expect(await f.passport.inputValue()).toBe('AB#123');
    await expect.poll(() => errorText(page, lang, 'Only characters a-z and 0-9 are allowed').isVisible()).toBe(true);
    await screenshotBothWidths(page, `review-passport-symbol-${lang}`);
    await finish(opened);
  });
});

describe('review typing', () => {
  test("traveller 2's typing survives Previous then Proceed, and a language switch", async () => {
    const opened = await openPage(browser(), DESKTOP);
    const { page } = opened;
    await buyPlan(page, 'en', newTrip({ dobs: ['1988-06-15', '1990-02-03'] }), PLAN.provider1000);
    const f = reviewFields(page, 'en');
    await travellerOpened(page, 'en', 1);
    await choose(page, f.title, MRS.en);
    await typeInto(f.passport, 'P0123456');
    await f.proceed.click();

    await travellerOpened(page, 'en', 2);
    await choose(page, f.title, MR.en);
    await typeInto(f.first, 'Karim');
    await typeInto(f.last, 'Haddad');
    await typeInto(f.passport, 'LR7654321');
    await f.previous.click();
    await travellerOpened(page, 'en', 1);
    await f.proceed.click();
    await travellerOpened(page, 'en', 2);
    expect(await Promise.all([f.title.inputValue(), f.first.inputValue(), f.last.inputValue(), f.passport.inputValue()])).toEqual([
      MR.en,
      'Karim',
      'Haddad',
      'LR7654321',
    ]);

    await typeInto(f.middle, 'Sami');
    const reloaded = page.waitForEvent('load');
    await page.getByTestId('language-switch').click();
    await reloaded;
    await page.locator('html[lang="ar"]').waitFor({ state: 'attached' });
    const g = reviewFields(page, 'ar');
    await travellerOpened(page, 'ar', 2);
    expect(await Promise.all([g.title.inputValue(), g.first.inputValue(), g.middle.inputValue(), g.last.inputValue(), g.passport.inputValue()])).toEqual([
      MR.ar,
      'Karim',
      'Sami',
      'Haddad',
      'LR7654321',
    ]);
    await finish(opened);
  });
});
