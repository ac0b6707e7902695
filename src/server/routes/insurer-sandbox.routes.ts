import { Hono } from 'hono';
import * as v from 'valibot';
import type { Db } from '../db/client';
import type { AppEnv } from '../http/app-env';
import { fieldErrors } from '../http/respond';
import { catalogueSnapshot } from '../quoting/catalogue-snapshot';
import { insurerQuoteRequestSchema, type InsurerQuoteResponse } from '../quoting/insurer-api';
import { priceAll } from '../quoting/quote-engine';

/**
 * The insurer sandbox (RULINGS 10): a stand-in for an insurer's own quoting API, hosted by this
 * server outside the signed API so the HTTP adapter makes a real call with a real timeout.
 * It prices from that insurer's catalogue rows with the shared engine. Plain JSON in and out,
 * as an insurer's API would be; only insurers quoted over HTTP are served. Unsigned, but its body
 * is still the one bodyLimitMiddleware read, bounded to 256 KB while it streamed.
 */
export function insurerSandboxRoutes(db: Db) {
  const app = new Hono<AppEnv>();
  // The insurer's own copy of its plans, refreshed each minute behind the answers (catalogue-snapshot.ts).
  const catalogue = catalogueSnapshot(db, 60_000);
  // Loaded now, before the first customer's quote asks for it (a failure is retried then).
  catalogue().catch(() => undefined);
  app.post('/insurer-sandbox/quote', async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(c.get('rawBody') ?? '');
    } catch {
      return c.json({ error: 'invalid_json' }, 400);
    }
    const parsed = v.safeParse(insurerQuoteRequestSchema, body);
    if (!parsed.success) return c.json({ error: 'invalid_request', errors: fieldErrors(parsed.issues) }, 422);
    const request = parsed.output;
    const plans = (await catalogue()).filter((plan) => plan.insurerId === request.insurer_id && plan.insurer.quoteAdapter === 'http');
    if (plans.length === 0) return c.json({ error: 'unknown_insurer' }, 404);
    const prices = priceAll(plans, {
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
    return c.json(answer);
  });
  return app;
}
