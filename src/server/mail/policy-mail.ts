import type { Language } from '../../contract/endpoint';
import { dollarsAndCents } from '../../contract/money';
import { escapeHtml } from '../http/html';
import { isolateLtr as ltr } from './bidi';
import type { PriceLine } from '../orders/price-lines';


/**
 * The certificate link as a button (issue 37 item 5): the raw URL, printed beside it before, did
 * not wrap and made the e-mail 714 px wide on a 375 px phone. The text part still carries the URL.
 * Each button is an inline block with a bottom margin, so on a phone the second wraps below the
 * first instead of widening the mail.
 */
const BUTTON = 'display: inline-block; margin: 0 0 8px 0; padding: 10px 18px; background: #0b4db3; color: #ffffff; border-radius: 6px; text-decoration: none; font-weight: bold';
/** The policy page's button beside it: the same shape, outlined, so the certificate stays the first thing to press. */
const PAGE_BUTTON = 'display: inline-block; margin: 0 0 8px 0; padding: 8px 16px; background: #ffffff; color: #0b4db3; border: 2px solid #0b4db3; border-radius: 6px; text-decoration: none; font-weight: bold';
/**
 * The e-mail that delivers a policy (RULINGS 21): in the customer's language (the order's), with
 * the policy number, the plan, the trip dates, the travellers, the add-ons and a receipt (the
 * price lines to the cent, adding up to the amount paid, RULINGS 26), the certificate's
 * download link and the customer's policy page (issue 37 item 2: the certificate in English or
 * Arabic, send it again, ask for a cancellation, buy again); the PDF itself rides along as an
 * attachment (deliver-policy.ts). The
 * certificate stays in English, which the mail says, so a customer reading Arabic knows why.
 * Plain text and HTML carry the same words.
 */

export interface PolicyMailFacts {
  customerName: string;
  policyNumber: string;
  /** Insurer, plan and cover names in the mail's language. */
  insurerName: string;
  planName: string;
  coverageName: string;
  startDate: string;
  endDate: string;
  /** Names as on the passports (Latin letters), in traveller order. */
  travellers: string[];
  /** The add-ons bought, named in the mail's language. */
  addons: string[];
  /** The receipt in the mail's language (price-lines.ts), the total last. */
  lines: PriceLine[];
  /** The absolute download link of the certificate. */
  link: string;
  /**
   * The absolute link of the customer's policy page, ${publicUrl}/policy/<pageToken>
   * (issue 37): the mail's "Open your policy" button.
   */
  pageLink: string;
}

/** Unicode FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE: one figure of a date, so its neighbours cannot reorder it. */
const fsi = (text: string) => `\u2068${text}\u2069`;

/**
 * "1 April 2026" / "1 نيسان 2026": the app's date format (src/web/i18n/format.ts), Levantine
 * month names with Western digits in Arabic, read as a calendar day in UTC. In Arabic each
 * figure is isolated on its own (never the whole date in a left-to-right wrapper, which would
 * read "نيسان 2026 1"), so the date reads day, month, year from the right.
 */
export function mailDate(iso: string, lang: Language): string {
  const format = new Intl.DateTimeFormat(lang === 'ar' ? 'ar-LB-u-nu-latn' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const date = new Date(`${iso}T00:00:00Z`);
  if (lang !== 'ar') return format.format(date);
  return format
    .formatToParts(date)
    .map((part) => (part.type === 'day' || part.type === 'year' ? fsi(part.value) : part.value))
    .join('');
}

/** The words of the e-mail in each language (exported for the Arabic terminology check, tests/i18n/server-texts.ts). */
export const TEXTS = {
  en: {
    subject: (number: string) => `Your travel insurance policy ${number}`,
    hello: (name: string) => `Hello ${name},`,
    intro: 'Thank you for buying your travel insurance with Safar. Your policy is issued and its certificate is attached to this e-mail.',
    number: 'Policy number',
    plan: 'Plan',
    dates: 'Trip dates',
    range: (from: string, to: string) => `${from} to ${to}`,
    travellers: 'Travellers',
    addons: 'Add-ons',
    receipt: 'What you paid',
    download: 'Download your certificate',
    page: 'Open your policy',
    pageText: 'Your policy page, to download the certificate in English or Arabic, send it again or ask for a cancellation',
    english: 'The certificate is in English, as embassies and insurers abroad ask for it; an Arabic copy is on your policy page. Keep it with you while you travel.',
    bye: 'The Safar team',
  },
  ar: {
    subject: (number: string) => `بوليصة تأمين السفر رقم ${ltr(number)}`,
    hello: (name: string) => `مرحبًا ${name}،`,
    intro: 'شكرًا لشرائك تأمين السفر من «سفر». صدرت بوليصتك، وتجد شهادتها مرفقة بهذه الرسالة.',
    number: 'رقم البوليصة',
    plan: 'الخطة',
    dates: 'تواريخ الرحلة',
    range: (from: string, to: string) => `من ${from} إلى ${to}`,
    travellers: 'المسافرون',
    addons: 'التغطيات الإضافية',
    receipt: 'تفاصيل الدفع',
    download: 'نزّل شهادتك',
    page: 'افتح صفحة بوليصتك',
    pageText: 'صفحة بوليصتك، لتنزيل الشهادة بالإنجليزية أو بالعربية، أو إعادة إرسالها، أو طلب الإلغاء',
    english: 'أرفقنا شهادة بوليصتك باللغة الإنجليزية كما تطلبها السفارات وشركات التأمين في الخارج، ونسخة منها بالعربية. احتفظ بها معك أثناء سفرك.',
    bye: 'فريق Safar سفر',
  },
} as const;

/** "$94.57", "−$9.66" for a discount: to the cent, as the checkout and the gateway charge it. */
const amountOf = (line: PriceLine) => `${line.kind === 'discount' ? '\u2212' : ''}$${dollarsAndCents(line.cents)}`;

export function policyMail(lang: Language, facts: PolicyMailFacts) {
  const words = TEXTS[lang];
  const ar = lang === 'ar';
  const firstName = facts.customerName.trim().split(/\s+/)[0] ?? '';
  // Isolates only where the text runs right to left; English needs none.
  const keep = (text: string) => (ar ? ltr(text) : text);
  const separator = ar ? '، ' : ', ';
  const plan =
    facts.coverageName && facts.coverageName !== facts.planName
      ? `${facts.planName} (${facts.coverageName}) — ${facts.insurerName}`
      : `${facts.planName} — ${facts.insurerName}`;
  const rows: [string, string][] = [
    [words.number, keep(facts.policyNumber)],
    [words.plan, plan],
    [words.dates, words.range(mailDate(facts.startDate, lang), mailDate(facts.endDate, lang))],
    [words.travellers, facts.travellers.map(keep).join(separator)],
    ...(facts.addons.length > 0 ? [[words.addons, facts.addons.join(separator)] as [string, string]] : []),
  ];
  const receipt: [string, string, boolean][] = facts.lines.map((line) => [line.label, keep(amountOf(line)), line.kind === 'total']);
  const text = [
    words.hello(keep(firstName)),
    '',
    words.intro,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `${words.receipt}:`,
    ...receipt.map(([label, value]) => `${label}: ${value}`),
    '',
    `${words.download}:`,
    facts.link,
    '',
    `${words.pageText}:`,
    facts.pageLink,
    '',
    words.english,
    '',
    words.bye,
  ].join('\n');
  const dir = ar ? 'rtl' : 'ltr';
  // Physical sides by direction, which every mail client honours: the gap sits between label and value.
  const start = ar ? 'right' : 'left';
  const end = ar ? 'left' : 'right';
  const label = `padding-top: 2px; padding-bottom: 2px; padding-${end}: 16px; padding-${start}: 0; text-align: ${start}; color: #555; vertical-align: top`;
  const value = `padding-top: 2px; padding-bottom: 2px; padding-${start}: 0; padding-${end}: 0; text-align: ${start}`;
  const amount = `padding-top: 2px; padding-bottom: 2px; padding-${start}: 16px; padding-${end}: 0; text-align: ${end}; white-space: nowrap`;
  const html = `<!doctype html>
<html lang="${lang}" dir="${dir}"><body dir="${dir}" style="font-family: Arial, sans-serif; line-height: 1.5; direction: ${dir}">
<p>${escapeHtml(words.hello(keep(firstName)))}</p>
<p>${escapeHtml(words.intro)}</p>
<table dir="${dir}" role="presentation" style="border-collapse: collapse">
${rows.map(([name, content]) => `<tr><td style="${label}">${escapeHtml(name)}</td><td style="${value}"><strong>${escapeHtml(content)}</strong></td></tr>`).join('\n')}
</table>
<h2 style="font-size: 16px; margin: 20px 0 6px">${escapeHtml(words.receipt)}</h2>
<table dir="${dir}" role="presentation" style="border-collapse: collapse; min-width: 280px">
${receipt
  .map(([name, content, total]) =>
    total
      ? `<tr><td style="${label}; color: #111; border-top: 1px solid #111"><strong>${escapeHtml(name)}</strong></td><td style="${amount}; border-top: 1px solid #111"><strong>${escapeHtml(content)}</strong></td></tr>`
      : `<tr><td style="${label}">${escapeHtml(name)}</td><td style="${amount}">${escapeHtml(content)}</td></tr>`,
  )
  .join('\n')}
</table>
<p style="margin: 20px 0 12px"><a href="${escapeHtml(facts.link)}" style="${BUTTON}">${escapeHtml(words.download)}</a> <a href="${escapeHtml(facts.pageLink)}" style="${PAGE_BUTTON}">${escapeHtml(words.page)}</a></p>
<p style="color:#555">${escapeHtml(words.english)}</p>
<p>${escapeHtml(words.bye)}</p>
</body></html>`;
  return { subject: words.subject(facts.policyNumber), text, html };
}
