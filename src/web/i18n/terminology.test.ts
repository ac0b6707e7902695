// @vitest-environment node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPo } from '../../../tests/i18n/read-po';
import { readmeTerminologyTable, terminologyProblems, terminologyTable } from '../../../tests/i18n/terminology';

const root = path.resolve(__dirname, '../../..');
const arabic = readPo(path.join(root, 'locales/ar/messages.po'));

/** The Arabic catalogue with some messages translated otherwise. */
const withArabic = (changes: Record<string, string>) => new Map([...arabic, ...Object.entries(changes)]);

describe('issues 21 and 38: the Arabic terminology (tests/i18n/terminology.ts, checked by npm run i18n:check)', () => {
  it('finds every listed term of the Arabic catalogue written as the table says', () => {
    expect(terminologyProblems(arabic)).toEqual([]);
  });

  it.each([
    ['Policy number', 'رقم الوثيقة', 'policy'],
    ['Your policy is ready', 'وثيقتك جاهزة', 'policy'],
    ['Coupon code', 'رمز القسيمة', 'coupon'],
    ['Prices exclude VAT.', 'الأسعار لا تشمل ضريبة القيمة المضافة.', 'VAT'],
    ['Medical limit: high to low', 'الحد الطبي: من الأعلى إلى الأدنى', 'medical limit'],
    ['Why Safar', 'لماذا سفر؟', 'Safar (the brand)'],
    ['Start a new quote', 'ابدأ اقتباسًا جديدًا', 'quote'],
    ['Add-ons', 'الإضافات', 'add-on'],
    // Page chrome (issue 38): the wordmark, not a word of a sentence.
    ['{title} · Safar', '{title} · «سفر»', 'Safar (the brand)'],
    ['Safar home: travel insurance', 'الصفحة الرئيسية', 'Safar (the brand)'],
  ])('fails %j translated %j, another word for "%s"', (msgid, translation, term) => {
    expect(terminologyProblems(withArabic({ [msgid]: translation }))).toContainEqual({ msgid, problem: expect.stringContaining(`"${term}"`) });
  });

  it('fails a message that leaves its term out, as "Coupon code" written «الرمز»', () => {
    expect(terminologyProblems(new Map([['Coupon code', 'الرمز']]))).toEqual([{ msgid: 'Coupon code', problem: '"coupon" is not written رمز الخصم' }]);
  });

  it('reads only the brand as a name: "travel" (تأمين السفر), a privacy policy and a {plan} value pass', () => {
    const catalogue = new Map([
      ['Travel insurance', 'تأمين السفر'],
      ['Privacy policy', 'سياسة الخصوصية'],
      ['Remove {plan} from compare', 'إزالة {plan} من المقارنة'],
      ['{title} · Safar', '{title} · Safar سفر'],
      ['Back to Safar', 'العودة إلى Safar سفر'],
      ['Safar home: travel insurance', 'Safar سفر: الصفحة الرئيسية'],
    ]);
    expect(terminologyProblems(catalogue)).toEqual([]);
  });

  it('allows «تاريخ الولادة», the wording of the Lebanese passport and identity card, beside «تاريخ الميلاد» (issue 38)', () => {
    const catalogue = new Map([
      ['Date of birth', 'تاريخ الولادة'],
      ['Please select correct date of birth', 'يرجى اختيار تاريخ ميلاد صحيح'],
    ]);
    expect(terminologyProblems(catalogue)).toEqual([]);
    expect(terminologyProblems(new Map([['Date of birth', 'الميلاد']]))).toEqual([{ msgid: 'Date of birth', problem: expect.stringContaining('"date of birth"') }]);
  });

  it('fails a banned word in any Arabic message, whatever its English (الإضافات), but not a word that is ordinary elsewhere (ثمن in «دفع ثمن»)', () => {
    expect(terminologyProblems(new Map([['Extra covers', 'الإضافات']]))).toEqual([{ msgid: 'Extra covers', problem: expect.stringContaining('"add-on"') }]);
    expect(terminologyProblems(new Map([['This trip is paid. Here is its policy.', 'دُفع ثمن هذه الرحلة. هذه بوليصتها.']]))).toEqual([]);
  });

  it('has the README\'s "Arabic terminology" table written from the list, so the two cannot differ', () => {
    expect(readmeTerminologyTable(readFileSync(path.join(root, 'README.md'), 'utf8'))).toBe(terminologyTable());
  });
});
