import { isIP } from 'node:net';
import type { AppConfig } from '../config';
import type { BotCheck } from '../bot-check/bot-check';
import { isHttpsUrl } from '../config';
import type { Db } from '../db/client';
import type { LogError } from '../http/error-handler';
import { proceed, type ProceedInput } from '../orders/proceed';

/** The configuration the plan choice reads: the bot check and where the SPA is served. */
export type OrdersConfig = Pick<AppConfig, 'altchaHmacKey' | 'botCheck' | 'publicUrl'>;

/**
 * The bot check as configured. A reCAPTCHA token must come from PUBLIC_URL's host when that is
 * https (a real deployment); over http the site is also opened by LAN address or another port
 * of localhost, so any host the site key allows is taken.
 */
export function botCheckOf(config: OrdersConfig): BotCheck {
  const { botCheck } = config;
  if (botCheck.mode === 'altcha') return { mode: 'altcha', hmacKey: config.altchaHmacKey };
  return {
    mode: 'recaptcha',
    secretKey: botCheck.secretKey,
    verifyUrl: botCheck.verifyUrl,
    minScore: botCheck.minScore,
    timeoutMs: botCheck.timeoutMs,
    hostname: isHttpsUrl(config.publicUrl) ? new URL(config.publicUrl).hostname : null,
  };
}

/**
 * proceed-review and proceed-buy-now share one handler: same payload, same reads (spec §7).
 * `clientAddress` is the rate limits' key of the caller: passed to siteverify as remoteip only
 * when it is one address (an IPv6 caller is keyed by its /64, which is not).
 */
export function proceedWithPlan(
  db: Db,
  config: OrdersConfig,
  input: ProceedInput,
  request: { now: number; clientAddress: string; logError: LogError },
) {
  return proceed(db, input, {
    botCheck: botCheckOf(config),
    now: request.now,
    remoteIp: isIP(request.clientAddress) ? request.clientAddress : null,
    onBotCheckUnavailable: (reason) => request.logError({ event: 'bot_check_unavailable', reason }),
  });
}
