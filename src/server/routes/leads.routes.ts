import { Hono, type Context } from 'hono';
import {
  addCustomerLeadEndpoint,
  agentCheckEndpoint,
  latestLeadsByDeviceEndpoint,
  personalDetailsEndpoint,
} from '../../contract/lead.endpoints';
import { leadStatusEndpoint } from '../../contract/lead-status.endpoints';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { endpointHandler } from '../http/endpoint-handler';
import { fail } from '../http/respond';
import { CustomerTakenError, InvalidLeadError, LeadNotFoundError } from '../leads/lead-errors';
import type { RateLimiter } from '../rate-limit/rate-limit.middleware';
import { RATE_LIMITS } from '../rate-limit/rate-limit';
import { Refusal } from '../orders/refusal';
import { addCustomerLead, agentCheck, latestLeadsByDevice, leadStatus, personalDetails } from './leads.handlers';

/** Answers the lead errors with their envelope (422, 404, 409); anything else is a real fault. */
function leadFailure(c: Context<AppEnv>, error: unknown): Response {
  if (error instanceof InvalidLeadError) return fail(c, 422, 'invalid_request', { errors: error.errors });
  if (error instanceof LeadNotFoundError) return fail(c, 404, 'not_found');
  if (error instanceof Refusal) return fail(c, error.status, error.key, { errors: error.errors });
  if (error instanceof CustomerTakenError) {
    const { emailTaken, phoneTaken } = error;
    const errors: Record<string, string> = {};
    if (emailTaken) errors.email = 'email_taken';
    if (phoneTaken) errors.phone_number = 'phone_taken';
    const key = emailTaken && phoneTaken ? 'email_phone_taken' : emailTaken ? 'email_taken' : 'phone_taken';
    return fail(c, 409, key, { email_taken: emailTaken, phone_taken: phoneTaken, errors });
  }
  throw error;
}

async function guarded<T>(c: Context<AppEnv>, work: () => Promise<T>): Promise<T | Response> {
  try {
    return await work();
  } catch (error) {
    return leadFailure(c, error);
  }
}

/**
 * Lead endpoints of the travel details step (spec §7). `now` is the app's clock, so "today"
 * for the date rules can be fixed in tests. Each is rate limited per address and device (issue 7).
 */
export function leadsRoutes(db: Db, now: () => number, limiter: RateLimiter) {
  const app = new Hono<AppEnv>();
  app.post(
    addCustomerLeadEndpoint.path,
    limiter.limit(RATE_LIMITS.addCustomerLead),
    endpointHandler(addCustomerLeadEndpoint, (input, c) => guarded(c, () => addCustomerLead(db, input, now()))),
  );
  app.post(
    personalDetailsEndpoint.path,
    limiter.limit(RATE_LIMITS.personalDetails),
    endpointHandler(personalDetailsEndpoint, (input, c) => guarded(c, () => personalDetails(db, input))),
  );
  app.post(
    leadStatusEndpoint.path,
    limiter.limit(RATE_LIMITS.leadStatus),
    endpointHandler(leadStatusEndpoint, (input, c) => guarded(c, () => leadStatus(db, input))),
  );
  app.post(
    latestLeadsByDeviceEndpoint.path,
    limiter.limit(RATE_LIMITS.latestLeadsByDevice),
    endpointHandler(latestLeadsByDeviceEndpoint, (input) => latestLeadsByDevice(db, input)),
  );
  app.post(
    agentCheckEndpoint.path,
    limiter.limit(RATE_LIMITS.agentCheck),
    endpointHandler(agentCheckEndpoint, (input, c) => guarded(c, () => agentCheck(db, input))),
  );
  return app;
}
