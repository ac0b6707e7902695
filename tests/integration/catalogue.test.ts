import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZONES } from '../../src/contract/quote.endpoints';
import * as t from '../../src/server/db/schema';
import { seedDatabase } from '../../src/server/db/seed';
import { loadPlans, type LoadedPlan } from '../../src/server/quoting/catalogue';
import { ARABIC } from './expect-envelope';
import { createTestApp, type TestApp } from '../support/test-app';

/** The demo catalogue seeded at first start (RULINGS 10). */

let app: TestApp;
let plans: LoadedPlan[];

beforeAll(async () => {
  app = await createTestApp();
  plans = await loadPlans(app.db);
});
afterAll(() => app.close());

/** EUR 30,000 (the Schengen visa minimum) in US dollars at a generous EUR/USD rate of 1.25. */
const SCHENGEN_MINIMUM_USD = 37_500;

describe('the seeded catalogue', () => {
  it('has at least 6 fictional insurers, ids 7, 3 and 1000 among them, one quoted over HTTP', async () => {
    const insurers = await app.db.select().from(t.insurers);
    expect(insurers.length).toBeGreaterThanOrEqual(6);
    expect(insurers.map((insurer) => insurer.id)).toEqual(expect.arrayContaining([7, 3, 1000]));
    for (const insurer of insurers) {
      expect(insurer.nameEn).toMatch(/\(demo\)$/);
      expect(insurer.nameAr).toMatch(ARABIC);
      expect(insurer.logo).toMatch(/\.svg$/);
    }
    // The special-rule insurers stay on the catalogue; another one is quoted over HTTP.
    const http = insurers.filter((insurer) => insurer.quoteAdapter === 'http').map((insurer) => insurer.id);
    expect(http.length).toBeGreaterThan(0);
    expect(http.filter((id) => [7, 3, 1000].includes(id))).toEqual([]);
  });

  it('has at least 14 plans covering every zone for both single-trip and annual', () => {
    expect(plans.length).toBeGreaterThanOrEqual(14);
    for (const tripType of [1, 2]) {
      for (const zone of ZONES) {
        expect(plans.some((plan) => plan.tripType === tripType && plan.rates.some((rate) => rate.zone === zone)), `${zone} × ${tripType}`).toBe(true);
      }
    }
  });

  it('gives every plan English and Arabic highlights in sections 1–3, benefits and add-ons incl. winter sports to 70', () => {
    for (const plan of plans) {
      const highlights = plan.features.filter((feature) => feature.kind === 'highlight');
      expect(new Set(highlights.map((h) => h.section))).toEqual(new Set([1, 2, 3]));
      expect(highlights.map((h) => h.key)).toEqual(
        expect.arrayContaining(['medical', 'evacuation', 'repatriation', 'baggage', 'delay', 'liability', 'covid19']),
      );
      for (const feature of plan.features) {
        expect(feature.labelEn.length).toBeGreaterThan(0);
        expect(feature.labelAr).toMatch(ARABIC);
        expect(feature.valueAr.length).toBeGreaterThan(0);
      }
      expect(plan.features.some((feature) => feature.kind === 'benefit')).toBe(true);
      expect(plan.addons.find((addon) => addon.code === 'winter_sports')).toMatchObject({ maxAge: 70 });
      expect(plan.addons.length).toBeGreaterThanOrEqual(3);
      for (const addon of plan.addons) expect(addon.labelAr).toMatch(ARABIC);
    }
  });

  it('makes Schengen plans meet the visa minimum and say so', () => {
    const schengen = plans.filter((plan) => plan.rates.some((rate) => rate.zone === 'schengen'));
    expect(schengen.length).toBeGreaterThan(0);
    for (const plan of schengen) {
      expect(plan.schengenVisaCompliant, `${plan.nameEn}`).toBe(true);
      expect(plan.medicalLimitUsd).toBeGreaterThanOrEqual(SCHENGEN_MINIMUM_USD);
      expect(plan.features.some((feature) => /Schengen visa requirement/.test(feature.valueEn) && /شنغن/.test(feature.valueAr))).toBe(true);
    }
  });

  it('has rate bands with no gap over each plan ages and trip lengths', () => {
    for (const plan of plans) {
      const zones = new Set(plan.rates.map((rate) => rate.zone));
      for (const zone of zones) {
        for (let age = plan.minAge; age <= plan.maxAge; age += 1) {
          const maxDays = plan.tripType === 2 ? 366 : plan.maxTripDays;
          for (const days of [1, Math.ceil(maxDays / 2), maxDays]) {
            const found = plan.rates.filter((r) => r.zone === zone && age >= r.minAge && age <= r.maxAge && days >= r.minDays && days <= r.maxDays);
            expect(found.length, `plan ${plan.id} ${zone} age ${age} days ${days}`).toBe(1);
          }
        }
      }
    }
  });

  it('leaves nobody over 85 and no single trip over 180 days with a plan', () => {
    expect(Math.max(...plans.map((plan) => plan.maxAge))).toBe(85);
    expect(plans.some((plan) => plan.maxAge < 76)).toBe(true);
    expect(Math.max(...plans.filter((plan) => plan.tripType === 1).map((plan) => plan.maxTripDays))).toBe(180);
  });

  it('seeding again changes nothing', async () => {
    const before = await app.db.select().from(t.planRates);
    await seedDatabase(app.db);
    expect((await app.db.select().from(t.planRates)).length).toBe(before.length);
    expect((await loadPlans(app.db)).length).toBe(plans.length);
  });
});
