import type { Browser, Locator, Page } from 'playwright-core';
import { todayIso } from '../../src/contract/dates';
import { launchChromium } from '../support/chromium';
import { MOBILE, waitForApp, type Lang } from '../e2e/harness';
import { fields, fillTrip, newTrip, quotesOpened, textIn } from '../e2e/journey-steps';
import { MRS, PLAN, choose, reviewFields } from '../e2e/review-steps';
import { atMost, median, ms, plain } from './figures';
import type { BenchServer } from './bench-server';

/**
 * Issue 19's scripted purchase: one traveller buys Europe Flex in Chromium, from the first page
 * to the policy, through the APS sandbox's card page, with the e2e suite's steps. What is timed
 * is only the customer's waiting: from the click that submits a step until the next screen is
 * usable (its key element shown, no loader left). The script's own typing and choosing is not.
 */

/** The APS sandbox's test card (RULINGS 20). */
const GOOD_CARD = '4005 5500 0000 0001';

/** Steps whose screen shows a loader while it fetches: usable once the app is live and no "...-loading" status is left. */
async function noLoader(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live' && !document.querySelector('[data-testid$="-loading"]'), undefined, { timeout: 30_000 });
}

interface Wait {
  step: string;
  ms: number;
}

/**
 * The scripted purchase `runs` times, and the median of each step's wait and of the totals, as
 * Lighthouse's pages take the median of their runs. Each purchase is a first visit in a browser
 * that is already running, as a customer's is: a new browser context (no cache, no storage, a
 * new renderer) in one browser that has shown a page before, so the browser's own start is not
 * counted as the app's.
 */
export async function measurePurchase(server: BenchServer, runs = 3, lang: Lang = 'en'): Promise<void> {
  const browser = await launchChromium();
  const all: Wait[][] = [];
  try {
    const warm = await browser.newContext();
    await (await warm.newPage()).goto('data:text/html,<p lang="en">Safar</p><p lang="ar">سفر</p>');
    await warm.close();
    for (let run = 0; run < runs; run += 1) all.push(await purchaseOnce(browser, server, lang));
  } finally {
    await browser.close();
  }
  const totals = all.map((waits) => waits.reduce((sum, wait) => sum + wait.ms, 0));
  for (const [index, { step }] of all[0]!.entries()) {
    const each = all.map((waits) => waits[index]!.ms);
    plain(`purchase (${lang}), wait: ${step}`, ms(median(each)), runs > 1 ? `runs: ${each.map(ms).join(', ')}` : undefined);
  }
  atMost(
    `purchase (${lang}), waiting in all, first page to policy`,
    median(totals),
    3000,
    ms,
    runs > 1 ? `median of ${runs} purchases: ${totals.map(ms).join(', ')}` : undefined,
  );
}

/** One purchase in a new context of `browser`: each step's wait, in order. */
async function purchaseOnce(browser: Browser, server: BenchServer, lang: Lang): Promise<Wait[]> {
  const waits: Wait[] = [];
  /**
   * Times `submit` until `ready` resolves. `submit` is a navigation, or a button clicked: the
   * button is first scrolled into view, untimed, as a customer scrolls to it before tapping;
   * otherwise the script's scrolling and Playwright's wait for it to settle (up to 0.15 s) were
   * counted as the app's.
   */
  const waited = async (step: string, submit: (() => Promise<unknown>) | Locator, ready: () => Promise<unknown>) => {
    if (typeof submit !== 'function') await submit.scrollIntoViewIfNeeded();
    const started = performance.now();
    await (typeof submit === 'function' ? submit() : submit.click());
    await ready();
    waits.push({ step, ms: performance.now() - started });
  };
  const context = await browser.newContext({ viewport: MOBILE, baseURL: server.base });
  try {
    const page = await context.newPage();
    const visible = (locator: Locator) => locator.first().waitFor({ state: 'visible', timeout: 30_000 });
    const year = Number(todayIso().slice(0, 4));
    const trip = newTrip({ dobs: [`${year - 36}-04-12`] });

    await waited(
      'first page: travel details form',
      () => page.goto(`/traveller-details?lang=${lang}`),
      async () => {
        await waitForApp(page);
        await visible(fields(page, lang).form);
      },
    );
    await fillTrip(page, lang, trip);

    await waited(
      'proceed → quote list',
      fields(page, lang).proceed,
      async () => {
        await quotesOpened(page);
        await visible(page.getByTestId('buy-now'));
        await noLoader(page);
      },
    );

    const card = page.getByTestId('quote-card').filter({ has: page.getByText(PLAN.provider1000[lang], { exact: true }) });
    const review = reviewFields(page, lang);
    await waited(
      'buy now → traveller review',
      card.getByTestId('buy-now'),
      async () => {
        await page.waitForURL((url) => url.pathname === '/review-details', { timeout: 30_000 });
        // The first traveller's form is open (review-steps' travellerOpened polls with vitest's expect, which needs its runner).
        await visible(review.heading.and(page.getByText(textIn(lang, 'Traveller {number} (you)', { number: 1 }), { exact: true })));
        await noLoader(page);
      },
    );
    await choose(page, review.title, MRS[lang]);
    await review.passport.fill('BN1234567');

    await waited(
      'proceed → checkout',
      review.proceed,
      async () => {
        await page.waitForURL((url) => url.pathname === '/checkout', { timeout: 30_000 });
        await visible(page.getByTestId('price-summary'));
        await noLoader(page);
      },
    );

    await waited(
      'pay → payments page',
      page.getByTestId('checkout-pay'),
      async () => {
        await page.waitForURL((url) => /^\/pay\/[A-Za-z0-9_.-]+$/.test(url.pathname), { timeout: 30_000 });
        await visible(page.locator('form button[type="submit"]'));
      },
    );

    await waited(
      'continue → card page (sandbox gateway)',
      page.locator('form button[type="submit"]').first(),
      async () => {
        await page.waitForURL((url) => url.pathname.startsWith('/sandbox/aps/'), { timeout: 30_000 });
        await visible(page.locator('input[name="card_number"]'));
      },
    );
    await page.locator('input[name="card_number"]').fill(GOOD_CARD);
    await page.locator('input[name="expiry_date"]').fill(`09/${String(Number(todayIso().slice(2, 4)) + 1)}`);
    await page.locator('input[name="card_security_code"]').fill('123');
    await page.locator('input[name="card_holder_name"]').fill('RANIA HADDAD');

    await waited(
      'pay with card → policy shown',
      page.locator('button[name="action"][value="pay"]'),
      async () => {
        await page.waitForURL((url) => url.pathname === '/payment-result', { timeout: 30_000 });
        await visible(page.getByTestId('policy-number'));
        await noLoader(page);
      },
    );
  } finally {
    await context.close();
  }
  return waits;
}
