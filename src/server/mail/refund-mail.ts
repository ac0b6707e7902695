import type { Language } from '../../contract/endpoint';
import { dollarsAndCents } from '../../contract/money';
import { isolateLtr as ltr } from './bidi';
import { letter } from './letter';

/**
 * The e-mail that tells a customer their money was given back (issue 36 item 4), in the order's
 * language, once the gateway answered the REFUND with success: how much, to the card they paid
 * with, for which payment (its merchant reference), why, and how long a bank takes to show it.
 * Plain text and HTML carry the same words.
 */

/** Why the money is given back, as the refunds row records it. */
export type RefundMailReason = 'paid_twice' | 'order_void' | 'coupon_used_up' | 'charged_again' | 'policy_cancelled';

export interface RefundMailFacts {
  customerName: string;
  amountCents: number;
  currency: string;
  merchantReference: string;
  reason: RefundMailReason;
  /** What was kept of the capture (a cancelled policy's fee), cents; 0 when all of it went back. */
  feeCents: number;
}

/** The words of the e-mail in each language (exported for the Arabic terminology check, tests/i18n/server-texts.ts). */
export const TEXTS = {
  en: {
    subject: 'Safar has refunded your payment',
    hello: (name: string) => `Hello ${name},`,
    intro: (amount: string) => `We have refunded ${amount} to the card you paid with.`,
    why: {
      paid_twice: 'Your trip was paid twice; this refunds the second payment. Your policy stays valid.',
      order_void: 'The payment arrived for an order that had been changed or had expired, so it bought no policy.',
      coupon_used_up: 'The discount code on the order had been used up before the payment arrived, so it bought no policy.',
      charged_again: 'Your card was charged a second time for the same order; this refunds the extra charge. Your policy stays valid.',
      policy_cancelled: 'Your policy was cancelled; this refunds its premium.',
    },
    fee: (amount: string) => `The cancellation fee of ${amount} is kept.`,
    reference: 'Payment reference',
    bank: 'Banks usually show a refund within 5 to 10 working days.',
    bye: 'The Safar team',
  },
  ar: {
    subject: 'أعاد «سفر» المبلغ الذي دفعته',
    hello: (name: string) => `مرحبًا ${name}،`,
    intro: (amount: string) => `أعدنا ${amount} إلى البطاقة التي دفعت بها.`,
    why: {
      paid_twice: 'دُفع ثمن رحلتك مرتين، وهذا المبلغ هو الدفعة الثانية. بوليصتك تبقى سارية.',
      order_void: 'وصلت الدفعة لطلب تغيّر أو انتهت مهلته، فلم تُصدر بها أي بوليصة.',
      coupon_used_up: 'نفد رمز الخصم المستخدم في الطلب قبل وصول الدفعة، فلم تُصدر بها أي بوليصة.',
      charged_again: 'اقتُطع المبلغ من بطاقتك مرة ثانية للطلب نفسه، وهذا المبلغ هو الاقتطاع الزائد. بوليصتك تبقى سارية.',
      policy_cancelled: 'أُلغيت بوليصتك، وهذا المبلغ هو قسطها المُعاد.',
    },
    fee: (amount: string) => `يُحتفظ برسم الإلغاء وقدره ${amount}.`,
    reference: 'الرقم المرجعي للدفع',
    bank: 'يظهر المبلغ المُعاد في حسابك عادةً خلال 5 إلى 10 أيام عمل.',
    bye: 'فريق Safar سفر',
  },
} as const;

/** The refund e-mail: subject, plain text and HTML. */
export function refundMail(lang: Language, facts: RefundMailFacts) {
  const words = TEXTS[lang];
  // In Arabic an amount and the reference sit in left-to-right isolates, so "$58.00" never reads "58.00$".
  const money = (cents: number) => {
    const text = `${facts.currency === 'USD' ? '$' : `${facts.currency} `}${dollarsAndCents(cents)}`;
    return lang === 'ar' ? ltr(text) : text;
  };
  const amount = money(facts.amountCents);
  const reference = lang === 'ar' ? ltr(facts.merchantReference) : facts.merchantReference;
  const firstName = facts.customerName.trim().split(/\s+/)[0] ?? '';
  // The reference on a line of its own: beside its label it would break at a hyphen on a phone.
  const lines = [words.intro(amount), words.why[facts.reason], ...(facts.feeCents > 0 ? [words.fee(money(facts.feeCents))] : []), `${words.reference}:`, reference, words.bank];
  const { text, html } = letter(lang, words.hello(firstName), lines, words.bye);
  return { subject: words.subject, text, html };
}
