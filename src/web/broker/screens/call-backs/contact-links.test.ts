// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { internationalDigits, telHref, whatsAppHref } from './contact-links';

describe("a call-back's phone as links", () => {
  it('keeps an international number and takes a national one as Lebanese', () => {
    expect(internationalDigits('+961 71 123 456')).toBe('96171123456');
    expect(internationalDigits('0044 20 7946 0958')).toBe('442079460958');
    expect(internationalDigits('03 123 456')).toBe('9613123456');
    expect(internationalDigits('٧١ ١٢٣ ٤٥٦')).toBe('96171123456');
  });

  it('dials with tel: and chats with wa.me', () => {
    expect(telHref('71123456')).toBe('tel:+96171123456');
    expect(whatsAppHref('+961 71 123 456')).toBe('https://wa.me/96171123456');
  });
});
