import { eq } from 'drizzle-orm';
import type { Language } from '../../contract/endpoint';
import type { Invoice } from '../../contract/invoice.schema';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { LeadRow } from '../leads/lead-store';
import { loadPlans, type LoadedPlan } from '../quoting/catalogue';
import { highlightsOf } from '../quoting/quote-views';
import type { CheckoutTotals } from '../../contract/checkout.endpoints';
import { invoiceView, type InvoiceTotals } from './invoice';
import { Refusal } from './refusal';
import { checkoutTotals, type OrderFigures } from './totals';

/**
 * The lead's stored invoice read back (spec §3 Invoice): the one path from an invoice row to
 * the contract's Invoice, used by proceed-review when it answers and by get-personal-details
 * whenever the page reloads, so both show the same figures.
 */

export type InvoiceRow = typeof t.invoices.$inferSelect;

/** The stage a lead reaches once a plan is chosen (spec §4: 1 quoted, 2 plan chosen, 3 checkout). */
export const PLAN_CHOSEN_STAGE = 2;

/** The totals as stored with the invoice; nothing is recomputed, so a later VAT change never alters a chosen plan's figures. */
function storedTotals(row: InvoiceRow): InvoiceTotals {
  return {
    planPriceCents: row.planPriceCents,
    addonsCents: row.addons.reduce((sum, addon) => sum + addon.cents, 0),
    totalWithoutVatCents: row.totalWithoutVatCents,
    vatPercent: row.vatPercent,
    vatCents: row.vatCents,
    stampFeeCents: row.stampFeeCents,
    totalWithVatCents: row.totalWithVatCents,
  };
}

/** A stored invoice as the contract's Invoice, labelled in `lang`, with the plan's names and highlights. */
export function invoiceOfRow(row: InvoiceRow, plan: LoadedPlan, lead: Pick<LeadRow, 'noOfTraveller' | 'isFamily'>, lang: Language): Invoice {
  return invoiceView({
    lang,
    refNo: row.quoteRefNo,
    quoteId: row.quoteId,
    provider: {
      id: plan.insurer.id,
      nameEn: plan.insurer.nameEn,
      nameAr: plan.insurer.nameAr,
      // The image name as quotes carry it; the SPA loads it from /img/<image> (spec §7).
      image: plan.insurer.logo,
    },
    plan,
    travellers: lead.noOfTraveller,
    isFamily: lead.isFamily,
    addons: row.addons,
    totals: storedTotals(row),
    highlight: highlightsOf(plan),
  });
}

/**
 * The lead's invoice while its plan is chosen: the tracker at stage 2 or later and an invoice
 * row (open, or paid and beyond). Null for a lead that never chose a plan, and for one whose
 * travel details were saved again since (the re-quote sets the stage back to 1).
 */
export async function chosenInvoice(db: Db, leadId: number): Promise<InvoiceRow | null> {
  const [row] = await db
    .select({ invoice: t.invoices, stage: t.leadTrackers.stage })
    .from(t.invoices)
    .innerJoin(t.leadTrackers, eq(t.leadTrackers.leadId, t.invoices.leadId))
    .where(eq(t.invoices.leadId, leadId));
  return row && row.stage >= PLAN_CHOSEN_STAGE ? row.invoice : null;
}

/**
 * get-personal-details' get_invoice and checkout_totals: the chosen plan's invoice in `lang` and
 * what it costs without a coupon, line by line (the totals module over the stored figures); null
 * while no plan is chosen.
 */
export async function loadChosenInvoice(db: Db, lead: LeadRow, lang: Language): Promise<{ invoice: Invoice; totals: CheckoutTotals } | null> {
  const row = await chosenInvoice(db, lead.id);
  if (!row) return null;
  const [plan] = await loadPlans(db, [row.planId]);
  return plan ? { invoice: invoiceOfRow(row, plan, lead, lang), totals: checkoutTotals(invoiceFigures(row), null) } : null;
}

/**
 * The figures an order is priced from: the stored invoice with its stored VAT percent and stamp
 * fee (never the current settings), so a coupon or a checkout prices what the customer was shown.
 */
export function invoiceFigures(row: InvoiceRow): OrderFigures {
  return { providerId: row.insurerId, planCents: row.planPriceCents, addons: row.addons, vatPercent: row.vatPercent, stampFeeCents: row.stampFeeCents };
}

/** Whether the lead's order is paid (or beyond): an open invoice is a plan chosen, not yet a deal. */
export async function leadInDeal(db: Db, leadId: number): Promise<boolean> {
  const [row] = await db.select({ status: t.invoices.status }).from(t.invoices).where(eq(t.invoices.leadId, leadId));
  return row !== undefined && row.status !== 'open';
}

/**
 * The lead's invoice row, locked until the transaction ends (undefined while no plan was ever
 * chosen: then nothing of the lead can be paid yet). It is the lead's lock between a payment and
 * an edit (issue 33 item 2): the payment notice takes it before it settles an order, and every
 * call that changes what a lead buys (add-customer-lead on a saved lead, proceed-review,
 * save-traveller-info, temp-checkout) takes it first, before any other row. So either the payment
 * commits first and the edit reads the invoice paid (409 lead_in_deal, or a new lead for a trip
 * edit), or the edit commits first and has voided the pending orders, whose payment is then a
 * refund due. Always the first lock of those transactions: one order of locks (invoice, tracker,
 * order, coupon) means they never wait for each other in a circle.
 */
export async function lockLeadInvoice(tx: Db, leadId: number): Promise<InvoiceRow | undefined> {
  const [row] = await tx.select().from(t.invoices).where(eq(t.invoices.leadId, leadId)).for('update');
  return row;
}

/**
 * The invoice a checkout call prices (coupon/validate, temp-checkout), with the tracker's stage.
 * Refuses 409 lead_in_deal once it is paid (even if the details were saved again since), then
 * 409 plan_not_chosen while no plan is chosen. `lock` holds the lead's invoice (lockLeadInvoice)
 * and then its tracker until the transaction ends, so two checkouts of one lead, or a checkout
 * and a payment of it, run one after the other.
 */
export async function checkoutInvoice(db: Db, leadId: number, lock: boolean): Promise<{ invoice: InvoiceRow; stage: number }> {
  const invoice = lock ? await lockLeadInvoice(db, leadId) : (await db.select().from(t.invoices).where(eq(t.invoices.leadId, leadId)))[0];
  const trackers = db.select().from(t.leadTrackers).where(eq(t.leadTrackers.leadId, leadId));
  const [tracker] = lock ? await trackers.for('update') : await trackers;
  if (invoice && invoice.status !== 'open') throw new Refusal(409, 'lead_in_deal', { uuid: 'lead_in_deal' });
  if (!tracker || tracker.stage < PLAN_CHOSEN_STAGE || !invoice) throw new Refusal(409, 'plan_not_chosen', { uuid: 'plan_not_chosen' });
  return { invoice, stage: tracker.stage };
}
