import { describe, expect, it } from 'vitest';
import { initialContext, parseTotals } from './checkout.helpers';
import { PLAN_TOTALS, checkoutInput } from './checkout.model';

describe('checkout helpers', () => {
  it('starts with an empty coupon box, no WhatsApp text and no totals until the lead is read', () => {
    expect(initialContext(checkoutInput())).toMatchObject({ couponText: '', whatsappTemplate: '', baseWhatsappTemplate: '', totals: null, baseTotals: null, coupon: null });
  });

  describe('parseTotals: totals read from an error body', () => {
    it('takes whole non-negative cents and a VAT rate, and nothing else', () => {
      expect(parseTotals({ ...PLAN_TOTALS, extra: 'ignored' })).toEqual(PLAN_TOTALS);
      expect(parseTotals({ ...PLAN_TOTALS, vat_percent: 11.5 })).toEqual({ ...PLAN_TOTALS, vat_percent: 11.5 });
    });

    it('refuses what is not an object', () => {
      for (const value of [null, undefined, 'totals', 12177]) expect(parseTotals(value)).toBeNull();
    });

    it('refuses a missing, negative, fractional or non-finite line, the VAT rate too', () => {
      const { total: _total, ...withoutTotal } = PLAN_TOTALS;
      expect(parseTotals(withoutTotal)).toBeNull();
      expect(parseTotals({ ...PLAN_TOTALS, total: -1 })).toBeNull();
      expect(parseTotals({ ...PLAN_TOTALS, total: 12.5 })).toBeNull();
      expect(parseTotals({ ...PLAN_TOTALS, total: '12177' })).toBeNull();
      expect(parseTotals({ ...PLAN_TOTALS, vat_percent: -11 })).toBeNull();
      expect(parseTotals({ ...PLAN_TOTALS, vat_percent: '11' })).toBeNull();
      expect(parseTotals({ ...PLAN_TOTALS, vat_percent: Number.POSITIVE_INFINITY })).toBeNull();
      expect(parseTotals({ ...PLAN_TOTALS, vat_percent: Number.NaN })).toBeNull();
    });
  });
});
