import { describe, expect, it } from 'vitest';
import {
  dateDigits,
  knownCallingCode,
  nationalDigits,
  nationalPhoneNumber,
  onlyDigits,
  phoneDigits,
  phoneNumberText,
  toWesternDigits,
} from './digits';

describe('toWesternDigits (issue 8 row 2, RULINGS 25)', () => {
  it('row 2: converts Arabic-Indic digits ٠–٩ to 0–9', () => {
    expect(toWesternDigits('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(toWesternDigits('٧١١٢٣٤٥٦')).toBe('71123456');
  });

  it('row 2: converts Eastern Arabic-Indic (Persian) digits ۰–۹ to 0–9', () => {
    expect(toWesternDigits('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789');
  });

  it('leaves everything else as it is', () => {
    expect(toWesternDigits('+961 (03) ١٢-abc')).toBe('+961 (03) 12-abc');
    expect(onlyDigits('٢٥/١٢/1990')).toBe('25121990');
  });
});

describe('phoneDigits: strip, drop the calling code, THEN cap (issue 8 row 1, spec §5)', () => {
  it.each([
    ['spaces', '71 123 456', '+961', '71123456'],
    ['a pasted +961', '+961 71 123 456', '+961', '71123456'],
    ['a pasted 00961', '00961 71 123 456', '+961', '71123456'],
    ['brackets around the area code', '(03) 123456', '+961', '03123456'],
    ['dashes', '71-123-456', '+961', '71123456'],
    ['Arabic-keyboard digits', '٧١١٢٣٤٥٦', '+961', '71123456'],
    ['Persian digits with a pasted +۹۶۱', '+۹۶۱ ۷۱ ۱۲۳ ۴۵۶', '+961', '71123456'],
    ['the selected code written with +', '+33 6 12 34 56 78', '+33', '612345678'],
    ['the selected code written with 00', '0033 612345678', '+33', '612345678'],
    ['+961 pasted under another code', '+961 71 123 456', '+33', '71123456'],
    ['the code without + when there are too many digits', '96171123456', '+961', '71123456'],
    ['direction marks from an Arabic text', '\u200e+961\u200e 71 123 456', '+961', '71123456'],
  ])('row 1: %s', (_what, text, code, expected) => {
    expect(phoneDigits(text, code)).toBe(expected);
  });

  it('row 1: caps after stripping, never before (8 digits for +961, 10 for other codes)', () => {
    expect(phoneDigits('71 123 456 789', '+961')).toBe('71123456');
    expect(phoneDigits('711234567890', '+961')).toBe('71123456');
    expect(phoneDigits('06 12 34 56 78 99', '+33')).toBe('0612345678');
    // The raw text is 15 characters: cutting it at 8 first would have kept "+961 71 ".
    expect('+961 71 123 456'.slice(0, 8).replace(/\D/g, '')).toBe('96171');
    expect(phoneDigits('+961 71 123 456', '+961')).toBe('71123456');
  });

  it('keeps a short national number that happens to start like the code', () => {
    expect(phoneDigits('9611234', '+961')).toBe('9611234');
    expect(nationalDigits('3312345678', '+33')).toBe('3312345678');
  });

  it('empty and letter-only text give nothing', () => {
    expect(phoneDigits('', '+961')).toBe('');
    expect(phoneDigits('abc', '+961')).toBe('');
  });
});

describe('nationalPhoneNumber: what the server stores (RULINGS 25)', () => {
  it('drops a leading +961 / 00961 (or the selected code) and the separators, keeping a trunk 0', () => {
    expect(nationalPhoneNumber('+961 71 123-456', '+961')).toBe('71123456');
    expect(nationalPhoneNumber('00961 (03) 123 456', '+961')).toBe('03123456');
    expect(nationalPhoneNumber('+33 6 12 34 56 78', '+33')).toBe('612345678');
    expect(nationalPhoneNumber('٧١ ١٢٣ ٤٥٦', '+961')).toBe('71123456');
  });

  it('leaves letters and another country prefix in, so the rules still refuse them', () => {
    expect(nationalPhoneNumber('3a55455', '+961')).toBe('3a55455');
    expect(nationalPhoneNumber('+33 3 555 455', '+961')).toBe('+333555455');
  });
});

describe('phoneNumberText: what the server reads (RULINGS 25)', () => {
  it('converts digits and drops spaces, dashes, dots and brackets, without capping', () => {
    expect(phoneNumberText('٧١ ١٢٣-٤٥٦')).toBe('71123456');
    expect(phoneNumberText('(03) 123.456')).toBe('03123456');
    expect(phoneNumberText('711234567890')).toBe('711234567890');
  });

  it('keeps what the rules must refuse: a plus sign, letters and control characters', () => {
    expect(phoneNumberText('+96171123456')).toBe('+96171123456');
    expect(phoneNumberText('71a23456')).toBe('71a23456');
    expect(phoneNumberText('7112\u00003456')).toBe('7112\u00003456');
  });
});

describe('dateDigits (issue 8 row 2)', () => {
  it('row 2: reads Arabic-keyboard digits and pasted separators as a DD/MM/YYYY text', () => {
    expect(dateDigits('٢٥/١٢/١٩٩٠')).toBe('25/12/1990');
    expect(dateDigits('25-12-1990')).toBe('25/12/1990');
    expect(dateDigits('25.12.1990')).toBe('25/12/1990');
    expect(dateDigits(' 25 / 12 // 1990 ')).toBe('25/12/1990');
  });
});

describe('knownCallingCode (issue 8 row 7)', () => {
  it('row 7: keeps a listed calling code and replaces anything else with +961', () => {
    expect(knownCallingCode('+33', ['+961', '+33'])).toBe('+33');
    expect(knownCallingCode('+9999', ['+961', '+33'])).toBe('+961');
    expect(knownCallingCode(null, ['+961'])).toBe('+961');
  });
});
