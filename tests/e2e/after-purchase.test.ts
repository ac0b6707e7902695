import { randomUUID } from 'node:crypto';
import { expect, test, describe } from 'vitest';
import type { Page } from 'playwright-core';
import { couponValidateEndpoint } from '../../src/contract/checkout.endpoints';
import { addDays, todayIso } from '../../src/contract/dates';
import { runBroker } from '../integration/broker-cli-process';
import { decodeCertificateQr } from '../support/pdf-qr';
import { DESKTOP, MOBILE, baseUrl, browserForThisFile, openPage, serverOfThisFile, visit, type Lang } from './harness';
import { axeViolations, emlWhere, fields, finishAllowing, newTrip, screenshotBothWidths, textIn, typeInto, typed } from './journey-steps';
import { PLAN, buyPlanThroughForm, reviewFields, reviewPassportOnly, travellerOpened } from './review-steps';

/**
 * Issue 37's Done-when in Chromium, against a real server of this file's own (its outbox and its
 * broker CLI are read): a traveller pays (FREE100, so no card page), then comes back. The
 * resume dialog lists the paid trip apart and opens its policy page; every journey link to the
 * paid lead, on this device and on a fresh one, and an agent's link, lands there; both
 * certificates download; the certificate's QR code, decoded from the PDF, opens the
 * verification page; "Send it again" puts the mail in the outbox; a cancellation request is
 * listed by `npm run broker -- cancellation-requests`; and "Buy again" reaches checkout with the
 * traveller filled in, the passport carried to the review. In English at 1280 px and Arabic at
 * 375 px. SCREENSHOT_DIR=/some/dir also writes the policy page, the dialog and the verification
 * page at both widths.
 */

const browser = browserForThisFile();
const server = serverOfThisFile();

/** The journey pages a link to a lead may name (RULINGS 28). */
const JOURNEY_PAGES = ['/checkout', '/review-details', '/compare-quotes', '/compare-offers', '/traveller-details'] as const;

async function applyCoupon(page: Page, code: string): Promise<void> {
  const input = page.getByTestId('coupon-input');
  await input.pressSequentially(code);
  const answered = page.waitForResponse((response) => response.url().endsWith(couponValidateEndpoint.path));
  await page.getByTestId('coupon-apply').click();
  expect((await answered).status()).toBe(200);
  await page.getByTestId('coupon-applied').waitFor();
}

/** Waits for the policy page at `path`, and returns its paid line's text (null when it has none). */
async function policyShown(page: Page, path: string): Promise<string | null> {
  await page.waitForURL((url) => url.pathname === path);
  await page.getByTestId('policy-page').waitFor();
  const notice = page.getByTestId('policy-paid-notice');
  return (await notice.count()) > 0 ? notice.innerText() : null;
}

async function pdfAt(page: Page, href: string): Promise<Buffer> {
  const response = await page.context().request.get(new URL(href, baseUrl()).toString());
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  return Buffer.from(await response.body());
}

describe.each([
  ['en', DESKTOP],
  ['ar', MOBILE],
] as const)('after the purchase, in %s', (lang: Lang, viewport) => {
  test('the paid trip leads to its policy from the resume dialog and every journey link; certificates, the QR code, send again, a cancellation request, buy again', async () => {
    const opened = await openPage(browser(), viewport);
    const { page } = opened;
    const trip = newTrip({ dobs: ['1990-04-12'] });
    const passport = lang === 'en' ? 'P7301155' : 'P7301166';

    // Pay: the form, the plan, the traveller, FREE100.
    const uuid = await buyPlanThroughForm(page, lang, trip, PLAN.provider1000);
    await reviewPassportOnly(page, lang, passport);
    await page.getByTestId('price-summary').waitFor();
    await applyCoupon(page, 'FREE100');
    await page.getByTestId('checkout-pay').click();
    await page.waitForURL((url) => url.pathname === '/thank-you-p');
    await page.getByTestId('open-policy-page').click();
    await page.waitForURL((url) => url.pathname.startsWith('/policy/'));
    const policyPath = new URL(page.url()).pathname;
    expect(policyPath).toMatch(/^\/policy\/[0-9a-f]{64}$/);
    expect(await policyShown(page, policyPath)).toBeNull();
    const policyNumber = await page.getByTestId('policy-number').innerText();
    expect(policyNumber).toMatch(/^SFR-\d{2}-[0-9A-Z]{8}$/);
    expect(await page.getByTestId('policy-travellers').innerText()).toContain(`•••••${passport.slice(-3)}`);
    expect(await page.getByTestId('policy-travellers').innerText()).not.toContain(passport);
    expect(await page.getByTestId('policy-assistance-call').getAttribute('href')).toMatch(/^tel:\+961\d+$/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshotBothWidths(page, `policy-page-${lang}`);

    // Open / on the device that paid: the dialog lists the paid trip apart and opens its policy.
    await visit(page, `/?lang=${lang}`);
    await page.getByTestId('recent-leads-dialog').waitFor();
    expect(await page.getByTestId('recent-leads-paid').textContent()).toContain(textIn(lang, 'Policy issued'));
    expect(await page.getByTestId('recent-lead').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshotBothWidths(page, `resume-dialog-paid-${lang}`);
    await page.getByTestId('recent-paid-lead').click();
    expect(await policyShown(page, policyPath)).toBeNull();

    // Every journey link to the paid lead, here and on a fresh device, and an agent's: the policy, saying it is paid.
    const fresh = await openPage(browser(), viewport);
    for (const where of [page, fresh.page]) {
      for (const path of JOURNEY_PAGES) {
        await where.goto(`${path}?uuid=${uuid}&lang=${lang}`);
        expect({ path, notice: await policyShown(where, policyPath) }).toEqual({ path, notice: textIn(lang, 'This trip is paid. Here is its policy.') });
        expect(new URL(where.url()).searchParams.get('uuid')).toBeNull();
      }
    }
    // Reload keeps it; an agent's shared link says the customer paid.
    await fresh.page.reload();
    await policyShown(fresh.page, policyPath);
    await fresh.page.goto(`/checkout?uuid=${uuid}&lang=${lang}&agent_id=101`);
    expect(await policyShown(fresh.page, policyPath)).toBe(textIn(lang, 'The customer has paid for this trip. Here is its policy.'));
    // An unknown lead says so on a used device as on a fresh one, and no session id is added to its link.
    const unknown = randomUUID();
    for (const where of [page, fresh.page]) {
      await where.goto(`/checkout?uuid=${unknown}&lang=${lang}`);
      await where.getByTestId('lead-not-found').waitFor();
      expect(new URL(where.url()).pathname).toBe('/checkout');
      expect(new URL(where.url()).searchParams.get('sid')).toBeNull();
    }
    // The unknown lead's 404s are the browser's own report of what the test asked for.
    await finishAllowing(fresh, [404]);

    // Both certificates; the QR code of each opens the verification page.
    await visit(page, `${policyPath}?lang=${lang}`);
    const english = await pdfAt(page, (await page.getByTestId('certificate-en').getAttribute('href'))!);
    const arabic = await pdfAt(page, (await page.getByTestId('certificate-ar').getAttribute('href'))!);
    expect(arabic.equals(english)).toBe(false);
    const verifyUrl = await decodeCertificateQr(lang === 'en' ? english : arabic);
    expect(verifyUrl).toMatch(/\/verify\/[0-9A-F]{4}-?[0-9A-F]{4}-?[0-9A-F]{4}-?[0-9A-F]{4}/);
    expect(await decodeCertificateQr(lang === 'en' ? arabic : english)).toMatch(/\/verify\//);
    await page.goto(verifyUrl);
    const verification = await page.locator('body').innerText();
    // Not started yet (the trip starts in 10 days), with the first name and last initial only.
    expect(verification).toContain(lang === 'en' && !verifyUrl.includes('lang=ar') ? 'Rania H.' : 'Rania');
    expect(verification).not.toContain(passport);
    expect(verification).not.toContain(trip.email);
    await screenshotBothWidths(page, `verify-page-${lang}`);

    // Send it again: the message says where, and the outbox holds a second mail of this policy.
    await visit(page, `${policyPath}?lang=${lang}`);
    await page.getByTestId('policy-resend').click();
    await expect.poll(() => page.getByTestId('policy-resend-result').innerText().catch(() => '')).toContain('@example.com');
    await expect.poll(() => emlWhere(server.mailOutbox, (eml) => eml.includes(trip.email) && eml.includes(policyNumber)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2);

    // Request a cancellation: the page shows it open, and the broker's list has it.
    await page.getByTestId('policy-cancel-open').click();
    await page.getByRole('radio', { name: textIn(lang, 'My visa was refused') }).check();
    await page.getByTestId('cancel-note').fill('Visa refused on 2 January');
    await page.getByTestId('policy-cancel-submit').click();
    const status = page.getByTestId('policy-cancellation-status');
    await status.waitFor();
    expect(await status.getAttribute('data-status')).toBe('open');
    // The form gave way to the status, and the focus went there.
    await expect.poll(() => status.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    const listed = await runBroker(server.dataDir, ['cancellation-requests']);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(listed.stdout).toContain(policyNumber);
    expect(listed.stdout).toContain('visa_refused');

    // Buy again: travel details with the traveller and contact, new dates only; the passport follows to the review.
    await page.getByTestId('policy-buy-again').click();
    await page.waitForURL((url) => url.pathname === '/traveller-details');
    const f = fields(page, lang);
    await f.form.waitFor({ state: 'visible' });
    expect(await page.getByTestId('recent-leads-dialog').count()).toBe(0);
    expect(await f.name.inputValue()).toBe(trip.name);
    expect(await f.email.inputValue()).toBe(trip.email);
    expect(await f.dob(0).inputValue()).toBe(typed(trip.dobs[0]!));
    expect(await f.start.inputValue()).toBe('');
    const start = addDays(todayIso(), 40);
    await typeInto(f.start, typed(start));
    await typeInto(f.end, typed(addDays(start, 7)));
    await f.proceed.click();
    await page.waitForURL((url) => url.pathname === '/compare-quotes');
    const card = page.getByTestId('quote-card').filter({ has: page.getByText(PLAN.provider1000[lang], { exact: true }) });
    await card.getByTestId('buy-now').click();
    await page.waitForURL((url) => url.pathname === '/review-details');
    await travellerOpened(page, lang, 1);
    const review = reviewFields(page, lang);
    expect(await review.passport.inputValue()).toBe(passport);
    await review.proceed.click();
    await page.waitForURL((url) => url.pathname === '/checkout');
    await page.getByTestId('price-summary').waitFor();
    await finishAllowing(opened, [404]);
  });
});
