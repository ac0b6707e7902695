import { and, desc, eq } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { lapseOf } from '../orders/order-state';
import { priceLines, type PriceLine } from '../orders/price-lines';
import { signPurchase } from './purchase-fields';
import { isolateLtr } from '../mail/bidi';
import { MERCHANT_REFERENCE_PATTERN } from '../../contract/payment.endpoints';
import { coverageText } from '../quoting/quote-views';

/**
 * The payment form of one order, for the payments page /pay/<reference> and for payfort-data
 * (spec §7), which must always agree: both call `loadPaymentForm`.
 */

/** The order as its payments page shows it, in the page's language. */
export interface PaymentDetails {
  reference: string;
  insurer: string;
  plan: string;
  coverage: string;
  /** Names as saved at review (title-free, as on the passport), in traveller order. */
  travellers: string[];
  startDate: string;
  endDate: string;
  /** What the order froze at checkout, never recomputed. */
  totalCents: number;
  /** The order's receipt in the page's language (price-lines.ts): the lines add up to totalCents. */
  lines: PriceLine[];
}

/** An order's payment, as far as a page or payfort-data may know it. */
export type PaymentFormState =
  | { state: 'not_found' }
  /**
   * `leadUuid` is for payfort-data's ownership check only: the page is reached with the reference
   * alone and never prints it (RULINGS 24).
   */
  | { state: 'failed' | 'expired'; lang: Language; leadUuid: string; reference: string; totalCents: number }
  | {
      state: 'paid';
      lang: Language;
      leadUuid: string;
      reference: string;
      totalCents: number;
      /** The certificate of the policy this trip was paid for (by this attempt or another), once issued. */
      certificatePath: string | null;
    }
  | {
      state: 'pending';
      lang: Language;
      leadUuid: string;
      details: PaymentDetails;
      /** The gateway's redirection form: where to post it and its signed fields (RULINGS 19). */
      form: { url: string; fields: Record<string, string> };
    };

type FormConfig = Pick<AppConfig, 'apsGatewayUrl' | 'apsRequestPhrase' | 'apsShaType'>;

const asLanguage = (value: string): Language => (value === 'ar' ? 'ar' : 'en');

/** "Karim O'Brien": the parts of a traveller's name as saved, without the blanks. */
function travellerName(traveller: { firstName: string | null; middleName: string | null; lastName: string | null }): string {
  return [traveller.firstName, traveller.middleName, traveller.lastName]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(' ');
}

/** The certificate link of the newest policy issued for this invoice's paid orders, if any. */
async function certificatePathOf(db: Db, invoiceId: number): Promise<string | null> {
  const [policy] = await db
    .select({ token: t.policies.downloadToken })
    .from(t.policies)
    .innerJoin(t.orders, eq(t.orders.id, t.policies.orderId))
    .where(and(eq(t.orders.invoiceId, invoiceId), eq(t.orders.status, 'paid')))
    .orderBy(desc(t.policies.issuedAt))
    .limit(1);
  return policy ? `/policies/${encodeURIComponent(policy.token)}/certificate.pdf` : null;
}

/**
 * Loads the order with this merchant reference and, when it can be paid, its gateway form: the
 * PURCHASE request stored as sent when the order was placed (temp-checkout), signed now, so the
 * fields a payment notice echoes are exactly the ones compared with. The page's facts come from
 * the order's contract (what is bought), never from the lead as it is now. In order:
 * - not_found: no such reference (or one APS could not carry);
 * - paid: the order is paid, or its trip already is, through another attempt (a second payment
 *   would charge twice for one policy), even when this attempt had failed; with the policy's
 *   certificate link once it is issued;
 * - failed: the gateway declined it or the customer cancelled; a retry is a new order, from checkout;
 * - expired: void (the lead's trip, plan or travellers changed since, or its coupon was
 *   withdrawn), money taken for nothing (refund), or a pending order whose hold ran out or whose
 *   coupon has been withdrawn since (order-state.ts, lapseOf);
 * - pending: the page's facts and the signed form.
 */
export async function loadPaymentForm(
  db: Db,
  config: FormConfig,
  input: { reference: string; lang?: Language | null; now: number },
): Promise<PaymentFormState> {
  if (!MERCHANT_REFERENCE_PATTERN.test(input.reference)) return { state: 'not_found' };
  const [row] = await db
    .select({
      order: t.orders,
      leadUuid: t.leads.uuid,
      invoiceStatus: t.invoices.status,
      coupon: { active: t.coupons.active, validTo: t.coupons.validTo },
    })
    .from(t.orders)
    .innerJoin(t.leads, eq(t.leads.id, t.orders.leadId))
    .innerJoin(t.invoices, eq(t.invoices.id, t.orders.invoiceId))
    .leftJoin(t.coupons, eq(t.coupons.id, t.orders.couponId))
    .where(eq(t.orders.merchantReference, input.reference));
  if (!row) return { state: 'not_found' };

  const { order } = row;
  const lang = input.lang ?? asLanguage(order.lang);
  const known = { lang, leadUuid: row.leadUuid, reference: order.merchantReference, totalCents: order.totalCents };
  // A pending or failed attempt whose trip was paid through another attempt since is "paid" too:
  // an old link must not invite a second payment (issue 17 item 10).
  if (order.status === 'paid' || ((order.status === 'pending' || order.status === 'failed') && row.invoiceStatus !== 'open')) {
    return { state: 'paid', ...known, certificatePath: await certificatePathOf(db, order.invoiceId) };
  }
  if (order.status === 'failed') return { state: 'failed', ...known };
  const { contract, purchaseFields: sent } = order;
  if (order.status !== 'pending' || !contract || !sent || lapseOf(order, row.coupon, input.now)) {
    return { state: 'expired', ...known };
  }

  const ar = lang === 'ar';
  return {
    state: 'pending',
    lang,
    leadUuid: row.leadUuid,
    details: {
      reference: order.merchantReference,
      insurer: ar ? contract.insurer.nameAr : contract.insurer.nameEn,
      plan: ar ? contract.plan.nameAr : contract.plan.nameEn,
      coverage: ar ? coverageText(contract.plan.coverageAr, lang) : contract.plan.coverageEn,
      travellers: contract.travellers.map(travellerName).filter((name) => name !== ''),
      startDate: contract.trip.startDate,
      endDate: contract.trip.endDate,
      totalCents: order.totalCents,
      lines: priceLines(contract, lang, { wrapCode: ar ? isolateLtr : undefined }),
    },
    form: { url: config.apsGatewayUrl, fields: signPurchase(sent, config) },
  };
}
