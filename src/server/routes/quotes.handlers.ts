import { eq, inArray, sql } from 'drizzle-orm';
import type * as v from 'valibot';
import type { Language } from '../../contract/endpoint';
import type { compareQuotesEndpoint, QuotedLead } from '../../contract/quote.endpoints';
import type { AppConfig } from '../config';
import { batchedReader } from '../db/batched-reader';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { LeadNotFoundError } from '../leads/lead-errors';
import { touchTracker, type LeadRow } from '../leads/lead-store';
import { customerView, leadDetailsView, travellerLabels } from '../leads/lead-views';
import { loadCatalogue, loadPlans, type Catalogue } from '../quoting/catalogue';
import { freshQuotes, leadFacts, mergeRetry, priceLead, retryDue, storeQuotes, type QuoteGap } from '../quoting/quote-service';
import type { ReferenceData } from '../reference/reference-data';
import { quoteView } from '../quoting/quote-views';
import { shareLink, whatsappTemplate } from '../shares/share-texts';

type Input<E extends { request: v.GenericSchema }> = v.InferOutput<E['request']>;
type Output<E extends { data: v.GenericSchema }> = v.InferInput<E['data']>;

export interface QuotesDeps {
  db: Db;
  config: Pick<AppConfig, 'publicUrl' | 'insurerApiUrl' | 'insurerTimeoutMs'>;
  /** Where the catalogue and the traveller labels are kept in memory between changes. */
  reference: ReferenceData;
  insurerFetch: typeof fetch;
  logError: (error: unknown) => void;
}

/** The lead as the quote list heads it: saved details, place names in `lang` and the tracker stage. */
async function quotedLead(deps: QuotesDeps, lead: LeadRow, stage: number, lang: Language): Promise<QuotedLead> {
  const labels = (language: Language) => deps.reference.get(`traveller-labels ${language}`, () => travellerLabels(deps.db, language));
  const names = (await labels(lang)).countries;
  const name = (id: number) => names.get(id) ?? String(id);
  // leadDetailsView names places in the lead's own language, whatever the page's.
  const details = await leadDetailsView(deps.db, lead, { labels: await labels(lead.lang as Language) });
  return {
    ...details,
    destination_names: lead.destinationIds.map(name),
    source_name: name(lead.sourceId),
    stage: Math.min(Math.max(stage, 1), 3) as QuotedLead['stage'],
  };
}

/**
 * The lead's fresh live quotes, or a new pricing run stored as its snapshot. A snapshot that
 * lacks insurers because they failed keeps naming them as unavailable on every reuse, and once
 * FAILED_INSURER_RETRY_MS have passed since they were last asked (app clock), this call asks only
 * them again and merges their quotes into the snapshot (issue 7 row 5).
 */
async function liveOrNewQuotes(deps: QuotesDeps, lead: LeadRow, nowMs: number, catalogue: Catalogue) {
  const { db, config } = deps;
  const http = { url: config.insurerApiUrl, timeoutMs: config.insurerTimeoutMs, fetch: deps.insurerFetch, logError: deps.logError };
  // The insurers a gap names, in id order (those the catalogue copy lacks are not named).
  const gapInsurers = (gap: QuoteGap | null) => catalogue.insurers.filter((insurer) => gap?.insurerIds.includes(insurer.id));
  const fresh = await freshQuotes(db, lead.id);
  if (fresh.length > 0) {
    const gap = lead.quotesUnavailable;
    if (!retryDue(gap, nowMs)) return { stored: fresh, unavailable: gapInsurers(gap) };
    const retry = await priceLead(db, await leadFacts(db, lead), http, gap.insurerIds, catalogue.active);
    const merged = await mergeRetry(db, lead.id, gap, retry, nowMs);
    if (merged) return { stored: merged.rows, unavailable: gapInsurers(merged.gap) };
  }
  const run = await priceLead(db, await leadFacts(db, lead), http, undefined, catalogue.active);
  const { rows, gap } = await storeQuotes(db, lead.id, run, nowMs);
  return { stored: rows, unavailable: gapInsurers(gap) };
}

/** The lead by its uuid with its customer and its tracker (null before its first tracker), in one read. */
async function leadWithCustomer(db: Db, uuid: string) {
  const [row] = await db
    .select({ lead: t.leads, customer: t.customers, tracker: t.leadTrackers })
    .from(t.leads)
    .innerJoin(t.customers, eq(t.customers.id, t.leads.customerId))
    .leftJoin(t.leadTrackers, eq(t.leadTrackers.leadId, t.leads.id))
    .where(eq(t.leads.uuid, uuid));
  return row ?? null;
}

/**
 * What compare-quotes answers for a lead is a function of these rows, so their versions, read in
 * one query, tell whether an answer built earlier still holds: the lead, its customer and tracker
 * rows (xmin: a row's version, new with every update), the ids of its fresh live quotes (isFresh
 * of quote-service.ts, evaluated by the database now, so quotes past 30 minutes drop out; a quote
 * row never changes but for being superseded) and its travellers' versions. Also what decides
 * whether the call would write: the tracker's visit and the insurers a retry is due for.
 * Leads asked for at once are read together (batchedReader).
 */
function quoteStamps(db: Db) {
  return batchedReader(async (uuids: string[]) => {
    const rows = await db
      .select({
        uuid: t.leads.uuid,
        deviceUuid: t.leads.deviceUuid,
        gap: t.leads.quotesUnavailable,
        trackerStage: t.leadTrackers.stage,
        trackerLastVisit: t.leadTrackers.lastVisit,
        trackerDeviceUuid: t.leadTrackers.deviceUuid,
        quoteIds: sql<string | null>`(select string_agg(q.id::text, ',' order by q.id) from ${t.leadQuotes} q
          where q.lead_id = ${t.leads.id} and q.superseded_at is null
            and q.created_at >= greatest(${t.leads.updatedAt}, now() - interval '30 minutes'))`,
        versions: sql<string>`concat_ws('|', ${t.leads.id}, ${t.leads}.xmin, ${t.customers}.xmin, ${t.leadTrackers}.xmin,
          (select string_agg(lt.id || ':' || lt.xmin, ',' order by lt.id) from ${t.leadTravellers} lt where lt.lead_id = ${t.leads.id}))`,
      })
      .from(t.leads)
      .innerJoin(t.customers, eq(t.customers.id, t.leads.customerId))
      .leftJoin(t.leadTrackers, eq(t.leadTrackers.leadId, t.leads.id))
      .where(inArray(t.leads.uuid, uuids));
    return new Map(rows.map((row) => [row.uuid, row]));
  });
}

/** Answers built earlier, by request, with the stamp they were built under; the oldest go first past `max`. */
export function answerMemo<A>(db: Db, max: number) {
  const stamps = quoteStamps(db);
  const entries = new Map<string, { stamp: string; answer: A }>();
  return {
    stamp: stamps,
    get(key: string, stamp: string): A | undefined {
      const entry = entries.get(key);
      return entry && entry.stamp === stamp ? entry.answer : undefined;
    },
    set(key: string, stamp: string, answer: A) {
      entries.delete(key);
      entries.set(key, { stamp, answer });
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}

/**
 * compare-quotes through its memo: for a lead that has not changed since its answer was built
 * (same stamp: its rows, the catalogue and label version), the stored answer is sent as it is,
 * after one read: no pricing, no catalogue, no write. Anything else (no fresh quotes, an insurer
 * retry due, a tracker visit to record, any change of the lead, its travellers, customer or
 * quotes, or of the catalogue) goes through compareQuotes. The stamp is read before the answer
 * is built, so an answer is never filed under a stamp newer than its data: a change in between
 * only makes the next call build again.
 */
export async function compareQuotesAnswer<A>(
  deps: QuotesDeps,
  memo: ReturnType<typeof answerMemo<A>>,
  input: Input<typeof compareQuotesEndpoint>,
  today: string,
  nowMs: number,
  build: (data: Output<typeof compareQuotesEndpoint>) => A,
  /** What else the answer depends on (the envelope's language). */
  variant: string,
): Promise<A> {
  const found = await memo.stamp(input.uuid);
  if (!found) throw new LeadNotFoundError();
  const key = `${variant} ${JSON.stringify(input)}`;
  const stamp = `${await deps.reference.version()} ${found.versions} ${found.quoteIds}`;
  const reusable =
    found.quoteIds !== null &&
    !retryDue(found.gap, nowMs) &&
    found.trackerStage !== null &&
    found.trackerStage >= 1 &&
    found.trackerLastVisit === today &&
    found.trackerDeviceUuid === found.deviceUuid;
  const kept = reusable ? memo.get(key, stamp) : undefined;
  if (kept !== undefined) return kept;
  const answer = build(await compareQuotes(deps, input, today, nowMs));
  if (reusable) memo.set(key, stamp, answer);
  return answer;
}

/**
 * compare-quotes: prices every plan the lead may take (HTTP insurers through their adapter),
 * stores the snapshot against the lead, raises the tracker to at least stage 1 and answers the
 * quotes cheapest first. `nowMs` is the app's clock, for retrying insurers that failed. Throws
 * LeadNotFoundError for an unknown uuid.
 */
export async function compareQuotes(
  deps: QuotesDeps,
  input: Input<typeof compareQuotesEndpoint>,
  today: string,
  nowMs: number,
): Promise<Output<typeof compareQuotesEndpoint>> {
  const { db, config, lang } = { ...deps, lang: input.lang };
  const found = await leadWithCustomer(db, input.uuid);
  if (!found) throw new LeadNotFoundError();
  const { lead, customer } = found;
  // The catalogue as of its last change, from memory: a lead whose quotes are stored reads no plan.
  const catalogue = await deps.reference.get('catalogue', () => loadCatalogue(db));
  const { stored, unavailable } = await liveOrNewQuotes(deps, lead, nowMs, catalogue);

  // A visit that changes nothing on the tracker (seen today from this device, already at the
  // quotes stage or past it) writes nothing: reloading the quotes list is a read.
  let stage = found.tracker?.stage ?? 0;
  const current = found.tracker && found.tracker.lastVisit === today && found.tracker.deviceUuid === lead.deviceUuid && stage >= 1;
  if (!current) {
    const trackerId = await touchTracker(db, lead, today);
    const [tracker] = await db
      .update(t.leadTrackers)
      .set({ stage: sql`greatest(${t.leadTrackers.stage}, 1)` })
      .where(eq(t.leadTrackers.id, trackerId))
      .returning({ stage: t.leadTrackers.stage });
    stage = tracker!.stage;
  }

  // A plan the copy lacks (added after it was read and before the version check saw it) is read as before.
  const missing = [...new Set(stored.map((row) => row.planId))].filter((id) => !catalogue.byId.has(id));
  const extra = new Map((await loadPlans(db, missing)).map((plan) => [plan.id, plan]));
  const quotes = stored
    .map((row) => quoteView(row, (catalogue.byId.get(row.planId) ?? extra.get(row.planId))!, lead, lang))
    .sort((a, b) => a.premium - b.premium || a.provider_plan_id - b.provider_plan_id);
  return {
    quotes,
    customer: customerView(customer),
    lead: await quotedLead(deps, lead, stage, lang),
    whatapp_template: whatsappTemplate(lang, customer.name, shareLink(config.publicUrl, lead.uuid, input.link, lang)),
    // Nothing priced because an insurer failed: the SPA shows its error view, not "No Quotes Found".
    hasError: quotes.length === 0 && unavailable.length > 0,
    unavailable_providers: unavailable.map((insurer) => ({ id: insurer.id, name: lang === 'ar' ? insurer.nameAr : insurer.nameEn })),
  };
}
