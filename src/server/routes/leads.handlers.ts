import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type * as v from 'valibot';
import type { FieldErrors } from '../../contract/error-codes';
import type { agentCheckEndpoint, latestLeadsByDeviceEndpoint, personalDetailsEndpoint } from '../../contract/lead.endpoints';
import type { leadStatusEndpoint } from '../../contract/lead-status.endpoints';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { resolveCustomer } from '../leads/customer-store';
import { findActiveAgent, leadInputErrors } from '../leads/lead-checks';
import { InvalidLeadError, LeadNotFoundError } from '../leads/lead-errors';
import { copyReviewFromPolicy } from '../leads/lead-from-policy';
import { leadStatus as statusOfLead, policyPageOfLead } from '../leads/lead-policy';
import { findLeadByUuid, saveLead, saveTravellers, touchTracker, unchoosePlan, type LeadRow } from '../leads/lead-store';
import { leadNeedsManualQuote } from '../quoting/quote-service';
import { customerValues, leadValues, travellerValues, type AddCustomerLeadInput, type CustomerValues } from '../leads/lead-values';
import { customerView, leadDetailsView, recentSearches } from '../leads/lead-views';
import { leadInDeal, loadChosenInvoice, lockLeadInvoice } from '../orders/invoice-store';
import { voidPendingOrders } from '../orders/order-state';
import { Refusal } from '../orders/refusal';
import { todayIso } from '../../contract/dates';

type Input<E extends { request: v.GenericSchema }> = v.InferOutput<E['request']>;

/** Whether any lead was issued this device id: only ids the server issued are kept. */
async function isKnownDevice(db: Db, deviceUuid: string): Promise<boolean> {
  const [row] = await db.select({ id: t.leads.id }).from(t.leads).where(eq(t.leads.deviceUuid, deviceUuid)).limit(1);
  return row !== undefined;
}

/**
 * The contact fields an edit would change on a lead (RULINGS 24): e-mail and phone may only be
 * changed by a caller holding the lead's session id, so a uuid that leaked (a forwarded link)
 * cannot redirect the customer's policy mail or calls.
 */
function contactChanges(lead: LeadRow, values: CustomerValues): FieldErrors {
  const errors: FieldErrors = {};
  if (values.email !== lead.email) errors.email = 'contact_locked';
  if (values.completePhoneNumber !== lead.completePhoneNumber) errors.phone_number = 'contact_locked';
  return errors;
}

/**
 * add-customer-lead: checks the details against the shared rules and the database, then in
 * one transaction finds or creates the customer, creates the lead (or updates the one named
 * by uuid), makes its travellers match the form and touches its tracker. When no plan can
 * quote the trip online it records a call-back task and answers redirect "thank-you". Throws
 * InvalidLeadError, LeadNotFoundError or CustomerTakenError; nothing is saved when it throws.
 *
 * Who may change what (RULINGS 24): whoever holds the uuid may re-quote (dates, destinations,
 * travellers); changing the e-mail or phone also needs the lead's session id, and only that
 * caller updates the customer record. The lead's session id, its agent and the device ids the
 * server issued are never taken from the request. Saving an existing lead again sets its stage
 * back to 1: the plan chosen before was priced for the old details (unchoosePlan), and its pending
 * orders are voided. A lead already
 * paid for is never changed: the save makes a new lead for the same customer (and agent).
 * With from_policy ("buy again" from a policy page), the travellers this save adds get the
 * review fields of that policy's travellers of the same date of birth, still to be confirmed.
 */
export async function addCustomerLead(db: Db, input: AddCustomerLeadInput, now: number) {
  const today = todayIso(now);
  const errors = await leadInputErrors(db, input, today);
  if (Object.keys(errors).length > 0) throw new InvalidLeadError(errors);

  return db.transaction(async (tx) => {
    const existing = input.uuid ? await findLeadByUuid(tx, input.uuid) : null;
    if (input.uuid && !existing) throw new LeadNotFoundError();
    // The lead's invoice is locked before anything else (lockLeadInvoice), so a payment settling
    // now is either seen paid here (the save makes a new lead) or comes after this save (its
    // order voided below, so refunded).
    const invoice = existing ? await lockLeadInvoice(tx, existing.id) : undefined;
    const paid = invoice !== undefined && invoice.status !== 'open';
    const holdsSession = existing !== null && input.session_id === existing.sessionId;
    const contact = customerValues(input);
    if (existing && !holdsSession) {
      const locked = contactChanges(existing, contact);
      if (Object.keys(locked).length > 0) throw new Refusal(422, 'contact_locked', locked);
    }
    const customer =
      existing && !holdsSession
        ? (await tx.select().from(t.customers).where(eq(t.customers.id, existing.customerId)))[0]!
        : await resolveCustomer(tx, contact, existing?.customerId ?? null);
    const deviceUuid = input.device_uuid && (await isKnownDevice(tx, input.device_uuid)) ? input.device_uuid : randomUUID();
    // A paid lead is closed: its policy was issued for the details it holds. Saving it again (a
    // shared link, a returning traveller) starts a new lead for the same customer, and the paid
    // one stays exactly as it was paid for.
    const open = existing && !paid ? existing : null;
    const lead = await saveLead(tx, open, {
      ...leadValues(input),
      uuid: open?.uuid ?? randomUUID(),
      customerId: customer.id,
      deviceUuid,
      sessionId: open?.sessionId ?? randomUUID(),
      // RULINGS 24: an agent id attributes a lead once, when it is created; later saves keep it.
      agentId: existing ? existing.agentId : input.agent_id || null,
    });
    const travellers = travellerValues(input);
    await saveTravellers(tx, lead.id, travellers);
    if (input.from_policy) {
      const added = new Set(travellers.filter((traveller) => traveller.id === null).map((traveller) => traveller.position));
      await copyReviewFromPolicy(tx, lead.id, input.from_policy, added);
    }
    const trackerId = await touchTracker(tx, lead, today);
    // Details saved again: the plan chosen for the old ones must be quoted and chosen again, and
    // an order placed for them can no longer be paid (a payment still arriving is refunded).
    if (open) {
      await unchoosePlan(tx, lead.id);
      await voidPendingOrders(tx, { leadId: lead.id }, 'trip_changed', now);
    }
    // RULINGS 12: no plan can quote this trip online, so the team calls back with a manual quote.
    const manualQuote = await leadNeedsManualQuote(tx, lead);
    if (manualQuote) {
      await tx.insert(t.callBacks).values({
        leadId: lead.id,
        reason: 'no_online_quote',
        name: lead.name,
        email: lead.email,
        completePhoneNumber: lead.completePhoneNumber,
        lang: lead.lang,
        agentId: lead.agentId,
      });
    }
    return {
      customer: customerView(customer),
      uuid: lead.uuid,
      lead_map_id: trackerId,
      session_id: !open || holdsSession ? lead.sessionId : null,
      device_uuid: lead.deviceUuid,
      redirect: manualQuote ? ('thank-you' as const) : null,
    };
  });
}

/**
 * get-personal-details: the lead's customer, the lead as saved, the chosen plan's invoice and its
 * no-coupon checkout totals (both null while none is chosen), whether the lead is already paid
 * for, its policy's page once it has one (RULINGS 28: every journey page of a paid lead leads
 * there), and its recent search.
 */
export async function personalDetails(db: Db, input: Input<typeof personalDetailsEndpoint>) {
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new LeadNotFoundError();
  const [customer] = await db.select().from(t.customers).where(eq(t.customers.id, lead.customerId));
  const chosen = await loadChosenInvoice(db, lead, input.lang);
  return {
    customer: {
      get_customer: customerView(customer!),
      lead_details: await leadDetailsView(db, lead, { lang: input.lang, sessionId: input.session_id }),
      get_invoice: chosen?.invoice ?? null,
      checkout_totals: chosen?.totals ?? null,
      isLeadAlreadyInDeal: await leadInDeal(db, lead.id),
      recent_searches: await recentSearches(db, eq(t.leadTrackers.leadId, lead.id), input.lang),
      policy_page: await policyPageOfLead(db, lead.id),
    },
  };
}

/** lead-status (RULINGS 28): whether a lead named by a link is paid, and its policy's page; LeadNotFoundError for an unknown uuid. */
export async function leadStatus(db: Db, input: Input<typeof leadStatusEndpoint>) {
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new LeadNotFoundError();
  return statusOfLead(db, lead);
}

/**
 * get-latest-leads-by-device-id: the device's recent searches, newest first. The spec's
 * client reads both data.leads and data.recent, so both carry the same list.
 */
export async function latestLeadsByDevice(db: Db, input: Input<typeof latestLeadsByDeviceEndpoint>) {
  const recent = await recentSearches(db, eq(t.leadTrackers.deviceUuid, input.device_uuid), input.lang, {
    deviceUuid: input.device_uuid,
  });
  return { leads: recent, recent };
}

/** The agent check: the active agent's id and name; InvalidLeadError when there is none. */
export async function agentCheck(db: Db, input: Input<typeof agentCheckEndpoint>) {
  const agent = await findActiveAgent(db, input.agent_id);
  if (!agent) throw new InvalidLeadError({ agent_id: 'agent_unknown' });
  return { agent };
}
