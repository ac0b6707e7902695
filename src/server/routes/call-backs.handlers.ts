import type { Db } from '../db/client';
import { requestCallBack, type CallBackInput } from '../call-backs/call-back-store';

/** request-call-back: the short wizard's task for the broker (RULINGS 13). */
export function requestCallBackHandler(db: Db, input: CallBackInput, now: number) {
  return requestCallBack(db, input, now);
}
