import { HOME_PHONE_CODE, type TravelDetailsErrors } from '../../src/contract/travel-details.rules';
import type { CallBackContext, CallBackPayload, CallBackValues } from './call-back.types';
import { isAgentId, refusalCodes } from '../travel-details/travel-details.payload';

/** The fields of the call-back form, in screen order: the first invalid one gets focus. */
export const CONTACT_FIELDS = ['name', 'phone_country_code', 'phone_number', 'email'] as const;

/** An empty form with the home calling code (spec §9 default +961). */
export const blankCallBackValues = (): CallBackValues => ({ name: '', email: '', phone_country_code: HOME_PHONE_CODE, phone_number: '' });

/** The request as sent: name and e-mail trimmed, the lead and agent when known. */
export function toCallBackPayload(values: CallBackValues, context: Pick<CallBackContext, 'lang' | 'reason' | 'leadUuid' | 'agentId'>): CallBackPayload {
  return {
    name: values.name.trim().replace(/\s+/g, ' '),
    email: values.email.trim(),
    phone_country_code: values.phone_country_code,
    phone_number: values.phone_number,
    uuid: context.leadUuid,
    reason: context.reason,
    agent_id: isAgentId(context.agentId) ? context.agentId : 0,
    lang: context.lang,
  };
}

/** The server's rate limit on call-back requests refused this one (429). */
export const isRateLimited = (error: unknown) => typeof error === 'object' && error !== null && 'status' in error && error.status === 429;

/** Codes of a refusal that belong on the form's own fields; others cannot be fixed by typing. */
export function contactRefusalCodes(error: unknown): TravelDetailsErrors {
  const codes = refusalCodes(error);
  return Object.fromEntries(CONTACT_FIELDS.flatMap((field) => (codes[field] ? [[field, codes[field]]] : [])));
}

/** The server does not know the agent named by agent_id (RULINGS 14). */
export const isCallBackAgentUnknown = (error: unknown) => refusalCodes(error).agent_id === 'agent_unknown';
