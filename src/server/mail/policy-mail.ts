import type { Language } from '../../contract/endpoint';
import { escapeHtml } from '../http/html';

/**
 * The e-mail that delivers a policy (RULINGS 21): in the customer's language (the order's), with
 * the policy number, the plan, the trip dates and the certificate's download link; the PDF itself
 * rides along as an attachment (deliver-policy.ts). The certificate stays in English, which the
 * mail says, so a customer reading Arabic knows why. Plain text and HTML carry the same words.
 */

export interface PolicyMailFacts {
  customerName: string;
  policyNumber: string;
  /** Insurer and plan names in the mail's language. */
  insurerName: string;
  planName: string;
  startDate: string;
  endDate: string;
  /** The absolute download link of the certificate. */
  link: string;
}


/** Unicode LEFT-TO-RIGHT ISOLATE / POP DIRECTIONAL ISOLATE: keeps a policy number or date whole in Arabic text. */
const ltr = (text: string) => `\u2066${text}\u2069`;

/**
 * "1 April 2026" / "1 نيسان 2026": the app's date format (src/web/i18n/format.ts), Levantine
 * month names with Western digits in Arabic, read as a calendar day in UTC.
 */
export function mailDate(iso: string, lang: Language): string {
  return new Intl.DateTimeFormat(lang === 'ar' ? 'ar-LB-u-nu-latn' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );
}

const TEXTS = {
  en: {
    subject: (number: string) => `Your travel insurance policy ${number}`,
    hello: (name: string) => `Hello ${name},`,
    intro: 'Thank you for buying your travel insurance with Safar. Your policy is issued and its certificate is attached to this e-mail.',
    number: 'Policy number',
    plan: 'Plan',
    dates: 'Trip dates',
    range: (from: string, to: string) => `${from} to ${to}`,
    download: 'Download your certificate',
    english: 'The certificate is in English, as embassies and insurers abroad ask for it. Keep it with you while you travel.',
    bye: 'The Safar team',
  },
  ar: {
    subject: (number: string) => `وثيقة تأمين السفر الخاصة بك ${number}`,
    hello: (name: string) => `مرحبًا ${name}،`,
    intro: 'شكرًا لشرائك تأمين السفر من سفر. صدرت وثيقتك وشهادتها مرفقة بهذا البريد الإلكتروني.',
    number: 'رقم الوثيقة',
    plan: 'الخطة',
    dates: 'تواريخ الرحلة',
    range: (from: string, to: string) => `من ${from} إلى ${to}`,
    download: 'نزّل شهادتك',
    english: 'الشهادة باللغة الإنجليزية كما تطلبها السفارات وشركات التأمين في الخارج. احتفظ بها معك أثناء سفرك.',
    bye: 'فريق سفر',
  },
} as const;

export function policyMail(lang: Language, facts: PolicyMailFacts) {
  const words = TEXTS[lang];
  const firstName = facts.customerName.trim().split(/\s+/)[0] ?? '';
  // Isolates only where the text runs right to left; English needs none.
  const keep = (text: string) => (lang === 'ar' ? ltr(text) : text);
  const rows: [string, string][] = [
    [words.number, keep(facts.policyNumber)],
    [words.plan, `${facts.planName} — ${facts.insurerName}`],
    [words.dates, words.range(keep(mailDate(facts.startDate, lang)), keep(mailDate(facts.endDate, lang)))],
  ];
  const text = [
    words.hello(firstName),
    '',
    words.intro,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `${words.download}:`,
    facts.link,
    '',
    words.english,
    '',
    words.bye,
  ].join('\n');
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const html = `<!doctype html>
<html lang="${lang}" dir="${dir}"><body style="font-family: Arial, sans-serif; line-height: 1.5">
<p>${escapeHtml(words.hello(firstName))}</p>
<p>${escapeHtml(words.intro)}</p>
<table style="border-collapse: collapse">
${rows.map(([label, value]) => `<tr><td style="padding: 2px 12px 2px 0; color: #555">${escapeHtml(label)}</td><td style="padding: 2px 0"><strong>${escapeHtml(value)}</strong></td></tr>`).join('\n')}
</table>
<p><a href="${escapeHtml(facts.link)}">${escapeHtml(words.download)}</a><br><span style="color:#555">${escapeHtml(facts.link)}</span></p>
<p style="color:#555">${escapeHtml(words.english)}</p>
<p>${escapeHtml(words.bye)}</p>
</body></html>`;
  return { subject: words.subject(facts.policyNumber), text, html };
}
