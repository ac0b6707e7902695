// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isSixDigits, normalisedCode } from './totp-code';
import { secretOf } from './totp-enrolment';

describe('the six-digit code as typed', () => {
  it('takes Arabic-keyboard digits and spaces, and sends six Western digits', () => {
    expect(normalisedCode('١٢٣ ٤٥٦')).toBe('123456');
    expect(normalisedCode('۱۲۳-۴۵۶')).toBe('123456');
    expect(normalisedCode(' 123456 ')).toBe('123456');
    expect(isSixDigits(normalisedCode('١٢٣ ٤٥٦'))).toBe(true);
    expect(isSixDigits('12345')).toBe(false);
    expect(isSixDigits('12345a')).toBe(false);
  });

  it("reads the secret of an otpauth URI for typing it by hand", () => {
    expect(secretOf('otpauth://totp/Safar%20console:a%40b.c?secret=JBSWY3DPEHPK3PXP&issuer=Safar%20console')).toBe('JBSWY3DPEHPK3PXP');
    expect(secretOf('not a uri')).toBeNull();
  });
});
