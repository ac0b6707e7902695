import type { Language } from '../../contract/endpoint';
import type { Db } from '../db/client';
import type { LeadRow } from '../leads/lead-store';
import { checkCoupon, couponTerms } from '../orders/coupons';
import { chosenInvoice, invoiceFigures } from '../orders/invoice-store';
import { checkoutTotals } from '../orders/totals';
import { loadPlans } from '../quoting/catalogue';
import { sharedCoupon, sharedPageOf, type SharedStep } from './share-texts';

/**
 * What the share texts say of the step `link` opens (issue 17): for review and checkout, the
 * lead's chosen plan; for checkout, the total the agent saw: the stored invoice's, with the
 * link's coupon when that coupon can be used now (an unusable one leaves the plan's total, and
 * the customer's checkout shows its error). A lead with no chosen plan (any more) is spoken of
 * as its quotes.
 */
export async function sharedStep(db: Db, lead: LeadRow, link: string, lang: Language, now: number): Promise<SharedStep> {
  const page = sharedPageOf(link);
  if (page === 'quotes') return { page };
  const invoice = await chosenInvoice(db, lead.id);
  const [plan] = invoice ? await loadPlans(db, [invoice.planId]) : [];
  if (!invoice || !plan) return { page: 'quotes' };
  const planName = lang === 'ar' ? plan.nameAr : plan.nameEn;
  if (page === 'review') return { page, plan: planName };
  const code = sharedCoupon(link);
  const verdict = code ? await checkCoupon(db, code, { insurerId: invoice.insurerId, leadId: lead.id, now }, false) : null;
  const terms = verdict && verdict.problem === null ? couponTerms(verdict.coupon!) : null;
  return { page, plan: planName, totalCents: checkoutTotals(invoiceFigures(invoice), terms).total };
}
