import { couponCodeText } from '../../contract/checkout.endpoints';
import type { Language } from '../../contract/endpoint';
import { dollarsAndCents } from '../../contract/money';
import { isolateLtr } from '../mail/bidi';

/** The step of the journey a shared link opens, as the texts name it. */
export type SharedPage = 'quotes' | 'review' | 'checkout';

/**
 * What the texts say of the shared step (issue 17): the quotes (the plans to compare), review
 * (the chosen plan, to complete), checkout (the chosen plan, to pay, with the total the agent saw).
 */
export type SharedStep = { page: 'quotes' } | { page: 'review'; plan: string } | { page: 'checkout'; plan: string; totalCents: number };

/** The step a shared link opens, read from its path; anything else is the lead's quotes. */
export function sharedPageOf(link: string): SharedPage {
  const { pathname } = new URL(link);
  if (pathname === '/review-details') return 'review';
  if (pathname === '/checkout') return 'checkout';
  return 'quotes';
}

/** The coupon a checkout link carries (`coupon=`), as typed codes are compared, or null. */
export function sharedCoupon(link: string): string | null {
  const url = new URL(link);
  if (sharedPageOf(link) !== 'checkout') return null;
  const code = couponCodeText(url.searchParams.get('coupon') ?? '');
  return code === '' ? null : code;
}

/**
 * Texts an agent sends a customer (RULINGS 15). The link is the page the agent shares, always
 * under PUBLIC_URL: only its path and query come from the request, so no one can make Safar
 * send a customer a link to another site. Without one, it is the lead's quotes page. It always
 * names the lead and the text's language (`lang`), so the customer opens the page in the
 * language they were written to; never the agent (the customer is not in agent mode); and only a
 * checkout link keeps the agent's coupon (`coupon`), which the customer's checkout applies.
 */
export function shareLink(publicUrl: string, uuid: string, link: string | null | undefined, lang: Language): string {
  const given = new URL(link || '/compare-quotes', 'https://link.invalid');
  const query = new URLSearchParams(link ? given.search : '');
  query.set('uuid', uuid);
  query.delete('agent_id');
  const coupon = link ? sharedCoupon(given.href) : null;
  query.delete('coupon');
  query.set('lang', lang);
  if (coupon) query.set('coupon', coupon);
  return `${publicUrl}${given.pathname}?${query.toString()}`;
}

/** "$94.57": a total the customer is asked to pay, to the cent, spelled as every other exact amount (RULINGS 26). */
export function payableText(cents: number): string {
  return `$${dollarsAndCents(cents)}`;
}

/** The WhatsApp message with the page link (whatapp_template of spec §7), naming the step it opens. */
export function whatsappTemplate(lang: Language, customerName: string, link: string, step: SharedStep = { page: 'quotes' }): string {
  const firstName = customerName.trim().split(/\s+/)[0] ?? '';
  switch (step.page) {
    case 'quotes':
      return lang === 'ar'
        ? `مرحبًا ${firstName}، اخترنا لك في «سفر» خطط تأمين السفر هذه لرحلتك: ${link}`
        : `Hello ${firstName}, here are the travel insurance plans we picked for your trip on Safar: ${link}`;
    case 'review':
      return lang === 'ar'
        ? `مرحبًا ${firstName}، الخطة التي اخترتها في «سفر» (${step.plan}) بانتظار بيانات المسافرين. افتح الرابط لمراجعتها وإكمالها: ${link}`
        : `Hello ${firstName}, the plan you chose on Safar (${step.plan}) is waiting for the travellers' details. Open the link to review and complete them: ${link}`;
    case 'checkout':
      return lang === 'ar'
        ? `مرحبًا ${firstName}، الخطة التي اخترتها في «سفر» (${step.plan}) جاهزة للدفع. المجموع: ${isolateLtr(payableText(step.totalCents))}. افتح الرابط لإتمام الدفع: ${link}`
        : `Hello ${firstName}, the plan you chose on Safar (${step.plan}) is ready to pay. Total: ${payableText(step.totalCents)}. Open the link to pay: ${link}`;
  }
}
