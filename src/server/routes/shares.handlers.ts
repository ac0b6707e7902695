import { and, asc, eq, isNull } from 'drizzle-orm';
import type * as v from 'valibot';
import type { Language } from '../../contract/endpoint';
import type { latestLeadByIdEndpoint, latestLeadByUuidEndpoint, sendEmailByPageEndpoint } from '../../contract/quote.endpoints';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { findActiveAgent } from '../leads/lead-checks';
import { findLeadByUuid, type LeadRow } from '../leads/lead-store';
import { customerView, leadDetailsView } from '../leads/lead-views';
import { queueRenderedMailInTx, type OutboxWorker } from '../mail/outbox';
import { sharePageMail } from '../mail/share-page-mail';
import { Refusal } from '../orders/refusal';
import { shareLink, whatsappTemplate } from '../shares/share-texts';
import { sharedStep } from '../shares/shared-step';

type Input<E extends { request: v.GenericSchema }> = v.InferOutput<E['request']>;

/** How many plans the share e-mail lists (cheapest first). */
const MAIL_PLAN_COUNT = 5;

/**
 * The lead with this sequential id, only for a caller that also sent its session id (RULINGS
 * 24): ids can be walked, so an id alone opens nothing and answers like an unknown one. The
 * session id is issued together with the uuid, so the answer hands out nothing new.
 */
async function leadByIdAndSession(db: Db, id: number, sessionId: string | null): Promise<LeadRow | null> {
  if (!sessionId) return null;
  const [lead] = await db
    .select()
    .from(t.leads)
    .where(and(eq(t.leads.id, id), eq(t.leads.sessionId, sessionId)));
  return lead ?? null;
}

/** Both latest-lead reads: customer, lead, the WhatsApp text and whether the lead is already sold. */
async function latestLeadData(db: Db, publicUrl: string, lead: LeadRow | null, link: string | null, lang: Language, now: number) {
  if (!lead) throw new Refusal(404, 'not_found');
  const shared = shareLink(publicUrl, lead.uuid, link, lang);
  const [customer] = await db.select().from(t.customers).where(eq(t.customers.id, lead.customerId));
  const [invoice] = await db.select({ status: t.invoices.status }).from(t.invoices).where(eq(t.invoices.leadId, lead.id));
  return {
    customer: { get_customer: customerView(customer!), lead_details: await leadDetailsView(db, lead, { lang }) },
    whatapp_template: whatsappTemplate(lang, lead.name, shared, await sharedStep(db, lead, shared, lang, now)),
    // An open invoice is a plan chosen, not yet a deal: only a paid or issued order is.
    isLeadAlreadyInDeal: invoice !== undefined && invoice.status !== 'open',
  };
}

export async function latestLeadById(db: Db, config: Pick<AppConfig, 'publicUrl'>, input: Input<typeof latestLeadByIdEndpoint>, now: number) {
  return latestLeadData(db, config.publicUrl, await leadByIdAndSession(db, input.lead_id, input.session_id), input.link, input.lang, now);
}

export async function latestLeadByUuid(db: Db, config: Pick<AppConfig, 'publicUrl'>, input: Input<typeof latestLeadByUuidEndpoint>, now: number) {
  return latestLeadData(db, config.publicUrl, await findLeadByUuid(db, input.uuid), input.link, input.lang, now);
}

/** The lead's live quotes, cheapest first, as the share e-mail lists them. */
async function livePlans(db: Db, leadId: number, lang: Language) {
  const rows = await db
    .select({ nameEn: t.plans.nameEn, nameAr: t.plans.nameAr, cents: t.leadQuotes.premiumCents })
    .from(t.leadQuotes)
    .innerJoin(t.plans, eq(t.plans.id, t.leadQuotes.planId))
    .where(and(eq(t.leadQuotes.leadId, leadId), isNull(t.leadQuotes.supersededAt)))
    .orderBy(asc(t.leadQuotes.premiumCents))
    .limit(MAIL_PLAN_COUNT);
  return rows.map((row) => ({ name: lang === 'ar' ? row.nameAr : row.nameEn, cents: row.cents }));
}

/**
 * send-email-by-page: e-mails the customer the page the agent shares (RULINGS 15), in the
 * customer's language (the lead's). The mail is worded now, as the agent sees the step, and
 * queued in the outbox (mail/outbox.ts, issue 18 item 1); the nudged worker sends it through the
 * mail transport (RULINGS 22) before the answer when it can, and after any crash when it cannot.
 * The text names the step the link opens, and the link carries that language (and from checkout
 * the coupon).
 */
export async function sendEmailByPage(
  db: Db,
  mailWorker: Pick<OutboxWorker, 'nudge'>,
  publicUrl: string,
  input: Input<typeof sendEmailByPageEndpoint>,
  now: number,
) {
  const lead = await findLeadByUuid(db, input.uuid);
  if (!lead) throw new Refusal(404, 'not_found', { uuid: 'not_found' });
  if (input.agent_id && !(await findActiveAgent(db, input.agent_id))) {
    throw new Refusal(422, 'agent_unknown', { agent_id: 'agent_unknown' });
  }
  const lang: Language = lead.lang === 'ar' || lead.lang === 'en' ? lead.lang : input.lang;
  const link = shareLink(publicUrl, lead.uuid, input.link, lang);
  const step = await sharedStep(db, lead, link, lang, now);
  const plans = step.page === 'quotes' ? await livePlans(db, lead.id, lang) : [];
  const mail = sharePageMail(lang, lead.name, link, step, plans);
  // Nothing else changes with a share, so the row is its own transaction.
  await queueRenderedMailInTx(db, `share-${input.pagename}`, { leadId: lead.id, to: lead.email, ...mail }, now);
  await mailWorker.nudge();
  return { sent: true };
}
