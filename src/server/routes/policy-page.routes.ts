import { Hono, type MiddlewareHandler } from 'hono';
import * as v from 'valibot';
import { policyPageTokenSchema } from '../../contract/endpoint';
import { policyCancellationEndpoint, policyPageEndpoint, policyResendEndpoint } from '../../contract/policy-page.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { fail } from '../http/respond';
import type { OutboxWorker } from '../mail/outbox';
import { refusing } from '../orders/refusal';
import type { RateLimiter } from '../rate-limit/rate-limit.middleware';
import { RATE_LIMITS } from '../rate-limit/rate-limit';
import { policyCancellation, policyPage, policyResend } from './policy-page.handlers';

/**
 * A body that is an object but whose token cannot be a page token (missing, of another type or
 * shape) answers the 404 of an unknown token before anything else reads it: whatever was tried,
 * the answer is the same and no query is made. Other faults of the body stay 422s.
 */
const tokenShapeFirst: MiddlewareHandler<AppEnv> = async (c, next) => {
  const body = c.get('body');
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const token = (body as Record<string, unknown>).token;
    if (!v.is(policyPageTokenSchema, token)) return fail(c, 404, 'not_found');
  }
  return next();
};

/**
 * The customer's policy page (issue 37 item 2): read, send the certificate again, ask for a
 * cancellation. Signed POSTs like the rest of the API (answers `Cache-Control: no-store`, as every
 * API answer), counted together per address (RATE_LIMITS.policyPage) before the token is looked at.
 */
export function policyPageRoutes(db: Db, mailWorker: Pick<OutboxWorker, 'nudge'>, now: () => number, limiter: RateLimiter) {
  const app = new Hono<AppEnv>();
  const counted = limiter.limit(RATE_LIMITS.policyPage);
  app.post(
    policyPageEndpoint.path,
    counted,
    tokenShapeFirst,
    endpointHandler(policyPageEndpoint, (input, c) => refusing(c, () => policyPage(db, input, now()))),
  );
  app.post(
    policyResendEndpoint.path,
    counted,
    tokenShapeFirst,
    endpointHandler(policyResendEndpoint, (input, c) => refusing(c, () => policyResend(c, { db, mailWorker }, input, now()))),
  );
  app.post(
    policyCancellationEndpoint.path,
    counted,
    tokenShapeFirst,
    endpointHandler(policyCancellationEndpoint, (input, c) => refusing(c, () => policyCancellation(db, input, now()))),
  );
  return app;
}
