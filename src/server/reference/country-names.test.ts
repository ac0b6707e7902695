import { describe, expect, it } from 'vitest';
import { countryRows } from '../db/seed';
import { countryOtherNames } from './country-names';

/** Issue 17 item 15: the names a stored country also goes by, from the data package and CLDR. */

const row = (iso2: string) => countryRows().find((country) => country.iso2 === iso2)!;
const others = (iso2: string) => {
  const { nameEn, nameAr } = row(iso2);
  return countryOtherNames(iso2, [nameEn, nameAr]);
};

describe('every other name of a country, in English and Arabic', () => {
  it('the Czech Republic is also Czechia (and التشيك)', () => {
    expect(row('CZ')).toMatchObject({ nameEn: 'Czech Republic' });
    expect(others('CZ')).toEqual(expect.arrayContaining(['Czechia', 'التشيك']));
  });

  it('Türkiye / Turkey, Eswatini / its Arabic names, Myanmar / Burma', () => {
    expect([row('TR').nameEn, ...others('TR')]).toEqual(expect.arrayContaining(['Türkiye', 'Turkey']));
    expect([row('SZ').nameAr, ...others('SZ')]).toEqual(expect.arrayContaining(['سوازيلاند', 'إسواتيني']));
    expect(others('MM').join(' ')).toContain('Burma');
    expect([row('MM').nameAr, ...others('MM')].join(' ')).toContain('ميانمار');
  });

  it('never repeats the names the row carries, nor itself', () => {
    for (const iso2 of ['CZ', 'TR', 'LB', 'FR', 'US']) {
      const { nameEn, nameAr } = row(iso2);
      const names = others(iso2);
      expect(names).not.toContain(nameEn);
      expect(names).not.toContain(nameAr);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});
