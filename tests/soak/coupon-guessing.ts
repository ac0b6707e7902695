import { randomBytes } from 'node:crypto';
import { couponValidateEndpoint, tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { botChallengeEndpoint, compareQuotesEndpoint, proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import { RATE_LIMITS } from '../../src/server/rate-limit/rate-limit';
import { completeTraveller } from '../support/review-cases';
import { soakLeadBody } from './customer-journey';
import { soakRun, type SoakOptions } from './journeys';
import { goal, info, type SoakSummary } from './soak-figures';
import { CustomerHttp, JourneyError, type AltchaChallenge, type BotSolver, type StepTimes } from './soak-http';

/**
 * `npm run soak -- coupon-guessing [N]` (issue 33 item 5): one coupon guesser and N customers
 * (default 100) behind one address, as behind a carrier's NAT, against the real server. The
 * guesser does what a guesser can: lead after lead, each with its plan chosen through a bot check,
 * ten random codes each, until the address's ceiling refuses it; then it goes on with fresh leads
 * while the customers, their plans chosen and travellers saved beforehand, apply SAFAR10 and
 * check out with it. It prints what the guesser got in that window, what one address gets an hour
 * (the window scaled by six, since the soak does not wait an hour), and how many customers
 * redeemed the coupon; it fails unless every one did.
 */

/**
 * The address everyone shares (CGNAT's 100.64.0.0/10; the server trusts X-Forwarded-For in the
 * soak), and the one a second round uses when the first straddled two of the counters' windows.
 */
const SHARED_ADDRESSES = ['100.64.0.1', '100.64.0.2'] as const;
const GOOD_CODE = 'SAFAR10';
const WINDOW_MS = RATE_LIMITS.couponAttempts.perAddress.windowSeconds * 1000;
const CEILING = RATE_LIMITS.couponAttempts.perAddress.limit;
const PER_LEAD = RATE_LIMITS.couponAttempts.perLead.limit;
const PASSES_PER_FRESH_LEAD = RATE_LIMITS.couponAttempts.perFreshLead.limit;
/** Bot challenges one address may fetch in an hour: fresh plan choices, so fresh leads, are bounded by it. */
const BOT_CHECKS_PER_HOUR = RATE_LIMITS.botChallenge.perAddress.limit * (3600 / RATE_LIMITS.botChallenge.perAddress.windowSeconds);
/** Guesser leads made past the ceiling while the customers redeem, at least. */
const PAST_CEILING_LEADS = 5;

const windowOf = (ms: number) => Math.floor(ms / WINDOW_MS);
const randomCode = () => `G${randomBytes(6).toString('hex').toUpperCase()}`;

interface Quote {
  id: number;
  is_api_plan: 0 | 1;
  provider: { id: number };
}

interface Soaker {
  http: CustomerHttp;
  solver: BotSolver;
}

/** add-customer-lead, compare-quotes, the bot check and proceed-review: a lead whose plan is chosen. */
async function leadWithPlan({ http, solver }: Soaker, index: number): Promise<{ uuid: string; quote: Quote; travellers: { id: number; dob: string }[] }> {
  const lead = await http.api<{ uuid: string }>('lead', addCustomerLeadEndpoint.path, soakLeadBody(index, 'en'));
  const quoted = await http.api<{ quotes: Quote[]; lead: { travellers_info: { id: number; dob: string }[] } }>('quotes', compareQuotesEndpoint.path, {
    uuid: lead.data.uuid,
    lang: 'en',
  });
  const online = quoted.data.quotes.filter((quote) => quote.is_api_plan === 1);
  const quote = online[index % Math.max(1, online.length)];
  if (!quote) throw new JourneyError('quotes', `no quote to choose (${quoted.data.quotes.length} quotes)`);
  const challenge = await http.api<AltchaChallenge>('bot-challenge', botChallengeEndpoint.path, { lang: 'en' });
  const token = await solver.token(challenge.data);
  await http.api('proceed', proceedReviewEndpoint.path, { uuid: lead.data.uuid, policy_id: quote.id, addons: [], bot_token: token, lang: 'en' });
  return { uuid: lead.data.uuid, quote, travellers: quoted.data.lead.travellers_info };
}

/** A customer at checkout: its plan chosen and its traveller saved. */
async function customerAtCheckout(soaker: Soaker, index: number): Promise<string> {
  const { uuid, quote, travellers } = await leadWithPlan(soaker, index);
  for (const [position, traveller] of travellers.entries()) {
    const values = completeTraveller(traveller.dob, `CG${String(index).padStart(5, '0')}${position + 1}`, {
      index: position,
      plan: { providerId: quote.provider.id, isApiPlan: 1, isFamily: false, sourceId: 422 },
    });
    const saved = await soaker.http.api<{ error: string | null }>('review', saveTravellerInfoEndpoint.path, {
      uuid,
      insurance_id: quote.provider.id,
      traveller: { ...values, first_name: 'Soak', last_name: 'Customer', id: traveller.id },
      lang: 'en',
    });
    if (saved.data.error !== null) throw new JourneyError('review', `refused: ${saved.data.error}`);
  }
  return uuid;
}

/** One guess: answered (422, a miss) or refused (429, with the key that refused it: `_` the address, `uuid` the lead or its device). */
async function guess(http: CustomerHttp, uuid: string): Promise<{ status: number; refusedBy: string | null }> {
  const res = await http.api<{ errors?: Record<string, string> }>('guess', couponValidateEndpoint.path, { uuid, promo_code: randomCode(), language: 'en' }, [422, 429]);
  return { status: res.status, refusedBy: res.status === 429 ? (Object.keys(res.data.errors ?? {})[0] ?? '?') : null };
}

/** A fresh lead's guesses, up to its ten, until the first refusal: how many were answered, and what refused the next. */
async function freshLeadGuesses(soaker: Soaker, index: number): Promise<{ answered: number; refusedBy: string | null }> {
  const { uuid } = await leadWithPlan(soaker, index);
  let answered = 0;
  for (let i = 0; i < PER_LEAD; i += 1) {
    const answer = await guess(soaker.http, uuid);
    if (answer.refusedBy !== null) return { answered, refusedBy: answer.refusedBy };
    answered += 1;
  }
  return { answered, refusedBy: null };
}

/** What one customer's redemption came to: both answers 200 with the discount, or why not. */
async function redeem(http: CustomerHttp, uuid: string): Promise<string | null> {
  const validated = await http.api<{ totals?: { total: number; discount: number } }>(
    'coupon',
    couponValidateEndpoint.path,
    { uuid, promo_code: GOOD_CODE, language: 'en', insurance_type: 'travel', merchant_reference: null },
    [200, 409, 422, 429],
  );
  if (validated.status !== 200) return `coupon/validate ${validated.status}`;
  if (!(validated.data.totals!.discount > 0)) return 'coupon/validate without a discount';
  const placed = await http.api<{ totals?: { discount: number } }>(
    'checkout',
    tempCheckoutEndpoint.path,
    { uuid, total_price_vat: validated.data.totals!.total, language: 'en', coupon: GOOD_CODE },
    [200, 409, 422, 429],
  );
  if (placed.status !== 200) return `temp-checkout ${placed.status}`;
  return placed.data.totals!.discount > 0 ? null : 'temp-checkout without a discount';
}

/** Runs `work` for 0..count-1, `width` at a time. */
async function inWaves<T>(count: number, width: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += width) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, offset) => work(start + offset)))));
  }
  return results;
}

interface Round {
  /** Guesses answered before the first refusal by the address. */
  answeredToCeiling: number;
  leadsToCeiling: number;
  /** Guesses answered for each fresh lead made past the ceiling. */
  pastCeiling: number[];
  /** Every customer's failure (null: redeemed). */
  redemptions: (string | null)[];
  /** The guesser's answers while the customers redeemed, by status. */
  guesserStatuses: Record<string, number>;
  /** Fresh leads (each a bot check) the guesser made per minute, on this machine. */
  leadsPerMinute: number;
  /** Whether the round stayed inside one 10-minute window (the counters' window). */
  oneWindow: boolean;
}

/** The guesser fills `address`'s ceiling, then goes on while every customer redeems from the same address. */
async function guessAndRedeem(base: () => string, solver: BotSolver, times: StepTimes, address: string, customers: readonly string[], firstIndex: number): Promise<Round> {
  const soaker: Soaker = { http: new CustomerHttp(base, address, times, { giveUpAfterMs: 0 }), solver };
  const customerHttp = new CustomerHttp(base, address, times, { giveUpAfterMs: 0 });
  const window = windowOf(Date.now());
  let index = firstIndex;
  const started = performance.now();
  let answeredToCeiling = 0;
  let leadsToCeiling = 0;
  for (;;) {
    const lead = await freshLeadGuesses(soaker, (index += 1));
    leadsToCeiling += 1;
    answeredToCeiling += lead.answered;
    if (lead.refusedBy === '_') break;
    if (lead.refusedBy !== null) throw new JourneyError('guess', `refused by ${lead.refusedBy} before the address's ceiling`);
    if (leadsToCeiling > CEILING) throw new JourneyError('guess', 'no ceiling reached');
  }
  const leadsPerMinute = (leadsToCeiling / (performance.now() - started)) * 60_000;

  // While the customers redeem, the guesser goes on with fresh leads.
  const pastCeiling: number[] = [];
  const guesserStatuses: Record<string, number> = {};
  let redeeming = true;
  let guesserFailed: unknown = null;
  const guesser = (async () => {
    while (redeeming || pastCeiling.length < PAST_CEILING_LEADS) {
      const { uuid } = await leadWithPlan(soaker, (index += 1));
      let answered = 0;
      for (let i = 0; i < 2; i += 1) {
        const answer = await guess(soaker.http, uuid);
        guesserStatuses[answer.status] = (guesserStatuses[answer.status] ?? 0) + 1;
        if (answer.refusedBy !== null) break;
        answered += 1;
      }
      pastCeiling.push(answered);
    }
  })().catch((error: unknown) => {
    guesserFailed = error;
  });
  const redemptions = await inWaves(customers.length, 10, (position) => redeem(customerHttp, customers[position]!)).finally(() => (redeeming = false));
  await guesser;
  if (guesserFailed !== null) throw guesserFailed;
  return { answeredToCeiling, leadsToCeiling, pastCeiling, redemptions, guesserStatuses, leadsPerMinute, oneWindow: windowOf(Date.now()) === window };
}

export function runCouponGuessing(options: SoakOptions): Promise<SoakSummary> {
  const customers = options.journeys;
  return soakRun(options, `coupon-guessing ${customers}`, async ({ instances, solver, times, figures }) => {
    const base = () => instances[0]!.base;
    try {
      const preparing = new CustomerHttp(base, SHARED_ADDRESSES[0], times, { giveUpAfterMs: 0 });
      const prepared = await inWaves(customers, 10, (position) => customerAtCheckout({ http: preparing, solver }, position));
      // The counters' windows are fixed 10 minutes: a round that straddles two is run again at
      // another address, whose counters start from nothing in the window that just began.
      let address: string = SHARED_ADDRESSES[0];
      let round = await guessAndRedeem(base, solver, times, address, prepared, 10_000);
      let rounds = 1;
      if (!round.oneWindow) {
        address = SHARED_ADDRESSES[1];
        round = await guessAndRedeem(base, solver, times, address, prepared, 20_000);
        rounds += 1;
      }
      const redeemed = round.redemptions.filter((failure) => failure === null).length;
      const failures = new Map<string, number>();
      for (const failure of round.redemptions) if (failure !== null) failures.set(failure, (failures.get(failure) ?? 0) + 1);
      const passes = round.pastCeiling.reduce((sum, answered) => sum + answered, 0);
      const atCeilingPerHour = (round.answeredToCeiling - PASSES_PER_FRESH_LEAD) * 6;
      const pastCeilingPerHour = 2 * PASSES_PER_FRESH_LEAD * BOT_CHECKS_PER_HOUR;

      figures.push(info('address shared by the guesser and the customers', `${address} (X-Forwarded-For, TRUST_PROXY=true)`));
      figures.push(info('window measured', `one 10-minute window of the counters${rounds > 1 ? ` (the first round, at ${SHARED_ADDRESSES[0]}, straddled two: run again)` : ''}`));
      figures.push(
        goal(
          'guesses the address had answered when it first refused one',
          `${round.answeredToCeiling} (${round.leadsToCeiling} fresh leads, up to ${PER_LEAD} guesses each)`,
          `${CEILING} + ${PASSES_PER_FRESH_LEAD} (the ceiling, then the crossing lead's pass)`,
          round.answeredToCeiling === CEILING + PASSES_PER_FRESH_LEAD,
        ),
      );
      figures.push(
        goal(
          'past the ceiling: guesses answered per fresh lead (a bot check each)',
          `${passes} for ${round.pastCeiling.length} leads`,
          `${PASSES_PER_FRESH_LEAD} each`,
          round.pastCeiling.every((answered) => answered === PASSES_PER_FRESH_LEAD),
        ),
      );
      figures.push(info('fresh leads (bot checks) the guesser made a minute, this machine', round.leadsPerMinute.toFixed(0)));
      figures.push(
        info(
          'guesses one address gets an hour (measured window × 6, plus past the ceiling at most 2 per bot check × 1,800 bot checks an hour)',
          `${atCeilingPerHour.toLocaleString('en')} + ≤ ${pastCeilingPerHour.toLocaleString('en')} = ≤ ${(atCeilingPerHour + pastCeilingPerHour).toLocaleString('en')}`,
        ),
      );
      figures.push(
        goal(
          `customers behind the guessing address who redeemed ${GOOD_CODE} (coupon/validate and temp-checkout 200, with the discount)`,
          `${redeemed}/${customers}${failures.size > 0 ? ` (${[...failures.entries()].map(([why, count]) => `${count} × ${why}`).join(', ')})` : ''}`,
          `${customers}/${customers}`,
          redeemed === customers,
        ),
      );
      figures.push(
        info(
          "the guesser's answers while they redeemed",
          Object.entries(round.guesserStatuses)
            .map(([status, count]) => `${status} × ${count}`)
            .join(', '),
        ),
      );
    } catch (error) {
      figures.push(goal('run', error instanceof Error ? error.message : String(error), 'no error', false));
    }
    return [];
  });
}
