import type { AppConfig } from '../app';
import type { Db } from '../db/client';
import { proceed, type ProceedInput } from '../orders/proceed';

/** proceed-review and proceed-buy-now share one handler: same payload, same reads (spec §7). */
export function proceedWithPlan(db: Db, config: Pick<AppConfig, 'altchaHmacKey'>, input: ProceedInput, now: number) {
  return proceed(db, input, { hmacKey: config.altchaHmacKey, now });
}
