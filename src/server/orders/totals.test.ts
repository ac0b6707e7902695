import { describe, expect, it } from 'vitest';
import type { CheckoutTotals } from '../../contract/checkout.endpoints';
import { invoiceTotals } from './invoice';
import { checkoutTotals, couponDiscount, percentOf, type CouponTerms, type OrderFigures } from './totals';

/**
 * The totals module (RULINGS 17–18), table-driven. Every figure is integer cents and worked out
 * by hand in the comment above its row. VAT is 11 % and the stamp fee $2 (200) unless a row says
 * otherwise; "round" is half a cent up.
 */

const order = (providerId: number, planCents: number, addons: number[] = [], change: Partial<OrderFigures> = {}): OrderFigures => ({
  providerId,
  planCents,
  addons: addons.map((cents) => ({ cents })),
  vatPercent: 11,
  stampFeeCents: 200,
  ...change,
});
const percent = (value: number): CouponTerms => ({ type: 1, value });
const fixed = (cents: number): CouponTerms => ({ type: 2, value: cents });

type Row = [label: string, order: OrderFigures, coupon: CouponTerms | null, expected: CheckoutTotals];
const totals = (
  plan_price: number,
  addons_price: number,
  discount: number,
  subtotal: number,
  vat_amount: number,
  stamp_fee: number,
  total: number,
  vat_percent = 11,
): CheckoutTotals => ({ plan_price, addons_price, discount, subtotal, vat_percent, vat_amount, stamp_fee, total });

const ROWS: Row[] = [
  // 10 000 + (2 500 + 1 999 = 4 499) = 14 499; 11 % = 1 594.89 → 1 595; 14 499 + 1 595 = 16 094.
  ['no coupon', order(1000, 10_000, [2_500, 1_999]), null, totals(10_000, 4_499, 0, 14_499, 1_595, 0, 16_094)],
  // 10 % of the plan 12 000 = 1 200; 12 000 + 2 500 − 1 200 = 13 300; 11 % = 1 463; 13 300 + 1 463 = 14 763.
  ['10 % coupon: of the plan only, VAT on the discounted amount', order(1000, 12_000, [2_500]), percent(10), totals(12_000, 2_500, 1_200, 13_300, 1_463, 0, 14_763)],
  // $25 = 2 500 off 12 000 + 2 500; 14 500 − 2 500 = 12 000; 11 % = 1 320; 12 000 + 1 320 = 13 320.
  ['fixed $25 coupon', order(1000, 12_000, [2_500]), fixed(2_500), totals(12_000, 2_500, 2_500, 12_000, 1_320, 0, 13_320)],
  // 100 % of 12 000 = 12 000; nothing left: subtotal 0, VAT 0, total 0.
  ['100 % coupon without add-ons: nothing to pay', order(1000, 12_000), percent(100), totals(12_000, 0, 12_000, 0, 0, 0, 0)],
  // 100 % of the plan 12 000 = 12 000; the add-on 2 500 stays; 11 % of 2 500 = 275; 2 500 + 275 = 2 775.
  ['100 % coupon with add-ons: the add-ons and their VAT stay', order(1000, 12_000, [2_500]), percent(100), totals(12_000, 2_500, 12_000, 2_500, 275, 0, 2_775)],
  // 11 % of 10 000 = 1 100; stamp 200; 10 000 + 1 100 + 200 = 11 300.
  ['provider 3: the stamp fee', order(3, 10_000), null, totals(10_000, 0, 0, 10_000, 1_100, 200, 11_300)],
  // 10 % of the plan 10 000 = 1 000; 10 000 + 1 000 − 1 000 = 10 000; 11 % = 1 100; + stamp 200 = 11 300.
  ['provider 3 with a coupon: the stamp fee is not discounted', order(3, 10_000, [1_000]), percent(10), totals(10_000, 1_000, 1_000, 10_000, 1_100, 200, 11_300)],
  // 100 % of 10 000; subtotal 0, VAT 0; the government's stamp fee 200 stays: total 200.
  ['provider 3, 100 % coupon: the stamp fee stays', order(3, 10_000), percent(100), totals(10_000, 0, 10_000, 0, 0, 200, 200)],
  // Stamp fee setting 0: none; 11 % of 10 000 = 1 100; total 11 100.
  ['provider 3 with a stamp fee of 0: none', order(3, 10_000, [], { stampFeeCents: 0 }), null, totals(10_000, 0, 0, 10_000, 1_100, 0, 11_100)],
  // Another provider never pays it: 11 % of 10 000 = 1 100; total 11 100.
  ['provider 7: no stamp fee', order(7, 10_000), null, totals(10_000, 0, 0, 10_000, 1_100, 0, 11_100)],
  // Per line: 11 % of 1 005 = 110.55 → 111, twice = 222 (on the total 2 010 it would be 221.1 → 221); 2 010 + 222 = 2 232.
  ['provider 7: VAT per line', order(7, 1_005, [1_005]), null, totals(1_005, 1_005, 0, 2_010, 222, 0, 2_232)],
  // The same order elsewhere: one VAT on 2 010 = 221.1 → 221; 2 010 + 221 = 2 231.
  ['the same order with another provider: VAT once on the subtotal', order(1000, 1_005, [1_005]), null, totals(1_005, 1_005, 0, 2_010, 221, 0, 2_231)],
  // 10 % of 1 006 = 100.6 → 101; plan line 905: 99.55 → 100; add-on 1 005: 110.55 → 111; VAT 211
  // (once on 1 910 it would be 210.1 → 210); subtotal 1 006 + 1 005 − 101 = 1 910; total 2 121.
  ['provider 7 with a percentage coupon: the plan line after its discount', order(7, 1_006, [1_005]), percent(10), totals(1_006, 1_005, 101, 1_910, 211, 0, 2_121)],
  // Fixed 1 500 > plan 1 000: plan line 0 (VAT 0), 500 left off the first add-on: 1 005 − 500 = 505 → 55.55 → 56;
  // second add-on 2 005 → 220.55 → 221; VAT 277 (once on 2 510: 276.1 → 276); subtotal 1 000 + 3 010 − 1 500 = 2 510; total 2 787.
  ['provider 7, fixed coupon larger than the plan: add-on lines reduced in order', order(7, 1_000, [1_005, 2_005]), fixed(1_500), totals(1_000, 3_010, 1_500, 2_510, 277, 0, 2_787)],
  // Fixed 10 000 > 5 000 + 1 000: the discount stops at 6 000; subtotal 0, VAT 0, total 0.
  ['fixed coupon larger than the total: never below 0', order(1000, 5_000, [1_000]), fixed(10_000), totals(5_000, 1_000, 6_000, 0, 0, 0, 0)],
  // Fixed 10 000 > 5 000: discount 5 000; subtotal 0, VAT 0; the stamp fee 200 stays.
  ['fixed coupon larger than the total, provider 3: the stamp fee stays', order(3, 5_000), fixed(10_000), totals(5_000, 0, 5_000, 0, 0, 200, 200)],
  // 10 % of 1 005 = 100.5 → 101 (half a cent up); 1 005 − 101 = 904; 11 % = 99.44 → 99; total 1 003.
  ['rounding: a discount of exactly half a cent goes up', order(1000, 1_005), percent(10), totals(1_005, 0, 101, 904, 99, 0, 1_003)],
  // 15 % of 1 010 = 151.5 → 152; 1 010 − 152 = 858; 11 % = 94.38 → 94; total 952.
  ['rounding: 15 % at half a cent', order(1000, 1_010), percent(15), totals(1_010, 0, 152, 858, 94, 0, 952)],
  // 11 % of 550 = 60.5 → 61 (half a cent up); 550 + 61 = 611.
  ['rounding: VAT of exactly half a cent goes up', order(1000, 550), null, totals(550, 0, 0, 550, 61, 0, 611)],
  // 10 % VAT of 1 005 = 100.5 → 101; 1 005 + 101 = 1 106.
  ['rounding: VAT at half a cent with another percent', order(1000, 1_005, [], { vatPercent: 10 }), null, totals(1_005, 0, 0, 1_005, 101, 0, 1_106, 10)],
  // 11 % of 1 004 = 110.44 → 110 (below half: down); 1 004 + 110 = 1 114.
  ['rounding: VAT below half a cent goes down', order(1000, 1_004), null, totals(1_004, 0, 0, 1_004, 110, 0, 1_114)],
];

describe('checkoutTotals', () => {
  it.each(ROWS)('%s', (_label, figures, coupon, expected) => {
    const answer = checkoutTotals(figures, coupon);
    expect(answer).toEqual(expected);
    // The lines always add up.
    expect(answer.subtotal).toBe(answer.plan_price + answer.addons_price - answer.discount);
    expect(answer.total).toBe(answer.subtotal + answer.vat_amount + answer.stamp_fee);
  });
});

describe('percentOf rounds half a cent up, never to even', () => {
  it.each([
    // 1 005 × 10 / 100 = 100.5 → 101 (half to even would give 100); 1 015 × 10 / 100 = 101.5 → 102.
    [1_005, 10, 101],
    [1_015, 10, 102],
    // 50 × 1 % = 0.5 → 1; 250 × 1 % = 2.5 → 3 (round-half-even would give 2).
    [50, 1, 1],
    [250, 1, 3],
    // 49 × 1 % = 0.49 → 0; 100 % is the amount itself; 0 % is 0.
    [49, 1, 0],
    [12_345, 100, 12_345],
    [12_345, 0, 0],
  ])('%i × %i %% = %i', (cents, pct, expected) => {
    expect(percentOf(cents, pct)).toBe(expected);
  });
});

describe('couponDiscount', () => {
  it('is 0 without a coupon or with a fixed coupon of 0, and never below 0', () => {
    expect(couponDiscount(10_000, 500, null)).toBe(0);
    expect(couponDiscount(10_000, 500, fixed(0))).toBe(0);
    expect(couponDiscount(10_000, 500, fixed(-300))).toBe(0);
  });

  it('takes a percentage of the plan only, at most 100 %', () => {
    // 100 % of 10 000 = 10 000; the 500 of add-ons are not touched; 150 % counts as 100 %.
    expect(couponDiscount(10_000, 500, percent(100))).toBe(10_000);
    expect(couponDiscount(10_000, 500, percent(150))).toBe(10_000);
  });

  it('takes a fixed amount up to plan + add-ons', () => {
    expect(couponDiscount(10_000, 500, fixed(10_400))).toBe(10_400);
    expect(couponDiscount(10_000, 500, fixed(10_600))).toBe(10_500);
  });
});

describe('the invoice uses the same module', () => {
  it('invoiceTotals is checkoutTotals without a coupon, for every provider rule', () => {
    for (const [providerId, plan, addons] of [
      [1000, 10_000, [2_500, 1_999]],
      [7, 1_005, [1_005]],
      [3, 10_000, [1_000]],
    ] as const) {
      const figures = order(providerId, plan, [...addons]);
      const invoice = invoiceTotals(providerId, plan, figures.addons, { vat_percent: 11, stamp_fee_cents: 200 });
      const answer = checkoutTotals(figures, null);
      expect(invoice).toEqual({
        planPriceCents: answer.plan_price,
        addonsCents: answer.addons_price,
        totalWithoutVatCents: answer.subtotal,
        vatPercent: 11,
        vatCents: answer.vat_amount,
        stampFeeCents: answer.stamp_fee,
        totalWithVatCents: answer.total,
      });
    }
  });
});

describe('property: the price lines add up to the total to the cent, for every provider rule (RULINGS 26)', () => {
  /** A small seeded generator (mulberry32), so a failure names figures that come back on every run. */
  function generator(seed: number) {
    let state = seed >>> 0;
    const next = () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let value = state;
      value = Math.imul(value ^ (value >>> 15), value | 1);
      value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
      return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
    };
    return (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  }

  it('plan + add-ons − discount + VAT + stamp fee = total, every figure a whole number of cents and none below 0, over 20 000 orders', () => {
    const between = generator(20_261_125);
    const broken: unknown[] = [];
    for (let run = 0; run < 20_000; run += 1) {
      const providerId = [1000, 7, 3, 12][between(0, 3)]!;
      const figures = order(
        providerId,
        between(0, 500_000),
        Array.from({ length: between(0, 4) }, () => between(0, 60_000)),
        { vatPercent: [0, 5, 11, 11, 15][between(0, 4)]!, stampFeeCents: [0, 200, 250, 1_999][between(0, 3)]! },
      );
      const kind = between(0, 2);
      const coupon = kind === 0 ? null : kind === 1 ? percent(between(1, 100)) : fixed(between(1, 700_000));
      const answer = checkoutTotals(figures, coupon);
      const holds =
        Object.values(answer).every((value) => Number.isInteger(value) && value >= 0) &&
        answer.addons_price === figures.addons.reduce((sum, addon) => sum + addon.cents, 0) &&
        answer.plan_price + answer.addons_price - answer.discount + answer.vat_amount + answer.stamp_fee === answer.total &&
        answer.discount <= answer.plan_price + answer.addons_price &&
        // The stamp fee only for provider 3, and only when above 0.
        answer.stamp_fee === (providerId === 3 ? figures.stampFeeCents : 0);
      if (!holds) broken.push({ run, figures, coupon, answer });
    }
    // The first orders that break a rule, with their figures, when any does.
    expect(broken.slice(0, 3)).toEqual([]);
  });
});
