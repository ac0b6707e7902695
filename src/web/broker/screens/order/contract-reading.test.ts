// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { readContract } from './contract-reading';

describe("an order's frozen contract, read for the console", () => {
  const contract = {
    insurer: { nameEn: 'Bankers', nameAr: 'بانكرز' },
    plan: { nameEn: 'Gold', nameAr: 'الذهبية' },
    trip: { startDate: '2026-12-01', endDate: '2026-12-15', destinations: [{ nameEn: 'France', nameAr: 'فرنسا' }] },
    travellers: [{ firstName: 'Karim', middleName: null, lastName: 'Nassar', dob: '1985-03-02', passport: 'RL1' }],
    price: { totalCents: 4296 },
  };

  it('finds the plan, trip, travellers and total in the language asked for', () => {
    expect(readContract(contract, 'ar')).toEqual({
      insurer: 'بانكرز',
      plan: 'الذهبية',
      tripStart: '2026-12-01',
      tripEnd: '2026-12-15',
      destinations: ['فرنسا'],
      travellers: [{ name: 'Karim Nassar', dob: '1985-03-02', passport: 'RL1' }],
      totalCents: 4296,
    });
  });

  it('leaves out what a contract of another shape lacks, without throwing', () => {
    expect(readContract(null, 'en')).toEqual({ insurer: null, plan: null, tripStart: null, tripEnd: null, destinations: [], travellers: [], totalCents: null });
    expect(readContract({ travellers: 'x', trip: 3 }, 'en').travellers).toEqual([]);
  });
});
