import { randomInt } from 'node:crypto';
import { couponValidateEndpoint, tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { payfortDataEndpoint } from '../../src/contract/payfort.endpoints';
import { paymentStatusEndpoint } from '../../src/contract/payment.endpoints';
import { botChallengeEndpoint, compareQuotesEndpoint, proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import { completeTraveller } from '../support/review-cases';
import { deliverNotices } from './gateway-notices';
import { formsOf, type PageForm } from '../support/page-forms';
import { expectStatus, JourneyError, type Answer, type AltchaChallenge, type BotSolver, type CustomerHttp } from './soak-http';

/**
 * One customer's API journey, travel details to a paid policy, as the SPA and a browser make it:
 * add-customer-lead, compare-quotes, the bot check (ALTCHA solved), proceed-review,
 * save-traveller-info, coupon-validate, temp-checkout, payfort-data, the embedded APS sandbox's
 * pages (PURCHASE form, card form) and the gateway's return, then payment-status until the policy
 * is there. What a journey does is decided by its number, so a run is a fixed mix.
 */

/** How the customer pays. */
export type JourneyKind = 'card' | 'declined-retry' | 'coupon' | 'free' | 'walk-away';
/**
 * What else reaches the notice endpoints: nothing, the return and a feedback at once, the return
 * three times at once, or an old or forged failure after the success.
 */
export type NoticeMischief = 'none' | 'return+feedback' | 'return-x3' | 'late-failure';

const KINDS: JourneyKind[] = ['card', 'card', 'declined-retry', 'coupon', 'card', 'free', 'declined-retry', 'coupon', 'free', 'walk-away'];
const MISCHIEF: NoticeMischief[] = ['none', 'return+feedback', 'return-x3', 'late-failure'];

export const journeyKind = (index: number): JourneyKind => KINDS[index % KINDS.length]!;
export const journeyMischief = (index: number): NoticeMischief => MISCHIEF[Math.floor(index / KINDS.length) % MISCHIEF.length]!;

export const TEST_CARD = { card_number: '4005 5500 0000 0001', expiry_date: '05/39', card_security_code: '123', card_holder_name: 'Soak Customer' };
/** Valid (Luhn), not the test card: the sandbox declines it. */
const DECLINED_CARD = { ...TEST_CARD, card_number: '4000 0000 0000 0002' };

/** What the server acknowledged (2xx) to this customer, and when: the crash test's "must not be lost". */
export interface Acknowledged {
  leads: { uuid: string; at: number }[];
  orders: { reference: string; at: number }[];
  paid: { reference: string; at: number }[];
}

export interface JourneyContext {
  index: number;
  http: CustomerHttp;
  solver: BotSolver;
  ack: Acknowledged;
  /** The soak coupons by purpose. */
  coupons: { percent: string; free: string };
  /** Another instance's base URL for cross-instance notices, or null. */
  otherBase: string | null;
  /** How long to wait for a paid order's policy (a walk-away customer's order is settled by the feedback alone). */
  settleTimeoutMs: number;
  /**
   * Crash mode: what a lost answer leaves behind (a free order already placed, a sandbox
   * reference already seen) is taken as the page takes it, instead of failing the journey.
   */
  tolerant: boolean;
}

export interface JourneyOutcome {
  index: number;
  kind: JourneyKind;
  mischief: NoticeMischief;
  uuid: string | null;
  /** The paid order's reference and policy number, once payment-status showed them. */
  reference: string | null;
  policyNumber: string | null;
  /** The coupon the paid order used (null: none, or refused and paid without). */
  coupon: string | null;
  couponRefused: boolean;
  /** Insurers missing from this customer's quote list. */
  missingInsurers: number[];
  error: JourneyError | null;
}

interface Quote {
  id: number;
  is_api_plan: 0 | 1;
  provider: { id: number };
}
interface LeadTraveller {
  id: number;
  dob: string;
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const runTag = randomInt(1_000, 9_999);

/** One adult, Lebanon to France in ten days, with an e-mail and phone of its own. */
export function soakLeadBody(index: number, lang: 'en' | 'ar') {
  const year = new Date().getUTCFullYear();
  return {
    name: 'Soak Customer',
    email: `soak.${runTag}.${index}@example.com`,
    phone_country_code: '+961',
    phone_number: `7${String(runTag * 1000 + index).slice(-7).padStart(7, '0')}`,
    inbound_outbound: true,
    trip_type: 1,
    start_date: day(10),
    end_date: day(19),
    destination_id: [250],
    source_id: null,
    no_of_traveller: 1,
    is_family: false,
    travellers_info: [{ dob: `${year - 30 - (index % 20)}-05-20` }],
    lang,
  };
}

/** Runs one journey to its end; never throws (a failure is the outcome's error). */
export async function runJourney(ctx: JourneyContext, allInsurers: ReadonlySet<number> | null): Promise<JourneyOutcome> {
  const kind = journeyKind(ctx.index);
  const outcome: JourneyOutcome = {
    index: ctx.index,
    kind,
    mischief: kind === 'walk-away' || kind === 'free' ? 'none' : journeyMischief(ctx.index),
    uuid: null,
    reference: null,
    policyNumber: null,
    coupon: null,
    couponRefused: false,
    missingInsurers: [],
    error: null,
  };
  try {
    await journey(ctx, outcome, allInsurers);
  } catch (error) {
    outcome.error = error instanceof JourneyError ? error : new JourneyError('client', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  }
  return outcome;
}

async function journey(ctx: JourneyContext, outcome: JourneyOutcome, allInsurers: ReadonlySet<number> | null) {
  const { http, index } = ctx;
  const lang = index % 7 === 3 ? 'ar' : 'en';

  const lead = await http.api<{ uuid: string }>('lead', addCustomerLeadEndpoint.path, soakLeadBody(index, lang));
  const uuid = lead.data.uuid;
  outcome.uuid = uuid;
  ctx.ack.leads.push({ uuid, at: Date.now() });

  const quoted = await http.api<{ quotes: Quote[]; hasError: boolean; unavailable_providers: unknown[]; lead: { travellers_info: LeadTraveller[] } }>(
    'quotes',
    compareQuotesEndpoint.path,
    { uuid, lang },
  );
  const providers = new Set(quoted.data.quotes.map((quote) => quote.provider.id));
  outcome.missingInsurers = allInsurers
    ? [...allInsurers].filter((id) => !providers.has(id))
    : (quoted.data.unavailable_providers as { id: number }[]).map((provider) => provider.id);
  // A 100 % coupon leaves nothing to pay only without a stamp fee (provider 3 adds one).
  const payable = quoted.data.quotes.filter((quote) => quote.is_api_plan === 1 && (outcome.kind !== 'free' || quote.provider.id !== 3));
  const quote = payable[index % Math.max(1, payable.length)];
  if (!quote) throw new JourneyError('quotes', `no quote to choose (${quoted.data.quotes.length} quotes)`);

  const invoiceTotal = await proceed(ctx, uuid, quote.id, lang);

  let passport = 0;
  for (const [position, traveller] of quoted.data.lead.travellers_info.entries()) {
    const values = completeTraveller(traveller.dob, `SK${String(index).padStart(5, '0')}${(passport += 1)}`, {
      index: position,
      plan: { providerId: quote.provider.id, isApiPlan: 1, isFamily: false, sourceId: 422 },
    });
    const saved = await http.api<{ error: string | null; message: string | null }>('review', saveTravellerInfoEndpoint.path, {
      uuid,
      insurance_id: quote.provider.id,
      traveller: { ...values, first_name: 'Soak', last_name: 'Customer', id: traveller.id },
      lang,
    });
    if (saved.data.error !== null) throw new JourneyError('review', `refused: ${saved.data.error} ${saved.data.message ?? ''}`);
  }

  let coupon: string | null = outcome.kind === 'coupon' ? ctx.coupons.percent : outcome.kind === 'free' ? ctx.coupons.free : null;
  let total: number | null = null;
  if (coupon) {
    const checked = await http.api<{ totals?: { total: number }; errors?: Record<string, string> }>(
      'coupon',
      couponValidateEndpoint.path,
      { uuid, promo_code: coupon, language: lang, insurance_type: 'travel', merchant_reference: null },
      [200, 409, 422],
    );
    if (checked.status === 200) total = checked.data.totals!.total;
    else if (Object.values(checked.data.errors ?? {}).includes('coupon_used_up')) {
      // The limit is reached: the customer removes the coupon and pays the full price.
      outcome.couponRefused = true;
      coupon = null;
    } else throw new JourneyError('coupon', `HTTP ${checked.status} ${JSON.stringify(checked.data.errors ?? {})}`);
  }

  const first = await placeOrder(ctx, uuid, lang, coupon, total ?? invoiceTotal, invoiceTotal, outcome);
  coupon = first.coupon;
  outcome.coupon = coupon;
  if (first.free) {
    await awaitPolicy(ctx, uuid, first.reference, lang, outcome);
    return;
  }

  // "Try again": a new order from checkout, at the same total.
  const again = async () => (await placeOrder(ctx, uuid, lang, coupon, total ?? invoiceTotal, invoiceTotal, outcome)).reference;

  if (outcome.kind === 'declined-retry') {
    const declined = await payOrStartAgain(ctx, uuid, first.reference, lang, DECLINED_CARD, again);
    const back = await http.form('return', declined.form.action, declined.form.fields);
    expectStatus('return', back, [303]);
    const status = await http.api<{ status: string }>('status', paymentStatusEndpoint.path, { uuid, merchant_reference: declined.reference, language: lang });
    if (status.data.status !== 'failed') throw new JourneyError('status', `declined order is ${status.data.status}, not failed`);
    const paid = await payOrStartAgain(ctx, uuid, await again(), lang, TEST_CARD, again);
    await deliverNotices(ctx, paid.form, outcome, declined.form.fields);
    await awaitPolicy(ctx, uuid, paid.reference, lang, outcome);
    return;
  }

  const paid = await payOrStartAgain(ctx, uuid, first.reference, lang, TEST_CARD, again);
  if (outcome.kind === 'walk-away') {
    // The tab is closed on the sandbox's answer page: only the gateway's direct feedback settles the order.
    await awaitPolicy(ctx, uuid, paid.reference, lang, outcome);
    return;
  }
  await deliverNotices(ctx, paid.form, outcome, null);
  await awaitPolicy(ctx, uuid, paid.reference, lang, outcome);
}

/**
 * Pays `reference` at the sandbox. In crash mode the post that opened the card page may have lost
 * its answer and been sent again; the sandbox then refuses it as a reference it has seen (00007,
 * as APS does: issue 33), and the customer, told the payment did not go through, starts again
 * from checkout with a new order (`again`). Answers the sandbox's return form and the reference
 * it is for.
 */
async function payOrStartAgain(
  ctx: JourneyContext,
  uuid: string,
  reference: string,
  lang: 'en' | 'ar',
  card: typeof TEST_CARD,
  again: () => Promise<string>,
): Promise<{ form: PageForm; reference: string }> {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await payAtSandbox(ctx, uuid, reference, lang, card);
    if (!answer.refused) return { form: answer.form, reference };
    if (!ctx.tolerant || attempt >= 2) throw new JourneyError('gateway', `the sandbox refused ${reference} as a reference it has seen`);
    // The refusal goes back to Safar as the browser would post it; then a new attempt.
    expectStatus('return', await ctx.http.form('return', answer.form.action, answer.form.fields), [303]);
    reference = await again();
  }
}

/**
 * The bot check and proceed-review as the page makes them (issue 34 item 8): a token refused as
 * spent (a proceed whose answer a crash lost, resent with the same token when the server came
 * back) is followed by one fresh challenge and the same choice, without a word to the customer,
 * and counted under the step "proceed (fresh token)". A second refusal is what the page shows the
 * customer, so it fails the journey. Answers the invoice's total (what checkout shows without a coupon).
 */
async function proceed(ctx: JourneyContext, uuid: string, quoteId: number, lang: 'en' | 'ar'): Promise<number> {
  for (let attempt = 0; ; attempt += 1) {
    const challenge = await ctx.http.api<AltchaChallenge>('bot-challenge', botChallengeEndpoint.path, { lang });
    const solveStarted = performance.now();
    const token = await ctx.solver.token(challenge.data);
    ctx.http.times.add('bot-solve (client)', performance.now() - solveStarted);
    const res = await ctx.http.api<{ invoice: { total_price_vat: number }; errors?: Record<string, string> }>(
      attempt === 0 ? 'proceed' : 'proceed (fresh token)',
      proceedReviewEndpoint.path,
      { uuid, policy_id: quoteId, addons: [], bot_token: token, lang },
      attempt === 0 ? [200, 403] : [200],
    );
    if (res.status === 200) return res.data.invoice.total_price_vat;
    if (res.data.errors?.bot_token !== 'bot_check_failed') throw new JourneyError('proceed', `HTTP 403 ${JSON.stringify(res.data.errors ?? {})}`);
  }
}

/** temp-checkout; a 409 with fresh totals (the page's figure was stale) is sent again once with them. */
async function placeOrder(
  ctx: JourneyContext,
  uuid: string,
  lang: 'en' | 'ar',
  coupon: string | null,
  total: number,
  fullTotal: number,
  outcome: JourneyOutcome,
): Promise<{ reference: string; free: boolean; coupon: string | null }> {
  let sentTotal = total;
  let sentCoupon = coupon;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const res = await ctx.http.api<{ merchant_reference?: string; redirect_to_thank_you?: boolean; totals?: { total: number }; errors?: Record<string, string> }>(
      'checkout',
      tempCheckoutEndpoint.path,
      { uuid, total_price_vat: sentTotal, language: lang, coupon: sentCoupon },
      [200, 409, 422],
    );
    if (res.status === 200) {
      ctx.ack.orders.push({ reference: res.data.merchant_reference!, at: Date.now() });
      return { reference: res.data.merchant_reference!, free: res.data.redirect_to_thank_you === true, coupon: sentCoupon };
    }
    const codes = Object.values(res.data.errors ?? {});
    if (ctx.tolerant && res.status === 409 && codes.includes('lead_in_deal')) {
      // A free order placed just before the crash, its answer lost: the lead is paid already, as the
      // reload's payment-status (the lead's paid order) shows the customer.
      const paid = await ctx.http.api<{ merchant_reference: string; status: string }>('status', paymentStatusEndpoint.path, { uuid, language: lang });
      return { reference: paid.data.merchant_reference, free: true, coupon: sentCoupon };
    }
    if (sentCoupon && codes.includes('coupon_used_up')) {
      outcome.couponRefused = true;
      sentCoupon = null;
      sentTotal = fullTotal;
    } else if (res.status === 409 && res.data.totals) sentTotal = res.data.totals.total;
    else throw new JourneyError('checkout', `HTTP ${res.status} ${JSON.stringify(res.data.errors ?? {})}`);
  }
  throw new JourneyError('checkout', 'refused three times');
}

/**
 * payfort-data, then the sandbox as the browser drives it: the PURCHASE form posted (303 to the
 * session), the card page read, the card posted (303 back to the session), and the answer page's
 * return form: what the browser would post to return_url. `refused`: the sandbox refused the
 * PURCHASE itself (its reference seen already) and answered with that return form at once.
 */
async function payAtSandbox(ctx: JourneyContext, uuid: string, reference: string, lang: 'en' | 'ar', card: typeof TEST_CARD): Promise<{ refused: boolean; form: PageForm }> {
  const { http } = ctx;
  const form = await http.api<{ url: string; fields: Record<string, string> }>('payfort-data', payfortDataEndpoint.path, { uuid, merchant_reference: reference, language: lang });
  const opened = await http.form('gateway', form.data.url, form.data.fields);
  const session = seeOther('gateway', opened);
  const cardPage = await http.page('gateway', session);
  const forms = formsOf(cardPage.html);
  // No card form but the signed answer to post back: the sandbox refused the PURCHASE itself.
  const refusal = forms.find((candidate) => candidate.id === 'aps-return');
  if (cardPage.status === 200 && refusal && forms.length === 1) return { refused: true, form: refusal };
  const cardForm = forms[0];
  if (cardPage.status !== 200 || !cardForm) throw new JourneyError('gateway', `card page HTTP ${cardPage.status}, no form`);
  const posted = await http.form('card', cardForm.action, { ...cardForm.fields, ...card, action: 'pay' });
  const answered = seeOther('card', posted);
  const answer = await http.page('card', answered);
  const back = formsOf(answer.html).find((candidate) => candidate.id === 'aps-return');
  if (answer.status !== 200 || !back) throw new JourneyError('card', `answer page HTTP ${answer.status}, no return form`);
  return { refused: false, form: back };
}

function seeOther(step: string, res: Answer): string {
  const location = res.headers.get('location');
  if (res.status !== 303 || !location) throw new JourneyError(step, `HTTP ${res.status}, expected 303`);
  return location;
}


/** payment-status until the order is paid with its policy (or the settle time runs out). */
async function awaitPolicy(ctx: JourneyContext, uuid: string, reference: string, lang: 'en' | 'ar', outcome: JourneyOutcome) {
  const deadline = Date.now() + ctx.settleTimeoutMs;
  let last = '';
  for (;;) {
    const res = await ctx.http.api<{ status: string; policy: { policy_number: string } | null; reason: string | null }>('status', paymentStatusEndpoint.path, {
      uuid,
      merchant_reference: reference,
      language: lang,
    });
    if (res.data.status === 'paid' && res.data.policy) {
      outcome.reference = reference;
      outcome.policyNumber = res.data.policy.policy_number;
      ctx.ack.paid.push({ reference, at: Date.now() });
      return;
    }
    last = `${res.data.status}${res.data.reason ? ` (${res.data.reason})` : ''}`;
    if (res.data.status === 'failed' || Date.now() > deadline) throw new JourneyError('status', `order ${last}, not paid with a policy`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
