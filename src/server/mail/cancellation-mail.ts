import type { Language } from '../../contract/endpoint';
import { dollarsAndCents } from '../../contract/money';
import { isolateLtr as ltr } from './bidi';
import { letter } from './letter';

/**
 * The e-mail that tells a customer their policy was cancelled (issue 36 item 5), in the order's
 * language, sent when the broker cancels it: the policy number, why, and what comes back to their
 * card (the premium less the plan's cancellation fee, which the refund e-mail confirms once the
 * gateway has given it back), or that nothing was paid by card. Plain text and HTML carry the same words.
 */

export type CancelReason = 'visa_refused' | 'trip_cancelled' | 'other';

export interface CancellationMailFacts {
  customerName: string;
  policyNumber: string;
  reason: CancelReason;
  /** What goes back to the card, cents (0: nothing was paid by card, or nothing is left after the fee). */
  refundCents: number;
  feeCents: number;
}

/** The words of the e-mail in each language (exported for the Arabic terminology check, tests/i18n/server-texts.ts). */
export const TEXTS = {
  en: {
    subject: (number: string) => `Your travel insurance policy ${number} is cancelled`,
    hello: (name: string) => `Hello ${name},`,
    intro: (number: string) => `As you asked, your policy ${number} is cancelled and no longer covers you.`,
    why: { visa_refused: 'Reason: your visa was refused.', trip_cancelled: 'Reason: your trip was cancelled.', other: 'Reason: your request.' },
    refund: (amount: string, fee: string) => `${amount} will be refunded to the card you paid with, and the cancellation fee of ${fee} is kept. We will e-mail you once it is done.`,
    noRefund: 'There is no payment by card to refund.',
    bye: 'The Safar team',
  },
  ar: {
    subject: (number: string) => `أُلغيت بوليصة تأمين سفرك ${number}`,
    hello: (name: string) => `مرحبًا ${name}،`,
    intro: (number: string) => `بناءً على طلبك، أُلغيت بوليصتك ${number} ولم تعد تغطيك.`,
    why: { visa_refused: 'السبب: رُفض طلب تأشيرتك.', trip_cancelled: 'السبب: أُلغيت رحلتك.', other: 'السبب: بناءً على طلبك.' },
    refund: (amount: string, fee: string) => `سنُعيد ${amount} إلى البطاقة التي دفعت بها، ويُحتفظ برسم الإلغاء وقدره ${fee}. سنراسلك عند إتمام ذلك.`,
    noRefund: 'لا توجد دفعة بالبطاقة لإعادتها.',
    bye: 'فريق Safar سفر',
  },
} as const;

/** The cancellation e-mail: subject, plain text and HTML. */
export function cancellationMail(lang: Language, facts: CancellationMailFacts) {
  const words = TEXTS[lang];
  // In Arabic, figures and the policy number sit in left-to-right isolates, so they read as written.
  const isolated = (text: string) => (lang === 'ar' ? ltr(text) : text);
  const money = (cents: number) => isolated(`$${dollarsAndCents(cents)}`);
  const number = isolated(facts.policyNumber);
  const firstName = facts.customerName.trim().split(/\s+/)[0] ?? '';
  const lines = [words.intro(number), words.why[facts.reason], facts.refundCents > 0 ? words.refund(money(facts.refundCents), money(facts.feeCents)) : words.noRefund];
  const { text, html } = letter(lang, words.hello(firstName), lines, words.bye);
  return { subject: words.subject(facts.policyNumber), text, html };
}
