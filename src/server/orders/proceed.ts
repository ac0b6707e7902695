import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type * as v from 'valibot';
import { todayIso } from '../../contract/dates';
import type { proceedRequestSchema } from '../../contract/quote.endpoints';
import { checkBotToken, type BotCheck } from '../bot-check/bot-check';
import type { RecaptchaUnavailable } from '../bot-check/recaptcha';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { readSettings } from '../db/settings';
import { findActiveAgent } from '../leads/lead-checks';
import { findLeadByUuid } from '../leads/lead-store';
import { chooseAddons, invoiceTotals, premiumMismatch, quoteRefNo } from './invoice';
import { invoiceOfRow, lockLeadInvoice, PLAN_CHOSEN_STAGE } from './invoice-store';
import { loadPlans } from '../quoting/catalogue';
import { voidPendingOrders } from './order-state';
import { Refusal } from './refusal';

export type ProceedInput = v.InferOutput<typeof proceedRequestSchema>;

/**
 * proceed-review / proceed-buy-now: spends the bot-check token, then builds the lead's invoice
 * from the server's own live quote and the chosen add-ons (RULINGS 11), and raises the tracker
 * to stage 2, in one transaction. Throws Refusal (403 bot check failed or not checkable, 404
 * lead, 409 stale quote or paid lead, 422 add-ons or agent); nothing is saved when it throws. The invoice it answers is
 * the stored row read through invoiceOfRow, as get-personal-details answers it later.
 */
export async function proceed(
  db: Db,
  input: ProceedInput,
  deps: { botCheck: BotCheck; now: number; remoteIp: string | null; onBotCheckUnavailable?: (reason: RecaptchaUnavailable) => void },
) {
  const verdict = await checkBotToken(db, input.bot_token, deps.botCheck, {
    now: deps.now,
    remoteIp: deps.remoteIp,
    onUnavailable: deps.onBotCheckUnavailable,
  });
  // A verify endpoint that is down is still a refusal (never a 5xx), with its own words.
  if (verdict === 'unavailable') throw new Refusal(403, 'bot_check_unavailable', { bot_token: 'bot_check_unavailable' });
  if (verdict === 'failed') throw new Refusal(403, 'bot_check_failed', { bot_token: 'bot_check_failed' });
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new Refusal(404, 'not_found', { uuid: 'not_found' });
  // RULINGS 24: the lead's agent was set when it was created; a choice never re-credits it.
  if (input.agent_id && input.agent_id !== lead.agentId) {
    const known = await findActiveAgent(db, input.agent_id);
    throw new Refusal(422, known ? 'agent_mismatch' : 'agent_unknown', { agent_id: known ? 'agent_mismatch' : 'agent_unknown' });
  }

  const [quote] = await db.select().from(t.leadQuotes).where(eq(t.leadQuotes.id, input.policy_id));
  // A quote of another lead is answered like a stale one: it says nothing about that lead.
  if (!quote || quote.leadId !== lead.id || quote.supersededAt !== null) {
    throw new Refusal(409, 'quote_expired', { policy_id: 'quote_expired' });
  }
  const [plan] = await loadPlans(db, [quote.planId]);
  if (!plan) throw new Refusal(409, 'quote_expired', { policy_id: 'quote_expired' });
  const addons = chooseAddons(quote.addons, input.addons, new Map(plan.addons.map((addon) => [addon.id, addon])));
  if (!addons) throw new Refusal(422, 'invalid_request', { addons: 'invalid_value' });

  const settings = await readSettings(db, ['vat_percent', 'stamp_fee_cents']);
  const totals = invoiceTotals(quote.insurerId, quote.premiumCents, addons, settings);
  const mismatch = premiumMismatch(input.selected_premium, totals);
  const agentId = lead.agentId;
  const now = new Date(deps.now);

  const saved = await db.transaction(async (tx) => {
    // Locked (lockLeadInvoice): a payment of this lead settles either before this choice (which
    // then answers lead_in_deal) or after it (its order voided below, so refunded).
    const current = await lockLeadInvoice(tx, lead.id);
    if (current && current.status !== 'open') throw new Refusal(409, 'lead_in_deal', { uuid: 'lead_in_deal' });
    // A plan chosen again (even the same one: the add-ons may differ): orders placed for the
    // previous choice can no longer be paid.
    await voidPendingOrders(tx, { leadId: lead.id }, 'plan_changed', deps.now);
    // Another insurer asks for other traveller fields (spec §5): the travellers are reviewed again
    // for it, so the lead goes back to stage 2. Another plan of the same insurer keeps the review.
    const otherInsurer = current !== undefined && current.insurerId !== quote.insurerId;
    if (otherInsurer) await tx.update(t.leadTravellers).set({ reviewedAt: null }).where(eq(t.leadTravellers.leadId, lead.id));
    const values = {
      quoteId: quote.id,
      insurerId: quote.insurerId,
      planId: quote.planId,
      planPriceCents: totals.planPriceCents,
      addons,
      totalWithoutVatCents: totals.totalWithoutVatCents,
      vatPercent: totals.vatPercent,
      vatCents: totals.vatCents,
      stampFeeCents: totals.stampFeeCents,
      totalWithVatCents: totals.totalWithVatCents,
      clientPremiumMismatch: mismatch,
      agentId,
      updatedAt: now,
    };
    // One invoice per lead: a new choice replaces the figures and keeps its reference. The
    // reference needs the row id, so a fresh row gets a placeholder first.
    let [row] = await tx
      .insert(t.invoices)
      .values({ ...values, leadId: lead.id, quoteRefNo: `pending-${randomUUID()}` })
      .onConflictDoUpdate({ target: t.invoices.leadId, set: values })
      .returning();
    if (row!.quoteRefNo.startsWith('pending-')) {
      [row] = await tx
        .update(t.invoices)
        .set({ quoteRefNo: quoteRefNo(now.getUTCFullYear(), row!.id) })
        .where(eq(t.invoices.id, row!.id))
        .returning();
    }
    const refNo = row!.quoteRefNo;
    const [tracker] = await tx
      .insert(t.leadTrackers)
      .values({
        leadId: lead.id,
        uuidLead: lead.uuid,
        deviceUuid: lead.deviceUuid,
        stage: PLAN_CHOSEN_STAGE,
        lastVisit: todayIso(deps.now),
        insuranceProviderId: quote.insurerId,
        planId: quote.planId,
        planRefId: refNo,
      })
      .onConflictDoUpdate({
        target: t.leadTrackers.leadId,
        set: {
          stage: otherInsurer ? PLAN_CHOSEN_STAGE : sql`greatest(${t.leadTrackers.stage}, ${PLAN_CHOSEN_STAGE})`,
          insuranceProviderId: quote.insurerId,
          planId: quote.planId,
          planRefId: refNo,
          lastVisit: todayIso(deps.now),
        },
      })
      .returning({ stage: t.leadTrackers.stage });
    return { invoice: row!, stage: tracker!.stage };
  });

  return {
    leads: { uuid: lead.uuid, stage: Math.min(3, Math.max(1, saved.stage)) as 1 | 2 | 3 },
    // RULINGS 24: a device or session id goes only to a caller that already holds it.
    device_uuid: null,
    session_id: input.session_id === lead.sessionId ? lead.sessionId : null,
    invoice: invoiceOfRow(saved.invoice, plan, lead, input.lang),
  };
}

