import type { Page } from 'playwright-core';
import { todayIso } from '../../src/contract/dates';

/**
 * The embedded APS sandbox's card page as a customer fills it (RULINGS 20), and the SPA's
 * /payment-result page it leads back to: one copy for every Chromium file that pays.
 */

/** 09/YY of next year: a future expiry the sandbox accepts. */
export const futureExpiry = () => `09/${String((Number(todayIso().slice(0, 4)) + 1) % 100).padStart(2, '0')}`;

/** Fills the sandbox's card form with `card` (and a future expiry, a CVV, a name) and presses Pay. */
export async function payWithCard(page: Page, card: string): Promise<void> {
  await page.locator('input[name="card_number"]').fill(card);
  await page.locator('input[name="expiry_date"]').fill(futureExpiry());
  await page.locator('input[name="card_security_code"]').fill('123');
  await page.locator('input[name="card_holder_name"]').fill('RANIA HADDAD');
  await page.locator('button[name="action"][value="pay"]').click();
}

/** Waits for the SPA's /payment-result page to show its outcome. */
export async function resultShown(page: Page, outcome: 'paid' | 'failed'): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/payment-result');
  await page.getByTestId(outcome === 'paid' ? 'payment-paid' : 'payment-failed').waitFor();
}
