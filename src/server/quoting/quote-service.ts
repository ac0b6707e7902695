import { and, eq, isNull, sql } from 'drizzle-orm';
import { ageOn } from '../../contract/dates';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { readSettings } from '../db/settings';
import { liveTravellers, type LeadRow } from '../leads/lead-store';
import { loadPlans, type InsurerRow, type LoadedPlan } from './catalogue';
import { quoteHttpInsurer, type HttpInsurerOptions } from './http-insurer';
import { noOnlineQuote, priceAll, type LeadFacts, type PlanPrice } from './quote-engine';

export type LeadQuoteRow = typeof t.leadQuotes.$inferSelect;

/** The facts the engine prices: ages on the start date of the live travellers, in form order. */
export async function leadFacts(db: Db, lead: LeadRow): Promise<LeadFacts> {
  const travellers = await liveTravellers(db, lead.id);
  const { family_child_max_age } = await readSettings(db, ['family_child_max_age']);
  return {
    ages: travellers.map((traveller) => ageOn(traveller.dob, lead.startDate)),
    tripDays: lead.noOfDays,
    tripType: lead.tripType,
    destinationIds: lead.destinationIds,
    isFamily: lead.isFamily,
    familyChildMaxAge: family_child_max_age,
  };
}

/**
 * True when no plan of the catalogue (HTTP insurers' plans included: their limits are in the
 * catalogue too) can quote the lead online, so it needs a manual quote (RULINGS 12).
 */
export async function leadNeedsManualQuote(db: Db, lead: LeadRow): Promise<boolean> {
  const [plans, facts] = await Promise.all([loadPlans(db), leadFacts(db, lead)]);
  return noOnlineQuote(plans, facts);
}

export interface QuoteRun {
  plans: LoadedPlan[];
  prices: PlanPrice[];
  /** HTTP insurers that failed; their plans are missing from `prices`. */
  unavailable: InsurerRow[];
}

/**
 * Prices every plan the lead is eligible for: catalogue insurers with the engine, HTTP
 * insurers through their adapter, all in parallel. A failing HTTP insurer is logged and
 * listed in `unavailable`; the others still quote.
 */
export async function priceLead(
  db: Db,
  facts: LeadFacts,
  http: HttpInsurerOptions & { logError: (error: unknown) => void },
): Promise<QuoteRun> {
  const plans = await loadPlans(db);
  const local = plans.filter((plan) => plan.insurer.quoteAdapter !== 'http');
  const remote = new Map<number, InsurerRow>();
  for (const plan of plans) if (plan.insurer.quoteAdapter === 'http') remote.set(plan.insurerId, plan.insurer);
  const unavailable: InsurerRow[] = [];
  const remotePrices = await Promise.all(
    [...remote.values()].map(async (insurer) => {
      // An insurer none of whose plans could take the trip is not asked at all.
      if (noOnlineQuote(plans.filter((plan) => plan.insurerId === insurer.id), facts)) return [];
      try {
        return await quoteHttpInsurer(insurer.id, plans, facts, http);
      } catch (error) {
        http.logError(error);
        unavailable.push(insurer);
        return [];
      }
    }),
  );
  const prices = [...priceAll(local, facts), ...remotePrices.flat()].sort(
    (a, b) => a.premiumCents - b.premiumCents || a.planId - b.planId,
  );
  return { plans, prices, unavailable: unavailable.sort((a, b) => a.id - b.id) };
}

/**
 * A lead's live quotes are reused for 30 minutes, and only while the lead is unchanged since
 * they were priced: reloading the list, opening the compare table or a second tab shows the
 * same quotes with the same ids, so a plan chosen on one page is still live when proceed-review
 * checks it. Database time on both sides, so the app's clock (fixed in tests) plays no part.
 */
const isFresh = sql`${t.leadQuotes.createdAt} >= greatest(${t.leads.updatedAt}, now() - interval '30 minutes')`;

type Queryable = Pick<Db, 'select'>;

/** The lead's live quotes when they are fresh (see isFresh), else an empty list. */
export async function freshQuotes(db: Queryable, leadId: number): Promise<LeadQuoteRow[]> {
  const rows = await db
    .select({ quote: t.leadQuotes })
    .from(t.leadQuotes)
    .innerJoin(t.leads, eq(t.leads.id, t.leadQuotes.leadId))
    .where(and(eq(t.leadQuotes.leadId, leadId), isNull(t.leadQuotes.supersededAt), isFresh));
  return rows.map((row) => row.quote);
}

/**
 * Stores the run as the lead's live quotes (RULINGS 11): earlier live quotes are superseded in
 * the same transaction, so an invoice can only ever be built from the newest prices. The lead
 * row is locked first; when a concurrent call stored fresh quotes meanwhile, those stay live and
 * are returned instead (`reused`), so two pages opened at once never hold different quote ids.
 */
export async function storeQuotes(db: Db, leadId: number, prices: PlanPrice[]): Promise<{ rows: LeadQuoteRow[]; reused: boolean }> {
  return db.transaction(async (tx) => {
    await tx.select({ id: t.leads.id }).from(t.leads).where(eq(t.leads.id, leadId)).for('update');
    const fresh = await freshQuotes(tx, leadId);
    if (fresh.length > 0) return { rows: fresh, reused: true };
    await tx
      .update(t.leadQuotes)
      .set({ supersededAt: sql`now()` })
      .where(and(eq(t.leadQuotes.leadId, leadId), isNull(t.leadQuotes.supersededAt)));
    if (prices.length === 0) return { rows: [], reused: false };
    const rows = await tx
      .insert(t.leadQuotes)
      .values(
        prices.map((price) => ({
          leadId,
          planId: price.planId,
          insurerId: price.insurerId,
          zone: price.zone,
          premiumCents: price.premiumCents,
          perPerson: price.perPerson,
          addons: price.addons,
        })),
      )
      .returning();
    return { rows, reused: false };
  });
}
