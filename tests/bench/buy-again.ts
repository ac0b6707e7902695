import * as v from 'valibot';
import type { Locator, Page } from 'playwright-core';
import { addDays, todayIso } from '../../src/contract/dates';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { paymentStatusEndpoint } from '../../src/contract/payment.endpoints';
import { compareQuotesEndpoint, proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import { launchChromium } from '../support/chromium';
import { completeTraveller } from '../support/review-cases';
import { MOBILE, waitForApp, type Lang } from '../e2e/harness';
import { fields, textIn, typed } from '../e2e/journey-steps';
import { PLAN, reviewFields } from '../e2e/review-steps';
import { leadBody, LEBANON } from '../integration/lead-fixtures';
import { freshBotToken } from '../integration/order-fixtures';
import { payWithFullCoupon, type Send } from '../integration/server-journey-fixtures';
import { atMost, median, ms, plain } from './figures';
import type { BenchServer } from './bench-server';

/**
 * Issue 37 item 2: "a returning family is at checkout in under 30 seconds of their own time".
 * A family of three bought a Europe Flex policy (set up through the signed API, untimed); then, in
 * Chromium at 375 px, the customer opens the policy page from the e-mail's link and the clock
 * runs: Buy again, the two new dates typed, Proceed, Buy now on the same plan, each of the three
 * travellers confirmed as filled in (the passports carried over), until checkout shows its
 * price. Typing is the e2e suite's key by key, without pauses: a person types slower, so the
 * figure beside it counts what they do (fields typed, taps), and the waiting is shown apart.
 */

async function dataOf<S extends v.GenericSchema<unknown, { data: unknown }>>(res: Response, envelope: S): Promise<v.InferOutput<S>['data']> {
  const json: unknown = await res.json();
  if (res.status !== 200) throw new Error(`${res.url}: ${res.status} ${JSON.stringify(json)}`);
  return v.parse(envelope, json).data;
}

/** A paid family policy (three travellers, FREE100) through the signed API: its policy page's path. */
async function familyPolicy(send: Send, lang: Lang): Promise<string> {
  const day = (offset: number) => addDays(todayIso(), offset);
  const dobs = ['1985-01-10', '1987-02-11', '2015-03-12'];
  const saved = await dataOf(
    await send(
      addCustomerLeadEndpoint.path,
      leadBody({ lang, start_date: day(10), end_date: day(17), no_of_traveller: 3, is_family: true, travellers_info: dobs.map((dob) => ({ dob })) }),
    ),
    addCustomerLeadEndpoint.response,
  );
  const quoted = await dataOf(await send(compareQuotesEndpoint.path, { uuid: saved.uuid, lang }), compareQuotesEndpoint.response);
  const quote = quoted.quotes.find((candidate) => candidate.provider.id === 1000 && candidate.wizard_plan_name === PLAN.provider1000.en);
  if (!quote) throw new Error('no Byblos Global Cover quote for the family');
  await dataOf(await send(proceedReviewEndpoint.path, { uuid: saved.uuid, policy_id: quote.id, addons: [], bot_token: await freshBotToken(send) }), proceedReviewEndpoint.response);
  for (const [index, traveller] of quoted.lead.travellers_info.entries()) {
    const values = completeTraveller(traveller.dob, `FB${String(Date.now() % 1e6).padStart(6, '0')}${index}`, {
      index,
      plan: { providerId: 1000, isApiPlan: quote.is_api_plan, isFamily: true, sourceId: LEBANON },
    });
    await dataOf(
      await send(saveTravellerInfoEndpoint.path, { uuid: saved.uuid, insurance_id: 1000, traveller: { ...values, first_name: ['Rania', 'Karim', 'Lina'][index], relationship_type_id: [null, 1, 3][index], id: traveller.id }, lang }),
      saveTravellerInfoEndpoint.response,
    );
  }
  await payWithFullCoupon(send, saved.uuid, 'FREE100');
  const status = await dataOf(await send(paymentStatusEndpoint.path, { uuid: saved.uuid, merchant_reference: null, language: lang }), paymentStatusEndpoint.response);
  if (!status.policy) throw new Error('the family order has no policy');
  return status.policy.policy_page;
}

async function noLoader(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.app === 'live' && !document.querySelector('[data-testid$="-loading"], [data-testid="lead-status-check"]'), undefined, {
    timeout: 30_000,
  });
}

interface Run {
  totalMs: number;
  waitingMs: number;
  actions: number;
}

async function buyAgainOnce(server: BenchServer, lang: Lang): Promise<Run> {
  const policyPage = await familyPolicy(server.send, lang);
  const browser = await launchChromium();
  let waitingMs = 0;
  let actions = 0;
  const waited = async (submit: Locator, ready: () => Promise<unknown>) => {
    await submit.scrollIntoViewIfNeeded();
    const started = performance.now();
    await submit.click();
    actions += 1;
    await ready();
    waitingMs += performance.now() - started;
  };
  try {
    const context = await browser.newContext({ viewport: MOBILE, baseURL: server.base });
    const page = await context.newPage();
    const visible = (locator: Locator) => locator.first().waitFor({ state: 'visible', timeout: 30_000 });
    const started = performance.now();
    await page.goto(`${policyPage}?lang=${lang}`);
    await waitForApp(page);
    await visible(page.getByTestId('policy-buy-again'));
    waitingMs += performance.now() - started;

    const f = fields(page, lang);
    await waited(page.getByTestId('policy-buy-again'), () => visible(f.form));
    const start = addDays(todayIso(), 45);
    for (const [field, date] of [
      [f.start, start],
      [f.end, addDays(start, 10)],
    ] as const) {
      await field.click();
      await field.pressSequentially(typed(date));
      await field.press('Tab');
      actions += 1;
    }
    await waited(f.proceed, async () => {
      await page.waitForURL((url) => url.pathname === '/compare-quotes', { timeout: 30_000 });
      await visible(page.getByTestId('buy-now'));
      await noLoader(page);
    });
    const card = page.getByTestId('quote-card').filter({ has: page.getByText(PLAN.provider1000[lang], { exact: true }) });
    const review = reviewFields(page, lang);
    await waited(card.getByTestId('buy-now'), async () => {
      await page.waitForURL((url) => url.pathname === '/review-details', { timeout: 30_000 });
      await noLoader(page);
    });
    for (let number = 1; number <= 3; number += 1) {
      const title = textIn(lang, number === 1 ? 'Traveller {number} (you)' : 'Traveller {number}', { number });
      await visible(review.heading.and(page.getByText(title, { exact: true })));
      if (!(await review.passport.inputValue())) throw new Error(`traveller ${number}'s passport did not follow to the review`);
      await waited(review.proceed, async () => {
        if (number === 3) {
          await page.waitForURL((url) => url.pathname === '/checkout', { timeout: 30_000 });
          await visible(page.getByTestId('price-summary'));
          await noLoader(page);
        }
      });
    }
    return { totalMs: performance.now() - started, waitingMs, actions };
  } finally {
    await browser.close();
  }
}

/** `runs` returning families, each from its policy page to checkout: the median total and waiting. */
export async function measureBuyAgain(server: BenchServer, runs = 3, lang: Lang = 'en'): Promise<void> {
  const all: Run[] = [];
  for (let run = 0; run < runs; run += 1) all.push(await buyAgainOnce(server, lang));
  const totals = all.map((run) => run.totalMs);
  plain(`buy again (${lang}), waiting on the app`, ms(median(all.map((run) => run.waitingMs))), `${all[0]!.actions} taps and fields: Buy again, 2 dates, Proceed, Buy now, 3 travellers confirmed`);
  atMost(
    `buy again (${lang}), a family of three from the policy page to checkout`,
    median(totals),
    30_000,
    ms,
    runs > 1 ? `median of ${runs}: ${totals.map(ms).join(', ')}` : undefined,
  );
}
