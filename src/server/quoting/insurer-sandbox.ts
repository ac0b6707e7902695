import * as v from 'valibot';
import { fieldErrors } from '../http/respond';
import type { LoadedPlan } from './catalogue';
import { insurerQuoteRequestSchema, type InsurerQuoteResponse } from './insurer-api';
import { priceAll } from './quote-engine';

/**
 * The insurer sandbox's answer (RULINGS 10): a stand-in for an insurer's own quoting API, which
 * prices a trip from that insurer's own copy of its plans with the shared engine. Plain JSON in
 * and out, as an insurer's API would be; only insurers quoted over HTTP are served. One function
 * for both places it answers: its own thread (insurer-sandbox-thread.ts, what the server calls)
 * and the /insurer-sandbox/quote route of the app (routes/insurer-sandbox.routes.ts).
 */
export interface SandboxAnswer {
  status: 200 | 400 | 404 | 422;
  body: unknown;
}

/** The answer to one request body (its raw text), priced from `plans` (the whole active catalogue or any part of it). */
export function sandboxAnswer(plans: readonly LoadedPlan[], text: string): SandboxAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { status: 400, body: { error: 'invalid_json' } };
  }
  const parsed = v.safeParse(insurerQuoteRequestSchema, body);
  if (!parsed.success) return { status: 422, body: { error: 'invalid_request', errors: fieldErrors(parsed.issues) } };
  const request = parsed.output;
  const own = plans.filter((plan) => plan.insurerId === request.insurer_id && plan.insurer.quoteAdapter === 'http');
  if (own.length === 0) return { status: 404, body: { error: 'unknown_insurer' } };
  const prices = priceAll(own, {
    ages: request.travellers.map((traveller) => traveller.age),
    tripDays: request.trip_days,
    tripType: request.trip_type,
    destinationIds: request.destination_ids,
    isFamily: request.is_family,
    familyChildMaxAge: request.family_child_max_age,
  });
  const answer: InsurerQuoteResponse = {
    quotes: prices.map((price) => ({
      plan_id: price.planId,
      zone: price.zone,
      premium_cents: price.premiumCents,
      per_person: price.perPerson,
      addons: price.addons.map((addon) => ({
        addon_id: addon.addonId,
        code: addon.code,
        cents: addon.cents,
        covered_travellers: addon.coveredTravellers,
        disabled: addon.disabled,
      })),
      family_priced: price.familyPriced,
    })),
  };
  return { status: 200, body: answer };
}
