import type { Language } from '../../contract/endpoint';
import { dollarsText } from '../quoting/quote-views';
import { escapeHtml } from '../http/html';

/**
 * The e-mail an agent sends a customer with a page of their journey (RULINGS 15,
 * send-email-by-page), in English or Arabic. Plain text and simple HTML carry the same words.
 */

export interface SharedPlan {
  name: string;
  /** The plan premium for the party, cents, VAT excluded. */
  cents: number;
}


const TEXTS = {
  en: {
    subject: 'Your travel insurance quotes from Safar',
    hello: (name: string) => `Hello ${name},`,
    intro: 'Here are the travel insurance plans we picked for your trip. Open the link to compare them and buy online:',
    plans: 'Some of the plans:',
    from: 'from',
    vat: 'Prices exclude VAT.',
    open: 'Open your quotes',
    bye: 'The Safar team',
  },
  ar: {
    subject: 'عروض تأمين السفر الخاصة بك من سفر',
    hello: (name: string) => `مرحبًا ${name}،`,
    intro: 'إليك خطط تأمين السفر التي اخترناها لرحلتك. افتح الرابط لمقارنتها والشراء عبر الإنترنت:',
    plans: 'بعض الخطط:',
    from: 'ابتداءً من',
    vat: 'الأسعار لا تشمل ضريبة القيمة المضافة.',
    open: 'افتح عروضك',
    bye: 'فريق سفر',
  },
} as const;

export function sharePageMail(lang: Language, customerName: string, link: string, plans: readonly SharedPlan[]) {
  const words = TEXTS[lang];
  const firstName = customerName.trim().split(/\s+/)[0] ?? '';
  const planLines = plans.map((plan) => `${plan.name} — ${words.from} ${dollarsText(plan.cents)}`);
  const text = [
    words.hello(firstName),
    '',
    words.intro,
    link,
    ...(planLines.length > 0 ? ['', words.plans, ...planLines.map((line) => `- ${line}`), words.vat] : []),
    '',
    words.bye,
  ].join('\n');
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const html = `<!doctype html>
<html lang="${lang}" dir="${dir}"><body style="font-family: Arial, sans-serif; line-height: 1.5">
<p>${escapeHtml(words.hello(firstName))}</p>
<p>${escapeHtml(words.intro)}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(words.open)}</a><br><span style="color:#555">${escapeHtml(link)}</span></p>
${
  planLines.length > 0
    ? `<p>${escapeHtml(words.plans)}</p>\n<ul>${planLines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>\n<p style="color:#555">${escapeHtml(words.vat)}</p>`
    : ''
}
<p>${escapeHtml(words.bye)}</p>
</body></html>`;
  return { subject: words.subject, text, html };
}
