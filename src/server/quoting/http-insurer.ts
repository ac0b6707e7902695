import * as v from 'valibot';
import type { LoadedPlan } from './catalogue';
import { insurerQuoteResponseSchema, type InsurerQuoteRequest } from './insurer-api';
import type { LeadFacts, PlanPrice } from './quote-engine';

export interface HttpInsurerOptions {
  /** Base URL of the insurer's API (config.insurerApiUrl); the adapter posts to `${url}/quote`. */
  url: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

/** The insurer did not answer in time, answered an error, or answered something unusable. */
export class InsurerUnavailableError extends Error {
  constructor(
    readonly insurerId: number,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`insurer ${insurerId} unavailable: ${reason}`, options);
  }
}

/**
 * Asks an HTTP insurer to price the trip (RULINGS 10). The call is cut after `timeoutMs` even
 * when the transport ignores the abort signal. The answer must name only plans we hold for that
 * insurer, each priced for exactly our travellers, with add-ons the plan has; anything else
 * throws InsurerUnavailableError, and the caller shows the other insurers' quotes.
 */
export async function quoteHttpInsurer(
  insurerId: number,
  plans: readonly LoadedPlan[],
  facts: LeadFacts,
  options: HttpInsurerOptions,
): Promise<PlanPrice[]> {
  const request: InsurerQuoteRequest = {
    insurer_id: insurerId,
    travellers: facts.ages.map((age) => ({ age })),
    trip_days: facts.tripDays,
    trip_type: facts.tripType === 2 ? 2 : 1,
    destination_ids: facts.destinationIds,
    is_family: facts.isFamily,
    family_child_max_age: facts.familyChildMaxAge,
  };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new InsurerUnavailableError(insurerId, `no answer within ${options.timeoutMs} ms`));
    }, options.timeoutMs);
  });
  let json: unknown;
  try {
    json = await Promise.race([
      (async () => {
        const response = await options.fetch(`${options.url}/quote`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(request),
          signal: controller.signal,
        });
        if (!response.ok) throw new InsurerUnavailableError(insurerId, `HTTP ${response.status}`);
        return (await response.json()) as unknown;
      })(),
      timeout,
    ]);
  } catch (error) {
    if (error instanceof InsurerUnavailableError) throw error;
    throw new InsurerUnavailableError(insurerId, error instanceof Error ? error.message : 'request failed', { cause: error });
  } finally {
    clearTimeout(timer);
  }

  const parsed = v.safeParse(insurerQuoteResponseSchema, json);
  if (!parsed.success) throw new InsurerUnavailableError(insurerId, 'malformed answer');
  const known = new Map(plans.filter((plan) => plan.insurerId === insurerId).map((plan) => [plan.id, plan]));
  return parsed.output.quotes.map((quote) => {
    const plan = known.get(quote.plan_id);
    if (!plan) throw new InsurerUnavailableError(insurerId, `unknown plan ${quote.plan_id}`);
    const lines = quote.per_person;
    const sameParty = lines.length === facts.ages.length && lines.every((line, i) => line.position === i && line.age === facts.ages[i]);
    if (!sameParty || lines.reduce((sum, line) => sum + line.cents, 0) !== quote.premium_cents) {
      throw new InsurerUnavailableError(insurerId, `plan ${plan.id} priced for another party`);
    }
    const addonIds = new Set(plan.addons.map((addon) => addon.id));
    if (quote.addons.some((addon) => !addonIds.has(addon.addon_id))) throw new InsurerUnavailableError(insurerId, `plan ${plan.id} has unknown add-ons`);
    return {
      planId: plan.id,
      insurerId,
      zone: quote.zone,
      premiumCents: quote.premium_cents,
      perPerson: lines,
      addons: quote.addons.map((addon) => ({
        addonId: addon.addon_id,
        code: addon.code,
        cents: addon.cents,
        coveredTravellers: addon.covered_travellers,
        disabled: addon.disabled,
      })),
      familyPriced: quote.family_priced,
    };
  });
}
