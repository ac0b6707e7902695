import { eq, inArray, sql } from 'drizzle-orm';
import type * as v from 'valibot';
import type { Language } from '../../contract/endpoint';
import type { compareQuotesEndpoint, QuotedLead } from '../../contract/quote.endpoints';
import type { AppConfig } from '../app';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { LeadNotFoundError } from '../leads/lead-errors';
import { findLeadByUuid, touchTracker, type LeadRow } from '../leads/lead-store';
import { customerView, leadDetailsView } from '../leads/lead-views';
import { loadPlans } from '../quoting/catalogue';
import { freshQuotes, gapInsurers, leadFacts, mergeRetry, priceLead, retryDue, storeQuotes } from '../quoting/quote-service';
import { quoteView } from '../quoting/quote-views';
import { shareLink, whatsappTemplate } from '../shares/share-texts';

type Input<E extends { request: v.GenericSchema }> = v.InferOutput<E['request']>;
type Output<E extends { data: v.GenericSchema }> = v.InferInput<E['data']>;

export interface QuotesDeps {
  db: Db;
  config: Pick<AppConfig, 'publicUrl' | 'insurerApiUrl' | 'insurerTimeoutMs'>;
  insurerFetch: typeof fetch;
  logError: (error: unknown) => void;
}

/** The lead as the quote list heads it: saved details, place names in `lang` and the tracker stage. */
async function quotedLead(db: Db, lead: LeadRow, stage: number, lang: Language): Promise<QuotedLead> {
  const ids = [...new Set([...lead.destinationIds, lead.sourceId])];
  const countries = await db.select().from(t.countries).where(inArray(t.countries.id, ids));
  const name = (id: number) => {
    const country = countries.find((row) => row.id === id);
    return country ? (lang === 'ar' ? country.nameAr : country.nameEn) : String(id);
  };
  return {
    ...(await leadDetailsView(db, lead)),
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
async function liveOrNewQuotes(deps: QuotesDeps, lead: LeadRow, nowMs: number) {
  const { db, config } = deps;
  const http = { url: config.insurerApiUrl, timeoutMs: config.insurerTimeoutMs, fetch: deps.insurerFetch, logError: deps.logError };
  const fresh = await freshQuotes(db, lead.id);
  if (fresh.length > 0) {
    const gap = lead.quotesUnavailable;
    if (!retryDue(gap, nowMs)) return { stored: fresh, unavailable: await gapInsurers(db, gap) };
    const retry = await priceLead(db, await leadFacts(db, lead), http, gap.insurerIds);
    const merged = await mergeRetry(db, lead.id, gap, retry, nowMs);
    if (merged) return { stored: merged.rows, unavailable: await gapInsurers(db, merged.gap) };
  }
  const run = await priceLead(db, await leadFacts(db, lead), http);
  const { rows, gap } = await storeQuotes(db, lead.id, run, nowMs);
  return { stored: rows, unavailable: await gapInsurers(db, gap) };
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
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new LeadNotFoundError();
  const { stored, unavailable } = await liveOrNewQuotes(deps, lead, nowMs);

  const trackerId = await touchTracker(db, lead, today);
  const [tracker] = await db
    .update(t.leadTrackers)
    .set({ stage: sql`greatest(${t.leadTrackers.stage}, 1)` })
    .where(eq(t.leadTrackers.id, trackerId))
    .returning({ stage: t.leadTrackers.stage });
  const [customer] = await db.select().from(t.customers).where(eq(t.customers.id, lead.customerId));

  const plans = new Map((await loadPlans(db, [...new Set(stored.map((row) => row.planId))])).map((plan) => [plan.id, plan]));
  const quotes = stored
    .map((row) => quoteView(row, plans.get(row.planId)!, lead, lang))
    .sort((a, b) => a.premium - b.premium || a.provider_plan_id - b.provider_plan_id);
  return {
    quotes,
    customer: customerView(customer!),
    lead: await quotedLead(db, lead, tracker!.stage, lang),
    whatapp_template: whatsappTemplate(lang, customer!.name, shareLink(config.publicUrl, lead.uuid, input.link, lang)),
    // Nothing priced because an insurer failed: the SPA shows its error view, not "No Quotes Found".
    hasError: quotes.length === 0 && unavailable.length > 0,
    unavailable_providers: unavailable.map((insurer) => ({ id: insurer.id, name: lang === 'ar' ? insurer.nameAr : insurer.nameEn })),
  };
}
