import { describe, expect, it } from 'vitest';
import { isUnsafeText, unsafeTextPaths } from './text-safety';

describe('text safety (RULINGS 25)', () => {
  it('refuses NUL and other control characters', () => {
    expect(isUnsafeText('Ka\u0000rim')).toBe(true);
    expect(isUnsafeText('a\u001fb')).toBe(true);
    expect(isUnsafeText('a\u007fb')).toBe(true);
    expect(isUnsafeText('a\u0085b')).toBe(true);
    expect(isUnsafeText('line\nbreak')).toBe(true);
  });

  it('refuses lone surrogates but keeps well-formed pairs, Arabic and accents', () => {
    expect(isUnsafeText('a\ud800b')).toBe(true);
    expect(isUnsafeText('a\udc00b')).toBe(true);
    expect(isUnsafeText('end\ud83d')).toBe(true);
    expect(isUnsafeText('trip ✈️ 😀')).toBe(false);
    expect(isUnsafeText('كريم خوري')).toBe(false);
    expect(isUnsafeText("Zoë O'Neil-Ñúñez")).toBe(false);
  });

  it('names the path of every unsafe string in a body, keys included', () => {
    const body = {
      name: 'Karim',
      travellers_info: [{ first_name: 'ok' }, { first_name: 'Ka\u0000rim' }],
      utm_source: 'a\ud800b',
      quote: { nested: ['fine', '\u0000'] },
      ['bad\u0000key']: 1,
    };
    expect(unsafeTextPaths(body).sort()).toEqual(['_key', 'quote.nested.1', 'travellers_info.1.first_name', 'utm_source'].sort());
    expect(unsafeTextPaths({ a: 1, b: [true, null, 'x'] })).toEqual([]);
    expect(unsafeTextPaths('\u0000')).toEqual(['_']);
  });

  it('walks a body nested 20,000 levels deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}"\\u0000"${']'.repeat(20_000)}`) as unknown;
    expect(unsafeTextPaths(deep)).toHaveLength(1);
  });
});
