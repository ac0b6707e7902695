/**
 * The Arabic terminology (issue 21): one Lebanese term per concept, as a Lebanese reader expects
 * it. The README's "Arabic terminology" table is written from this list, and check-catalogs.ts
 * (npm test) fails when a catalogue message or a server text (server-texts.ts, issue 38) that uses
 * a term in English translates it any other way, when any Arabic text of either writes a word the
 * list bans, or when the README's table and this list differ.
 */

/** A word the list bans: as written, or a pattern and how the README shows it. */
export type Word = string | { shown: string; pattern: RegExp };

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
  forbidden: readonly Word[];
  /**
   * Those of `forbidden` (as shown) that are ordinary words elsewhere (ثمن in «دفع ثمن», العميل
   * for the customer): wrong only where the English uses the term. Every other forbidden word is
   * wrong in any Arabic text, whatever its English says.
   */
  ordinaryElsewhere?: readonly string[];
  /**
   * Where the English is page chrome rather than a sentence (a tab title, the footer, a sign-off,
   * "Back to …"): what the Arabic must contain there instead of `inArabic`, and must not.
   */
  chrome?: { inEnglish: RegExp; inArabic: RegExp; forbidden: { shown: string; pattern: RegExp } };
  note: string;
}

/**
 * The brand as a word of Arabic: سفر alone, or with a joined و/ب/ل/ف, neither in guillemets nor
 * the wordmark "Safar سفر" (as the logo writes it, `Safar <span lang="ar">سفر</span>` in HTML).
 * Not السفر, nor part of a longer word (سفرك, مسافر).
 */
const BARE_BRAND = /(?<!Safar (?:<span[^>]*>)?)(?<![\u0600-\u06FF«])[وبلف]?سفر(?![\u0600-\u06FF»])/;

/** English texts that are page chrome: a tab title, the home link, "Back to Safar", a sign-off, the brand or company name alone. */
const BRAND_CHROME = /^(?:.* · Safar|Safar home\b.*|Back to Safar|The Safar team|Safar|Safar Insurance Brokers \(demo\))$/;

export const TERMS: readonly Term[] = [
  {
    english: 'Safar (the brand)',
    inEnglish: /\bSafar\b/,
    arabic: '«سفر»; Safar سفر in page chrome',
    inArabic: /«سفر»/,
    // A bare سفر, not السفر nor part of a longer word (سفرك), is read as the noun "travel".
    forbidden: [{ shown: 'سفر without «»', pattern: BARE_BRAND }],
    chrome: { inEnglish: BRAND_CHROME, inArabic: /\bSafar\b/, forbidden: { shown: '«سفر» in page chrome', pattern: /«سفر»/ } },
    note:
      'In a sentence, always in guillemets: alone, سفر reads as the noun "travel" («لماذا «سفر»؟»). In page chrome (tab titles, the footer, sign-offs, «العودة إلى …») the wordmark "Safar سفر" or "Safar", as the logo writes it. "travel" itself is السفر (تأمين السفر).',
  },
  {
    english: 'policy',
    inEnglish: /(?<!privacy )\bpolic(?:y|ies)\b/i,
    arabic: 'بوليصة',
    inArabic: /بوليص|بوالص/,
    forbidden: [{ shown: 'وثيقة', pattern: /وثيق[ةت]/ }, 'وثائق'],
    note: 'The word Lebanese insurers and customers use; وثيقة reads as any document. "Privacy policy" is سياسة الخصوصية.',
  },
  {
    english: 'plan',
    inEnglish: /\bplans?\b/i,
    arabic: 'خطة (خطط)',
    inArabic: /خط[ةطت]/,
    forbidden: ['باقة', 'باقات', 'برنامج'],
    ordinaryElsewhere: ['برنامج'],
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
    ordinaryElsewhere: ['ثمن'],
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
    forbidden: [{ shown: 'ضريبة القيمة المضافة', pattern: /(?<!الضريبة على )القيمة المضافة/ }, 'ض.ق.م', 'TVA'],
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
    ordinaryElsewhere: ['ملحق', 'ملاحق'],
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
    arabic: 'تاريخ الميلاد، تاريخ الولادة',
    inArabic: /تاريخ (?:ال)?(?:ميلاد|ولادة)/,
    forbidden: [],
    note: 'Written out in full, never abbreviated. «تاريخ الولادة» is the wording of the Lebanese passport, identity card and civil-registry extract, which the app asks travellers to copy.',
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
    ordinaryElsewhere: ['موازنة', 'وازن'],
    note: '«مقارنة العروض»، «أضف إلى المقارنة».',
  },
  {
    english: 'checkout',
    inEnglish: /\bcheckout\b/i,
    arabic: 'إتمام الشراء',
    inArabic: /إتمام الشراء/,
    forbidden: ['الخروج'],
    ordinaryElsewhere: ['الخروج'],
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
    ordinaryElsewhere: ['العميل'],
    note: 'Who quotes on a customer\'s behalf; العميل is the customer.',
  },
  {
    english: 'broker',
    inEnglish: /\bbrokers?\b/i,
    arabic: 'وسيط التأمين',
    inArabic: /وسيط|وساطة/,
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

const shown = (word: Word) => (typeof word === 'string' ? word : word.shown);
const found = (word: Word, text: string) => (typeof word === 'string' ? text.includes(word) : word.pattern.test(text));

/**
 * Each text whose English uses a listed term and whose Arabic lacks it or says it otherwise, and
 * each Arabic text that writes a banned word whatever its English (arabicTermFaults). Fed the
 * catalogue (msgid → msgstr) and the server's texts (English → Arabic, server-texts.ts) alike.
 */
export function terminologyProblems(texts: Iterable<readonly [english: string, arabic: string]>): TermProblem[] {
  const problems: TermProblem[] = [];
  for (const [msgid, arabic] of texts) {
    // {plan} is a value, not the word "plan".
    const english = msgid.replace(/\{\w+\}/g, ' ');
    const reported = new Set<string>();
    for (const term of TERMS) {
      if (!term.inEnglish.test(english)) continue;
      const chrome = term.chrome?.inEnglish.test(msgid.trim()) ? term.chrome : null;
      if (!(chrome ?? term).inArabic.test(arabic)) {
        problems.push({ msgid, problem: `"${term.english}" is not written ${chrome ? 'Safar سفر (page chrome)' : term.arabic}` });
      }
      for (const word of chrome ? [...term.forbidden, chrome.forbidden] : term.forbidden) {
        if (!found(word, arabic)) continue;
        reported.add(shown(word));
        problems.push({ msgid, problem: `"${term.english}" is written ${shown(word)}, not ${chrome ? 'Safar سفر (page chrome)' : term.arabic}` });
      }
    }
    for (const fault of arabicTermFaults(arabic)) if (!reported.has(fault.word)) problems.push({ msgid, problem: fault.problem });
  }
  return problems;
}

/**
 * The banned words an Arabic text writes, whatever its English (a text the server puts together,
 * a literal of its source): every forbidden word of the list but those that are ordinary words
 * elsewhere (Term.ordinaryElsewhere).
 */
export function arabicTermFaults(arabic: string): { word: string; problem: string }[] {
  return TERMS.flatMap((term) =>
    term.forbidden
      .filter((word) => !term.ordinaryElsewhere?.includes(shown(word)) && found(word, arabic))
      .map((word) => ({ word: shown(word), problem: `${shown(word)} is written for "${term.english}", not ${term.arabic}` })),
  );
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The README's table, one row a term. */
export function terminologyTable(): string {
  const not = (term: Term) => [...term.forbidden.map(shown), ...(term.chrome ? [term.chrome.forbidden.shown] : [])].join('، ');
  const rows = TERMS.map((term) => `| ${cell(term.english)} | ${cell(term.arabic)} | ${cell(not(term))} | ${cell(term.note)} |`);
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
