// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatAge, formatCountry, formatDay, formatList, formatMoney, formatNumber, formatPercent } from './console-format';

const unisolated = (text: string) => text.replace(/[\u2066\u2069]/g, '');

describe("the console's formats", () => {
  it('writes money as $1,234.50 in both languages, isolated left to right', () => {
    expect(unisolated(formatMoney(123450))).toBe('$1,234.50');
    expect(formatMoney(5)).toBe('\u2066$0.05\u2069');
  });

  it('writes numbers, per cents and dates with Western digits in Arabic too', () => {
    for (const text of [formatNumber(1240, 'ar'), formatPercent(33.1, 'ar'), formatDay('2026-11-23', 'ar'), formatAge(new Date(Date.now() - 3 * 86_400_000).toISOString(), 'ar')]) {
      expect(text).toMatch(/\d/);
      expect(text).not.toMatch(/[\u0660-\u0669]/);
    }
    expect([formatNumber(1240, 'ar'), formatPercent(33.1, 'ar')]).toEqual(['1,240', '33.1%']);
    expect(formatPercent(null, 'en')).toBe('—');
    expect(formatDay('2026-11-23', 'en')).toBe('23 Nov 2026');
  });

  it('names countries and lists them in the UI language', () => {
    expect(formatList([formatCountry('FR', 'en'), formatCountry('IT', 'en')], 'en')).toBe('France and Italy');
    expect(formatCountry('FR', 'ar')).toBe('فرنسا');
  });
});
