import type { Db } from '../db/client';
import { contactErrors } from '../../contract/travel-details.rules';
import { requestCallBack, type CallBackInput } from '../call-backs/call-back-store';
import { isKnownPhoneCode } from '../leads/lead-checks';
import { Refusal } from '../orders/refusal';

/**
 * request-call-back: the short wizard's task for the broker (RULINGS 13). A calling code that
 * no country has ("+9999") is refused like on add-customer-lead (spec §9), before anything counts.
 */
export async function requestCallBackHandler(db: Db, input: CallBackInput, now: number) {
  if (!(await isKnownPhoneCode(db, input.phone_country_code))) {
    throw new Refusal(422, 'invalid_request', { ...(contactErrors(input) as Record<string, string>), phone_country_code: 'phone_code_invalid' });
  }
  return requestCallBack(db, input, now);
}
