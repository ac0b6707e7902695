import { and, asc, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { CALL_BACK_STATUSES, type CallBackStatus } from '../../contract/broker-console';
import type { CallBackListItem } from '../../contract/broker-console';
import * as v from 'valibot';
import type { FieldErrors } from '../../contract/error-codes';
import type { requestCallBackEndpoint } from '../../contract/quote.endpoints';
import { nationalPhoneNumber } from '../../contract/digits';
import { contactErrors, emailSchema, nameSchema } from '../../contract/travel-details.rules';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { findActiveAgent } from '../leads/lead-checks';
import { findLeadByUuid } from '../leads/lead-store';
import { Refusal } from '../orders/refusal';
import { phoneKey } from '../rate-limit/phone-key';
import { hit, RATE_LIMITS, RateLimitedError } from '../rate-limit/rate-limit';

export type CallBackInput = v.InferOutput<typeof requestCallBackEndpoint.request>;

/** At most this many call-back requests per phone number per hour (a cheap brake on abuse). */
export const CALL_BACKS_PER_PHONE_PER_HOUR = RATE_LIMITS.requestCallBack.perPhone.limit;

/**
 * Stores a call-back task for the broker's team (RULINGS 12–13). Refuses invalid details (422),
 * an unknown agent (422) and a phone number that asked too often this hour (RateLimitedError,
 * answered 429): counted on the normalised number, so `03 555 455` and `+961 3 555 455` are one.
 */
export async function requestCallBack(db: Db, input: CallBackInput, now: number): Promise<{ call_back_id: number }> {
  // The same contact rules as the travel details form and add-customer-lead (RULINGS 13).
  const errors: FieldErrors = {};
  for (const [field, code] of Object.entries(contactErrors(input))) if (code) errors[field] = code;
  if (input.agent_id && !(await findActiveAgent(db, input.agent_id))) errors.agent_id = 'agent_unknown';
  if (Object.keys(errors).length > 0) throw new Refusal(422, 'invalid_request', errors);

  const limit = RATE_LIMITS.requestCallBack.perPhone;
  const verdict = await hit(db, limit, phoneKey(input.phone_country_code, input.phone_number), now);
  if (!verdict.allowed) throw new RateLimitedError('phone_number', verdict.retryAfterSeconds);

  const completePhoneNumber = `${input.phone_country_code}${nationalPhoneNumber(input.phone_number, input.phone_country_code)}`;

  const lead = input.uuid ? await findLeadByUuid(db, input.uuid) : null;
  const [row] = await db
    .insert(t.callBacks)
    .values({
      leadId: lead?.id ?? null,
      reason: input.reason,
      name: v.parse(nameSchema, input.name),
      email: v.parse(emailSchema, input.email).toLowerCase(),
      completePhoneNumber,
      lang: input.lang,
      agentId: input.agent_id || null,
      createdAt: new Date(now),
    })
    .returning({ id: t.callBacks.id });
  return { call_back_id: row!.id };
}

export { CALL_BACK_STATUSES, type CallBackStatus };

export type { CallBackListItem };

/**
 * Call-back tasks newest first, for the broker's team: those still to work (every status but
 * closed) by default, or those of one status.
 */
export async function listCallBacks(db: Db, status: CallBackStatus | null = null, limit = 500): Promise<CallBackListItem[]> {
  const rows = await db
    .select({ callBack: t.callBacks, leadUuid: t.leads.uuid, leadId: t.leads.id, from: t.leads.startDate, to: t.leads.endDate, destinationIds: t.leads.destinationIds })
    .from(t.callBacks)
    .leftJoin(t.leads, eq(t.leads.id, t.callBacks.leadId))
    .where(status === null ? ne(t.callBacks.status, 'closed') : eq(t.callBacks.status, status))
    .orderBy(desc(t.callBacks.createdAt), desc(t.callBacks.id))
    .limit(limit);
  const notes =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(t.callBackNotes)
          .where(inArray(t.callBackNotes.callBackId, rows.map(({ callBack }) => callBack.id)))
          .orderBy(asc(t.callBackNotes.at), asc(t.callBackNotes.id));
  // The trip the call-back came from: its dates, destinations and travellers' dates of birth.
  const leadIds = rows.flatMap((row) => (row.leadId === null ? [] : [row.leadId]));
  const travellers =
    leadIds.length === 0
      ? []
      : await db
          .select({ leadId: t.leadTravellers.leadId, dob: t.leadTravellers.dob })
          .from(t.leadTravellers)
          .where(and(inArray(t.leadTravellers.leadId, leadIds), isNull(t.leadTravellers.deletedAt)))
          .orderBy(asc(t.leadTravellers.position));
  const countryIds = [...new Set(rows.flatMap((row) => row.destinationIds ?? []))];
  const countries = countryIds.length === 0 ? [] : await db.select({ id: t.countries.id, iso2: t.countries.iso2 }).from(t.countries).where(inArray(t.countries.id, countryIds));
  const iso2 = new Map(countries.map((country) => [country.id, country.iso2]));
  return rows.map(({ callBack, leadUuid, leadId, from, to, destinationIds }) => ({
    id: callBack.id,
    created: callBack.createdAt.toISOString(),
    reason: callBack.reason,
    name: callBack.name,
    phone: callBack.completePhoneNumber,
    email: callBack.email,
    lead_uuid: leadUuid,
    status: callBack.status,
    assignee: callBack.assignee,
    notes: notes.filter((note) => note.callBackId === callBack.id).map((note) => ({ at: note.at.toISOString(), author: note.author, text: note.text })),
    trip:
      leadId === null || from === null || to === null
        ? null
        : {
            from,
            to,
            destinations: (destinationIds ?? []).map((id) => iso2.get(id) ?? String(id)),
            travellers: travellers.filter((traveller) => traveller.leadId === leadId).map((traveller) => ({ dob: traveller.dob })),
          },
  }));
}

/** A change to a call-back the team cannot make (an unknown id, nothing to change), said as it is. */
export class CallBackAdminError extends Error {}

export interface CallBackChange {
  status?: CallBackStatus;
  /** A name or e-mail; '' takes the assignee off. */
  assignee?: string;
  note?: string;
}

/** What a call-back's work looks like before or after a change (the audit log's before and after). */
export interface CallBackWork {
  status: string;
  assignee: string | null;
  note?: string;
}

/**
 * The team works a call-back (issue 36 item 3): its status, its assignee, and a note added under
 * the author's name, in one transaction. Answers the work before and after.
 */
export async function updateCallBack(db: Db, id: number, change: CallBackChange, author: string, now: number): Promise<{ before: CallBackWork; after: CallBackWork }> {
  if (change.status === undefined && change.assignee === undefined && change.note === undefined) throw new CallBackAdminError('Say what changes: --status, --assignee or --note.');
  const note = change.note?.trim();
  if (change.note !== undefined && !note) throw new CallBackAdminError('--note needs some text.');
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(t.callBacks).where(eq(t.callBacks.id, id)).for('update');
    if (!current) throw new CallBackAdminError(`No call-back has the id ${id}.`);
    const before: CallBackWork = { status: current.status, assignee: current.assignee };
    const after: CallBackWork = {
      status: change.status ?? current.status,
      assignee: change.assignee === undefined ? current.assignee : change.assignee.trim() || null,
      ...(note ? { note } : {}),
    };
    await tx.update(t.callBacks).set({ status: after.status, assignee: after.assignee }).where(eq(t.callBacks.id, id));
    if (note) await tx.insert(t.callBackNotes).values({ callBackId: id, at: new Date(now), author, text: note });
    return { before, after };
  });
}
