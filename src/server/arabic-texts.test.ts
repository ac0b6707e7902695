import { describe, expect, it } from 'vitest';
import { arabicSourceLines, renderedServerArabic, serverTermProblems, serverTextPairs } from '../../tests/i18n/server-texts';
import { arabicTermFaults, terminologyProblems } from '../../tests/i18n/terminology';
import { addonRows, CATALOGUE_PLANS, featureRows } from './db/seed-catalogue';
import { MASTER_LISTS, RELATIONSHIP_LISTS } from './db/seed-data';
import { message } from './http/messages';

/**
 * The Arabic the server writes, as a Lebanese reader reads it (issues 21 and 38): held to the
 * whole term list of tests/i18n/terminology.ts, the one check the catalogue goes through too
 * (npm run i18n:check runs both). Each text with its English (tests/i18n/server-texts.ts) must
 * write the terms its English uses as the list does; the texts as the customer gets them (e-mails,
 * WhatsApp texts, pages, where literals are put together) and every Arabic literal of the
 * server's source, so a text added later is held to the same words, must write no banned word.
 */

const visible = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

describe('the Arabic the server writes', () => {
  it('writes every term of the list as the list does, in each text with its English (messages, e-mails, receipt, certificate, seed)', () => {
    const pairs = serverTextPairs();
    expect(pairs.length).toBeGreaterThan(500);
    expect(pairs.map((pair) => pair.where)).toEqual(expect.arrayContaining(['messages.pay_home', 'policy mail.addons', 'receipt.stamp', 'WhatsApp checkout', 'prefex 6', 'plan 102 medical value']));
    expect(serverTermProblems()).toEqual([]);
  });

  it('writes no banned word in any Arabic literal of its source, nor in the texts as sent', () => {
    const lines = arabicSourceLines();
    expect(lines.length).toBeGreaterThan(100);
    expect(lines.flatMap(({ where, line }) => arabicTermFaults(line).map((fault) => `${where}: ${fault.problem}`))).toEqual([]);
    const texts = renderedServerArabic();
    expect(Object.entries(texts).flatMap(([where, text]) => arabicTermFaults(visible(text)).map((fault) => `${where}: ${fault.problem}`))).toEqual([]);
    expect(visible(texts['policy mail text']!)).toContain('شكرًا لشرائك تأمين السفر من «سفر».');
    expect(visible(texts['policy mail text']!)).toContain('التغطيات الإضافية: الرياضات الشتوية');
  });

  it.each([
    ['Add-ons', 'الإضافات', 'add-on'],
    ['Your policy is ready', 'وثيقتك جاهزة', 'policy'],
    ['Discount (coupon {a})', 'الخصم (قسيمة {a})', 'coupon'],
    ['VAT ({a}%)', 'ضريبة القيمة المضافة ({a}%)', 'VAT'],
    ['Thank you for buying your travel insurance with Safar.', 'شكرًا لشرائك تأمين السفر من سفر.', 'Safar (the brand)'],
    ['Back to Safar', 'العودة إلى «سفر»', 'Safar (the brand)'],
    // No "traveller" in the English, but a word the list bans for one.
    ['Principal (myself)', 'المؤمَّن له الرئيسي (أنا)', 'traveller'],
  ])('fails a server text %j written %j, against the list\'s "%s"', (english, arabic, term) => {
    expect(terminologyProblems([[english, arabic]])).toContainEqual({ msgid: english, problem: expect.stringContaining(`"${term}"`) });
  });

  it('fails a banned word in a text the server puts together, whatever its English', () => {
    expect(arabicTermFaults('التغطيات: الإضافات').map((fault) => fault.word)).toEqual(['الإضافات']);
    expect(arabicTermFaults('رقم الوثيقة SFR-1').map((fault) => fault.word)).toEqual(['وثيقة']);
    expect(arabicTermFaults('فريق سفر').map((fault) => fault.word)).toEqual(['سفر without «»']);
    // Ordinary words elsewhere: «دفع ثمن» is paying, العميل the customer; the wordmark is the logo's.
    expect(arabicTermFaults('دفع العميل ثمن هذه الرحلة. فريق Safar سفر، Safar <span lang="ar">سفر</span>')).toEqual([]);
  });

  it('writes the brand as the wordmark "Safar سفر" in page chrome (tab titles, the footer, sign-offs, «العودة إلى …») and «سفر» in sentences', () => {
    expect(message('pay_home', 'ar')).toBe('العودة إلى Safar سفر');
    expect(renderedServerArabic()['pay page']).toContain('العودة إلى Safar سفر');
    const byWhere = Object.fromEntries(serverTextPairs().map((pair) => [pair.where, pair.arabic]));
    for (const mail of ['policy mail', 'share mail', 'refund mail', 'cancellation mail']) expect(byWhere[`${mail}.bye`]).toBe('فريق Safar سفر');
    expect(byWhere['company.name']).toBe('Safar سفر لوساطة التأمين (تجريبي)');
    expect(byWhere['company.disclaimer']).toMatch(/^«سفر» /);
    expect(byWhere['share mail.intro.checkout']).toBe('خطتك «{a}» جاهزة للدفع. افتح الرابط لإتمام الدفع عبر الإنترنت:');
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

  it('uses the Lebanese terms: repatriation of the deceased, the rental-car excess as a cover, personal liability as civil liability', () => {
    const plan = CATALOGUE_PLANS[0]!;
    expect(featureRows(plan).find((row) => row.key === 'repatriation')?.labelAr).toBe('إعادة جثمان المتوفى إلى بلده');
    expect(featureRows(plan).find((row) => row.key === 'liability')?.labelAr).toBe('المسؤولية المدنية الشخصية');
    expect(addonRows(plan).find((row) => row.code === 'rental_car_excess')?.labelAr).toBe('تغطية مبلغ التحمّل للسيارة المستأجرة');
    expect(MASTER_LISTS.relation_types.find((item) => item.en === 'Principal (myself)')?.ar).toBe('المسافر الرئيسي (أنا)');
  });

  it('offers the titles each language\'s customers expect, a child\'s included, and never the marital status in brackets (issue 38)', () => {
    const titles = MASTER_LISTS.prefex.map((item) => [item.en, item.ar]);
    expect(titles).toEqual([
      ['Mr', 'السيد'],
      ['Mrs', 'السيدة'],
      ['Ms', 'السيدة / الآنسة'],
      ['Miss', 'الآنسة'],
      ['Dr', 'د.'],
      ['Master', 'الطفل'],
      ['Miss (child)', 'الطفلة'],
    ]);
    expect(titles.filter(([, ar]) => ar!.includes('('))).toEqual([]);
  });

  it('writes a benefit\'s amount as the cards write money, "$30,000", never «دولار أمريكي», and Worldwide Plus by its name', () => {
    const values = CATALOGUE_PLANS.flatMap((plan) => featureRows(plan).map((row) => row.valueAr));
    expect(values.filter((value) => value.includes('دولار'))).toEqual([]);
    const plan = CATALOGUE_PLANS.find((one) => one.nameEn === 'Worldwide Plus')!;
    expect([plan.nameAr, plan.coverageAr]).toEqual(['Worldwide Plus', 'Plus']);
    expect(featureRows(plan).find((row) => row.key === 'medical')?.valueAr).toBe('$250,000');
    expect(featureRows(plan).find((row) => row.key === 'covid19')?.valueAr).toBe('مشمولة حتى $250,000');
  });

  it('never offers two options of one list under the same Arabic name', () => {
    const lists = { ...MASTER_LISTS, ...RELATIONSHIP_LISTS };
    const repeated = Object.entries(lists).flatMap(([kind, items]) =>
      items.filter((item, index) => items.findIndex((other) => other.ar === item.ar) !== index).map((item) => `${kind}: ${item.ar}`),
    );
    expect(repeated).toEqual([]);
  });
});
