import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { proceedReviewEndpoint } from '../../src/contract/quote.endpoints';
import { saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import * as t from '../../src/server/db/schema';
import { completeTraveller } from '../support/review-cases';
import { onPostgres } from '../support/test-db';
import { LEBANON, type LeadTestApp } from './lead-fixtures';
import { ADDON, freshBotToken } from './order-fixtures';
import { apsResponse, createPaymentTestApp, pendingOrder, postNotice, type OrderRow, type PendingOrder } from './payment-fixtures';

/**
 * Issue 33 item 2: an edit of a lead and the gateway's success for its pending order, sent at the
 * same moment. Without a lock the edit read the invoice "open" while the payment settled it, and
 * on PostgreSQL 2 to 9 runs in 16 answered 200 to an edit the policy never saw. With the lead's
 * invoice locked first by both (invoice-store.ts lockLeadInvoice), one of two things happens in
 * every run, and nothing else:
 * - the payment commits first: the order is paid with its policy, and the edit is refused (409
 *   lead_in_deal), or for a trip edit it makes a new lead and leaves the paid one as it was;
 * - the edit commits first: it voided the order, so the payment is a refund due (order_void) and
 *   issues no policy, and the lead holds the edit.
 * Either way the lead, its invoice, the order's frozen contract and the policy agree.
 *
 * The race is real only on PostgreSQL (`npm run test:postgres` runs this file there, 50 runs per
 * edit); PGlite runs one transaction at a time, so on it the runs only check that the invariants
 * hold whichever way the two land.
 */

const RUNS = onPostgres ? 50 : 4;
/** Each of the 50 runs takes a lead to checkout through the API first: minutes on a busy machine, not the default 30 s. */
const RACE_TIMEOUT_MS = 600_000;

/** What one run ended as: which of the two committed first. */
type Landing = 'payment first' | 'edit first';

let passports = 0;
const newPassport = () => `PR${String((passports += 1)).padStart(7, '0')}`;

/** The order, its policy (if any), its refunds and the lead's invoice, as they are now. */
async function stateOf(app: LeadTestApp, order: OrderRow) {
  const [current] = await app.db.select().from(t.orders).where(eq(t.orders.id, order.id));
  const policies = await app.db.select().from(t.policies).where(eq(t.policies.orderId, order.id));
  const refunds = await app.db.select().from(t.refunds).where(eq(t.refunds.orderId, order.id));
  const [invoice] = await app.db.select().from(t.invoices).where(eq(t.invoices.id, order.invoiceId));
  return { order: current!, policies, refunds, invoice: invoice! };
}

/**
 * The two endings every run must be one of; answers which. `edited` says whether the edit's
 * answer claims it was saved on this lead (200, and for a trip edit the same uuid).
 */
async function expectOneEnding(app: LeadTestApp, pending: PendingOrder, notice: Response, edited: boolean): Promise<Landing> {
  // The gateway is told OK whatever the payment buys.
  expect({ status: notice.status, text: await notice.text() }).toEqual({ status: 200, text: 'OK' });
  const state = await stateOf(app, pending.order);
  if (state.order.status === 'paid') {
    expect({ edited, policies: state.policies.length, refunds: state.refunds, invoice: state.invoice.status }).toEqual({
      edited: false,
      policies: 1,
      refunds: [],
      invoice: 'paid',
    });
    return 'payment first';
  }
  expect({ edited, status: state.order.status, refundReason: state.order.refundReason, policies: state.policies, invoice: state.invoice.status }).toEqual({
    edited: true,
    status: 'refund',
    refundReason: 'order_void',
    policies: [],
    invoice: 'open',
  });
  expect(state.refunds).toEqual([expect.objectContaining({ reason: 'order_void', amountCents: pending.order.totalCents })]);
  return 'edit first';
}

/**
 * On PostgreSQL, sends the notice and the edit at once: both requests start before either is
 * answered. PGlite runs transactions one after the other and the notice's always reached it
 * first, so there each ending is checked in turn instead: even runs send the notice, then the
 * edit; odd runs the edit, then the notice.
 */
async function together(run: number, notice: () => Promise<Response>, edit: () => Promise<Response>): Promise<[Response, Response]> {
  if (onPostgres) return Promise.all([notice(), edit()]);
  if (run % 2 === 0) {
    const posted = await notice();
    return [posted, await edit()];
  }
  const answer = await edit();
  return [await notice(), answer];
}

/** Runs `race` RUNS times on fresh pending orders and prints how the runs landed. */
async function raceRuns(app: LeadTestApp, name: string, race: (pending: PendingOrder, run: number) => Promise<Landing>) {
  const landed: Record<Landing, number> = { 'payment first': 0, 'edit first': 0 };
  for (let run = 0; run < RUNS; run += 1) landed[await race(await pendingOrder(app), run)] += 1;
  console.log(`${name}: ${RUNS} runs on ${onPostgres ? 'PostgreSQL' : 'PGlite'}: ${landed['payment first']} payment first, ${landed['edit first']} edit first`);
}

describe('an edit and a payment of one lead at the same moment: one lands wholly before the other', () => {
  let app: LeadTestApp;
  beforeAll(async () => {
    app = await createPaymentTestApp();
  });
  afterAll(() => app.close());

  it(`traveller edit (save-traveller-info, a new passport) against the success notice, ${RUNS} runs: a 200 edit voided the order (refund due, no policy); otherwise it is refused lead_in_deal and the policy's traveller is the saved one`, async () => {
    await raceRuns(app, 'traveller edit', async (pending, run) => {
      const [traveller] = (await app.travellerRows(pending.lead.leadId)).filter((row) => row.deletedAt === null);
      const passport = newPassport();
      const values = completeTraveller(traveller!.dob, passport, { index: 0, plan: { providerId: 1000, isApiPlan: 1, isFamily: false, sourceId: LEBANON } });
      const edit = { uuid: pending.lead.uuid, insurance_id: 1000, traveller: { ...values, first_name: 'Rania', last_name: 'Haddad', id: traveller!.id }, lang: 'en' };
      const [notice, answer] = await together(run, () => postNotice(app, 'feedback', apsResponse(pending.order)), () => app.send(saveTravellerInfoEndpoint.path, edit));
      const body = (await answer.json()) as { data: { errors?: Record<string, string> } };
      const landing = await expectOneEnding(app, pending, notice, answer.status === 200);
      const [saved] = await app.db.select().from(t.leadTravellers).where(eq(t.leadTravellers.id, traveller!.id));
      const { order } = await stateOf(app, pending.order);
      // Paid first: refused, and the lead still holds the traveller the policy covers. Edited
      // first: the lead holds the new passport (and the order was voided: expectOneEnding).
      const paidFirst = landing === 'payment first';
      expect({ status: answer.status, errors: body.data.errors, saved: saved!.passport, inPolicy: paidFirst ? order.contract!.travellers[0]!.passport : null }).toEqual(
        paidFirst
          ? { status: 409, errors: { uuid: 'lead_in_deal' }, saved: traveller!.passport, inPolicy: traveller!.passport }
          : { status: 200, errors: undefined, saved: passport, inPolicy: null },
      );
      return landing;
    });
  }, RACE_TIMEOUT_MS);

  it(`plan change (proceed-review, the add-on added) against the success notice, ${RUNS} runs: a 200 choice voided the order; otherwise it is refused lead_in_deal and the paid invoice is the plan and price of the order's contract`, async () => {
    await raceRuns(app, 'plan change', async (pending, run) => {
      const choice = { uuid: pending.lead.uuid, policy_id: pending.lead.quoteId, addons: [ADDON.winter], bot_token: await freshBotToken(app.send) };
      const [notice, answer] = await together(run, () => postNotice(app, 'feedback', apsResponse(pending.order)), () => app.send(proceedReviewEndpoint.path, choice));
      const body = (await answer.json()) as { data: { errors?: Record<string, string> } };
      const landing = await expectOneEnding(app, pending, notice, answer.status === 200);
      const { order, invoice } = await stateOf(app, pending.order);
      // Paid first: refused, and the paid invoice is what the order's contract bought. Edited
      // first: the invoice holds the new choice (and the order was voided: expectOneEnding).
      const paidFirst = landing === 'payment first';
      const contract = order.contract!;
      const addons = invoice.addons.map((addon) => addon.addonId);
      expect({
        status: answer.status,
        errors: body.data.errors,
        invoice: paidFirst ? { plan: invoice.planId, price: invoice.planPriceCents, addons, total: invoice.totalWithVatCents } : { addons },
      }).toEqual({
        status: paidFirst ? 409 : 200,
        errors: paidFirst ? { uuid: 'lead_in_deal' } : undefined,
        invoice: paidFirst
          ? { plan: contract.plan.id, price: contract.price.planCents, addons: contract.addons.map((addon) => addon.addonId), total: contract.price.totalCents }
          : { addons: [ADDON.winter] },
      });
      return landing;
    });
  }, RACE_TIMEOUT_MS);

  it(`trip edit (add-customer-lead on the saved lead, dates moved) against the success notice, ${RUNS} runs: an edit saved on the lead voided the order; otherwise it made a new lead and the paid lead keeps the contract's dates`, async () => {
    await raceRuns(app, 'trip edit', async (pending, run) => {
      const edit = { ...pending.lead.body, uuid: pending.lead.uuid, session_id: pending.lead.sessionId, start_date: '2026-04-02', end_date: '2026-04-12' };
      const [notice, answer] = await together(run, () => postNotice(app, 'feedback', apsResponse(pending.order)), () => app.send(addCustomerLeadEndpoint.path, edit));
      const body = (await answer.json()) as { data: { uuid?: string } };
      expect(answer.status).toBe(200);
      const landing = await expectOneEnding(app, pending, notice, body.data.uuid === pending.lead.uuid);
      const lead = await app.leadRow(pending.lead.uuid);
      const { order } = await stateOf(app, pending.order);
      // Paid first: a new lead, and the paid one keeps the dates its policy covers. Edited first:
      // the lead holds the new dates (and the order was voided: expectOneEnding).
      const paidFirst = landing === 'payment first';
      expect({ newLead: body.data.uuid !== pending.lead.uuid, dates: [lead.startDate, lead.endDate], inPolicy: paidFirst ? [order.contract!.trip.startDate, order.contract!.trip.endDate] : null }).toEqual(
        paidFirst
          ? { newLead: true, dates: ['2026-04-01', '2026-04-10'], inPolicy: ['2026-04-01', '2026-04-10'] }
          : { newLead: false, dates: ['2026-04-02', '2026-04-12'], inPolicy: null },
      );
      return landing;
    });
  }, RACE_TIMEOUT_MS);
});
