import type { Language } from '../../contract/endpoint';
import { dollarsText } from '../quoting/quote-views';
import { escapeHtml } from '../http/html';
import { isolateLtr } from './bidi';
import { payableText, type SharedStep } from '../shares/share-texts';

/**
 * The e-mail an agent sends a customer with a page of their journey (RULINGS 15,
 * send-email-by-page), in English or Arabic. Plain text and simple HTML carry the same words.
 */

export interface SharedPlan {
  name: string;
  /** The plan premium for the party, cents, VAT excluded. */
  cents: number;
}


/** The words of the e-mail in each language (exported for the Arabic terminology check, tests/i18n/server-texts.ts). */
export const TEXTS = {
  en: {
    subject: {
      quotes: 'Your travel insurance quotes from Safar',
      review: 'Complete your travel insurance on Safar',
      checkout: 'Your travel insurance is ready to pay on Safar',
    },
    hello: (name: string) => `Hello ${name},`,
    intro: {
      quotes: 'Here are the travel insurance plans we picked for your trip. Open the link to compare them and buy online:',
      review: (plan: string) => `Here is the plan you chose for your trip: ${plan}. Open the link to review and complete the travellers' details:`,
      checkout: (plan: string) => `Your plan ${plan} is ready to pay. Open the link to pay for it online:`,
    },
    total: (amount: string) => `Total to pay: ${amount} (VAT included).`,
    plans: 'Some of the plans:',
    from: 'from',
    vat: 'Prices exclude VAT.',
    open: { quotes: 'Open your quotes', review: 'Complete your details', checkout: 'Pay for your plan' },
    bye: 'The Safar team',
  },
  ar: {
    subject: {
      quotes: 'عروض تأمين السفر لرحلتك من «سفر»',
      review: 'أكمل شراء تأمين سفرك – «سفر»',
      checkout: 'تأمين سفرك بانتظار الدفع – «سفر»',
    },
    hello: (name: string) => `مرحبًا ${name}،`,
    intro: {
      quotes: 'إليك خطط تأمين السفر التي اخترناها لرحلتك. افتح الرابط لمقارنتها والشراء عبر الإنترنت:',
      review: (plan: string) => `إليك الخطة التي اخترتها لرحلتك: ${plan}. افتح الرابط لمراجعة بيانات المسافرين وإكمالها:`,
      checkout: (plan: string) => `خطتك «${plan}» جاهزة للدفع. افتح الرابط لإتمام الدفع عبر الإنترنت:`,
    },
    total: (amount: string) => `المجموع المطلوب دفعه: ${amount} (شاملًا الضريبة على القيمة المضافة).`,
    plans: 'بعض الخطط:',
    from: 'ابتداءً من',
    vat: 'الأسعار لا تشمل الضريبة على القيمة المضافة.',
    open: { quotes: 'افتح عروضك', review: 'أكمل بياناتك', checkout: 'ادفع ثمن خطتك' },
    bye: 'فريق Safar سفر',
  },
} as const;

/**
 * The e-mail for the step the link opens (issue 17): the quotes list some plans to compare; review
 * names the chosen plan to complete; checkout names it with the total to pay, as the agent saw it.
 */
export function sharePageMail(lang: Language, customerName: string, link: string, step: SharedStep, plans: readonly SharedPlan[]) {
  const words = TEXTS[lang];
  // In Arabic an amount sits in a left-to-right isolate, so it reads "$58" as in the app, never "58$".
  const amount = (text: string) => (lang === 'ar' ? isolateLtr(text) : text);
  const firstName = customerName.trim().split(/\s+/)[0] ?? '';
  const intro = step.page === 'quotes' ? words.intro.quotes : words.intro[step.page](step.plan);
  const total = step.page === 'checkout' ? words.total(amount(payableText(step.totalCents))) : null;
  const planLines = step.page === 'quotes' ? plans.map((plan) => `${plan.name} — ${words.from} ${amount(dollarsText(plan.cents))}`) : [];
  const text = [
    words.hello(firstName),
    '',
    intro,
    ...(total ? [total] : []),
    link,
    ...(planLines.length > 0 ? ['', words.plans, ...planLines.map((line) => `- ${line}`), words.vat] : []),
    '',
    words.bye,
  ].join('\n');
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const html = `<!doctype html>
<html lang="${lang}" dir="${dir}"><body style="font-family: Arial, sans-serif; line-height: 1.5">
<p>${escapeHtml(words.hello(firstName))}</p>
<p>${escapeHtml(intro)}</p>
${total ? `<p><strong>${escapeHtml(total)}</strong></p>\n` : ''}<p><a href="${escapeHtml(link)}">${escapeHtml(words.open[step.page])}</a><br><span style="color:#555">${escapeHtml(link)}</span></p>
${
  planLines.length > 0
    ? `<p>${escapeHtml(words.plans)}</p>\n<ul>${planLines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>\n<p style="color:#555">${escapeHtml(words.vat)}</p>`
    : ''
}
<p>${escapeHtml(words.bye)}</p>
</body></html>`;
  return { subject: words.subject[step.page], text, html };
}
