import type { Zone } from '../../contract/quote.endpoints';

/**
 * The quote engine (RULINGS 10–11): pure functions from catalogue rows and the facts of a lead
 * to prices in integer US cents. No database, no clock, no I/O, so every figure can be checked
 * by hand in unit tests, and the insurer sandbox prices with the very same rules.
 */

/** Schengen states (2025), ISO 3166-1 numeric ids. */
export const SCHENGEN_COUNTRY_IDS: ReadonlySet<number> = new Set([
  40, // Austria
  56, // Belgium
  100, // Bulgaria
  191, // Croatia
  203, // Czechia
  208, // Denmark
  233, // Estonia
  246, // Finland
  250, // France
  276, // Germany
  300, // Greece
  348, // Hungary
  352, // Iceland
  380, // Italy
  428, // Latvia
  438, // Liechtenstein
  440, // Lithuania
  442, // Luxembourg
  470, // Malta
  528, // Netherlands
  578, // Norway
  616, // Poland
  620, // Portugal
  642, // Romania
  703, // Slovakia
  705, // Slovenia
  724, // Spain
  752, // Sweden
  756, // Switzerland
]);

/** USA and Canada: any of them makes the trip worldwide. */
export const US_CA_COUNTRY_IDS: ReadonlySet<number> = new Set([840, 124]);

export interface EngineRate {
  zone: string;
  minAge: number;
  maxAge: number;
  minDays: number;
  maxDays: number;
  premiumCents: number;
}

export interface EngineAddon {
  id: number;
  code: string;
  perTravellerCents: number | null;
  premiumShareBp: number | null;
  maxAge: number | null;
}

/** The catalogue rows of one plan the engine needs (the DB rows fit this shape as they are). */
export interface EnginePlan {
  id: number;
  insurerId: number;
  tripType: number;
  minAge: number;
  maxAge: number;
  maxTripDays: number;
  excludedDestinationIds: number[];
  familyFactorPct: number | null;
  rates: EngineRate[];
  addons: EngineAddon[];
}

export interface LeadFacts {
  /** Age of each traveller on the start date, in form order (the principal first). */
  ages: number[];
  /** Days of the trip, both ends included; for an annual policy the policy year. */
  tripDays: number;
  /** 1 single trip, 2 annual multi-trip. */
  tripType: number;
  destinationIds: number[];
  isFamily: boolean;
  /** Children are younger than this (settings.family_child_max_age). */
  familyChildMaxAge: number;
}

export interface PricedAddon {
  addonId: number;
  code: string;
  /** Price for the party, cents. */
  cents: number;
  coveredTravellers: number;
  disabled: boolean;
}

export interface PlanPrice {
  planId: number;
  insurerId: number;
  zone: Zone;
  /** Plan premium for the whole party, cents, no add-ons. */
  premiumCents: number;
  /** One line per traveller; the lines add up to premiumCents. */
  perPerson: { position: number; age: number; cents: number }[];
  addons: PricedAddon[];
  /** True when the family price (principal × factor) was cheaper and used. */
  familyPriced: boolean;
}

export type Ineligibility = 'trip_type' | 'age' | 'trip_days' | 'excluded_destination' | 'no_rate';

/** The cover zone of a trip: any USA/Canada is worldwide, all-Schengen is Schengen, else the rest of the world. */
export function zoneFor(destinationIds: readonly number[]): Zone {
  if (destinationIds.some((id) => US_CA_COUNTRY_IDS.has(id))) return 'worldwide';
  if (destinationIds.length > 0 && destinationIds.every((id) => SCHENGEN_COUNTRY_IDS.has(id))) return 'schengen';
  return 'worldwide_ex_us_ca';
}

/**
 * The rate of one traveller, or null. A plan sells a zone only through rates for that zone
 * (a broader plan that also covers Schengen trips carries Schengen rates of its own).
 */
function rateFor(plan: EnginePlan, zone: Zone, age: number, days: number): EngineRate | null {
  return (
    plan.rates.find((r) => r.zone === zone && age >= r.minAge && age <= r.maxAge && days >= r.minDays && days <= r.maxDays) ??
    null
  );
}

/**
 * Why a plan cannot quote these facts, or null when it can. Annual plans are judged on the
 * policy year (their rate bands); single-trip plans also on their longest trip.
 */
export function ineligibility(plan: EnginePlan, facts: LeadFacts): Ineligibility | null {
  if (plan.tripType !== facts.tripType) return 'trip_type';
  if (facts.ages.length === 0 || facts.ages.some((age) => age < plan.minAge || age > plan.maxAge)) return 'age';
  if (plan.tripType === 1 && facts.tripDays > plan.maxTripDays) return 'trip_days';
  if (facts.destinationIds.some((id) => plan.excludedDestinationIds.includes(id))) return 'excluded_destination';
  const zone = zoneFor(facts.destinationIds);
  if (facts.ages.some((age) => !rateFor(plan, zone, age, facts.tripDays))) return 'no_rate';
  return null;
}

/**
 * Whether the party may take the family price: at most two members aged familyChildMaxAge or
 * over (principal and spouse), the others children (RULINGS 7).
 */
function familyShaped(facts: LeadFacts): boolean {
  return facts.ages.length > 1 && facts.ages.filter((age) => age >= facts.familyChildMaxAge).length <= 2;
}

/** Splits `total` over lines in proportion to `weights`; the rounding rest goes to the first line. */
function splitProportionally(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((w) => (sum === 0 ? 0 : Math.floor((total * w) / sum)));
  parts[0]! += total - parts.reduce((a, b) => a + b, 0);
  return parts;
}

/** Prices one add-on for the party, given the per-traveller premium lines. */
export function priceAddon(addon: EngineAddon, perPerson: PlanPrice['perPerson']): PricedAddon {
  const covered = perPerson.filter((line) => addon.maxAge === null || line.age <= addon.maxAge);
  let cents = 0;
  if (addon.perTravellerCents !== null) cents = addon.perTravellerCents * covered.length;
  else if (addon.premiumShareBp !== null) {
    const base = covered.reduce((sum, line) => sum + line.cents, 0);
    cents = Math.round((base * addon.premiumShareBp) / 10_000);
  }
  return { addonId: addon.id, code: addon.code, cents, coveredTravellers: covered.length, disabled: covered.length === 0 };
}

/** The plan's price for these facts, or null when the plan is not eligible. */
export function pricePlan(plan: EnginePlan, facts: LeadFacts): PlanPrice | null {
  if (ineligibility(plan, facts) !== null) return null;
  const zone = zoneFor(facts.destinationIds);
  const rates = facts.ages.map((age) => rateFor(plan, zone, age, facts.tripDays)!.premiumCents);
  const individual = rates.reduce((a, b) => a + b, 0);
  const family =
    facts.isFamily && plan.familyFactorPct !== null && familyShaped(facts)
      ? Math.round((rates[0]! * plan.familyFactorPct) / 100)
      : null;
  const familyPriced = family !== null && family < individual;
  const premiumCents = familyPriced ? family : individual;
  const lineCents = familyPriced ? splitProportionally(premiumCents, rates) : rates;
  const perPerson = facts.ages.map((age, position) => ({ position, age, cents: lineCents[position]! }));
  return {
    planId: plan.id,
    insurerId: plan.insurerId,
    zone,
    premiumCents,
    perPerson,
    addons: plan.addons.map((addon) => priceAddon(addon, perPerson)),
    familyPriced,
  };
}

/** Every eligible plan's price, cheapest first (ties by plan id, so the order is stable). */
export function priceAll(plans: readonly EnginePlan[], facts: LeadFacts): PlanPrice[] {
  return plans
    .flatMap((plan) => pricePlan(plan, facts) ?? [])
    .sort((a, b) => a.premiumCents - b.premiumCents || a.planId - b.planId);
}

/** True when no plan at all can quote the trip online: the lead needs a manual quote (RULINGS 12). */
export function noOnlineQuote(plans: readonly EnginePlan[], facts: LeadFacts): boolean {
  return plans.every((plan) => ineligibility(plan, facts) !== null);
}
