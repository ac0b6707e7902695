import { describe, expect, it } from 'vitest';
import { policyMailFacts } from '../../../tests/support/policy-mail-facts';
import { mailDate, policyMail } from './policy-mail';

/** The policy e-mail (issue 17 items 5 and 6): a receipt in the customer's language, and Arabic dates that read naturally. */

const facts = policyMailFacts;

const FSI = '\u2068';
const LRI = '\u2066';
const PDI = '\u2069';
const visible = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

describe('Arabic dates in the policy e-mail', () => {
  it('read day, month, year ("5 كانون الأول 2026"), each figure in its own isolate, never a left-to-right wrapper around the whole date', () => {
    expect(mailDate('2026-12-05', 'ar')).toBe(`${FSI}5${PDI} كانون الأول ${FSI}2026${PDI}`);
    expect(mailDate('2026-12-05', 'en')).toBe('5 December 2026');
    const mail = policyMail('ar', facts());
    for (const part of [mail.text, mail.html]) {
      expect(visible(part)).toContain('من 5 كانون الأول 2026 إلى 14 كانون الأول 2026');
      expect(part).not.toContain(`${LRI}5 كانون`);
      expect(visible(part)).not.toContain('كانون الأول 2026 5');
    }
  });

  it('the HTML tables put the gap between label and value on the side the direction reads: the left in Arabic, the right in English', () => {
    const arabic = policyMail('ar', facts()).html;
    expect(arabic).toMatch(/<td style="[^"]*padding-left: 16px; padding-right: 0; text-align: right[^"]*">رقم البوليصة<\/td>/);
    expect(arabic).toContain('<table dir="rtl"');
    expect(arabic).not.toContain('padding: 2px 12px 2px 0');
    const english = policyMail('en', facts()).html;
    expect(english).toMatch(/<td style="[^"]*padding-right: 16px; padding-left: 0; text-align: left[^"]*">Policy number<\/td>/);
  });
});

describe('the receipt in the policy e-mail', () => {
  it('states the plan, travellers, add-ons, dates and every price line to the cent, adding up to the amount paid, in text and HTML', () => {
    const mail = policyMail('en', facts());
    expect(mail.text).toContain('Plan: Schengen Plus (Schengen) — Cedar Mutual');
    expect(mail.text).toContain('Travellers: Rania Haddad, Karim Haddad');
    expect(mail.text).toContain('Add-ons: Winter sports');
    expect(mail.text).toContain('Trip dates: 5 December 2026 to 14 December 2026');
    expect(mail.text).toContain(
      ['What you paid:', 'Plan premium: $48.35', 'Winter sports: $29.95', 'Discount (coupon PHOENICIA20): \u2212$9.67', 'VAT (11%): $9.20', 'Stamp fee: $2.00', 'Total paid: $79.83'].join('\n'),
    );
    for (const amount of ['$48.35', '$29.95', '\u2212$9.67', '$9.20', '$2.00', '$79.83']) expect(mail.html).toContain(amount);
  });

  it('in Arabic, amounts and names stay whole inside left-to-right isolates with Western digits', () => {
    const mail = policyMail('ar', facts({ addons: ['الرياضات الشتوية'] }));
    expect(mail.text).toContain(`${LRI}$79.83${PDI}`);
    expect(mail.text).toContain(`${LRI}Rania Haddad${PDI}، ${LRI}Karim Haddad${PDI}`);
    expect(mail.text).toContain('التغطيات الإضافية: الرياضات الشتوية');
    expect(mail.text).not.toMatch(/[\u0660-\u0669]/);
  });
});

describe('the certificate link in the policy e-mail (issue 37 item 5)', () => {
  it.each(['en', 'ar'] as const)('in %s the HTML has a button to the certificate and no raw URL that would widen a phone screen; the text part keeps the URL', (lang) => {
    const mail = policyMail(lang, facts({ link: 'https://safar.test/policies/a-long-unguessable-token-of-forty-three-chars/certificate.pdf' }));
    const links = [...mail.html.matchAll(/<a href="([^"]+)" style="([^"]+)">([^<]+)<\/a>/g)];
    expect(links[0]![1]).toBe('https://safar.test/policies/a-long-unguessable-token-of-forty-three-chars/certificate.pdf');
    expect(links[0]![2]).toContain('display: inline-block');
    expect(mail.html.split('certificate.pdf').length - 1).toBe(1);
    expect(mail.text).toContain('https://safar.test/policies/a-long-unguessable-token-of-forty-three-chars/certificate.pdf');
  });
});

describe('the policy page button in the policy e-mail (issue 37 item 2)', () => {
  const pageLink = `https://safar.test/policy/${'ab12'.repeat(16)}`;

  it.each([
    ['en', 'Open your policy'],
    ['ar', 'افتح صفحة بوليصتك'],
  ] as const)('in %s a second button, "%s", opens the policy page beside the certificate\'s; it wraps below it on a phone, and the text part carries the URL', (lang, label) => {
    const mail = policyMail(lang, facts({ pageLink }));
    const links = [...mail.html.matchAll(/<a href="([^"]+)" style="([^"]+)">([^<]+)<\/a>/g)];
    expect(links.map((link) => [link[1], link[3]])).toEqual([
      ['https://safar.test/policies/x/certificate.pdf', lang === 'en' ? 'Download your certificate' : 'نزّل شهادتك'],
      [pageLink, label],
    ]);
    // Both buttons in one paragraph, each an inline block that wraps whole (no nowrap, no fixed width).
    expect(mail.html).toMatch(/<p [^>]*><a href="[^"]+certificate\.pdf"[^>]*>[^<]+<\/a> <a href="[^"]+\/policy\/[0-9a-f]{64}"[^>]*>[^<]+<\/a><\/p>/);
    for (const link of links) {
      expect(link[2]).toContain('display: inline-block');
      expect(link[2]).not.toMatch(/white-space|width/);
    }
    // The raw URL appears once in the HTML (the href), never as visible text.
    expect(mail.html.split(pageLink).length - 1).toBe(1);
    expect(mail.text).toContain(`:\n${pageLink}\n`);
  });
});
