import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type * as v from 'valibot';
import type { CheckoutTotals, tempCheckoutEndpoint } from '../../contract/checkout.endpoints';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { findActiveAgent } from '../leads/lead-checks';
import { findLeadByUuid } from '../leads/lead-store';
import { CHECKOUT_STAGE } from '../review/save-traveller';
import { checkCoupon, couponRefusal, couponTerms } from './coupons';
import { checkoutInvoice, invoiceFigures } from './invoice-store';
import { Refusal } from './refusal';
import { settlePaidOrder } from './settle-order';
import { checkoutTotals } from './totals';
import { buildOrderContract } from './order-contract';
import { purchaseRequest } from '../payments/purchase-fields';
import { APS_RETURN_PATH } from '../routes/payments.routes';

export type TempCheckoutInput = v.InferOutput<(typeof tempCheckoutEndpoint)['request']>;
export type TempCheckoutAnswer = v.InferInput<(typeof tempCheckoutEndpoint)['data']>;

/** temp-checkout's outcome: an order placed, or the page's total was not the server's (nothing placed). */
export type TempCheckoutOutcome =
  /** policyToDeliver: the policy a 100 % order issued, to mail once the transaction is committed. */
  | { placed: TempCheckoutAnswer; policyToDeliver: number | null }
  | { totalsChanged: CheckoutTotals };

const REFERENCE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * A merchant reference for one payment attempt (RULINGS 19): `SAF<invoice id>-<time, base 36>-<12
 * random>`, e.g. SAF42-MFX3K2A1-7QZC0P4M8R2D. Amazon Payment Services takes [A-Za-z0-9_.-], at
 * most 40 characters; this is at most 3 + 10 + 1 + 9 + 1 + 12 = 36. The payments page
 * /pay/<reference> shows the order's travellers, so the reference is also the page's key: 12
 * random characters (62 bits) make it unguessable (RULINGS 24), and the unique index (with a
 * retry) keeps two attempts apart.
 */
export function merchantReference(invoiceId: number, now: number): string {
  const random = [...randomBytes(12)].map((byte) => REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length]).join('');
  return `SAF${invoiceId}-${now.toString(36).toUpperCase()}-${random}`;
}

/** The path of the payments page for an order (outside the SPA, served by the server). */
export const paymentPath = (reference: string) => `/pay/${reference}`;

/** What temp-checkout needs of the configuration: the gateway request it stores as sent. */
export type TempCheckoutConfig = Pick<AppConfig, 'apsAccessCode' | 'apsMerchantIdentifier' | 'publicUrl'>;

/**
 * temp-checkout (spec §7, RULINGS 11, 18, 19): recomputes the lead's totals with the coupon and,
 * when they are the figures the page showed, places the order. In order, writing nothing unless
 * all pass, in one transaction holding the lead's invoice and tracker (two checkouts of a lead,
 * or a checkout and a payment of it, run in turn: invoice-store.ts lockLeadInvoice) and the
 * coupon's row (two checkouts of a coupon count its uses in turn):
 * - 404 unknown lead; 422 agent_mismatch / agent_unknown for an agent id that is not the lead's;
 * - 409 lead_in_deal once paid, plan_not_chosen, review_incomplete until every traveller is saved;
 * - 422 for a coupon that cannot be used (coupon/validate's codes, under `promo_code` and
 *   `coupon`; coupon_used_up when its paid uses plus the uses other leads' pending orders hold
 *   reach its limit), but only when total_price_vat is the total without it or the total it gave
 *   when it could be used: the total comes first, so a made-up total learns nothing about a code;
 * - `totalsChanged` (the route answers 409 with the fresh totals) when total_price_vat is not
 *   the server's total: with the coupon's discount when the coupon can be used, else without.
 *   An answer that says the code is no usable coupon spends one attempt of the budget
 *   coupon/validate spends (checkout.handlers.ts markingMisses, rate-limit.ts).
 * Then a new order with its own merchant reference, its contract (what is bought: plan, add-ons,
 * trip, travellers, price lines; order-contract.ts) and the PURCHASE request it will send, which
 * holds a use of its coupon for ORDER_HOLD_MS or until the lead checks out again: a lead holds one
 * coupon use at most, through its newest order (order-state.ts usesHeldByOthers). Nothing to pay
 * (a 100 % coupon): the order is paid at once and settled (settle-order.ts: the invoice paid, the
 * coupon's use counted, the policy issued). Otherwise the order waits for the payments page, and
 * is settled when the gateway says it is paid.
 */
export async function tempCheckout(db: Db, config: TempCheckoutConfig, input: TempCheckoutInput, now: number): Promise<TempCheckoutOutcome> {
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new Refusal(404, 'not_found', { uuid: 'not_found' });
  // RULINGS 24, as save-traveller-info: the lead's agent was set when it was created.
  if (input.agent_id && input.agent_id !== lead.agentId) {
    const known = await findActiveAgent(db, input.agent_id);
    throw new Refusal(422, known ? 'agent_mismatch' : 'agent_unknown', { agent_id: known ? 'agent_mismatch' : 'agent_unknown' });
  }

  return db.transaction(async (tx): Promise<TempCheckoutOutcome> => {
    const { invoice, stage } = await checkoutInvoice(tx, lead.id, true);
    if (stage < CHECKOUT_STAGE) throw new Refusal(409, 'review_incomplete', { uuid: 'review_incomplete' });
    const code = input.coupon ?? '';
    const verdict = code === '' ? null : await checkCoupon(tx, code, { insurerId: invoice.insurerId, leadId: lead.id, now }, true);
    const coupon = verdict && verdict.problem === null ? verdict.coupon! : null;
    const figures = invoiceFigures(invoice);
    const totals = checkoutTotals(figures, coupon ? couponTerms(coupon) : null);
    if (verdict?.problem) {
      // A coupon that can no longer be used, with the total it gave when it could (it was
      // withdrawn or its last use went meanwhile): the customer is told about the coupon.
      const appliedWhenUsable = verdict.coupon !== undefined && input.total_price_vat === checkoutTotals(figures, couponTerms(verdict.coupon)).total;
      if (input.total_price_vat === totals.total || appliedWhenUsable) throw couponRefusal(verdict.problem, ['promo_code', 'coupon']);
    }
    if (input.total_price_vat !== totals.total) return { totalsChanged: totals };

    const paid = totals.total === 0;
    const at = new Date(now);
    const values = {
      leadId: lead.id,
      invoiceId: invoice.id,
      couponId: coupon?.id ?? null,
      planCents: totals.plan_price,
      addonsCents: totals.addons_price,
      discountCents: totals.discount,
      vatCents: totals.vat_amount,
      stampCents: totals.stamp_fee,
      totalCents: totals.total,
      vatPercent: totals.vat_percent,
      currency: 'USD',
      lang: input.language,
      agentId: lead.agentId,
      status: paid ? 'paid' : 'pending',
      clientTotalCents: input.total_price_vat,
      createdAt: at,
      paidAt: paid ? at : null,
      contract: await buildOrderContract(tx, lead, invoice, totals, coupon?.code ?? null),
    };
    let reference: string | null = null;
    for (let attempt = 0; attempt < 5 && reference === null; attempt += 1) {
      const candidate = merchantReference(invoice.id, now);
      const purchase = paid
        ? null
        : purchaseRequest({
            order: { merchantReference: candidate, totalCents: totals.total },
            config,
            lang: input.language,
            email: lead.email,
            returnUrl: `${config.publicUrl}${APS_RETURN_PATH}`,
          });
      const inserted = await tx
        .insert(t.orders)
        .values({ ...values, merchantReference: candidate, purchaseFields: purchase })
        .onConflictDoNothing({ target: t.orders.merchantReference })
        .returning({ id: t.orders.id });
      if (inserted.length > 0) reference = candidate;
    }
    if (reference === null) throw new Error('no unique merchant reference after 5 attempts');

    let policyId: number | null = null;
    if (paid) {
      const [order] = await tx.select().from(t.orders).where(eq(t.orders.merchantReference, reference));
      // The coupon's room was checked above under its lock: this order holds its use.
      const settlement = await settlePaidOrder(tx, order!, now, true);
      if (!settlement.settled && settlement.reason === 'coupon_used_up') throw couponRefusal('coupon_used_up', ['promo_code', 'coupon']);
      if (!settlement.settled) throw new Refusal(409, 'lead_in_deal', { uuid: 'lead_in_deal' });
      if (settlement.created) policyId = settlement.policyId;
    }
    return {
      placed: { redirect_to_thank_you: paid, merchant_reference: reference, payment_url: paid ? null : paymentPath(reference), totals },
      policyToDeliver: policyId,
    };
  });
}
