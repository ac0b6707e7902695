import * as v from 'valibot';
import { expect } from 'vitest';
import { couponValidateEndpoint, tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { todayIso } from '../../src/contract/dates';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { compareQuotesEndpoint, proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import { completeTraveller } from '../support/review-cases';
import { signedHeaders } from '../support/signed-request';
import { leadBody, LEBANON } from './lead-fixtures';
import { freshBotToken } from './order-fixtures';

/**
 * Journeys through the signed API of a server running as a process (tests/support/server-process.ts):
 * only HTTP, no access to its database (a live server holds the embedded one), at the real clock.
 */

/** A signed POST to the server at `base`, answering the raw Response. */
export type Send = (path: string, body?: unknown) => Promise<Response>;

export function signedSender(base: string, secret: string): Send {
  return async (path, body) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    return fetch(`${base}${path}`, { method: 'POST', body: text || undefined, headers: await signedHeaders(secret, text) });
  };
}

/** The envelope's data, after checking the status (the body rides along so a failure shows it). */
async function dataOf<S extends v.GenericSchema<unknown, { data: unknown }>>(res: Response, envelope: S): Promise<v.InferOutput<S>['data']> {
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(envelope, json).data;
}

let passports = 0;

/**
 * A lead of one adult taken to checkout the way the SPA does it: add-customer-lead for a trip in
 * ten days, compare-quotes, proceed-review on the first quote (a solved bot challenge), then
 * save-traveller-info. Answers the lead's uuid, at stage 3. `lang` is the language the customer
 * uses, `agentId` makes it an agent's lead, and `providerId` buys that insurer's first plan
 * instead of the first quote.
 */
export async function leadAtCheckoutOverHttp(send: Send, options: { lang?: 'en' | 'ar'; agentId?: number; providerId?: number } = {}): Promise<string> {
  const { lang = 'en', agentId, providerId } = options;
  const day = (offset: number) => todayIso(Date.now() + offset * 86_400_000);
  const dob = '1990-05-20';
  const saved = await dataOf(
    await send(addCustomerLeadEndpoint.path, leadBody({ start_date: day(10), end_date: day(19), travellers_info: [{ dob }], lang, ...(agentId === undefined ? {} : { agent_id: agentId }) })),
    addCustomerLeadEndpoint.response,
  );
  const quoted = await dataOf(await send(compareQuotesEndpoint.path, { uuid: saved.uuid, lang }), compareQuotesEndpoint.response);
  const quote = providerId === undefined ? quoted.quotes[0] : quoted.quotes.find((candidate) => candidate.provider.id === providerId);
  if (!quote) throw new Error(`no quote of provider ${providerId} for the lead`);
  await dataOf(
    await send(proceedReviewEndpoint.path, { uuid: saved.uuid, policy_id: quote.id, addons: [], bot_token: await freshBotToken(send) }),
    proceedReviewEndpoint.response,
  );
  const traveller = quoted.lead.travellers_info[0]!;
  const values = completeTraveller(dob, `PX${String((passports += 1)).padStart(7, '0')}`, {
    index: 0,
    plan: { providerId: quote.provider.id, isApiPlan: quote.is_api_plan, isFamily: false, sourceId: LEBANON },
  });
  const review = await dataOf(
    await send(saveTravellerInfoEndpoint.path, { uuid: saved.uuid, insurance_id: quote.provider.id, traveller: { ...values, id: traveller.id }, lang }),
    saveTravellerInfoEndpoint.response,
  );
  expect(review).toMatchObject({ error: null, leads: { stage: 3 } });
  return saved.uuid;
}

/** coupon/validate for a lead at checkout: the raw status and body. */
export async function validateCoupon(send: Send, uuid: string, code: string): Promise<{ status: number; json: unknown }> {
  const res = await send(couponValidateEndpoint.path, { uuid, promo_code: code, language: 'en', insurance_type: 'travel', merchant_reference: null });
  return { status: res.status, json: await res.json() };
}

/**
 * A customer who pays with a 100 % coupon: coupon/validate (total 0), then temp-checkout, which
 * pays the order at once and issues the policy. Answers the order's merchant reference.
 */
export async function payWithFullCoupon(send: Send, uuid: string, code: string): Promise<string> {
  const validated = await validateCoupon(send, uuid, code);
  expect(validated).toMatchObject({ status: 200, json: { data: { totals: { total: 0 } } } });
  const placed = await dataOf(
    await send(tempCheckoutEndpoint.path, { uuid, total_price_vat: 0, language: 'en', coupon: code }),
    tempCheckoutEndpoint.response,
  );
  expect(placed.redirect_to_thank_you).toBe(true);
  return placed.merchant_reference;
}
