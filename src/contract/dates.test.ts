import { describe, expect, it } from 'vitest';
import { addMonths, ageOn, annualEndDate, parseIsoDate, tripDays } from './dates';

describe('calendar dates', () => {
  it('accepts only real YYYY-MM-DD dates', () => {
    expect(parseIsoDate('2026-02-28')).not.toBeNull();
    expect(parseIsoDate('2028-02-29')).not.toBeNull();
    for (const bad of ['2026-02-29', '2026-13-01', '2026-1-01', '01/02/2026', '', null, 20260101]) {
      expect(parseIsoDate(bad)).toBeNull();
    }
  });

  it('counts trip days with both ends included', () => {
    expect(tripDays('2026-12-01', '2026-12-01')).toBe(1);
    expect(tripDays('2026-12-01', '2026-12-08')).toBe(8);
    expect(tripDays('2026-12-30', '2027-01-02')).toBe(4);
  });

  it('makes an annual policy 12 months less one day, clamping month ends', () => {
    expect(annualEndDate('2026-12-01')).toBe('2027-11-30');
    expect(annualEndDate('2027-03-01')).toBe('2028-02-29');
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
  });

  it('gives the age in completed years, turning on the birthday', () => {
    expect(ageOn('2008-11-23', '2026-11-22')).toBe(17);
    expect(ageOn('2008-11-23', '2026-11-23')).toBe(18);
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
  });
});
