import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addonRows, CATALOGUE_PLANS, featureRows } from './db/seed-catalogue';
import { COMPANY_INFO, INSURERS, MASTER_LISTS, RELATIONSHIP_LISTS } from './db/seed-data';
import { message } from './http/messages';
import { policyMail } from './mail/policy-mail';
import { refundMail } from './mail/refund-mail';
import { sharePageMail } from './mail/share-page-mail';
import { priceLines } from './orders/price-lines';
import { payFormPageHtml, payMessagePageHtml } from './payments/pay-page';
import { cardPageHtml, returnPageHtml, sandboxErrorPageHtml } from './payments/sandbox-pages';
import { whatsappTemplate, type SharedStep } from './shares/share-texts';

/**
 * The Arabic the server writes, as a Lebanese reader reads it (issue 21): the brand «سفر» in
 * guillemets wherever it is the name (alone, سفر is the common noun "travel"), one term per
 * concept (بوليصة, رمز الخصم, الضريبة على القيمة المضافة), and the catalogue's names distinct
 * and in agreement. Checked over every Arabic literal of the server's source, so a text added
 * later is held to the same words, and over the texts as the customer gets them (e-mails,
 * WhatsApp texts, pages), where literals are put together.
 */

const SERVER = path.dirname(fileURLToPath(import.meta.url));
const ARABIC = /[\u0600-\u06FF]/;
const visible = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

/** Every line of the server's own source (not its tests) that holds Arabic, with where it is. */
function arabicSourceLines(): { where: string; line: string }[] {
  return readdirSync(SERVER, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .flatMap((file) =>
      readFileSync(path.join(SERVER, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (ARABIC.test(line) ? [{ where: `${file}:${index + 1}`, line }] : [])),
    );
}

/**
 * What a Lebanese reader would mark in a text: the name سفر not set apart (with or without a
 * joined و/ب/ل/ف), وثيقة for a policy, قسيمة for a coupon, and VAT other than its legal name.
 */
function faultsOf(text: string): string[] {
  const plain = visible(text);
  const faults: string[] = [];
  if (/(?<![\u0600-\u06FF«])[وبلف]?سفر(?![\u0600-\u06FF»])/.test(plain)) faults.push('the brand سفر without «»');
  if (/وثيق[ةت]/.test(plain)) faults.push('وثيقة instead of بوليصة');
  if (/قسيم[ةت]|قسائم/.test(plain)) faults.push('قسيمة instead of رمز الخصم');
  if (/(?<!الضريبة على )القيمة المضافة/.test(plain)) faults.push('VAT not written «الضريبة على القيمة المضافة»');
  return faults;
}

const faultsIn = (texts: Record<string, string>) =>
  Object.entries(texts).flatMap(([where, text]) => faultsOf(text).map((fault) => `${where}: ${fault}`));

const LINES = priceLines(
  {
    addons: [{ addonId: 1, code: 'winter_sports', nameEn: 'Winter sports', nameAr: 'الرياضات الشتوية', cents: 1_500 }],
    price: { planCents: 5_800, addonsCents: 1_500, discountCents: 580, couponCode: 'SAFAR10', vatPercent: 11, vatCents: 739, stampCents: 200, totalCents: 7_659 },
  } as Parameters<typeof priceLines>[0],
  'ar',
);

/** Every text the server sends a customer in Arabic, put together as they get it. */
function renderedArabic(): Record<string, string> {
  const texts: Record<string, string> = {};
  const mail = policyMail('ar', {
    customerName: 'Rania Haddad',
    policyNumber: 'SFR-26-7K3Q9M2T',
    insurerName: 'فينيقيا للتأمين',
    planName: 'رعاية تأشيرة شنغن',
    coverageName: 'قياسية',
    startDate: '2026-12-05',
    endDate: '2026-12-14',
    travellers: ['Rania Haddad'],
    addons: ['الرياضات الشتوية'],
    lines: LINES,
    link: 'https://safar.test/policies/x/certificate.pdf',
    pageLink: `https://safar.test/policy/${'a'.repeat(64)}`,
  });
  Object.assign(texts, { 'policy mail subject': mail.subject, 'policy mail text': mail.text, 'policy mail html': mail.html });
  const steps: SharedStep[] = [{ page: 'quotes' }, { page: 'review', plan: 'أوروبا المرنة' }, { page: 'checkout', plan: 'أوروبا المرنة', totalCents: 7_659 }];
  for (const step of steps) {
    const share = sharePageMail('ar', 'Rania Haddad', 'https://safar.test/x', step, [{ name: 'أوروبا المرنة', cents: 5_800 }]);
    Object.assign(texts, {
      [`share mail ${step.page} subject`]: share.subject,
      [`share mail ${step.page} text`]: share.text,
      [`share mail ${step.page} html`]: share.html,
      [`WhatsApp ${step.page}`]: whatsappTemplate('ar', 'Rania Haddad', 'https://safar.test/x', step),
    });
  }
  for (const reason of ['paid_twice', 'order_void', 'coupon_used_up', 'charged_again', 'policy_cancelled'] as const) {
    const feeCents = reason === 'policy_cancelled' ? 1_000 : 0;
    const refund = refundMail('ar', { customerName: 'Rania Haddad', amountCents: 7_659, currency: 'USD', merchantReference: 'SAF42-MFX3K2A1-7QZC0P4M8R2D', reason, feeCents });
    Object.assign(texts, { 'refund mail subject': refund.subject, [`refund mail ${reason} text`]: refund.text, [`refund mail ${reason} html`]: refund.html });
  }
  const details = {
    reference: 'SAF42-MFX3K2A1-7QZC0P4M8R2D',
    insurer: 'فينيقيا للتأمين',
    plan: 'رعاية تأشيرة شنغن',
    coverage: 'قياسية',
    travellers: ['Rania Haddad'],
    startDate: '2026-12-05',
    endDate: '2026-12-14',
    totalCents: 7_659,
    lines: LINES,
  };
  /** The page without its top bar: the wordmark "Safar سفر" beside the logo is the SPA header's, a logo, not a sentence. */
  const body = (html: string) => html.replace(/<header[\s\S]*?<\/header>/, '');
  texts['pay page'] = body(payFormPageHtml({ lang: 'ar', details, form: { url: 'https://gateway.test', fields: {} }, sandbox: true }));
  texts['pay page, paid'] = body(
    payMessagePageHtml({ lang: 'ar', title: 'pay_already_paid', text: 'pay_already_paid_issued_text', facts: [['pay_reference', details.reference]], link: { href: '/x.pdf', label: 'pay_certificate_link', testId: 'pay-certificate' } }),
  );
  texts['pay page, unknown'] = body(payMessagePageHtml({ lang: 'ar', title: 'pay_not_found', text: 'pay_not_found_text' }));
  const request = { merchant_reference: details.reference, amount: '7659', currency: 'USD', language: 'ar' };
  texts['sandbox card page'] = cardPageHtml({ request, action: '/sandbox/aps/pay/x', errors: { card_number: 'required' } });
  texts['sandbox return page'] = returnPageHtml({ lang: 'ar', returnUrl: 'https://safar.test/r', response: { status: '14', merchant_reference: details.reference } });
  texts['sandbox error page'] = sandboxErrorPageHtml({ lang: 'ar', reason: 'sandbox_session_unknown_text' });
  return texts;
}

/** The seeded reference data and catalogue, in Arabic: what the broker's lists and the quotes show. */
function seededArabic(): Record<string, string> {
  const texts: Record<string, string> = { 'company name': COMPANY_INFO.ar.name, disclaimer: COMPANY_INFO.ar.disclaimer, address: COMPANY_INFO.ar.address };
  for (const [kind, items] of Object.entries({ ...MASTER_LISTS, ...RELATIONSHIP_LISTS })) for (const item of items) texts[`${kind} ${item.id}`] = item.ar;
  for (const insurer of INSURERS) texts[`insurer ${insurer.id}`] = insurer.nameAr;
  for (const plan of CATALOGUE_PLANS) {
    texts[`plan ${plan.id}`] = `${plan.nameAr} (${plan.coverageAr})`;
    for (const addon of addonRows(plan)) texts[`add-on ${addon.id}`] = addon.labelAr;
    for (const feature of featureRows(plan)) texts[`plan ${plan.id} ${feature.key}`] = `${feature.labelAr}: ${feature.valueAr}`;
  }
  return texts;
}

describe('the Arabic the server writes', () => {
  it('writes the brand as «سفر» and uses بوليصة, رمز الخصم and «الضريبة على القيمة المضافة» in every Arabic literal of its source', () => {
    const lines = arabicSourceLines();
    expect(lines.length).toBeGreaterThan(100);
    // The one exception: the logo's wordmark "Safar سفر" of the payment pages' top bar, as in the SPA's header.
    const faults = lines.filter(({ line }) => !line.includes('<span lang="ar">سفر</span>')).flatMap(({ where, line }) => faultsOf(line).map((fault) => `${where}: ${fault}`));
    expect(faults).toEqual([]);
  });

  it('keeps to those words in the e-mails, the WhatsApp texts and the payment and sandbox pages as sent', () => {
    const texts = renderedArabic();
    expect(faultsIn(texts)).toEqual([]);
    expect(visible(texts['policy mail text']!)).toContain('شكرًا لشرائك تأمين السفر من «سفر».');
    expect(texts['pay page']).toContain('العودة إلى «سفر»');
  });

  it('keeps to those words in the seeded reference data and catalogue', () => {
    expect(faultsIn(seededArabic())).toEqual([]);
  });

  it('names the payment provider as on the customer\'s card statement, Amazon Payment Services, on the payments page and the sandbox alike', () => {
    for (const lang of ['en', 'ar'] as const) {
      expect(message('pay_processor_note', lang)).toContain('Amazon Payment Services');
      expect(message('sandbox_banner_text', lang)).toContain('Amazon Payment Services');
    }
    expect(arabicSourceLines().filter(({ line }) => line.includes('أمازون'))).toEqual([]);
  });
});

describe('the seeded catalogue in Arabic', () => {
  it('gives every plan its own Arabic name, never two that differ only by an ending (شنغن الأساسي / شنغن الأساسية)', () => {
    const stem = (name: string) => name.replace(/(?:ية|ة|ي|ى)(?=\s|$)/g, '');
    const byStem = new Map<string, string[]>();
    for (const plan of CATALOGUE_PLANS) byStem.set(stem(plan.nameAr), [...(byStem.get(stem(plan.nameAr)) ?? []), `${plan.nameEn} = ${plan.nameAr}`]);
    expect([...byStem.values()].filter((names) => names.length > 1)).toEqual([]);
  });

  it('writes plan names as the name of a خطة (feminine), and the annual multi-trip type as the app does', () => {
    const names = Object.fromEntries(CATALOGUE_PLANS.map((plan) => [plan.nameEn, plan.nameAr]));
    expect(names['World Standard']).toBe('العالمية القياسية');
    expect(names['Annual Smart']).toBe('الذكية السنوية');
    expect(names['Schengen Basic']).toBe('شنغن المبسّطة');
    expect(MASTER_LISTS.trip_types.find((type) => type.en === 'Annual multi-trip')?.ar).toBe('سنوية متعددة الرحلات');
  });

  it('uses the Lebanese terms: repatriation of the deceased, the rental-car excess as a cover, السيدة for Mrs and Ms, د. for Dr', () => {
    const plan = CATALOGUE_PLANS[0]!;
    expect(featureRows(plan).find((row) => row.key === 'repatriation')?.labelAr).toBe('إعادة جثمان المتوفى إلى بلده');
    expect(addonRows(plan).find((row) => row.code === 'rental_car_excess')?.labelAr).toBe('تغطية مبلغ التحمّل للسيارة المستأجرة');
    const titles = Object.fromEntries(MASTER_LISTS.prefex.map((item) => [item.en, item.ar]));
    expect(titles).toMatchObject({ Mr: 'السيد', Mrs: 'السيدة (متزوجة)', Ms: 'السيدة', Dr: 'د.' });
  });

  it('never offers two options of one list under the same Arabic name', () => {
    const lists = { ...MASTER_LISTS, ...RELATIONSHIP_LISTS };
    const repeated = Object.entries(lists).flatMap(([kind, items]) =>
      items.filter((item, index) => items.findIndex((other) => other.ar === item.ar) !== index).map((item) => `${kind}: ${item.ar}`),
    );
    expect(repeated).toEqual([]);
  });
});
