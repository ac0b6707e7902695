import { readFileSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomInt } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { addDays, todayIso } from '../../src/contract/dates';
import * as v from 'valibot';
import type { Endpoint } from '../../src/contract/endpoint';
import { addCustomerLeadEndpoint, type AddCustomerLeadRequest } from '../../src/contract/lead.endpoints';
import { compareQuotesEndpoint, type Quote } from '../../src/contract/quote.endpoints';
import { FULL_PAGE_SCREENSHOT_STYLE } from '../support/chromium';
import { signedHeaders } from '../support/signed-request';
import { baseUrl, visit, type Lang, type OpenPage } from './harness';

/**
 * Steps of the journey as a person takes them in Chromium, shared by the end-to-end files:
 * texts in the page's language from the catalogues, the travel details form found by its
 * labels, and the checks every page gets (no console errors, axe).
 */

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
export function textIn(lang: Lang, msgid: string, values: Record<string, string | number> = {}): string {
  const text = lang === 'en' ? msgid : ARABIC.get(msgid);
  if (!text) throw new Error(`no Arabic for ${JSON.stringify(msgid)}`);
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
}

export const COUNTRY = { en: 'France', ar: 'فرنسا' } as const;

/** DD/MM/YYYY, as a traveller types it. */
export const typed = (iso: string) => iso.split('-').reverse().join('/');

export interface Trip {
  name: string;
  email: string;
  phone: string;
  start: string;
  end: string;
  /** One date of birth per traveller, the first is the principal's. */
  dobs: string[];
  family?: boolean;
}

export function newTrip(overrides: Partial<Trip> = {}): Trip {
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
export function fields(page: Page, lang: Lang) {
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
    family: page.getByRole('checkbox', { name: textIn(lang, 'We are travelling as a family') }),
    proceed: page.getByRole('button', { name: textIn(lang, 'Proceed') }),
  };
}

export async function typeInto(field: Locator, text: string): Promise<void> {
  await field.click();
  await field.fill('');
  // Key by key, without a pause between keys (keyboard.ts `type` says why).
  await field.pressSequentially(text);
  await field.press('Tab');
}

export async function fillTrip(page: Page, lang: Lang, trip: Trip): Promise<void> {
  const f = fields(page, lang);
  await f.form.waitFor({ state: 'visible' });
  await f.destinations.click();
  await f.destinations.pressSequentially(COUNTRY[lang].slice(0, 3));
  await page.getByRole('option', { name: COUNTRY[lang], exact: true }).click();
  await page.keyboard.press('Escape');
  await typeInto(f.start, typed(trip.start));
  await typeInto(f.end, typed(trip.end));
  for (let added = 1; added < trip.dobs.length; added++) await f.addTraveller.click();
  for (const [index, dob] of trip.dobs.entries()) await typeInto(f.dob(index), typed(dob));
  if (trip.family) await f.family.check();
  await typeInto(f.name, trip.name);
  await typeInto(f.phone, trip.phone);
  await typeInto(f.email, trip.email);
}

/** Waits for /compare-quotes and returns the lead uuid and sid it shows in the address bar. */
export async function quotesOpened(page: Page): Promise<{ uuid: string | null; sid: string | null }> {
  await page.waitForURL((url) => url.pathname === '/compare-quotes');
  await page.getByTestId('screen-compare-quotes').waitFor();
  const query = new URL(page.url()).searchParams;
  return { uuid: query.get('uuid'), sid: query.get('sid') };
}

/**
 * Closes the context and fails on console or page errors, except the browser's own report of
 * the refusals a test provokes on purpose ("Failed to load resource: … 409").
 */
export async function finishAllowing(opened: OpenPage, statuses: number[] = []): Promise<void> {
  await opened.context.close();
  const expected = (problem: string) => statuses.some((status) => problem.includes(`status of ${status}`));
  expect(opened.problems.filter((problem) => !expected(problem))).toEqual([]);
}

/** With SCREENSHOT_DIR set, writes a full-page screenshot `<name>.png` there, for a look by eye; otherwise nothing. */
export async function screenshot(page: Page, name: string, { fullPage = true }: { fullPage?: boolean } = {}): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // The viewport alone where sticky parts matter: a full page draws them where the page was scrolled to.
  await page.screenshot({ path: path.join(dir, `${name}.png`), ...(fullPage ? { fullPage: true, style: FULL_PAGE_SCREENSHOT_STYLE } : {}) });
}

/** With SCREENSHOT_DIR set, screenshots the page at 375 and 1280 px (`<name>-375`, `<name>-1280`), then restores the viewport. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  if (!process.env.SCREENSHOT_DIR) return;
  const viewport = page.viewportSize();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.waitForTimeout(300);
    await screenshot(page, `${name}-${width}`);
  }
  if (viewport) await page.setViewportSize(viewport);
}

/** The .eml files the mail transport wrote to `dir` (the server's outbox), or none yet. */
export function listEml(dir: string): string[] {
  try {
    return readdirSync(dir).filter((file) => file.endsWith('.eml'));
  } catch {
    return [];
  }
}

/**
 * The texts of the .eml files in `dir` (the server's outbox) that `fit`: a test finds its own
 * e-mail by what it holds (its recipient, its policy number), never by how many files there
 * are, since the server may be sending other tests' mail meanwhile.
 */
export function emlWhere(dir: string, fits: (eml: string) => boolean, encoding: BufferEncoding = 'utf8'): string[] {
  return listEml(dir)
    .map((file) => readFileSync(path.join(dir, file), encoding))
    .filter(fits);
}

/**
 * axe's violations on the page, one readable line per element.
 *
 * axe runs in the page itself, with every rule (AxeBuilder's legacy mode: `axe.run`). Its default
 * mode runs `axe.finishRun` in a new blank page, which is a new renderer process: about 1.4
 * core-seconds a call against 0.45 here, on the travel details page (issue 35 item 2). Only the
 * violations carry their elements (`resultTypes`); the passes are not read. What the default mode
 * would check and this does not is a cross-origin frame, and Safar's pages have none: a page that
 * gets one fails here, so that this is looked at again.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  // A frame not yet navigated ('' or about:blank) has its parent's origin; data: and error pages have none.
  const foreign = page.frames().filter((frame) => !['', 'about:blank'].includes(frame.url()) && (!URL.canParse(frame.url()) || new URL(frame.url()).origin !== origin));
  if (foreign.length > 0) throw new Error(`axeViolations does not check cross-origin frames, and this page has ${foreign.map((frame) => frame.url()).join(', ')}`);
  const results = await new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] }).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes.map(
      (node) => `${violation.id} (${violation.impact}): ${violation.help} at ${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1).join(' ')}`,
    ),
  );
}

/** The signing key the server hands the page (RULINGS 23), read as a browser would. */
export async function pageSigningKey(): Promise<string> {
  const html = await (await fetch(`${baseUrl()}/traveller-details`)).text();
  const content = /<meta name="safar-config" content="([^"]*)"/.exec(html)?.[1] ?? '';
  return (JSON.parse(content.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as { signingKey: string }).signingKey;
}

/**
 * Calls an endpoint of the running server as the page would (signed with the page's key) and
 * returns its data: for tests that check what the server holds after the browser's steps.
 */
export async function callApi<TReq extends v.GenericSchema, TData extends v.GenericSchema>(
  endpoint: Endpoint<TReq, TData>,
  body: v.InferInput<TReq>,
): Promise<v.InferOutput<TData>> {
  const text = JSON.stringify(body);
  const response = await fetch(`${baseUrl()}${endpoint.path}`, { method: 'POST', body: text, headers: await signedHeaders(await pageSigningKey(), text) });
  return v.parse(endpoint.response, await response.json()).data as v.InferOutput<TData>;
}

/** The lead a visitor who filled the travel details form with `trip` (in `lang`) would have saved. */
function leadRequestOf(trip: Trip, lang: Lang): AddCustomerLeadRequest {
  return {
    name: trip.name,
    email: trip.email,
    phone_country_code: '+961',
    phone_number: trip.phone,
    inbound_outbound: true,
    trip_type: 1,
    start_date: trip.start,
    end_date: trip.end,
    destination_id: [250],
    source_id: 422,
    no_of_traveller: trip.dobs.length,
    is_family: trip.family ?? false,
    travellers_info: trip.dobs.map((dob) => ({ dob })),
    lang,
  };
}

/**
 * Saves a lead straight through the API, as a visitor who filled the form with `trip` would have
 * (`body` overrides its fields): for tests about pages after travel details that need a real lead
 * but not the form.
 */
export async function saveLeadThroughApi(body: Partial<AddCustomerLeadRequest> = {}, trip: Trip = newTrip({ dobs: ['1990-04-12'] })): Promise<{ uuid: string; sessionId: string; deviceUuid: string }> {
  const data = await callApi(addCustomerLeadEndpoint, { ...leadRequestOf(trip, 'en'), ...body });
  // A new lead always gets its session id; only edits by uuid alone answer null.
  return { uuid: data.uuid, sessionId: data.session_id!, deviceUuid: data.device_uuid };
}

/**
 * The quotes of a new lead for `trip`, saved through the API as the travel details form would
 * have saved it (an agent's lead, with `agent_id` in `query`, the agent's own), then opened in the
 * page: returns the quotes the server answered. For tests about the quotes and the steps after
 * them; the form itself is walked in Chromium by travel-details, the keyboard walks and the
 * model-path sample.
 */
export async function quotesOfNewLead(page: Page, lang: Lang, trip: Trip = newTrip({ dobs: ['1990-04-12'] }), query = ''): Promise<{ uuid: string; quotes: Quote[] }> {
  const agent = new URLSearchParams(query).get('agent_id');
  const { uuid } = await saveLeadThroughApi({ lang, ...(agent ? { agent_id: Number(agent) } : {}) }, trip);
  const answered = page.waitForResponse((response) => response.url().endsWith(compareQuotesEndpoint.path));
  await visit(page, `/compare-quotes?uuid=${uuid}&lang=${lang}${query}`);
  await quotesOpened(page);
  const response = await answered;
  return { uuid, quotes: v.parse(compareQuotesEndpoint.response, await response.json()).data.quotes };
}

/**
 * An earlier lead of this browser: saved through the API as the form would have saved it, and the
 * device id the server gave it put where the form keeps it (localStorage, set before each page of
 * the context loads unless the page has one), so travel details offers the chooser of earlier
 * leads. Returns the lead's uuid.
 */
export async function earlierLeadOfThisBrowser(context: BrowserContext, lang: Lang): Promise<string> {
  const { uuid, deviceUuid: device } = await saveLeadThroughApi({ lang });
  await context.addInitScript((id) => {
    if (localStorage.getItem('device_uuid') === null) localStorage.setItem('device_uuid', id);
  }, device);
  return uuid;
}

/** Opens the compare table with the first three plans of a new lead saved through the API. */
export async function openCompareTable(page: Page, lang: Lang): Promise<void> {
  const { uuid } = await saveLeadThroughApi();
  await visit(page, `/compare-quotes?uuid=${uuid}&lang=${lang}`);
  const boxes = page.getByTestId('compare-checkbox');
  await boxes.first().waitFor({ state: 'visible' });
  for (let index = 0; index < 3; index++) await boxes.nth(index).check();
  await page.getByTestId('compare-open').click();
  await page.waitForURL((url) => url.pathname === '/compare-offers');
  await page.getByTestId('offers-table').waitFor({ state: 'visible' });
}
