import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import type { LogError } from '../http/error-handler';
import { createQueueWorker, DeliveryRefusedError, logGivingUp, queueInTx, type OutboxRow, type OutboxWorker, type WorkerSchedule } from '../mail/outbox';
import { APS_FEEDBACK_PATH } from '../routes/payments.routes';
import type { FormFields } from './sandbox-gateway';

/**
 * The embedded APS sandbox's direct transaction feedback (RULINGS 20), made durable (issue 18
 * item 1): the signed answer of a session is queued in the outbox (queue aps-feedback) in the
 * transaction that records the answer (sandbox-sessions.ts), and this queue's worker POSTs it
 * to the notification endpoint, PUBLIC_URL + APS_FEEDBACK_PATH, until a 200 answers, with the
 * outbox's backoff (mail/outbox.ts). So an order the sandbox paid is settled even when the
 * customer never comes back and the server was killed right after the payment: the next start
 * delivers it. The endpoint applies a notice once (payment-notice.ts), so an attempt repeated
 * after a crash between its 200 and the mark changes nothing.
 */

/** One feedback POST may take this long before it counts as not acknowledged. */
const FEEDBACK_TIMEOUT_MS = 10_000;
/** Feedback POSTs under way at once per instance (a claimed batch is at most five). */
const FEEDBACK_CONCURRENCY = 5;

/** Queues a session's signed answer for the notification endpoint, in the caller's transaction. */
export const queueSandboxFeedbackInTx = (tx: Db, fields: FormFields, now: number): Promise<number> =>
  queueInTx(tx, { queue: 'aps-feedback', kind: 'aps-feedback', payload: { fields: { ...fields } } }, now);

/** The signed fields a feedback row carries. */
export function feedbackFields(row: Pick<OutboxRow, 'payload'>): FormFields {
  const fields = (row.payload as { fields?: unknown } | null)?.fields;
  if (!fields || typeof fields !== 'object') return {};
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export interface SandboxFeedbackWorkerDeps extends WorkerSchedule {
  db: Db;
  config: Pick<AppConfig, 'publicUrl'>;
  now: () => number;
  /** How the sandbox reaches the notification endpoint (tests route it back into the app). */
  gatewayFetch: typeof fetch;
  logError: LogError;
}

/**
 * The aps-feedback queue's worker. An attempt is acknowledged by a 200 only (as APS does): any
 * other status, or no answer within FEEDBACK_TIMEOUT_MS, is retried (a 503 without spending an
 * attempt: mail/outbox.ts isOutage); the last failure is the row's last_error ("HTTP 500", "no
 * answer (TimeoutError)"), shown by `npm run broker -- mail`, and a row given up is one error line.
 */
export function createSandboxFeedbackWorker(deps: SandboxFeedbackWorkerDeps): OutboxWorker {
  return createQueueWorker({
    db: deps.db,
    queue: 'aps-feedback',
    now: deps.now,
    pollMs: deps.pollMs,
    nudgeWhenStopped: deps.nudgeWhenStopped,
    instanceId: deps.instanceId,
    // A whole batch at once: each POST waits on the notification endpoint (busy under load: 0.5 to
    // 3 s at 200 customers), not on this process, and the endpoint applies a notice once.
    concurrency: FEEDBACK_CONCURRENCY,
    async deliver(row) {
      let res: Response;
      try {
        res = await deps.gatewayFetch(`${deps.config.publicUrl}${APS_FEEDBACK_PATH}`, {
          method: 'POST',
          body: new URLSearchParams(feedbackFields(row)).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          signal: AbortSignal.timeout(FEEDBACK_TIMEOUT_MS),
        });
      } catch (error) {
        // The name only (TypeError, TimeoutError): a message may quote the address.
        throw new DeliveryRefusedError(`no answer (${error instanceof Error ? error.name : typeof error})`);
      }
      // The body is not needed; reading it frees the connection.
      await res.body?.cancel().catch(() => {});
      // A 503 is the endpoint's database away or its disk full (issue 34): an outage, which the
      // outbox waits out without spending the row's attempts.
      if (res.status !== 200) throw new DeliveryRefusedError(`HTTP ${res.status}`, res.status === 503);
    },
    onFailure: logGivingUp(deps.logError, APS_FEEDBACK_PATH, 'ApsSandboxFeedbackGaveUp'),
  });
}
