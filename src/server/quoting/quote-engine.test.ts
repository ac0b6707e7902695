import { describe, expect, it } from 'vitest';
import { ineligibility, noOnlineQuote, priceAll, pricePlan, zoneFor, type EnginePlan, type LeadFacts } from './quote-engine';

/**
 * The quote engine against a small hand-written catalogue: every expected figure below is
 * worked out by hand from these rates (cents), not by calling the engine.
 */

const FRANCE = 250;
const ITALY = 380;
const TURKEY = 792;
const USA = 840;
const CANADA = 124;
const SYRIA = 760;

const band = (zone: string, minAge: number, maxAge: number, minDays: number, maxDays: number, premiumCents: number) => ({
  zone,
  minAge,
  maxAge,
  minDays,
  maxDays,
  premiumCents,
});

/** Single trip, ages 0–75, up to 90 days, family price 2.2 × the principal, Syria excluded. */
const SINGLE: EnginePlan = {
  id: 1,
  insurerId: 10,
  tripType: 1,
  minAge: 0,
  maxAge: 75,
  maxTripDays: 90,
  excludedDestinationIds: [SYRIA],
  familyFactorPct: 220,
  rates: [
    band('schengen', 0, 17, 1, 7, 500),
    band('schengen', 0, 17, 8, 30, 900),
    band('schengen', 0, 17, 31, 90, 1600),
    band('schengen', 18, 60, 1, 7, 1000),
    band('schengen', 18, 60, 8, 30, 1800),
    band('schengen', 18, 60, 31, 90, 3200),
    band('schengen', 61, 75, 1, 7, 2500),
    band('schengen', 61, 75, 8, 30, 4000),
    band('schengen', 61, 75, 31, 90, 7000),
    band('worldwide_ex_us_ca', 0, 17, 1, 90, 1200),
    band('worldwide_ex_us_ca', 18, 60, 1, 90, 2500),
    band('worldwide_ex_us_ca', 61, 75, 1, 90, 6000),
    band('worldwide', 0, 75, 1, 90, 9000),
  ],
  addons: [
    { id: 11, code: 'winter_sports', perTravellerCents: 1500, premiumShareBp: null, maxAge: 70 },
    { id: 12, code: 'trip_cancellation', perTravellerCents: null, premiumShareBp: 1500, maxAge: null },
    { id: 13, code: 'adventure_sports', perTravellerCents: 2000, premiumShareBp: null, maxAge: null },
  ],
};

/** Annual multi-trip, Schengen only, ages 18–70, no family price. */
const ANNUAL: EnginePlan = {
  id: 2,
  insurerId: 20,
  tripType: 2,
  minAge: 18,
  maxAge: 70,
  maxTripDays: 45,
  excludedDestinationIds: [],
  familyFactorPct: null,
  rates: [band('schengen', 18, 70, 1, 366, 12_000)],
  addons: [],
};

/** Single trip for older travellers: ages 0–85, up to 180 days, Schengen only, one flat rate. */
const SENIOR: EnginePlan = {
  id: 3,
  insurerId: 30,
  tripType: 1,
  minAge: 0,
  maxAge: 85,
  maxTripDays: 180,
  excludedDestinationIds: [],
  familyFactorPct: null,
  rates: [band('schengen', 0, 85, 1, 180, 3000)],
  addons: [],
};

const facts = (overrides: Partial<LeadFacts> = {}): LeadFacts => ({
  ages: [40],
  tripDays: 5,
  tripType: 1,
  destinationIds: [FRANCE],
  isFamily: false,
  familyChildMaxAge: 18,
  ...overrides,
});

const premium = (plan: EnginePlan, f: LeadFacts) => pricePlan(plan, f)?.premiumCents ?? null;

describe('zoneFor', () => {
  it('is Schengen when every destination is a Schengen state', () => {
    expect(zoneFor([FRANCE])).toBe('schengen');
    expect(zoneFor([FRANCE, ITALY])).toBe('schengen');
  });
  it('is worldwide as soon as the USA or Canada is a destination', () => {
    expect(zoneFor([USA])).toBe('worldwide');
    expect(zoneFor([FRANCE, CANADA])).toBe('worldwide');
  });
  it('is worldwide excluding USA/Canada otherwise, Schengen mixed with elsewhere included', () => {
    expect(zoneFor([TURKEY])).toBe('worldwide_ex_us_ca');
    expect(zoneFor([FRANCE, TURKEY])).toBe('worldwide_ex_us_ca');
  });
});

describe('age bands', () => {
  it('prices each traveller from the band of their age, bounds included', () => {
    expect(premium(SINGLE, facts({ ages: [17] }))).toBe(500);
    expect(premium(SINGLE, facts({ ages: [18] }))).toBe(1000);
    expect(premium(SINGLE, facts({ ages: [60] }))).toBe(1000);
    expect(premium(SINGLE, facts({ ages: [61] }))).toBe(2500);
  });
  it('adds up the travellers of a non-family party, one line each', () => {
    // 1000 (40) + 2500 (65) + 500 (12) = 4000
    const price = pricePlan(SINGLE, facts({ ages: [40, 65, 12] }))!;
    expect(price.premiumCents).toBe(4000);
    expect(price.perPerson).toEqual([
      { position: 0, age: 40, cents: 1000 },
      { position: 1, age: 65, cents: 2500 },
      { position: 2, age: 12, cents: 500 },
    ]);
  });
});

describe('trip-length bands', () => {
  it('moves to the next band the day after a band ends', () => {
    expect(premium(SINGLE, facts({ tripDays: 7 }))).toBe(1000);
    expect(premium(SINGLE, facts({ tripDays: 8 }))).toBe(1800);
    expect(premium(SINGLE, facts({ tripDays: 30 }))).toBe(1800);
    expect(premium(SINGLE, facts({ tripDays: 31 }))).toBe(3200);
  });
});

describe('zones', () => {
  it('prices from the rates of the trip zone', () => {
    expect(premium(SINGLE, facts({ destinationIds: [TURKEY] }))).toBe(2500);
    expect(premium(SINGLE, facts({ destinationIds: [USA] }))).toBe(9000);
    expect(pricePlan(SINGLE, facts({ destinationIds: [USA] }))!.zone).toBe('worldwide');
  });
  it('does not quote a zone the plan has no rates for', () => {
    expect(ineligibility(SENIOR, facts({ destinationIds: [TURKEY] }))).toBe('no_rate');
    expect(pricePlan(SENIOR, facts({ destinationIds: [TURKEY] }))).toBeNull();
  });
});

describe('family pricing', () => {
  const family = facts({ ages: [40, 38, 10], tripDays: 10, isFamily: true });

  it('charges the principal × the family factor when cheaper, split over the travellers', () => {
    // Individually 1800 + 1800 + 900 = 4500; family 1800 × 2.2 = 3960.
    const price = pricePlan(SINGLE, family)!;
    expect(price.premiumCents).toBe(3960);
    expect(price.familyPriced).toBe(true);
    // In proportion to 1800 : 1800 : 900 → 1584, 1584, 792.
    expect(price.perPerson.map((line) => line.cents)).toEqual([1584, 1584, 792]);
  });
  it('keeps the individual sum when the family price is not cheaper', () => {
    // Two children: 1800 + 900 + 900 = 3600 < 1800 × 2.2 = 3960.
    const price = pricePlan(SINGLE, facts({ ages: [40, 10, 8], tripDays: 10, isFamily: true }))!;
    expect(price.premiumCents).toBe(3600);
    expect(price.familyPriced).toBe(false);
  });
  it('does not apply without the family flag, or with three adults', () => {
    expect(premium(SINGLE, { ...family, isFamily: false })).toBe(4500);
    // 20 is not a child (family_child_max_age 18): three adults are no family.
    expect(premium(SINGLE, { ...family, ages: [40, 38, 20] })).toBe(5400);
  });
  it('follows the child age setting', () => {
    // With children under 21, the 20-year-old is a child: 1800 × 2.2 = 3960 < 5400.
    expect(premium(SINGLE, { ...family, ages: [40, 38, 20], familyChildMaxAge: 21 })).toBe(3960);
  });
  it('is not offered by a plan without a family factor', () => {
    expect(premium(SENIOR, { ...family, ages: [40, 38, 10] })).toBe(9000);
  });
});

describe('add-ons', () => {
  it('prices per covered traveller and as a share of the premium', () => {
    // 40 and 72 for 10 days in France: 1800 + 4000 = 5800.
    const price = pricePlan(SINGLE, facts({ ages: [40, 72], tripDays: 10 }))!;
    expect(price.premiumCents).toBe(5800);
    expect(price.addons).toEqual([
      // Winter sports covers only the 40-year-old (70 or under).
      { addonId: 11, code: 'winter_sports', cents: 1500, coveredTravellers: 1, disabled: false },
      // 15 % of 5800.
      { addonId: 12, code: 'trip_cancellation', cents: 870, coveredTravellers: 2, disabled: false },
      { addonId: 13, code: 'adventure_sports', cents: 4000, coveredTravellers: 2, disabled: false },
    ]);
  });
  it('covers a traveller aged exactly 70 with winter sports, and disables it when all are older', () => {
    expect(pricePlan(SINGLE, facts({ ages: [70] }))!.addons[0]).toMatchObject({ cents: 1500, coveredTravellers: 1, disabled: false });
    expect(pricePlan(SINGLE, facts({ ages: [71, 74] }))!.addons[0]).toEqual({
      addonId: 11,
      code: 'winter_sports',
      cents: 0,
      coveredTravellers: 0,
      disabled: true,
    });
  });
  it('takes a premium share of the family price when the family price applies', () => {
    // 15 % of 3960 = 594.
    const price = pricePlan(SINGLE, facts({ ages: [40, 38, 10], tripDays: 10, isFamily: true }))!;
    expect(price.addons.find((addon) => addon.code === 'trip_cancellation')!.cents).toBe(594);
  });
});

describe('eligibility edges', () => {
  it('takes a traveller exactly at the maximum age and refuses one a year older', () => {
    expect(ineligibility(SINGLE, facts({ ages: [75] }))).toBeNull();
    expect(premium(SINGLE, facts({ ages: [75] }))).toBe(2500);
    expect(ineligibility(SINGLE, facts({ ages: [40, 76] }))).toBe('age');
    expect(ineligibility(ANNUAL, facts({ tripType: 2, tripDays: 365, ages: [17] }))).toBe('age');
    expect(ineligibility(ANNUAL, facts({ tripType: 2, tripDays: 365, ages: [18] }))).toBeNull();
  });
  it('takes a trip exactly as long as the plan allows and refuses one day more', () => {
    expect(premium(SINGLE, facts({ tripDays: 90 }))).toBe(3200);
    expect(ineligibility(SINGLE, facts({ tripDays: 91 }))).toBe('trip_days');
    expect(ineligibility(SENIOR, facts({ tripDays: 180 }))).toBeNull();
    expect(ineligibility(SENIOR, facts({ tripDays: 181 }))).toBe('trip_days');
  });
  it('refuses a trip to an excluded destination', () => {
    expect(ineligibility(SINGLE, facts({ destinationIds: [TURKEY, SYRIA] }))).toBe('excluded_destination');
  });
  it('only quotes plans of the lead trip type; an annual plan is judged on its policy year', () => {
    expect(ineligibility(ANNUAL, facts())).toBe('trip_type');
    expect(ineligibility(SINGLE, facts({ tripType: 2, tripDays: 365 }))).toBe('trip_type');
    expect(premium(ANNUAL, facts({ tripType: 2, tripDays: 366 }))).toBe(12_000);
  });
});

describe('priceAll and noOnlineQuote', () => {
  const catalogue = [SENIOR, SINGLE, ANNUAL];

  it('prices every eligible plan, cheapest first', () => {
    const prices = priceAll(catalogue, facts({ ages: [40], tripDays: 10 }));
    expect(prices.map((price) => [price.planId, price.premiumCents])).toEqual([
      [1, 1800],
      [3, 3000],
    ]);
  });
  it('is true only when no plan at all can quote', () => {
    expect(noOnlineQuote(catalogue, facts({ ages: [80] }))).toBe(false);
    expect(noOnlineQuote(catalogue, facts({ ages: [85] }))).toBe(false);
    expect(noOnlineQuote(catalogue, facts({ ages: [86] }))).toBe(true);
    expect(noOnlineQuote(catalogue, facts({ ages: [40, 90] }))).toBe(true);
    expect(noOnlineQuote(catalogue, facts({ tripDays: 180 }))).toBe(false);
    expect(noOnlineQuote(catalogue, facts({ tripDays: 181 }))).toBe(true);
  });
});
