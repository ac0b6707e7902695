import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addonRows, CATALOGUE_PLANS, featureRows } from '../../src/server/db/seed-catalogue';
import { COMPANY_INFO, INSURERS, MASTER_LISTS, RELATIONSHIP_LISTS } from '../../src/server/db/seed-data';
import { MESSAGES } from '../../src/server/http/messages';
import { TEXTS as CANCELLATION_MAIL } from '../../src/server/mail/cancellation-mail';
import { cancellationMail } from '../../src/server/mail/cancellation-mail';
import { policyMail, TEXTS as POLICY_MAIL } from '../../src/server/mail/policy-mail';
import { refundMail, TEXTS as REFUND_MAIL } from '../../src/server/mail/refund-mail';
import { sharePageMail, TEXTS as SHARE_MAIL } from '../../src/server/mail/share-page-mail';
import { coverFor, LABELS as INVOICE_LABELS } from '../../src/server/orders/invoice';
import { LABELS as PRICE_LINE_LABELS, priceLines } from '../../src/server/orders/price-lines';
import { payFormPageHtml, payMessagePageHtml } from '../../src/server/payments/pay-page';
import { cardPageHtml, returnPageHtml, sandboxErrorPageHtml } from '../../src/server/payments/sandbox-pages';
import { CANCEL_REASONS, CERTIFICATE_WORDS, SCHENGEN_STATEMENTS } from '../../src/server/policies/certificate-texts';
import { TEXTS as QUOTE_VIEW_TEXTS } from '../../src/server/quoting/quote-views';
import { whatsappTemplate, type SharedStep } from '../../src/server/shares/share-texts';
import { arabicTermFaults, terminologyProblems, type TermProblem } from './terminology';

/**
 * Every Arabic text the server writes (issue 38), for the one terminology check of
 * terminology.ts that the catalogue goes through too: the e-mails, the WhatsApp texts, the
 * payments, sandbox and receipt words, the API messages and the seeded names of plans, benefits,
 * add-ons, titles and relations. Each as a pair with its English where the source has one (so
 * the check knows which terms the text must use), and the texts as the customer gets them, put
 * together, and every Arabic line of the server's source, where only the banned words count.
 */

export interface ServerText {
  /** Where the text comes from: its table and key, or the seed row. */
  where: string;
  english: string;
  arabic: string;
}

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/server');
const ARABIC = /[\u0600-\u06FF]/;

/** Stand-ins for a text's values ({a}, {b}, {c}): the check reads them as placeholders, not words. */
const ARGS = ['{a}', '{b}', '{c}'] as const;

/**
 * The pairs of two texts of the same shape, one per language: strings side by side, functions
 * called with stand-ins (one that needs a real value is skipped: its words are in another pair or
 * in the rendered texts), objects and arrays key by key.
 */
function pairsOf(en: unknown, ar: unknown, where: string): ServerText[] {
  if (typeof en === 'string' && typeof ar === 'string') return [{ where, english: en, arabic: ar }];
  if (typeof en === 'function' && typeof ar === 'function') {
    try {
      return pairsOf((en as (...args: unknown[]) => unknown)(...ARGS), (ar as (...args: unknown[]) => unknown)(...ARGS), where);
    } catch {
      return [];
    }
  }
  if (en && ar && typeof en === 'object' && typeof ar === 'object') {
    return Object.keys(en).flatMap((key) => pairsOf((en as Record<string, unknown>)[key], (ar as Record<string, unknown>)[key], `${where}.${key}`));
  }
  return [];
}

/** A table of { key: { en, ar } } as pairs. */
const byKey = (table: Record<string, { en: unknown; ar: unknown }>, where: string) => Object.entries(table).flatMap(([key, text]) => pairsOf(text.en, text.ar, `${where}.${key}`));

/** Every text of the server in English and Arabic, pair by pair. */
export function serverTextPairs(): ServerText[] {
  const pairs: ServerText[] = [
    ...byKey(MESSAGES, 'messages'),
    ...pairsOf(POLICY_MAIL.en, POLICY_MAIL.ar, 'policy mail'),
    ...pairsOf(SHARE_MAIL.en, SHARE_MAIL.ar, 'share mail'),
    ...pairsOf(REFUND_MAIL.en, REFUND_MAIL.ar, 'refund mail'),
    ...pairsOf(CANCELLATION_MAIL.en, CANCELLATION_MAIL.ar, 'cancellation mail'),
    ...pairsOf(PRICE_LINE_LABELS.en, PRICE_LINE_LABELS.ar, 'receipt'),
    ...byKey(INVOICE_LABELS, 'invoice'),
    ...byKey(QUOTE_VIEW_TEXTS, 'quote views'),
    ...pairsOf(CERTIFICATE_WORDS.en, CERTIFICATE_WORDS.ar, 'certificate'),
    ...pairsOf(CANCEL_REASONS.en, CANCEL_REASONS.ar, 'certificate cancel reasons'),
    ...pairsOf(SCHENGEN_STATEMENTS.en, SCHENGEN_STATEMENTS.ar, 'certificate Schengen statement'),
    ...[1, 2, 3, 12].flatMap((travellers) => [false, true].flatMap((family) => pairsOf(coverFor('en', travellers, family), coverFor('ar', travellers, family), `invoice cover for ${travellers}${family ? ', family' : ''}`))),
  ];
  const steps: SharedStep[] = [{ page: 'quotes' }, { page: 'review', plan: '{plan}' }, { page: 'checkout', plan: '{plan}', totalCents: 7_659 }];
  for (const step of steps) {
    pairs.push(...pairsOf(whatsappTemplate('en', 'Rania Haddad', 'https://safar.test/x', step), whatsappTemplate('ar', 'Rania Haddad', 'https://safar.test/x', step), `WhatsApp ${step.page}`));
  }
  pairs.push(...pairsOf(COMPANY_INFO.en, COMPANY_INFO.ar, 'company'));
  for (const [kind, items] of Object.entries({ ...MASTER_LISTS, ...RELATIONSHIP_LISTS })) for (const item of items) pairs.push({ where: `${kind} ${item.id}`, english: item.en, arabic: item.ar });
  for (const insurer of INSURERS) pairs.push({ where: `insurer ${insurer.id}`, english: insurer.nameEn, arabic: insurer.nameAr });
  for (const plan of CATALOGUE_PLANS) {
    pairs.push({ where: `plan ${plan.id}`, english: plan.nameEn, arabic: plan.nameAr }, { where: `plan ${plan.id} coverage`, english: plan.coverageEn, arabic: plan.coverageAr });
    for (const addon of addonRows(plan)) pairs.push({ where: `add-on ${addon.id}`, english: addon.labelEn, arabic: addon.labelAr });
    for (const feature of featureRows(plan)) {
      pairs.push(
        { where: `plan ${plan.id} ${feature.key}`, english: feature.labelEn, arabic: feature.labelAr },
        { where: `plan ${plan.id} ${feature.key} value`, english: feature.valueEn, arabic: feature.valueAr },
      );
    }
  }
  return pairs.filter((pair) => ARABIC.test(pair.arabic) || pair.arabic !== pair.english);
}

const LINES = priceLines(
  {
    addons: [{ addonId: 1, code: 'winter_sports', nameEn: 'Winter sports', nameAr: 'الرياضات الشتوية', cents: 1_500 }],
    price: { planCents: 5_800, addonsCents: 1_500, discountCents: 580, couponCode: 'SAFAR10', vatPercent: 11, vatCents: 739, stampCents: 200, totalCents: 7_659 },
  } as Parameters<typeof priceLines>[0],
  'ar',
);

/** Every text the server sends a customer in Arabic, put together as they get it, by where. */
export function renderedServerArabic(): Record<string, string> {
  const texts: Record<string, string> = {};
  const mail = policyMail('ar', {
    customerName: 'Rania Haddad',
    policyNumber: 'SFR-26-7K3Q9M2T',
    insurerName: 'فينيقيا للتأمين',
    planName: 'رعاية تأشيرة شنغن',
    coverageName: 'تغطية قياسية',
    startDate: '2026-12-05',
    endDate: '2026-12-14',
    travellers: ['Rania Haddad'],
    addons: ['الرياضات الشتوية'],
    lines: LINES,
    link: 'https://safar.test/policies/x/certificate.pdf',
    pageLink: `https://safar.test/policy/${'a'.repeat(64)}`,
  });
  Object.assign(texts, { 'policy mail subject': mail.subject, 'policy mail text': mail.text, 'policy mail html': mail.html });
  const steps: SharedStep[] = [{ page: 'quotes' }, { page: 'review', plan: 'أوروبا المرنة' }, { page: 'checkout', plan: 'أوروبا المرنة', totalCents: 7_659 }];
  for (const step of steps) {
    const share = sharePageMail('ar', 'Rania Haddad', 'https://safar.test/x', step, [{ name: 'أوروبا المرنة', cents: 5_800 }]);
    Object.assign(texts, {
      [`share mail ${step.page} subject`]: share.subject,
      [`share mail ${step.page} text`]: share.text,
      [`share mail ${step.page} html`]: share.html,
      [`WhatsApp ${step.page}`]: whatsappTemplate('ar', 'Rania Haddad', 'https://safar.test/x', step),
    });
  }
  for (const reason of ['paid_twice', 'order_void', 'coupon_used_up', 'charged_again', 'policy_cancelled'] as const) {
    const feeCents = reason === 'policy_cancelled' ? 1_000 : 0;
    const refund = refundMail('ar', { customerName: 'Rania Haddad', amountCents: 7_659, currency: 'USD', merchantReference: 'SAF42-MFX3K2A1-7QZC0P4M8R2D', reason, feeCents });
    Object.assign(texts, { 'refund mail subject': refund.subject, [`refund mail ${reason} text`]: refund.text, [`refund mail ${reason} html`]: refund.html });
  }
  for (const reason of ['visa_refused', 'trip_cancelled', 'other'] as const) {
    const cancelled = cancellationMail('ar', { customerName: 'Rania Haddad', policyNumber: 'SFR-26-7K3Q9M2T', reason, refundCents: 6_659, feeCents: 1_000 });
    Object.assign(texts, { 'cancellation mail subject': cancelled.subject, [`cancellation mail ${reason} text`]: cancelled.text, [`cancellation mail ${reason} html`]: cancelled.html });
  }
  const details = {
    reference: 'SAF42-MFX3K2A1-7QZC0P4M8R2D',
    insurer: 'فينيقيا للتأمين',
    plan: 'رعاية تأشيرة شنغن',
    coverage: 'تغطية قياسية',
    travellers: ['Rania Haddad'],
    startDate: '2026-12-05',
    endDate: '2026-12-14',
    totalCents: 7_659,
    lines: LINES,
  };
  texts['pay page'] = payFormPageHtml({ lang: 'ar', details, form: { url: 'https://gateway.test', fields: {} }, sandbox: true });
  texts['pay page, paid'] = payMessagePageHtml({
    lang: 'ar',
    title: 'pay_already_paid',
    text: 'pay_already_paid_issued_text',
    facts: [['pay_reference', details.reference]],
    link: { href: '/x.pdf', label: 'pay_certificate_link', testId: 'pay-certificate' },
  });
  texts['pay page, unknown'] = payMessagePageHtml({ lang: 'ar', title: 'pay_not_found', text: 'pay_not_found_text' });
  const request = { merchant_reference: details.reference, amount: '7659', currency: 'USD', language: 'ar' };
  texts['sandbox card page'] = cardPageHtml({ request, action: '/sandbox/aps/pay/x', errors: { card_number: 'required' } });
  texts['sandbox return page'] = returnPageHtml({ lang: 'ar', returnUrl: 'https://safar.test/r', response: { status: '14', merchant_reference: details.reference } });
  texts['sandbox error page'] = sandboxErrorPageHtml({ lang: 'ar', reason: 'sandbox_session_unknown_text' });
  return texts;
}

/** Every line of the server's own source (not its tests) that holds Arabic, by file and line. */
export function arabicSourceLines(): { where: string; line: string }[] {
  return readdirSync(SERVER, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .flatMap((file) =>
      readFileSync(path.join(SERVER, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (ARABIC.test(line) ? [{ where: `src/server/${file}:${index + 1}`, line }] : [])),
    );
}

/** A text without its bidi isolates (U+2066–2069), as the reader sees it. */
const visible = (text: string) => text.replace(/[\u2066-\u2069]/g, '');

/**
 * The terminology check over the server's Arabic (npm run i18n:check, arabic-texts.test.ts): each
 * pair as a catalogue message is checked, and the rendered texts and source lines for banned words.
 */
export function serverTermProblems(): TermProblem[] {
  const paired = serverTextPairs().flatMap(({ where, english, arabic }) =>
    terminologyProblems([[english, visible(arabic)]]).map((problem) => ({ msgid: `${where}: ${english}`, problem: problem.problem })),
  );
  const rendered = Object.entries(renderedServerArabic()).flatMap(([where, text]) => arabicTermFaults(visible(text)).map((fault) => ({ msgid: where, problem: fault.problem })));
  const source = arabicSourceLines().flatMap(({ where, line }) => arabicTermFaults(line).map((fault) => ({ msgid: where, problem: fault.problem })));
  return [...paired, ...rendered, ...source];
}
