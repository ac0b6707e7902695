import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { personalDetailsEndpoint } from '../../src/contract/lead.endpoints';
import { signedHeaders } from '../support/signed-request';
import { baseUrl, browserForThisFile, MOBILE, openPage, visit } from './harness';
import { fields, fillTrip, finishAllowing, newTrip, quotesOpened, textIn } from './journey-steps';
import { type } from './keyboard';

/**
 * Issue 8 rows 1 and 2 in Chromium, in English and Arabic: numbers pasted the way people write
 * them (a REAL clipboard paste, Control+V) and digits typed on an Arabic keyboard reach the phone
 * and date fields whole, on travel details and on the call-back form, and the saved lead holds
 * Western digits. (Row 7's links are the travel details screen test's: docs/testing.md.)
 */

const browser = browserForThisFile();

/** The digits of `text` written with Arabic-Indic digits (٠–٩), as an Arabic keyboard types them. */
const arabic = (text: string) => text.replace(/\d/g, (digit) => String.fromCharCode(0x0660 + Number(digit)));

/** Empties the field, puts `text` on the system clipboard and pastes it with Control+V. */
async function pasteInto(page: Page, field: Locator, text: string): Promise<void> {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await field.fill('');
  expect(await field.inputValue()).toBe('');
  await field.click();
  await field.press('Control+V');
}

/** Empties the field and types `text` key by key (Arabic digits go in as typed text). */
async function typeWithKeyboard(page: Page, field: Locator, text: string): Promise<void> {
  await field.click();
  await field.press('Control+A');
  await field.press('Backspace');
  await type(page, text);
}

/** What the API stored for a lead, read back with get-personal-details (signed like the page's calls). */
async function storedLead(uuid: string, sessionId: string | null): Promise<{ phone: unknown; complete: unknown; dob: unknown }> {
  const html = await (await fetch(`${baseUrl()}/traveller-details`)).text();
  const content = /<meta name="safar-config" content="([^"]*)"/.exec(html)?.[1] ?? '';
  const { signingKey } = JSON.parse(content.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as { signingKey: string };
  const text = JSON.stringify({ uuid, session_id: sessionId, lang: 'en' });
  const response = await fetch(`${baseUrl()}${personalDetailsEndpoint.path}`, { method: 'POST', body: text, headers: await signedHeaders(signingKey, text) });
  expect(response.status).toBe(200);
  const body = (await response.json()) as {
    data: { customer: { get_customer: { phone_number: unknown; complete_phone_number: unknown }; lead_details: { travellers_info: { dob: unknown }[] } } };
  };
  const { get_customer: customer, lead_details: lead } = body.data.customer;
  return { phone: customer.phone_number, complete: customer.complete_phone_number, dob: lead.travellers_info[0]?.dob };
}

async function withClipboard() {
  const opened = await openPage(browser(), MOBILE);
  await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
  return opened;
}

describe.each(['en', 'ar'] as const)('typed and pasted numbers in %s at 375 px', (lang) => {
  test('rows 1 and 2: pasted phone numbers keep every digit, Arabic-keyboard digits count, and the lead stores Western digits', async () => {
    const opened = await withClipboard();
    const { page } = opened;
    await visit(page, `/traveller-details?lang=${lang}`);
    const trip = newTrip({ dobs: ['1990-12-25'] });
    await fillTrip(page, lang, trip);
    const f = fields(page, lang);

    // Row 1: the browser's maxlength used to cut the raw text first ("+961 71 123 456" → "96171").
    for (const [pasted, shown] of [
      ['71 123 456', '71123456'],
      ['+961 71 123 456', '71123456'],
      ['(03) 123456', '03123456'],
      ['00961 71-123-456', '71123456'],
    ] as const) {
      await pasteInto(page, f.phone, pasted);
      expect(await f.phone.inputValue(), `pasting ${pasted}`).toBe(shown);
    }
    expect(await f.phone.getAttribute('maxlength')).toBeNull();
    expect(await f.phone.getAttribute('inputmode')).toBe('numeric');

    // Row 2: digits typed on an Arabic keyboard were dropped, and the field then said it was empty.
    await typeWithKeyboard(page, f.phone, '٧١١٢٣٤٥٦');
    expect(await f.phone.inputValue()).toBe('71123456');
    await typeWithKeyboard(page, f.dob(0), '٢٥١٢١٩٩٠');
    expect(await f.dob(0).inputValue()).toBe('25/12/1990');
    await pasteInto(page, f.dob(0), '25-12-1990');
    expect(await f.dob(0).inputValue()).toBe('25/12/1990');

    // This trip's own number (unique per run), pasted in Arabic digits with the code in front.
    await pasteInto(page, f.phone, `+٩٦١ ${arabic(trip.phone.slice(0, 2))} ${arabic(trip.phone.slice(2))}`);
    expect(await f.phone.inputValue()).toBe(trip.phone);
    await f.phone.press('Tab');
    await f.proceed.click();

    const { uuid, sid } = await quotesOpened(page);
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await storedLead(uuid!, sid);
    expect(stored).toEqual({ phone: trip.phone, complete: `+961${trip.phone}`, dob: '1990-12-25' });
    await finishAllowing(opened);
  });

  test('row 1: the call-back form takes the same pasted and Arabic-keyboard numbers', async () => {
    const opened = await withClipboard();
    const { page } = opened;
    await visit(page, `/request-call-back?lang=${lang}`);
    await page.getByTestId('call-back-form').waitFor({ state: 'visible' });
    const phone = page.getByRole('textbox', { name: textIn(lang, 'Phone number'), exact: true });
    for (const [pasted, shown] of [
      ['71 123 456', '71123456'],
      ['+961 71 123 456', '71123456'],
      ['(03) 123456', '03123456'],
    ] as const) {
      await pasteInto(page, phone, pasted);
      expect(await phone.inputValue(), `pasting ${pasted}`).toBe(shown);
    }
    await typeWithKeyboard(page, phone, '٧١١٢٣٤٥٦');
    expect(await phone.inputValue()).toBe('71123456');
    await finishAllowing(opened);
  });
});
