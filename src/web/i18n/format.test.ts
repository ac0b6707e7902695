import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format';

describe('money and date formats (RULINGS 17)', () => {
  it('shows whole dollars from cents, rounded, with grouping', () => {
    expect(formatMoney(123_456, 'en')).toBe('$1,235');
    expect(formatMoney(4_549, 'en')).toBe('$45');
    expect(formatMoney(0, 'en')).toBe('$0');
  });

  it('writes the same "$1,235" in Arabic, with Western digits', () => {
    expect(formatMoney(123_456, 'ar')).toBe('$1,235');
  });

  it('writes dates with Levantine Arabic month names and Western digits', () => {
    const date = new Date(Date.UTC(2026, 10, 23, 12));
    expect(formatDate(date, 'en')).toBe('23 Nov 2026');
    const arabic = formatDate(date, 'ar');
    expect(arabic).toContain('تشرين الثاني');
    expect(arabic).toContain('2026');
    expect(arabic).not.toMatch(/[٠-٩]/);
  });
});
