import { and, count, desc, eq, gt } from 'drizzle-orm';
import * as v from 'valibot';
import type { FieldErrors } from '../../contract/error-codes';
import type { requestCallBackEndpoint } from '../../contract/quote.endpoints';
import { emailSchema, nameSchema, phoneCodeSchema, phoneDigitRange } from '../../contract/travel-details.rules';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import { findActiveAgent } from '../leads/lead-checks';
import { findLeadByUuid } from '../leads/lead-store';
import { Refusal } from '../orders/refusal';

export type CallBackInput = v.InferOutput<typeof requestCallBackEndpoint.request>;

/** At most this many call-back requests per phone number per hour (a cheap brake on abuse). */
export const CALL_BACKS_PER_PHONE_PER_HOUR = 5;
const HOUR_MS = 60 * 60 * 1000;

/** The code the shared rule gives `value`, or null when it passes (same codes as add-customer-lead). */
function ruleCode(schema: v.GenericSchema, value: unknown): string | null {
  const result = v.safeParse(schema, value, { abortPipeEarly: true });
  return result.success ? null : (result.issues[0]?.message ?? 'invalid_value');
}

/** Field errors of the contact details, by the travel details rules of spec §5; empty when valid. */
export function contactErrors(input: Pick<CallBackInput, 'name' | 'email' | 'phone_country_code' | 'phone_number'>): FieldErrors {
  const errors: FieldErrors = {};
  const name = ruleCode(nameSchema, input.name);
  if (name) errors.name = name;
  const email = ruleCode(emailSchema, input.email);
  if (email) errors.email = email;
  const code = ruleCode(phoneCodeSchema, input.phone_country_code);
  if (code) errors.phone_country_code = code;
  const digits = input.phone_number.trim();
  const range = phoneDigitRange(input.phone_country_code);
  if (!digits) errors.phone_number = 'phone_required';
  else if (!/^\d+$/.test(digits) || digits.length < range.min || digits.length > range.max) errors.phone_number = range.code;
  return errors;
}

/**
 * Stores a call-back task for the broker's team (RULINGS 12–13). Refuses invalid details (422),
 * an unknown agent (422) and a phone number that asked too often in the last hour (429).
 */
export async function requestCallBack(db: Db, input: CallBackInput, now: number): Promise<{ call_back_id: number }> {
  const errors = contactErrors(input);
  if (input.agent_id && !(await findActiveAgent(db, input.agent_id))) errors.agent_id = 'agent_unknown';
  if (Object.keys(errors).length > 0) throw new Refusal(422, 'invalid_request', errors);

  const completePhoneNumber = `${input.phone_country_code}${input.phone_number.trim()}`;
  const [recent] = await db
    .select({ n: count() })
    .from(t.callBacks)
    .where(and(eq(t.callBacks.completePhoneNumber, completePhoneNumber), gt(t.callBacks.createdAt, new Date(now - HOUR_MS))));
  if ((recent?.n ?? 0) >= CALL_BACKS_PER_PHONE_PER_HOUR) throw new Refusal(429, 'rate_limited', { phone_number: 'rate_limited' });

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
