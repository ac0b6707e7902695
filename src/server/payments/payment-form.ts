import { eq } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import type { AppConfig } from '../app';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { liveTravellers } from '../leads/lead-store';
import { CHECKOUT_STAGE } from '../review/save-traveller';
import { APS_RETURN_PATH } from '../routes/payments.routes';
import { purchaseFields } from './purchase-fields';
import { MERCHANT_REFERENCE_PATTERN } from '../../contract/payment.endpoints';

/**
 * The payment form of one order, for the payments page /pay/<reference> and for payfort-data
 * (spec §7), which must always agree: both call `loadPaymentForm`.
 */

/**
 * How long a pending order can be paid from its page. Checkout makes a new order (a new
 * reference, fresh totals) in one click, so an old page is sent back there rather than
 * charging figures that may no longer be the broker's. A payment the gateway confirms later is
 * still honoured by the return handlers: this only stops a new payment from starting.
 */
export const PAYMENT_PAGE_TTL_MS = 24 * 60 * 60 * 1000;

/** What Amazon Payment Services accepts as a merchant reference; anything else names no order. */

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
}

/** An order's payment, as far as a page or payfort-data may know it. */
export type PaymentFormState =
  | { state: 'not_found' }
  /**
   * `leadUuid` is for payfort-data's ownership check only: the page is reached with the reference
   * alone and never prints it (RULINGS 24).
   */
  | { state: 'paid' | 'failed' | 'expired'; lang: Language; leadUuid: string; reference: string; totalCents: number }
  | {
      state: 'pending';
      lang: Language;
      leadUuid: string;
      details: PaymentDetails;
      /** The gateway's redirection form: where to post it and its signed fields (RULINGS 19). */
      form: { url: string; fields: Record<string, string> };
    };

type FormConfig = Pick<AppConfig, 'publicUrl' | 'apsGatewayUrl' | 'apsAccessCode' | 'apsMerchantIdentifier' | 'apsRequestPhrase' | 'apsShaType'>;

const asLanguage = (value: string): Language => (value === 'ar' ? 'ar' : 'en');

/** "Karim O'Brien": the parts of a traveller's name as saved, without the blanks. */
function travellerName(traveller: { firstName: string | null; middleName: string | null; lastName: string | null }): string {
  return [traveller.firstName, traveller.middleName, traveller.lastName]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(' ');
}

/**
 * Loads the order with this merchant reference and, when it can be paid, builds its gateway
 * form (purchase-fields.ts) in `lang` (else the order's language): customer_email is the lead's
 * e-mail (the customer's, as saved with the lead; the policy mail goes there too) and return_url
 * is PUBLIC_URL + APS_RETURN_PATH. In order:
 * - not_found: no such reference (or one APS could not carry);
 * - paid: the order is paid, or its trip already is, through another attempt (a second payment
 *   would charge twice for one policy);
 * - failed: the gateway declined it or the customer cancelled; a retry is a new order, from checkout;
 * - expired: placed more than PAYMENT_PAGE_TTL_MS ago, or priced for a trip or plan that has
 *   changed since (the travel details were saved again, or another plan or add-ons chosen), so
 *   its frozen amount no longer buys what the lead now holds;
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
      lead: { uuid: t.leads.uuid, email: t.leads.email, startDate: t.leads.startDate, endDate: t.leads.endDate },
      invoice: t.invoices,
      insurer: { nameEn: t.insurers.nameEn, nameAr: t.insurers.nameAr },
      plan: { nameEn: t.plans.nameEn, nameAr: t.plans.nameAr, coverageNameEn: t.plans.coverageNameEn, coverageNameAr: t.plans.coverageNameAr },
      stage: t.leadTrackers.stage,
    })
    .from(t.orders)
    .innerJoin(t.leads, eq(t.leads.id, t.orders.leadId))
    .innerJoin(t.invoices, eq(t.invoices.id, t.orders.invoiceId))
    .innerJoin(t.insurers, eq(t.insurers.id, t.invoices.insurerId))
    .innerJoin(t.plans, eq(t.plans.id, t.invoices.planId))
    .leftJoin(t.leadTrackers, eq(t.leadTrackers.leadId, t.orders.leadId))
    .where(eq(t.orders.merchantReference, input.reference));
  if (!row) return { state: 'not_found' };

  const { order, lead, invoice } = row;
  const lang = input.lang ?? asLanguage(order.lang);
  const known = { lang, leadUuid: lead.uuid, reference: order.merchantReference, totalCents: order.totalCents };
  if (order.status === 'paid' || (order.status === 'pending' && invoice.status !== 'open')) return { state: 'paid', ...known };
  if (order.status !== 'pending') return { state: 'failed', ...known };
  const tooOld = input.now - order.createdAt.getTime() > PAYMENT_PAGE_TTL_MS;
  const invoiceAddons = invoice.addons.reduce((sum, addon) => sum + addon.cents, 0);
  const repriced = invoice.planPriceCents !== order.planCents || invoiceAddons !== order.addonsCents || invoice.vatPercent !== order.vatPercent;
  const requoted = (row.stage ?? 0) < CHECKOUT_STAGE;
  if (tooOld || repriced || requoted) return { state: 'expired', ...known };

  const travellers = (await liveTravellers(db, order.leadId)).map(travellerName).filter((name) => name !== '');
  const ar = lang === 'ar';
  return {
    state: 'pending',
    lang,
    leadUuid: lead.uuid,
    details: {
      reference: order.merchantReference,
      insurer: ar ? row.insurer.nameAr : row.insurer.nameEn,
      plan: ar ? row.plan.nameAr : row.plan.nameEn,
      coverage: ar ? row.plan.coverageNameAr : row.plan.coverageNameEn,
      travellers,
      startDate: lead.startDate,
      endDate: lead.endDate,
      totalCents: order.totalCents,
    },
    form: {
      url: config.apsGatewayUrl,
      fields: purchaseFields({ order, config, lang, email: lead.email, returnUrl: `${config.publicUrl}${APS_RETURN_PATH}` }),
    },
  };
}
