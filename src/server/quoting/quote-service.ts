import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
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

type PriceOptions = HttpInsurerOptions & { logError: (error: unknown) => void };

/**
 * Prices every plan the lead is eligible for: catalogue insurers with the engine, HTTP
 * insurers through their adapter, all in parallel. A failing HTTP insurer is logged and
 * listed in `unavailable`; the others still quote. With `onlyInsurers`, only those HTTP
 * insurers are asked (a retry of the ones that failed) and the catalogue is not priced.
 */
export async function priceLead(
  db: Db,
  facts: LeadFacts,
  http: PriceOptions,
  onlyInsurers?: readonly number[],
  /** What loadPlans(db) answers, when the caller holds it (the catalogue kept in memory). */
  activePlans?: LoadedPlan[],
): Promise<QuoteRun> {
  const plans = activePlans ?? (await loadPlans(db));
  const local = onlyInsurers ? [] : plans.filter((plan) => plan.insurer.quoteAdapter !== 'http');
  const remote = new Map<number, InsurerRow>();
  for (const plan of plans) {
    if (plan.insurer.quoteAdapter === 'http' && (!onlyInsurers || onlyInsurers.includes(plan.insurerId))) remote.set(plan.insurerId, plan.insurer);
  }
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
 * How long a snapshot that lacks a failed insurer is reused as it is before the next call asks
 * that insurer again (issue 7 row 5). Short, so a timeout under load costs the customer one
 * reload rather than 30 minutes without that insurer; long enough that a page reloading in a
 * loop does not hammer an insurer that is down.
 */
export const FAILED_INSURER_RETRY_MS = 30_000;

/** The HTTP insurers missing from a lead's live snapshot because they failed, and when they were last asked. */
export type QuoteGap = NonNullable<LeadRow['quotesUnavailable']>;

/** The live snapshot as stored: its rows and the insurers it still lacks (null when none). */
export interface Snapshot {
  rows: LeadQuoteRow[];
  gap: QuoteGap | null;
}

/** True when the gap's insurers are due to be asked again at `nowMs` (app clock). */
export function retryDue(gap: QuoteGap | null, nowMs: number): gap is QuoteGap {
  return gap !== null && gap.insurerIds.length > 0 && nowMs - gap.askedAt >= FAILED_INSURER_RETRY_MS;
}

const gapOf = (unavailable: readonly { id: number }[], nowMs: number): QuoteGap | null =>
  unavailable.length > 0 ? { insurerIds: unavailable.map((insurer) => insurer.id).sort((a, b) => a - b), askedAt: nowMs } : null;

/** Locks the lead row (every writer of a lead's snapshot goes through this lock) and reads its gap. */
async function lockLead(tx: Pick<Db, 'select'>, leadId: number): Promise<QuoteGap | null> {
  const [row] = await tx
    .select({ gap: t.leads.quotesUnavailable })
    .from(t.leads)
    .where(eq(t.leads.id, leadId))
    .for('update');
  return row?.gap ?? null;
}

const insertPrices = (tx: Pick<Db, 'insert'>, leadId: number, prices: PlanPrice[]) =>
  tx
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

/**
 * Stores the run as the lead's live quotes (RULINGS 11): earlier live quotes are superseded in
 * the same transaction, so an invoice can only ever be built from the newest prices. The lead
 * row is locked first; when a concurrent call stored fresh quotes meanwhile, those stay live and
 * are returned instead (`reused`), so two pages opened at once never hold different quote ids.
 * The insurers that failed are stored with the snapshot (leads.quotes_unavailable), asked at `nowMs`.
 */
export async function storeQuotes(
  db: Db,
  leadId: number,
  run: Pick<QuoteRun, 'prices' | 'unavailable'>,
  nowMs: number,
): Promise<Snapshot & { reused: boolean }> {
  return db.transaction(async (tx) => {
    const storedGap = await lockLead(tx, leadId);
    const fresh = await freshQuotes(tx, leadId);
    if (fresh.length > 0) return { rows: fresh, gap: storedGap, reused: true };
    await tx
      .update(t.leadQuotes)
      .set({ supersededAt: sql`now()` })
      .where(and(eq(t.leadQuotes.leadId, leadId), isNull(t.leadQuotes.supersededAt)));
    const gap = gapOf(run.unavailable, nowMs);
    await tx.update(t.leads).set({ quotesUnavailable: gap }).where(eq(t.leads.id, leadId));
    if (run.prices.length === 0) return { rows: [], gap, reused: false };
    return { rows: await insertPrices(tx, leadId, run.prices), gap, reused: false };
  });
}

/**
 * Merges a retry of the insurers in `asked` (the gap read before asking) into the live snapshot:
 * the retried insurers' quotes join the rows already shown, whose ids stay live, and the gap
 * shrinks to the insurers that failed again, asked at `nowMs`. Under the lead row lock: when a
 * concurrent call merged its own retry first (the stored gap is no longer `asked`), that result
 * stands and is returned, so both calls answer the same quotes. Null when the snapshot went stale
 * meanwhile (the lead changed): the caller prices afresh.
 */
export async function mergeRetry(db: Db, leadId: number, asked: QuoteGap, retry: Pick<QuoteRun, 'prices' | 'unavailable'>, nowMs: number): Promise<Snapshot | null> {
  return db.transaction(async (tx) => {
    const storedGap = await lockLead(tx, leadId);
    const fresh = await freshQuotes(tx, leadId);
    if (fresh.length === 0) return null;
    const same = storedGap !== null && storedGap.askedAt === asked.askedAt && storedGap.insurerIds.join() === asked.insurerIds.join();
    if (!same) return { rows: fresh, gap: storedGap };
    const present = new Set(fresh.map((row) => row.insurerId));
    const added = retry.prices.filter((price) => asked.insurerIds.includes(price.insurerId) && !present.has(price.insurerId));
    const gap = gapOf(retry.unavailable.filter((insurer) => asked.insurerIds.includes(insurer.id)), nowMs);
    await tx.update(t.leads).set({ quotesUnavailable: gap }).where(eq(t.leads.id, leadId));
    return { rows: added.length > 0 ? [...fresh, ...(await insertPrices(tx, leadId, added))] : fresh, gap };
  });
}

/** The insurers a gap names, in id order. */
export async function gapInsurers(db: Pick<Db, 'select'>, gap: QuoteGap | null): Promise<InsurerRow[]> {
  if (!gap || gap.insurerIds.length === 0) return [];
  return db.select().from(t.insurers).where(inArray(t.insurers.id, gap.insurerIds)).orderBy(asc(t.insurers.id));
}
