// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { MONTH_NAMES } from '../../contract/month-names';
import { formatDate, formatList, formatMoney, LRI, PDI } from './format';

/** The amount as read, without the invisible direction marks. */
const visible = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

describe('money and date formats (RULINGS 17)', () => {
  it('shows whole dollars from cents, rounded, with grouping', () => {
    expect(visible(formatMoney(123_456, 'en'))).toBe('$1,235');
    expect(visible(formatMoney(4_549, 'en'))).toBe('$45');
    expect(visible(formatMoney(0, 'en'))).toBe('$0');
  });

  it('writes the same "$1,235" in Arabic, with Western digits', () => {
    expect(visible(formatMoney(123_456, 'ar'))).toBe('$1,235');
  });

  it('row 12: every amount is wrapped in a left-to-right isolate, so right-to-left text cannot reorder it', () => {
    expect(formatMoney(3_000, 'ar')).toBe(`${LRI}$30${PDI}`);
    expect(formatMoney(3_100, 'en')).toBe(`${LRI}$31${PDI}`);
  });

  it('row 12: an add-on price reads "+$30" with the sign inside the isolate, in both languages', () => {
    expect(formatMoney(3_000, 'ar', { signed: true })).toBe(`${LRI}+$30${PDI}`);
    expect(formatMoney(3_000, 'en', { signed: true })).toBe(`${LRI}+$30${PDI}`);
  });

  it('a discount reads "−$12" (minus sign) inside the isolate, in both languages', () => {
    expect(formatMoney(1_200, 'ar', { minus: true })).toBe(`${LRI}\u2212$12${PDI}`);
    expect(formatMoney(1_200, 'en', { minus: true })).toBe(`${LRI}\u2212$12${PDI}`);
  });

  it('with `cents`, writes the exact amount to the cent, "$94.57", where whole dollars would say "$95" (RULINGS 26)', () => {
    expect(formatMoney(9_457, 'en', { cents: true })).toBe(`${LRI}$94.57${PDI}`);
    expect(visible(formatMoney(9_457, 'en'))).toBe('$95');
    expect(formatMoney(4_296, 'ar', { cents: true })).toBe(`${LRI}$42.96${PDI}`);
    expect(visible(formatMoney(4_800, 'en', { cents: true }))).toBe('$48.00');
    expect(visible(formatMoney(123_456, 'ar', { cents: true }))).toBe('$1,234.56');
    expect(formatMoney(1_000, 'ar', { cents: true, minus: true })).toBe(`${LRI}\u2212$10.00${PDI}`);
  });

  it('writes dates with Levantine Arabic month names and Western digits', () => {
    const date = new Date(Date.UTC(2026, 10, 23, 12));
    expect(formatDate(date, 'en')).toBe('23 Nov 2026');
    expect(formatDate(date, 'ar')).toBe('23 تشرين الثاني 2026');
  });

  it.each([
    ['en', 'en-GB'],
    ['ar', 'ar-LB-u-nu-latn'],
  ] as const)('issue 19: writes every month of a %s date exactly as Intl %s does, without building an Intl formatter', (lang, locale) => {
    const intl = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' });
    for (let month = 0; month < 12; month++) {
      const date = new Date(2026, month, 5);
      expect(formatDate(date, lang)).toBe(intl.format(date));
    }
  });

  it('issue 19: the calendar\'s Arabic month names (calendar-locale.ts) are the long names ar-LB writes', () => {
    const monthOnly = new Intl.DateTimeFormat('ar-LB', { month: 'long' });
    expect(MONTH_NAMES.ar).toEqual(Array.from({ length: 12 }, (_, month) => monthOnly.format(new Date(2026, month, 5))));
  });
});

describe('row 12: lists in the language\'s punctuation (Intl.ListFormat)', () => {
  it('row 12: joins an Arabic list with "،", never ", "', () => {
    const list = formatList(['فرنسا', 'ألمانيا', 'إيطاليا'], 'ar');
    expect(list).toContain('،');
    expect(list).not.toContain(', ');
    for (const name of ['فرنسا', 'ألمانيا', 'إيطاليا']) expect(list).toContain(name);
  });

  it('row 12: joins an English list with ", " as before', () => {
    expect(formatList(['France', 'Germany', 'Italy'], 'en')).toBe('France, Germany, Italy');
    expect(formatList(['France'], 'en')).toBe('France');
    expect(formatList([], 'ar')).toBe('');
  });
});
