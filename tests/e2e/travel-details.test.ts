import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomInt } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { addDays, todayIso } from '../../src/contract/dates';
import { MOBILE, openPage, readStorage, visit, type Lang, type OpenPage, browserForThisFile } from './harness';

/**
 * The travel details step in Chromium against the real server, at phone width, in both
 * languages: entering a trip, coming back to it, a refused e-mail, the chooser of earlier
 * leads, agent links, a prefilled link and accessibility. Fields are found by their labels.
 */

const browser = browserForThisFile();

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** msgid -> msgstr of a Lingui PO catalogue (single-line entries, as Lingui writes them). */
function readCatalog(lang: Lang): Map<string, string> {
  const source = readFileSync(path.join(ROOT, `locales/${lang}/messages.po`), 'utf8');
  const entries = new Map<string, string>();
  for (const match of source.matchAll(/msgid "((?:[^"\\]|\\.)*)"\nmsgstr "((?:[^"\\]|\\.)*)"/g)) {
    entries.set(JSON.parse(`"${match[1]}"`) as string, JSON.parse(`"${match[2]}"`) as string);
  }
  return entries;
}
const ARABIC = readCatalog('ar');

/** The text the page shows for an English message, with {placeholders} filled in. */
function textIn(lang: Lang, msgid: string, values: Record<string, string | number> = {}): string {
  const text = lang === 'en' ? msgid : ARABIC.get(msgid);
  if (!text) throw new Error(`no Arabic for ${JSON.stringify(msgid)}`);
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
}

const COUNTRY = { en: 'France', ar: 'فرنسا' } as const;

/** DD/MM/YYYY, as a traveller types it. */
const typed = (iso: string) => iso.split('-').reverse().join('/');

interface Trip {
  name: string;
  email: string;
  phone: string;
  start: string;
  end: string;
  dobs: [string, string];
}

function newTrip(overrides: Partial<Trip> = {}): Trip {
  const today = todayIso();
  const id = randomInt(1_000_000, 9_999_999);
  return {
    name: 'Rania Haddad',
    email: `traveller.${id}@example.com`,
    phone: `7${id}`,
    start: addDays(today, 10),
    end: addDays(today, 20),
    dobs: ['1990-04-12', '1992-09-30'],
    ...overrides,
  };
}

/** The form's fields in the page's language. */
function fields(page: Page, lang: Lang) {
  // By role and accessible name: a label's text also holds the required field's "*".
  const label = (msgid: string, values?: Record<string, string | number>) =>
    page.getByRole('textbox', { name: textIn(lang, msgid, values), exact: true });
  const combobox = (msgid: string) => page.getByRole('combobox', { name: textIn(lang, msgid), exact: true });
  return {
    form: page.getByTestId('travel-details-form'),
    destinations: combobox('Destinations'),
    phoneCode: combobox('Country code'),
    start: label('Start date'),
    end: label('End date'),
    travellers: label('Number of travellers'),
    addTraveller: page.getByRole('button', { name: textIn(lang, 'Add a traveller') }),
    dob: (index: number) => label(index === 0 ? 'Traveller {number} (you)' : 'Traveller {number}', { number: index + 1 }),
    name: label('Full name'),
    phone: label('Phone number'),
    email: label('Email'),
    proceed: page.getByRole('button', { name: textIn(lang, 'Proceed') }),
  };
}

async function typeInto(field: Locator, text: string): Promise<void> {
  await field.click();
  await field.fill('');
  await field.pressSequentially(text, { delay: 5 });
  await field.press('Tab');
}

async function fillTrip(page: Page, lang: Lang, trip: Trip): Promise<void> {
  const f = fields(page, lang);
  await f.form.waitFor({ state: 'visible', timeout: 15_000 });
  await f.destinations.click();
  await f.destinations.pressSequentially(COUNTRY[lang].slice(0, 3));
  await page.getByRole('option', { name: COUNTRY[lang], exact: true }).click();
  await page.keyboard.press('Escape');
  await typeInto(f.start, typed(trip.start));
  await typeInto(f.end, typed(trip.end));
  await f.addTraveller.click();
  await typeInto(f.dob(0), typed(trip.dobs[0]));
  await typeInto(f.dob(1), typed(trip.dobs[1]));
  await typeInto(f.name, trip.name);
  await typeInto(f.phone, trip.phone);
  await typeInto(f.email, trip.email);
}

/** Waits for /compare-quotes and returns the lead uuid and sid it shows in the address bar. */
async function quotesOpened(page: Page): Promise<{ uuid: string | null; sid: string | null }> {
  await page.waitForURL((url) => url.pathname === '/compare-quotes', { timeout: 15_000 });
  await page.getByTestId('screen-compare-quotes').waitFor();
  const query = new URL(page.url()).searchParams;
  return { uuid: query.get('uuid'), sid: query.get('sid') };
}

/**
 * Closes the context and fails on console or page errors, except the browser's own report of
 * the refusals a test provokes on purpose ("Failed to load resource: … 409").
 */
async function finishAllowing(opened: OpenPage, statuses: number[] = []): Promise<void> {
  await opened.context.close();
  const expected = (problem: string) => statuses.some((status) => problem.includes(`status of ${status}`));
  expect(opened.problems.filter((problem) => !expected(problem))).toEqual([]);
}

/** axe's violations on the page, one readable line per element. */
async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact}): ${violation.help} at ${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1).join(' ')}`,
    ),
  );
}

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
    expect(await f.dob(1).inputValue()).toBe(typed(trip.dobs[1]));
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
    const first = newTrip();
    await visit(page, `/traveller-details?lang=${lang}`);
    await fillTrip(page, lang, first);
    await fields(page, lang).proceed.click();
    await quotesOpened(page);

    const second = newTrip({ email: first.email, name: 'Karim Khoury' });
    await visit(page, `/traveller-details?lang=${lang}&state=new`);
    await fillTrip(page, lang, second);
    const f = fields(page, lang);
    await f.proceed.click();
    const message = page.getByText(textIn(lang, 'Email already taken'), { exact: true });
    await message.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await f.email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await f.email.getAttribute('aria-describedby')) ?? '';
    expect(describedBy.split(' ')).toContain(await message.getAttribute('id'));
    expect(new URL(page.url()).pathname).toBe('/traveller-details');
    expect(await f.name.inputValue()).toBe('Karim Khoury');
    expect(await f.phone.inputValue()).toBe(second.phone);
    expect(await f.email.inputValue()).toBe(first.email);
    expect(await f.start.inputValue()).toBe(typed(second.start));
    expect(await f.dob(1).inputValue()).toBe(typed(second.dobs[1]));
    await finishAllowing(opened, [409]);
  });

  test('with a stored device id the chooser lists the earlier lead, and picking it opens its quotes (stage 1)', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    await fillTrip(page, lang, newTrip());
    await fields(page, lang).proceed.click();
    const { uuid } = await quotesOpened(page);

    await visit(page, `/traveller-details?lang=${lang}`);
    const dialog = page.getByRole('dialog', { name: textIn(lang, 'Select from existing entered data') });
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
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

  test('an unknown agent id shows the agent error; the demo agent 101 shows none', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}&agent_id=99999`);
    const alert = page.getByTestId('agent-error');
    await alert.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.innerText()).toContain(textIn(lang, 'This agent link is not valid. Please check it with your broker.'));

    await visit(page, `/traveller-details?lang=${lang}&agent_id=101`);
    await fields(page, lang).form.waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('agent-error').count()).toBe(0);
    await finishAllowing(opened, [422]);
  });

  test('a link with name, email, pn and country_code prefills the contact details', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}&name=Rania%20Haddad&email=r@x.com&pn=71234567&country_code=961`);
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await f.name.inputValue()).toBe('Rania Haddad');
    expect(await f.email.inputValue()).toBe('r@x.com');
    expect(await f.phone.inputValue()).toBe('71234567');
    // The code is shown left to right in Arabic too, with a direction mark.
    expect((await f.phoneCode.inputValue()).replace(/[\u200e\u200f\u2066-\u2069]/g, '')).toBe('+961');
    await finishAllowing(opened);
  });

  test('axe reports no violations on the form page', async () => {
    const opened = await openPage(browser(), MOBILE);
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    await fields(page, lang).form.waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page)).toEqual([]);
    await finishAllowing(opened);
  });
});
