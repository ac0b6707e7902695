import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { expect } from 'vitest';
import { couponValidateEndpoint, tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import type { Language } from '../../src/contract/endpoint';
import type { AddCustomerLeadRequest } from '../../src/contract/lead.endpoints';
import { proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import type { AppConfig } from '../../src/server/config';
import * as t from '../../src/server/db/schema';
import { invoiceFigures } from '../../src/server/orders/invoice-store';
import { checkoutTotals } from '../../src/server/orders/totals';
import { apsSignature } from '../../src/server/payments/aps-signature';
import { APS_FEEDBACK_PATH, APS_RETURN_PATH } from '../../src/server/routes/payments.routes';
import { formsOf, type PageForm } from '../support/page-forms';
import { completeTraveller } from '../support/review-cases';
import { testConfig } from '../support/test-app';
import { createLeadTestApp, leadBody, LEBANON, type LeadTestApp } from './lead-fixtures';
import { ADDON, freshBotToken, insertQuote, insertTestCatalogue, PLAN } from './order-fixtures';

/**
 * Payment fixtures (issue 11), shared by the payments page, payfort-data, the sandbox gateway and
 * the return/feedback tests:
 * - a lead taken to checkout through the real signed API (travellers named as the test needs) and
 *   an order placed by temp-checkout;
 * - gateway responses built and signed the way Amazon Payment Services builds them, posted to the
 *   return or feedback URL as forms;
 * - a reader for the forms of the server's HTML pages.
 */

export type OrderRow = typeof t.orders.$inferSelect;

/** A test app at the lead tests' fixed clock, with the order tests' catalogue (plans, add-ons). */
export async function createPaymentTestApp(overrides: Parameters<typeof createLeadTestApp>[0] = {}): Promise<LeadTestApp> {
  const app = await createLeadTestApp(overrides);
  await insertTestCatalogue(app.db);
  return app;
}

/* ------------------------------------------------------------------------------------------- */
/* A lead at checkout and its orders                                                            */
/* ------------------------------------------------------------------------------------------- */

/** A traveller's names as typed at review. */
export interface TravellerNames {
  first: string;
  last: string;
}

/** A lead at checkout (stage 3). */
export interface CheckoutLead {
  uuid: string;
  sessionId: string;
  leadId: number;
  /** The add-customer-lead body it was saved with (to save the same trip again). */
  body: AddCustomerLeadRequest;
  quoteId: number;
}

/** How a lead is taken to checkout. */
export interface CheckoutOptions {
  /** One traveller per name, the first the principal (default: Rania Haddad alone). */
  names?: TravellerNames[];
  /** The lead's, the review's and the order's language (default en). */
  lang?: Language;
  /** Whether the lead chooses the plan's $25.00 winter add-on (default not). */
  addon?: boolean;
  /** The agent whose link the lead came from (default none). */
  agentId?: number;
}

/** How an order is placed (temp-checkout). */
export interface PlaceOrderOptions {
  /** The coupon sent (default none). */
  coupon?: string | null;
  /** The page's language (default en). */
  lang?: Language;
  /**
   * The total sent, in cents. Default: the server's own total for the lead's invoice, with the
   * coupon applied as coupon-validate answers it when a coupon is given.
   */
  total?: number;
}

let passports = 0;

/**
 * A lead on the test plan of insurer 1000 (premium $120.00, its $25.00 winter add-on offered,
 * chosen with `addon`), from 1 to 10 April 2026, taken to checkout as the SPA does it
 * (add-customer-lead, proceed-review with a bot token, save-traveller-info for every traveller
 * with `names`): stage 3, ready for temp-checkout.
 */
export async function leadAtCheckout(app: LeadTestApp, options: CheckoutOptions = {}): Promise<CheckoutLead> {
  const names = options.names ?? [{ first: 'Rania', last: 'Haddad' }];
  const lang = options.lang ?? 'en';
  const dobs = names.map((_, index) => `19${85 + index}-0${(index % 9) + 1}-1${index}`);
  const body = leadBody({
    lang,
    ...(options.agentId ? { agent_id: options.agentId } : {}),
    no_of_traveller: names.length,
    travellers_info: dobs.map((dob, index) => (index === 0 ? { dob } : { dob, first_name: names[index]!.first, last_name: names[index]!.last, relationship_type_id: 2 })),
  });
  const saved = await app.save(body);
  const lead = await app.leadRow(saved.uuid);
  const quoteId = await insertQuote(app.db, lead.id, {
    planId: PLAN.plain,
    insurerId: 1000,
    premiumCents: 12_000,
    addons: [{ addonId: ADDON.winter, code: 'winter_sports', cents: 2_500, coveredTravellers: names.length, disabled: false }],
  });
  await chooseQuote(app, saved.uuid, quoteId, options.addon ?? false);
  const travellers = await app.travellerRows(lead.id);
  for (const [index, traveller] of travellers.filter((row) => row.deletedAt === null).entries()) {
    const values = completeTraveller(traveller.dob, `PY${String((passports += 1)).padStart(7, '0')}`, {
      index,
      plan: { providerId: 1000, isApiPlan: 1, isFamily: false, sourceId: LEBANON },
    });
    const res = await app.send(saveTravellerInfoEndpoint.path, {
      uuid: saved.uuid,
      insurance_id: 1000,
      traveller: { ...values, first_name: names[index]!.first, last_name: names[index]!.last, id: traveller.id },
      lang,
    });
    const json: unknown = await res.json();
    expect({ status: res.status, json }).toMatchObject({ status: 200, json: { data: { error: null } } });
  }
  const [tracker] = await app.db.select().from(t.leadTrackers).where(eq(t.leadTrackers.leadId, lead.id));
  expect(tracker!.stage).toBe(3);
  return { uuid: saved.uuid, sessionId: saved.session_id!, leadId: lead.id, body, quoteId };
}

/** proceed-review: the lead chooses the stored quote (with or without its add-on), as the SPA does. */
export async function chooseQuote(app: LeadTestApp, uuid: string, quoteId: number, addon: boolean): Promise<void> {
  const res = await app.send(proceedReviewEndpoint.path, {
    uuid,
    policy_id: quoteId,
    addons: addon ? [ADDON.winter] : [],
    bot_token: await freshBotToken(app.send),
  });
  expect(res.status).toBe(200);
}

/**
 * temp-checkout for a lead at checkout: a new order with a merchant reference of its own, for
 * the total sent. It is pending, or paid at once when nothing is left to pay (a total of 0).
 */
export async function placeOrder(app: LeadTestApp, uuid: string, options: PlaceOrderOptions = {}): Promise<OrderRow> {
  const coupon = options.coupon ?? null;
  const total = options.total ?? (coupon ? await couponTotal(app, uuid, coupon) : await ownTotal(app, uuid));
  const res = await app.send(tempCheckoutEndpoint.path, { uuid, total_price_vat: total, language: options.lang ?? 'en', coupon });
  const json: unknown = await res.json();
  const free = total === 0;
  expect({ status: res.status, json }).toMatchObject({ status: 200, json: { data: { redirect_to_thank_you: free } } });
  const placed = v.parse(tempCheckoutEndpoint.response, json).data;
  const order = await orderRow(app, placed.merchant_reference);
  expect(order).toMatchObject({ status: free ? 'paid' : 'pending', totalCents: total });
  return order;
}

/** The server's own total for the lead's invoice, without a coupon. */
async function ownTotal(app: LeadTestApp, uuid: string): Promise<number> {
  const lead = await app.leadRow(uuid);
  const [invoice] = await app.db.select().from(t.invoices).where(eq(t.invoices.leadId, lead.id));
  return checkoutTotals(invoiceFigures(invoice!), null).total;
}

/** The total with `code` applied, as coupon-validate answers it. */
async function couponTotal(app: LeadTestApp, uuid: string, code: string): Promise<number> {
  const res = await app.send(couponValidateEndpoint.path, { uuid, promo_code: code, language: 'en', insurance_type: 'travel', merchant_reference: null });
  const json: unknown = await res.json();
  expect({ status: res.status, json }).toMatchObject({ status: 200 });
  return v.parse(couponValidateEndpoint.response, json).data.totals.total;
}

/** An order row as it is now, by merchant reference. */
export async function orderRow(app: Pick<LeadTestApp, 'db'>, reference: string): Promise<OrderRow> {
  const [order] = await app.db.select().from(t.orders).where(eq(t.orders.merchantReference, reference));
  return order!;
}

/** A pending order and the lead it belongs to (its invoice is `order.invoiceId`). */
export interface PendingOrder {
  lead: CheckoutLead;
  order: OrderRow;
}

/**
 * A lead taken to checkout (leadAtCheckout) and its first order placed (placeOrder, with `coupon`
 * at the server's own total, in `lang`): pending, with its merchant reference.
 */
export async function pendingOrder(app: LeadTestApp, options: CheckoutOptions & { coupon?: string | null } = {}): Promise<PendingOrder> {
  const lead = await leadAtCheckout(app, options);
  const order = await placeOrder(app, lead.uuid, { coupon: options.coupon ?? null, lang: options.lang ?? 'en' });
  expect(order.status).toBe('pending');
  return { lead, order };
}

/* ------------------------------------------------------------------------------------------- */
/* The gateway's answers: return and feedback                                                   */
/* ------------------------------------------------------------------------------------------- */

/** What the gateway answers for a PURCHASE (status, response_code = status + message code, message). */
export const APS_SUCCESS = { status: '14', response_code: '14000', response_message: 'Success' } as const;
/** A declined card: status 13 (purchase failure); the message code here is only an example. */
export const APS_DECLINED = { status: '13', response_code: '13666', response_message: 'Transaction declined' } as const;
/** The customer cancelled on the payment page: status 00, message code 072, and no fort_id. */
export const APS_CANCELLED = { status: '00', response_code: '00072', response_message: 'Transaction canceled by customer', fort_id: undefined } as const;

/** A fort_id as APS writes them: 18 digits, a new one per call. */
export const newFortId = () => `17${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;

/** Field values, where undefined leaves the field out (as a response without fort_id). */
export type ApsOverrides = Record<string, string | undefined>;

/**
 * A PURCHASE response for `order` the way Amazon Payment Services sends it back to return_url
 * and as its direct transaction feedback: the request's fields echoed as the order stored them
 * sent (command, access code, merchant identifier and reference, amount in minor units, currency,
 * language, e-mail), the
 * transaction's (fort_id, status, codes, masked card), signed with the response phrase over every
 * other field (aps-signature.ts). `overrides` change or (undefined) drop fields before signing;
 * `sign.phrase` signs with another phrase (a forgery), `sign.signature` sends a given one.
 */
export function apsResponse(
  order: Pick<OrderRow, 'merchantReference' | 'totalCents' | 'currency' | 'lang'> & Partial<Pick<OrderRow, 'purchaseFields'>>,
  overrides: ApsOverrides = {},
  sign: { phrase?: string; signature?: string; config?: Pick<AppConfig, 'apsAccessCode' | 'apsMerchantIdentifier' | 'apsResponsePhrase' | 'apsShaType'> } = {},
): Record<string, string> {
  const config = sign.config ?? testConfig();
  const fields: Record<string, string | undefined> = {
    command: 'PURCHASE',
    access_code: config.apsAccessCode,
    merchant_identifier: config.apsMerchantIdentifier,
    merchant_reference: order.merchantReference,
    amount: String(order.totalCents),
    currency: order.currency,
    language: order.lang,
    customer_email: 'traveller@example.com',
    // What the order's PURCHASE request sent is echoed as sent (APS never echoes return_url).
    ...Object.fromEntries(Object.entries(order.purchaseFields ?? {}).filter(([key]) => key !== 'return_url')),
    customer_ip: '192.0.2.10',
    fort_id: newFortId(),
    payment_option: 'VISA',
    eci: 'ECOMMERCE',
    card_number: '400555******0001',
    expiry_date: '2912',
    card_holder_name: 'Rania Haddad',
    authorization_code: '123456',
    ...APS_SUCCESS,
    ...overrides,
  };
  const kept: Record<string, string> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) kept[key] = value;
  const signature = sign.signature ?? apsSignature(kept, sign.phrase ?? config.apsResponsePhrase, config.apsShaType);
  return { ...kept, signature };
}

/** Where a notice is posted: the browser's return or the gateway's feedback. */
export type NoticeKind = 'return' | 'feedback';
export const NOTICE_PATH: Record<NoticeKind, string> = { return: APS_RETURN_PATH, feedback: APS_FEEDBACK_PATH };

/** Posts `fields` as the gateway does: an application/x-www-form-urlencoded form, no API signature. */
export function postNotice(app: Pick<LeadTestApp, 'app'>, kind: NoticeKind, fields: Record<string, string>): Promise<Response> {
  return postForm(app, NOTICE_PATH[kind], fields);
}

/** Posts a raw body with a given content type to the return or feedback URL. */
export async function postRaw(app: Pick<LeadTestApp, 'app'>, kind: NoticeKind, body: string | FormData, contentType?: string): Promise<Response> {
  return app.app.request(NOTICE_PATH[kind], { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} });
}

/* ------------------------------------------------------------------------------------------- */
/* Reading the server's HTML pages                                                              */
/* ------------------------------------------------------------------------------------------- */

export { formsOf, type PageForm };

/** The one form of a page (fails the test when there is not exactly one). */
export function onlyForm(html: string): PageForm {
  const forms = formsOf(html);
  expect(forms).toHaveLength(1);
  return forms[0]!;
}

/** Posts fields as a browser posts a form: application/x-www-form-urlencoded. */
export function postForm(app: Pick<LeadTestApp, 'app'>, action: string, fields: Record<string, string>): Promise<Response> {
  return Promise.resolve(
    app.app.request(action, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  );
}

/** Reads an HTML answer: its status and type, and that it is never cached. */
export async function htmlOf(res: Response, status: number): Promise<string> {
  const text = await res.text();
  expect({ status: res.status, type: res.headers.get('content-type') }).toMatchObject({ status, type: expect.stringMatching(/^text\/html/) });
  expect(res.headers.get('cache-control')).toBe('no-store');
  return text;
}

/** The sandbox's test card as a customer types it (RULINGS 20): it pays. */
export const TEST_CARD = { card_number: '4005 5500 0000 0001', expiry_date: '05/29', card_security_code: '123', card_holder_name: 'Rania Haddad' };

/** Pays an order on the sandbox's card page as a browser does and stops there (the return is never posted); answers the signed answer. */
export async function payOnCardPage(target: LeadTestApp, order: OrderRow): Promise<Record<string, string>> {
  const pay = onlyForm(await htmlOf(await target.app.request(`/pay/${order.merchantReference}`), 200));
  const opened = await postForm(target, pay.action, pay.fields);
  expect(opened.status).toBe(303);
  const card = onlyForm(await htmlOf(await target.app.request(opened.headers.get('location')!), 200));
  expect((await postForm(target, card.action, { ...TEST_CARD, action: 'pay' })).status).toBe(303);
  const answer = onlyForm(await htmlOf(await target.app.request(card.action), 200)).fields;
  expect(answer).toMatchObject({ status: '14', merchant_reference: order.merchantReference });
  return answer;
}

