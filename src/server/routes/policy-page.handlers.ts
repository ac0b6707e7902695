import type { Context } from 'hono';
import type * as v from 'valibot';
import type { policyCancellationEndpoint, policyPageEndpoint, policyResendEndpoint } from '../../contract/policy-page.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { message } from '../http/messages';
import { envelope } from '../http/respond';
import type { OutboxWorker } from '../mail/outbox';
import { resendPolicyMail } from '../mail/outbox-admin';
import { Refusal } from '../orders/refusal';
import { findPolicyPage, maskEmail, policyPageView, requestCancellation } from '../policies/policy-page';
import { hit, RATE_LIMITS } from '../rate-limit/rate-limit';

type Input<E extends { request: v.GenericSchema }> = v.InferOutput<E['request']>;

/** The one answer for a token that names no policy (the routes answer a malformed one the same). */
const unknownToken = () => new Refusal(404, 'not_found');

/** policy-page: the policy behind the token, as its page shows it in the asked language. */
export async function policyPage(db: Db, input: Input<typeof policyPageEndpoint>, now: number) {
  const record = await findPolicyPage(db, input.token);
  if (!record) throw unknownToken();
  return { policy: policyPageView(record, input.lang, now) };
}

/**
 * policy-page/resend: queues the certificate mail again with the function the broker's `mail
 * resend` uses (a new outbox row under a new message id) and nudges the mail worker so it goes
 * now. At most RATE_LIMITS.policyResend per policy per hour, whoever asks: past it, a 429 with
 * the translated message, Retry-After and retry_after_seconds. No audit row: the audit log is the
 * broker's changes, and the outbox row is the record of this one.
 */
export async function policyResend(
  c: Context<AppEnv>,
  deps: { db: Db; mailWorker: Pick<OutboxWorker, 'nudge'> },
  input: Input<typeof policyResendEndpoint>,
  now: number,
) {
  const record = await findPolicyPage(deps.db, input.token);
  if (!record) throw unknownToken();
  const verdict = await hit(deps.db, RATE_LIMITS.policyResend.perPolicy, String(record.data.policyId), now);
  if (!verdict.allowed) {
    c.header('Retry-After', String(verdict.retryAfterSeconds));
    return envelope(c, 429, message('policy_resend_limited', input.lang), {
      errors: { token: 'rate_limited' },
      retry_after_seconds: verdict.retryAfterSeconds,
    });
  }
  await resendPolicyMail(deps.db, record.data.policyNumber, now);
  await deps.mailWorker.nudge();
  return { email: maskEmail(record.data.email) };
}

/** policy-page/cancellation-request: records the request (policies/policy-page.ts) and answers the page as it is now. */
export async function policyCancellation(db: Db, input: Input<typeof policyCancellationEndpoint>, now: number) {
  if (!(await requestCancellation(db, input.token, { reason: input.reason, note: input.note }, now))) throw unknownToken();
  return policyPage(db, input, now);
}
