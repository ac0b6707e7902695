import { desc, eq } from 'drizzle-orm';
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

export interface CallBackListItem {
  id: number;
  created: string;
  reason: string;
  name: string;
  phone: string;
  email: string;
  lead_uuid: string | null;
}

/** Open call-back tasks, newest first, for the broker's CLI. */
export async function listOpenCallBacks(db: Db, limit = 500): Promise<CallBackListItem[]> {
  const rows = await db
    .select({ callBack: t.callBacks, leadUuid: t.leads.uuid })
    .from(t.callBacks)
    .leftJoin(t.leads, eq(t.leads.id, t.callBacks.leadId))
    .where(eq(t.callBacks.status, 'open'))
    .orderBy(desc(t.callBacks.createdAt), desc(t.callBacks.id))
    .limit(limit);
  return rows.map(({ callBack, leadUuid }) => ({
    id: callBack.id,
    created: callBack.createdAt.toISOString(),
    reason: callBack.reason,
    name: callBack.name,
    phone: callBack.completePhoneNumber,
    email: callBack.email,
    lead_uuid: leadUuid,
  }));
}
