/**
 * The Arabic terminology (issue 21): one Lebanese term per concept, as a Lebanese reader expects
 * it. The README's "Arabic terminology" table is written from this list, and check-catalogs.ts
 * (npm test) fails when a catalogue message that uses a term in English translates it any other
 * way, or when the README's table and this list differ.
 */
export interface Term {
  /** The concept, as the README's English column names it. */
  english: string;
  /** Where an English message uses the term, once its placeholders ({plan}) are removed. */
  inEnglish: RegExp;
  /** The Arabic term, as the README writes it. */
  arabic: string;
  /** What the Arabic message must then contain: any of the term's forms (البوليصة, بوليصتك). */
  inArabic: RegExp;
  /** What the Arabic message must then not contain: a word, or a pattern and how the README shows it. */
  forbidden: readonly (string | { shown: string; pattern: RegExp })[];
  note: string;
}

export const TERMS: readonly Term[] = [
  {
    english: 'Safar (the brand)',
    inEnglish: /\bSafar\b/,
    arabic: '«سفر»',
    inArabic: /«سفر»/,
    // A bare سفر, not السفر nor part of a longer word (سفرك), is read as the noun "travel".
    forbidden: [{ shown: 'سفر without «»', pattern: /(?<![«\u0620-\u064A])سفر(?![»\u0620-\u064A])/ }],
    note: 'Always in guillemets: alone, سفر reads as the noun "travel" («لماذا «سفر»؟»). "travel" itself is السفر (تأمين السفر).',
  },
  {
    english: 'policy',
    inEnglish: /(?<!privacy )\bpolic(?:y|ies)\b/i,
    arabic: 'بوليصة',
    inArabic: /بوليص|بوالص/,
    forbidden: ['وثيقة', 'وثيقتك', 'وثائق'],
    note: 'The word Lebanese insurers and customers use; وثيقة reads as any document. "Privacy policy" is سياسة الخصوصية.',
  },
  {
    english: 'plan',
    inEnglish: /\bplans?\b/i,
    arabic: 'خطة (خطط)',
    inArabic: /خط[ةطت]/,
    forbidden: ['باقة', 'باقات', 'برنامج'],
    note: 'An insurer\'s product: «خطة واحدة»، «خطتان»، «3 خطط».',
  },
  {
    english: 'premium',
    inEnglish: /\bpremiums?\b/i,
    arabic: 'القسط',
    inArabic: /قسط|أقساط/,
    forbidden: ['علاوة', 'بريميوم'],
    note: 'What a plan costs before fees and VAT: «قسط الخطة»، «القسط الإجمالي».',
  },
  {
    english: 'price',
    inEnglish: /\bprices?\b/i,
    arabic: 'السعر (الأسعار)',
    inArabic: /سعر|أسعار/,
    forbidden: ['تسعيرة', 'ثمن'],
    note: 'What the customer pays, in sorting and totals.',
  },
  {
    english: 'coupon',
    inEnglish: /\bcoupons?\b/i,
    arabic: 'رمز الخصم',
    inArabic: /رمز (?:ال)?خصم|رموز الخصم/,
    forbidden: ['قسيمة', 'قسيمتك', 'قسائم', 'كوبون'],
    note: 'The code typed at checkout; قسيمة is a paper voucher.',
  },
  {
    english: 'VAT',
    inEnglish: /\bVAT\b/,
    arabic: 'الضريبة على القيمة المضافة',
    inArabic: /الضريبة على القيمة المضافة/,
    forbidden: ['ضريبة القيمة المضافة', 'ض.ق.م', 'TVA'],
    note: 'The tax\'s name in Lebanese law (Law 379 of 2001), one spelling everywhere.',
  },
  {
    english: 'traveller',
    inEnglish: /\btravell?ers?\b/i,
    arabic: 'مسافر',
    inArabic: /مسافر/,
    forbidden: ['المؤمن له', 'المؤمَّن له', 'رحالة', 'رحّالة'],
    note: 'Each insured person: «لمسافر واحد»، «لمسافرَين»، «لـ3 مسافرين».',
  },
  {
    english: 'medical limit',
    inEnglish: /\bmedical limits?\b/i,
    arabic: 'حدّ التغطية الطبية',
    inArabic: /حدّ التغطية الطبية/,
    forbidden: ['الحد الطبي', 'الحدّ الطبي', 'حد التغطية الطبية'],
    note: 'With the shadda on حدّ.',
  },
  {
    english: 'add-on',
    inEnglish: /\badd-ons?\b/i,
    arabic: 'تغطية إضافية',
    inArabic: /تغطي(?:ة|ات) (?:ال)?إضافي/,
    forbidden: ['ملحق', 'ملاحق', 'الإضافات'],
    note: 'An optional cover bought with a plan: «التغطيات الإضافية».',
  },
  {
    english: 'benefit',
    inEnglish: /\bbenefits?\b/i,
    arabic: 'المزايا (ميزة)',
    inArabic: /مزايا|ميزة/,
    forbidden: ['فوائد', 'منافع'],
    note: 'What a plan covers: «مزايا الخطة».',
  },
  {
    english: 'destination',
    inEnglish: /\bdestinations?\b/i,
    arabic: 'الوجهة (الوجهات)',
    inArabic: /وجه(?:ة|ات)/,
    forbidden: ['مقصد'],
    note: 'A country the trip goes to.',
  },
  {
    english: 'date of birth',
    inEnglish: /\bdate of birth\b|\bDOB\b/i,
    arabic: 'تاريخ الميلاد',
    inArabic: /تاريخ (?:ال)?ميلاد/,
    forbidden: ['تاريخ الولادة', 'تاريخ ولادة'],
    note: 'Written out in full, never abbreviated.',
  },
  {
    english: 'passport',
    inEnglish: /\bpassports?\b/i,
    arabic: 'جواز السفر',
    inArabic: /جواز/,
    forbidden: ['باسبور'],
    note: '«رقم جواز السفر»، «جواز سفرك».',
  },
  {
    english: 'quote',
    inEnglish: /\bquotes?\b/i,
    arabic: 'عرض سعر (عروض أسعار)',
    inArabic: /عرض|عروض/,
    forbidden: ['اقتباس', 'تسعيرة'],
    note: 'An insurer\'s price for a trip; اقتباس is a citation. «اطلب عرض سعر جديدًا».',
  },
  {
    english: 'compare',
    inEnglish: /\bcompare\b/i,
    arabic: 'المقارنة (قارن)',
    inArabic: /قارن|مقارن/,
    forbidden: ['موازنة', 'وازن'],
    note: '«مقارنة العروض»، «أضف إلى المقارنة».',
  },
  {
    english: 'checkout',
    inEnglish: /\bcheckout\b/i,
    arabic: 'إتمام الشراء',
    inArabic: /إتمام الشراء/,
    forbidden: ['الخروج'],
    note: 'The step where the customer pays: «صفحة إتمام الشراء».',
  },
  {
    english: 'payment, pay',
    inEnglish: /\bpay(?:ments?|s)?\b/i,
    arabic: 'الدفع (ادفع، دفعة)',
    inArabic: /دفع/,
    forbidden: ['السداد', 'تسديد'],
    note: 'Paying by card: «ادفع بأمان»، «عملية الدفع».',
  },
  {
    english: 'Amazon Payment Services',
    inEnglish: /\bAmazon Payment Services\b/,
    arabic: 'Amazon Payment Services',
    inArabic: /Amazon Payment Services/,
    forbidden: ['أمازون'],
    note: 'The payment provider: a name, kept in the Latin letters a card statement prints, never translated.',
  },
  {
    english: 'call back',
    inEnglish: /\bcall[- ]back\b|\bcall (?:me|you) back\b/i,
    arabic: 'معاودة الاتصال',
    inArabic: /عاود|اتصلوا بي/,
    forbidden: ['رد الاتصال', 'ردّ الاتصال', 'معاودة المكالمة'],
    note: '«اطلب معاودة الاتصال»; the header\'s button says «اتصلوا بي».',
  },
  {
    english: 'agent',
    inEnglish: /\bagents?\b/i,
    arabic: 'الوكيل',
    inArabic: /وكيل|وكلاء/,
    forbidden: ['العميل', 'مندوب'],
    note: 'Who quotes on a customer\'s behalf; العميل is the customer.',
  },
  {
    english: 'broker',
    inEnglish: /\bbrokers?\b/i,
    arabic: 'وسيط التأمين',
    inArabic: /وسيط/,
    forbidden: ['سمسار', 'بروكر'],
    note: 'The insurance broker an agent works for.',
  },
  {
    english: 'insurer',
    inEnglish: /\binsurers?\b/i,
    arabic: 'شركة التأمين',
    inArabic: /شرك(?:ة|ات) التأمين/,
    forbidden: ['المؤمِّن'],
    note: '«شركات التأمين».',
  },
];

export interface TermProblem {
  msgid: string;
  problem: string;
}

const shown = (word: Term['forbidden'][number]) => (typeof word === 'string' ? word : word.shown);
const found = (word: Term['forbidden'][number], text: string) => (typeof word === 'string' ? text.includes(word) : word.pattern.test(text));

/** Each message whose English uses a listed term and whose Arabic lacks it or says it otherwise. */
export function terminologyProblems(catalogue: ReadonlyMap<string, string>): TermProblem[] {
  const problems: TermProblem[] = [];
  for (const [msgid, arabic] of catalogue) {
    // {plan} is a value, not the word "plan".
    const english = msgid.replace(/\{\w+\}/g, ' ');
    for (const term of TERMS) {
      if (!term.inEnglish.test(english)) continue;
      if (!term.inArabic.test(arabic)) problems.push({ msgid, problem: `"${term.english}" is not written ${term.arabic}` });
      for (const word of term.forbidden) {
        if (found(word, arabic)) problems.push({ msgid, problem: `"${term.english}" is written ${shown(word)}, not ${term.arabic}` });
      }
    }
  }
  return problems;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The README's table, one row a term. */
export function terminologyTable(): string {
  const rows = TERMS.map((term) => `| ${cell(term.english)} | ${cell(term.arabic)} | ${cell(term.forbidden.map(shown).join('، '))} | ${cell(term.note)} |`);
  return ['| English | Arabic | Not | Note |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** The table in the README's "## Arabic terminology" section, or null when there is none. */
export function readmeTerminologyTable(readme: string): string | null {
  const section = /^## Arabic terminology\n([^]*?)(?=^## )/m.exec(readme);
  if (!section) return null;
  return section[1]!
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .join('\n');
}
