import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import { createBotChallenge, pruneSpentBotTokens } from '../bot-check/bot-check';

/** bot-challenge: a fresh ALTCHA challenge; spent tokens past their life are forgotten on the way. */
export async function botChallenge(db: Db, config: Pick<AppConfig, 'altchaHmacKey'>, now: number) {
  await pruneSpentBotTokens(db, now);
  const challenge = await createBotChallenge(config.altchaHmacKey, now);
  return { ...challenge };
}
