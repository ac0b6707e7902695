import { describe, expect, it } from 'vitest';
import { chooseAddons, coverFor, invoiceTotals, premiumMismatch, quoteRefNo } from './invoice';

const settings = { vat_percent: 11, stamp_fee_cents: 200 };

describe('invoiceTotals', () => {
  it('adds plan and add-ons, then 11 % VAT on the total (rounded to the cent)', () => {
    // 10 000 + 2 500 + 1 999 = 14 499; 11 % = 1 594.89 -> 1 595.
    expect(invoiceTotals(1000, 10_000, [{ cents: 2_500 }, { cents: 1_999 }], settings)).toEqual({
      planPriceCents: 10_000,
      addonsCents: 4_499,
      totalWithoutVatCents: 14_499,
      vatPercent: 11,
      vatCents: 1_595,
      stampFeeCents: 0,
      totalWithVatCents: 16_094,
    });
  });

  it('provider 7 rounds VAT per item', () => {
    // 11 % of 1 005 = 110.55 -> 111, twice: 222 (on the total 2 010 it would be 221).
    expect(invoiceTotals(7, 1_005, [{ cents: 1_005 }], settings).vatCents).toBe(222);
    expect(invoiceTotals(1000, 1_005, [{ cents: 1_005 }], settings).vatCents).toBe(221);
  });

  it('charges the stamp fee for provider 3 only, and only when the setting is above 0', () => {
    expect(invoiceTotals(3, 10_000, [], settings)).toMatchObject({ stampFeeCents: 200, totalWithVatCents: 11_300 });
    expect(invoiceTotals(3, 10_000, [], { ...settings, stamp_fee_cents: 0 }).stampFeeCents).toBe(0);
    expect(invoiceTotals(7, 10_000, [], settings).stampFeeCents).toBe(0);
  });
});

describe('chooseAddons', () => {
  const quoted = [
    { addonId: 1, code: 'winter_sports', cents: 2_500, disabled: false },
    { addonId: 2, code: 'trip_cancellation', cents: 4_000, disabled: true },
    { addonId: 3, code: 'adventure_sports', cents: 1_000, disabled: false },
  ];
  const labels = new Map([[3, { labelEn: 'Adventure', labelAr: 'مغامرة' }]]);

  it('takes the quoted prices in the quote order, once each, labelled', () => {
    expect(chooseAddons(quoted, [3, 1, 3], labels)).toEqual([
      { addonId: 1, code: 'winter_sports', nameEn: 'winter_sports', nameAr: 'winter_sports', cents: 2_500 },
      { addonId: 3, code: 'adventure_sports', nameEn: 'Adventure', nameAr: 'مغامرة', cents: 1_000 },
    ]);
    expect(chooseAddons(quoted, [], labels)).toEqual([]);
  });

  it('refuses a disabled add-on and one not in the quote', () => {
    expect(chooseAddons(quoted, [2], labels)).toBeNull();
    expect(chooseAddons(quoted, [1, 99], labels)).toBeNull();
  });
});

describe('premiumMismatch', () => {
  const totals = invoiceTotals(1000, 12_000, [{ cents: 2_500 }], settings);

  it('agrees with the server figure in cents or dollars, with or without add-ons', () => {
    for (const shown of [14_500, 145, 12_000, 120, '145', '$145', 145.0]) expect(premiumMismatch(shown, totals)).toBeNull();
    expect(premiumMismatch(undefined, totals)).toBeNull();
    expect(premiumMismatch(null, totals)).toBeNull();
  });

  it('records any other figure, as sent, with the server total', () => {
    expect(premiumMismatch(1, totals)).toEqual({ selected_premium: 1, server_cents: 14_500 });
    expect(premiumMismatch('cheap', totals)).toEqual({ selected_premium: 'cheap', server_cents: 14_500 });
    expect(premiumMismatch({ premium: 145 }, totals)).toEqual({ selected_premium: { premium: 145 }, server_cents: 14_500 });
  });
});

describe('labels', () => {
  it('numbers references by year and id', () => {
    expect(quoteRefNo(2026, 42)).toBe('SAF-2026-000042');
    expect(quoteRefNo(2027, 1_234_567)).toBe('SAF-2027-1234567');
  });

  it('says who is covered in English and in Arabic counting', () => {
    expect(coverFor('en', 1, false)).toBe('1 traveller');
    expect(coverFor('en', 3, true)).toBe('Family, 3 travellers');
    expect(coverFor('ar', 1, false)).toBe('مسافر واحد');
    expect(coverFor('ar', 2, false)).toBe('مسافران');
    expect(coverFor('ar', 3, true)).toBe('عائلة، 3 مسافرين');
    expect(coverFor('ar', 11, false)).toBe('11 مسافرًا');
  });
});
