// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { acceptedDate, formatDateText, normalizeDateText, parseDateText } from './date-text';

describe('typed DD/MM/YYYY dates (spec §5)', () => {
  it.each([
    ['keeps digits and slashes only', '1a2/0b5/2x026', '', '12/05/2026'],
    ['caps the text at 10 characters', '12/05/20261', '12/05/2026', '12/05/2026'],
    ['adds the slash after the day when typing forward', '12', '1', '12/'],
    ['adds the slash after the month when typing forward', '12/05', '12/0', '12/05/'],
    ['does not add a slash back while deleting', '12', '12/', '12'],
    ['formats pasted digits', '25121990', '', '25/12/1990'],
    ['collapses doubled slashes', '12//', '12/', '12/'],
    ['row 2: reads a date typed on an Arabic keyboard', '٢٥/١٢/١٩٩٠', '', '25/12/1990'],
    ['row 2: reads Persian digits', '۲۵۱۲۱۹۹۰', '', '25/12/1990'],
    ['row 2: adds the slash after Arabic-keyboard day digits', '٢٥', '2', '25/'],
    ['row 2: reads a pasted date written with dashes', '25-12-1990', '', '25/12/1990'],
    ['row 2: caps at 10 characters after converting, not before', ' ٢٥ / ١٢ / ١٩٩٠ ', '', '25/12/1990'],
  ])('%s', (_behaviour, next, previous, expected) => {
    expect(normalizeDateText(next, previous)).toBe(expected);
  });

  it.each([
    ['25/12/1990', '1990-12-25'],
    ['1/2/2026', '2026-02-01'],
    ['31/02/2026', null],
    ['29/02/2028', '2028-02-29'],
    ['12/05/26', null],
    ['12/05', null],
    ['', null],
  ])('parses %j as %j', (text, iso) => {
    expect(parseDateText(text)).toBe(iso);
  });

  it('formats a date as DD/MM/YYYY and an empty or invalid one as nothing', () => {
    expect(formatDateText('1990-12-25')).toBe('25/12/1990');
    expect(formatDateText(null)).toBe('');
    expect(formatDateText('1990-13-01')).toBe('');
  });

  it('accepts a complete date only inside the bounds, both ends included', () => {
    expect(acceptedDate('15/06/2026', '2026-06-15', '2026-06-20')).toBe('2026-06-15');
    expect(acceptedDate('20/06/2026', '2026-06-15', '2026-06-20')).toBe('2026-06-20');
    expect(acceptedDate('14/06/2026', '2026-06-15', '2026-06-20')).toBeNull();
    expect(acceptedDate('21/06/2026', '2026-06-15', '2026-06-20')).toBeNull();
  });
});
