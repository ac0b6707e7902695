import { describe, expect, it } from 'vitest';
import { formatList } from './list-format';
import { groupThousands } from './money';

const names = { en: ['France', 'Germany', 'Italy', 'Spain'], ar: ['فرنسا', 'ألمانيا', 'إيطاليا', 'إسبانيا'] } as const;

describe('lists and numbers written out as Intl writes them (issue 19: no Intl object on the first render)', () => {
  it.each(['en', 'ar'] as const)('formatList in %s reads exactly as Intl.ListFormat short unit lists, for 0 to 4 items', (lang) => {
    for (let count = 0; count <= 4; count++) {
      const items = names[lang].slice(0, count);
      expect(formatList(items, lang)).toBe(new Intl.ListFormat(lang, { style: 'short', type: 'unit' }).format(items));
    }
  });

  it('groupThousands reads exactly as Intl.NumberFormat en-US, negative numbers and zero included', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    for (const value of [0, 7, 42, 999, 1000, 12_345, 999_999, 1_000_000, 1_234_567_890, -5, -1234, -1_000_000]) {
      expect(groupThousands(value)).toBe(intl.format(value));
    }
  });
});
