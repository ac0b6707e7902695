import { describe, expect, test } from 'vitest';
import { MOBILE, openPage, readStorage, visit, browserForThisFile } from './harness';
import { COUNTRY, axeViolations, fields, fillTrip, finishAllowing, newTrip, quotesOpened, earlierLeadOfThisBrowser, saveLeadThroughApi, textIn, typeInto, typed } from './journey-steps';

/**
 * The travel details step in Chromium against the real server, at phone width, in both
 * languages: entering a trip, coming back to it, a refused e-mail, the chooser of earlier
 * leads and accessibility. (Agent links and prefilled links are the screen test's and the
 * integration tests': docs/testing.md.) Fields are found by their labels.
 */

const browser = browserForThisFile();

describe.each(['en', 'ar'] as const)('travel details in %s at 375 px', (lang) => {
  test('a new trip goes to the quotes with its lead; reopened by uuid it is restored, and saving it again keeps the lead', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    const trip = newTrip();
    await visit(page, `/traveller-details?lang=${lang}`);
    await fillTrip(page, lang, trip);
    await fields(page, lang).proceed.click();

    const first = await quotesOpened(page);
    expect(first.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.sid).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await readStorage(page, ['uuid', 'session_id', 'device_uuid', 'traveller_index']);
    expect(stored).toMatchObject({ uuid: first.uuid, session_id: first.sid, traveller_index: '0' });
    expect(stored.device_uuid).toMatch(/^[0-9a-f-]{36}$/);

    await visit(page, `/traveller-details?lang=${lang}&uuid=${first.uuid}`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });
    expect(await f.name.inputValue()).toBe(trip.name);
    expect(await f.email.inputValue()).toBe(trip.email);
    expect(await f.phone.inputValue()).toBe(trip.phone);
    expect(await f.start.inputValue()).toBe(typed(trip.start));
    expect(await f.end.inputValue()).toBe(typed(trip.end));
    expect(await f.travellers.inputValue()).toBe('2');
    expect(await f.dob(1).inputValue()).toBe(typed(trip.dobs[1]!));
    await expect.poll(() => f.form.getByText(COUNTRY[lang], { exact: true }).count()).toBeGreaterThan(0);

    await typeInto(f.name, 'Rania Haddad Khoury');
    await f.proceed.click();
    const second = await quotesOpened(page);
    expect(second.uuid).toBe(first.uuid);
    await finishAllowing(opened);
  });

  test('an e-mail already used with another phone is refused on the e-mail field, and the other values stay', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    // The earlier lead with this e-mail, saved as the form would have saved it.
    const first = newTrip();
    await saveLeadThroughApi({ lang }, first);

    const second = newTrip({ email: first.email, name: 'Karim Khoury' });
    await visit(page, `/traveller-details?lang=${lang}`);
    await fillTrip(page, lang, second);
    const f = fields(page, lang);
    await f.proceed.click();
    // Row 13(f) of issue 8: the message says how to go on, and a call back is offered beside it.
    const message = page.getByText(
      textIn(lang, 'Email already taken with another phone number. Enter the phone number you used before with this e-mail, or use another e-mail.'),
      { exact: true },
    );
    await message.waitFor({ state: 'visible' });
    expect(await f.email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await f.email.getAttribute('aria-describedby')) ?? '';
    expect(describedBy.split(' ')).toContain(await message.getAttribute('id'));
    expect(new URL(page.url()).pathname).toBe('/traveller-details');
    expect(await f.name.inputValue()).toBe('Karim Khoury');
    expect(await f.phone.inputValue()).toBe(second.phone);
    expect(await f.email.inputValue()).toBe(first.email);
    expect(await f.start.inputValue()).toBe(typed(second.start));
    expect(await f.dob(1).inputValue()).toBe(typed(second.dobs[1]!));
    // The help box is a lazy chunk of its own (issue 38): it shows once that has loaded.
    await page.getByTestId('contact-taken-help').getByRole('button', { name: textIn(lang, 'Call me back') }).waitFor({ state: 'visible' });
    await finishAllowing(opened, [409]);
  });

  test('with a stored device id the chooser lists the earlier lead, and picking it opens its quotes (stage 1)', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    const uuid = await earlierLeadOfThisBrowser(opened.context, lang);

    await visit(page, `/traveller-details?lang=${lang}`);
    const dialog = page.getByRole('dialog', { name: textIn(lang, 'Select from existing entered data') });
    await dialog.waitFor({ state: 'visible' });
    const lead = dialog.getByTestId('recent-lead').first();
    expect(await lead.getAttribute('data-stage')).toBe('1');
    expect(await lead.textContent()).toContain(textIn(lang, 'Continue at: compare quotes'));
    expect(await dialog.getByRole('button', { name: textIn(lang, 'Enter new details'), exact: true }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await lead.click();
    const resumed = await quotesOpened(page);
    expect(resumed.uuid).toBe(uuid);
    expect((await readStorage(page, ['uuid', 'traveller_index'])).traveller_index).toBe('0');
    await finishAllowing(opened);
  });

  test('the start date calendar (a lazy chunk) opens from its button, and picking a day fills the field', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });
    await page.getByRole('button', { name: textIn(lang, '{label}: calendar', { label: textIn(lang, 'Start date') }) }).click();
    const calendar = page.getByRole('dialog', { name: textIn(lang, '{label}: calendar', { label: textIn(lang, 'Start date') }) });
    await calendar.waitFor();
    // Days before today cannot be picked (spec §5); the first enabled day is today or later.
    await calendar.locator('table button:not([disabled]):not([data-outside])').first().click();
    await expect.poll(() => f.start.inputValue()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    await finishAllowing(opened);
  });
});
