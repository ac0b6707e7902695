import { requestCallBackEndpoint } from '../../contract/quote.endpoints';
import type { CallBackPayload } from '../../../machines/call-back/call-back.types';
import { callEndpoint } from './http-client';

/**
 * Stores a call-back request (RULINGS 13): who to call, why, and the lead when known. Rejects
 * with ApiError: 422 with field codes, 429 when the visitor asked too often.
 */
export function requestCallBack(payload: CallBackPayload) {
  return callEndpoint(requestCallBackEndpoint, payload);
}
