import { describe, expect, it } from 'vitest';
import { dollarsAndCents } from './money';

describe('dollarsAndCents writes integer cents exactly (RULINGS 26)', () => {
  it.each([
    [9_457, '94.57'],
    [4_296, '42.96'],
    [4_800, '48.00'],
    [5, '0.05'],
    [0, '0.00'],
    [123_456, '1,234.56'],
    [123_456_789, '1,234,567.89'],
    [-1_000, '10.00'],
  ])('%i cents → %s', (cents, text) => {
    expect(dollarsAndCents(cents)).toBe(text);
  });

  it('agrees with the exact decimal for every cent figure up to $1,000 (no floating-point drift)', () => {
    for (let cents = 0; cents <= 100_000; cents += 1) {
      const text = dollarsAndCents(cents).replace(/,/g, '');
      expect(Math.round(Number(text) * 100)).toBe(cents);
    }
  });
});
