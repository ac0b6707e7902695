import { and, eq, isNull, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { leads, leadTrackers, leadTravellers } from '../db/schema';
import { InvalidLeadError } from './lead-errors';
import type { LeadValues, TravellerValues } from './lead-values';

export type LeadRow = typeof leads.$inferSelect;
export type TravellerRow = typeof leadTravellers.$inferSelect;

/** The lead with this public uuid, or null. */
export async function findLeadByUuid(db: Db, uuid: string): Promise<LeadRow | null> {
  const [lead] = await db.select().from(leads).where(eq(leads.uuid, uuid));
  return lead ?? null;
}

export interface LeadOwnership {
  uuid: string;
  customerId: number;
  deviceUuid: string;
  sessionId: string;
  agentId: number | null;
}

/** Inserts the lead, or updates `existing` in place (same id, same uuid). */
export async function saveLead(tx: Db, existing: LeadRow | null, values: LeadValues & LeadOwnership): Promise<LeadRow> {
  if (existing) {
    const [updated] = await tx
      .update(leads)
      .set({ ...values, updatedAt: sql`now()` })
      .where(eq(leads.id, existing.id))
      .returning();
    return updated!;
  }
  const [inserted] = await tx.insert(leads).values(values).returning();
  return inserted!;
}

/**
 * Makes the lead's live travellers exactly `travellers`, in that order: those with an id are
 * updated, the others inserted, and every other live traveller of the lead is soft-deleted
 * (the client's deleted_members included; ids of other leads are never touched). An id that
 * is not a live traveller of this lead refuses the whole save.
 */
export async function saveTravellers(tx: Db, leadId: number, travellers: TravellerValues[]): Promise<void> {
  const live = await tx
    .select({ id: leadTravellers.id })
    .from(leadTravellers)
    .where(and(eq(leadTravellers.leadId, leadId), isNull(leadTravellers.deletedAt)));
  const liveIds = new Set(live.map((row) => row.id));
  const kept = new Set<number>();
  const errors: Record<string, string> = {};
  travellers.forEach((traveller, index) => {
    if (traveller.id === null) return;
    if (!liveIds.has(traveller.id) || kept.has(traveller.id)) errors[`travellers_info.${index}.id`] = 'not_found';
    kept.add(traveller.id);
  });
  if (Object.keys(errors).length > 0) throw new InvalidLeadError(errors);

  const keptIds = [...kept];
  await tx
    .update(leadTravellers)
    .set({ deletedAt: sql`now()` })
    .where(
      and(
        eq(leadTravellers.leadId, leadId),
        isNull(leadTravellers.deletedAt),
        keptIds.length > 0 ? notInArray(leadTravellers.id, keptIds) : undefined,
      ),
    );
  for (const { id, ...values } of travellers) {
    if (id === null) await tx.insert(leadTravellers).values({ ...values, leadId });
    else await tx.update(leadTravellers).set(values).where(eq(leadTravellers.id, id));
  }
}

/**
 * The lead's tracker (its recent-search entry): created at stage 1 with the first save, and
 * on every later save only its last visit and device move. Returns its id (lead_map_id).
 */
export async function touchTracker(tx: Db, lead: LeadRow, today: string): Promise<number> {
  const [tracker] = await tx
    .insert(leadTrackers)
    .values({ leadId: lead.id, uuidLead: lead.uuid, deviceUuid: lead.deviceUuid, stage: 1, lastVisit: today })
    .onConflictDoUpdate({
      target: leadTrackers.leadId,
      set: { lastVisit: sql`excluded.last_visit`, deviceUuid: sql`excluded.device_uuid` },
    })
    .returning({ id: leadTrackers.id });
  return tracker!.id;
}

/**
 * A saved trip changed (add-customer-lead for an existing lead): the chosen plan was priced for
 * the old details, so the tracker goes back to stage 1 (quotes) until a plan is chosen again,
 * and the travellers' reviews no longer count towards checkout. The invoice row stays (the next
 * proceed-review overwrites it, keeping its reference) and so do the review fields, which the
 * form starts from next time.
 */
export async function unchoosePlan(tx: Db, leadId: number): Promise<void> {
  await tx.update(leadTrackers).set({ stage: 1 }).where(eq(leadTrackers.leadId, leadId));
  await tx.update(leadTravellers).set({ reviewedAt: null }).where(eq(leadTravellers.leadId, leadId));
}

/** Live (not deleted) travellers of a lead, in form order. */
export function liveTravellers(db: Db, leadId: number) {
  return db
    .select()
    .from(leadTravellers)
    .where(and(eq(leadTravellers.leadId, leadId), isNull(leadTravellers.deletedAt)))
    .orderBy(leadTravellers.position, leadTravellers.id);
}
