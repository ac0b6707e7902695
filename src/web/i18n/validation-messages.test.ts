import { i18n } from '@lingui/core';
import { afterAll, describe, expect, it } from 'vitest';
import { activateLanguage } from './locale';
import { TRAVEL_DETAILS_MESSAGES } from './validation-messages';

/** The message for a code, as the form renders it (with the broker's child age). */
const text = (code: keyof typeof TRAVEL_DETAILS_MESSAGES) => {
  // Built outside the call: Lingui's extractor cannot read an object literal passed to i18n._.
  const message = { ...TRAVEL_DETAILS_MESSAGES[code], values: { childAge: 18 } };
  return i18n._(message);
};

afterAll(async () => {
  await activateLanguage('en');
});

describe('row 13(b): the family refusal speaks of the checkbox it sits under', () => {
  it('row 13(b): English asks to untick "We are travelling as a family", never to "select No"', async () => {
    await activateLanguage('en');
    const message = text('family_not_eligible');
    expect(message).toContain('untick "We are travelling as a family"');
    expect(message).toContain('18+');
    expect(message).not.toMatch(/select No/i);
  });

  it('row 13(b): Arabic asks to untick the box by its Arabic label, never to choose «لا»', async () => {
    await activateLanguage('ar');
    const message = text('family_not_eligible');
    expect(message).toContain('إلغاء تحديد');
    expect(message).toContain('نسافر كعائلة');
    expect(message).toContain('18');
    expect(message).not.toContain('«لا»');
  });
});

describe('row 13(f): a taken e-mail says how to go on', () => {
  it('row 13(f): English names the phone used before and another e-mail as ways forward', async () => {
    await activateLanguage('en');
    const message = text('email_taken');
    expect(message).toMatch(/^Email already taken/);
    expect(message).toContain('phone number you used before');
    expect(message).toContain('another e-mail');
  });

  it('row 13(f): Arabic says the same', async () => {
    await activateLanguage('ar');
    const message = text('email_taken');
    expect(message).toContain('رقم الهاتف الذي استخدمته معه من قبل');
    expect(message).toContain('بريدًا إلكترونيًا آخر');
  });
});
