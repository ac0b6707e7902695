import iso from 'i18n-iso-countries';
import arNames from 'i18n-iso-countries/langs/ar.json' with { type: 'json' };
import enNames from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import type { Language } from '../../contract/endpoint';
import { dollarsAndCents, groupThousands } from '../../contract/money';
import type { CertificateData } from './certificate-data';
import { ltr } from './pdf-rtl';
import { coverageText } from '../quoting/quote-views';

/**
 * The certificate's words in English and Arabic (issue 37 item 3). Arabic follows the app: the
 * customer's terms (locales/ar), Levantine month names with Western digits ("1 نيسان 2026"), and
 * every Latin value (a name, a passport or policy number, a reference, an amount "USD 1,234.56")
 * wrapped in `ltr()` so it reads left to right inside the right-to-left line (pdf-rtl.ts).
 */

iso.registerLocale(enNames);
iso.registerLocale(arNames);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "2026-04-01" → "1 April 2026" (calendar dates, no time zone). */
export function longDate(iso: string): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return `${day} ${MONTHS[month - 1] ?? ''} ${year}`;
}

let arabicDateFormat: Intl.DateTimeFormat | null = null;

/** "2026-04-01" → "1 نيسان 2026": the app's Arabic date (src/web/i18n/format.ts, mail/policy-mail.ts). */
export function arabicLongDate(isoDay: string): string {
  arabicDateFormat ??= new Intl.DateTimeFormat('ar-LB-u-nu-latn', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  return arabicDateFormat.format(new Date(`${isoDay}T00:00:00Z`));
}

/** 14763 → "USD 147.63": what was paid, to the cent (RULINGS 26). */
export function usdText(cents: number): string {
  return `USD ${dollarsAndCents(cents)}`;
}

let arabicPlural: Intl.PluralRules | null = null;

/** "10 أيام", "21 يومًا", "يوم واحد": the app's plural of days (locales/ar, {days, plural, …}). */
export function arabicDays(days: number): string {
  arabicPlural ??= new Intl.PluralRules('ar');
  switch (arabicPlural.select(days)) {
    case 'one':
      return 'يوم واحد';
    case 'two':
      return 'يومان';
    case 'few':
      return `${days} أيام`;
    case 'many':
      return `${days} يومًا`;
    default:
      return `${days} يوم`;
  }
}

/** The Arabic name of a country the certificate data names in English (as the countries table is seeded); the English name when unknown. */
export function arabicCountry(nameEn: string): string {
  const code = iso.getAlpha2Code(nameEn, 'en');
  return (code && iso.getName(code, 'ar')) || nameEn;
}

/** Why a policy was cancelled, as its certificate says it. */
export const CANCEL_REASONS: Record<Language, Record<string, string>> = {
  en: { visa_refused: 'the visa was refused', trip_cancelled: 'the trip was cancelled', other: "at the policyholder's request" },
  ar: { visa_refused: 'رُفضت التأشيرة', trip_cancelled: 'أُلغيت الرحلة', other: 'بطلب من حامل البوليصة' },
};

export const SCHENGEN_STATEMENTS: Record<Language, string> = {
  en:
    'This policy meets the requirements for a Schengen visa: it covers emergency medical expenses, hospital treatment and ' +
    'repatriation of at least EUR 30,000, is valid in every Schengen state and covers the whole stay.',
  ar:
    'تستوفي هذه البوليصة شروط تأشيرة شنغن: فهي تغطي نفقات العلاج الطبي الطارئ والاستشفاء والإعادة إلى الوطن بما لا يقل عن ' +
    `${ltr('EUR 30,000')}، وهي سارية في جميع دول شنغن وتغطي مدة الإقامة كاملة.`,
};

export interface CertificateWords {
  title: string;
  documentTitle: (policyNumber: string) => string;
  policyNumberLine: (policyNumber: string) => string;
  continued: (policyNumber: string) => string;
  brand: string;
  tagline: string;
  checkThisPolicy: string;
  assistance: string;
  assistanceNote: string;
  date: (isoDay: string) => string;
  cancelledBanner: (at: Date, reason: string) => string;
  cancelledStatus: (at: Date) => string;
  labels: {
    policyNumber: string;
    issueDate: string;
    status: string;
    insurer: string;
    plan: string;
    quoteReference: string;
    tripType: string;
    period: string;
    travel: string;
    travellers: string;
    medicalLimit: string;
    amountPaid: string;
    paymentReference: string;
  };
  insurerName: (data: CertificateData) => string;
  planName: (data: CertificateData) => string;
  plan: (data: CertificateData) => string;
  tripType: (tripType: number) => string;
  period: (trip: CertificateData['trip']) => string;
  route: (trip: CertificateData['trip']) => string;
  medicalLimit: (usd: number) => string;
  amountPaid: (order: CertificateData['order']) => string;
  /** Latin values (a number, a reference): isolated in Arabic. */
  latin: (text: string) => string;
  addonsHeading: string;
  addonName: (addon: CertificateData['addons'][number]) => string;
  addonLimit: (limitUsd: number | null) => string;
  premiumHeading: string;
  amount: (cents: number, discount: boolean) => string;
  travellersHeading: string;
  columns: [string, string, string, string, string];
  nationality: (nameEn: string | null) => string;
  schengenHeading: string;
  schengenStatement: string;
  contact: (broker: CertificateData['broker']) => string;
}

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

const EN: CertificateWords = {
  title: 'Travel insurance certificate',
  documentTitle: (number) => `Travel insurance certificate ${number}`,
  policyNumberLine: (number) => `Policy number ${number}`,
  continued: (number) => `Travel insurance certificate ${number} (continued)`,
  brand: 'Safar',
  tagline: 'Travel insurance',
  checkThisPolicy: 'Check this policy:',
  assistance: '24/7 emergency assistance',
  assistanceNote: 'In a medical emergency abroad, call the insurer first, day or night.',
  date: longDate,
  cancelledBanner: (at, reason) =>
    `CANCELLED on ${longDate(isoDay(at))} (${CANCEL_REASONS.en[reason] ?? CANCEL_REASONS.en.other}). This policy gives no cover.`,
  cancelledStatus: (at) => `CANCELLED on ${longDate(isoDay(at))}: no cover`,
  labels: {
    policyNumber: 'Policy number',
    issueDate: 'Issue date',
    status: 'Status',
    insurer: 'Insurer',
    plan: 'Plan',
    quoteReference: 'Quote reference',
    tripType: 'Trip type',
    period: 'Period of cover',
    travel: 'Travel',
    travellers: 'Travellers',
    medicalLimit: 'Medical limit',
    amountPaid: 'Amount paid',
    paymentReference: 'Payment reference',
  },
  insurerName: (data) => data.insurer.nameEn,
  planName: (data) => data.plan.nameEn,
  plan: (data) => `${data.plan.nameEn} (${data.plan.coverageEn} cover)${data.plan.family ? ', Family plan' : ''}`,
  tripType: (tripType) => (tripType === 2 ? 'Annual multi-trip' : 'Single trip'),
  period: (trip) => `${longDate(trip.startDate)} to ${longDate(trip.endDate)} (${trip.days} ${trip.days === 1 ? 'day' : 'days'})`,
  route: (trip) => (trip.direction === 'outbound' ? `From Lebanon to ${trip.destinations.join(', ')}` : `From ${trip.source} to Lebanon`),
  medicalLimit: (usd) => `USD ${groupThousands(usd)} per traveller`,
  amountPaid: (order) => {
    if (order.totalCents === 0) return order.couponCode ? `Fully discounted (coupon ${order.couponCode})` : 'Fully discounted';
    return `${usdText(order.totalCents)} (VAT included)`;
  },
  latin: (text) => text,
  addonsHeading: 'Add-on covers',
  addonName: (addon) => addon.nameEn,
  addonLimit: (limitUsd) => (limitUsd === null ? 'Covered, as the policy terms say' : `Up to USD ${groupThousands(limitUsd)} per traveller`),
  premiumHeading: 'Premium paid',
  amount: (cents, discount) => `${discount ? '-' : ''}${usdText(cents)}`,
  travellersHeading: 'Insured travellers',
  columns: ['#', 'Name as on passport', 'Date of birth', 'Passport number', 'Nationality'],
  nationality: (nameEn) => nameEn ?? '-',
  schengenHeading: 'Schengen visa',
  schengenStatement: SCHENGEN_STATEMENTS.en,
  contact: (broker) => [broker.phone && `Phone ${broker.phone}`, broker.whatsapp && `WhatsApp ${broker.whatsapp}`, broker.email].filter(Boolean).join('  |  '),
};

const AR: CertificateWords = {
  title: 'شهادة تأمين السفر',
  documentTitle: (number) => `شهادة تأمين السفر ${number}`,
  policyNumberLine: (number) => `رقم البوليصة ${ltr(number)}`,
  continued: (number) => `شهادة تأمين السفر ${ltr(number)} (تابع)`,
  brand: 'Safar سفر',
  tagline: 'تأمين السفر',
  checkThisPolicy: 'تحقّق من هذه البوليصة:',
  assistance: 'المساعدة الطارئة على مدار الساعة',
  assistanceNote: 'في حالة طبية طارئة في الخارج، اتصل بشركة التأمين أولًا، ليلًا أو نهارًا.',
  date: arabicLongDate,
  cancelledBanner: (at, reason) =>
    `ملغاة (${ltr('CANCELLED')}) في ${arabicLongDate(isoDay(at))} (${CANCEL_REASONS.ar[reason] ?? CANCEL_REASONS.ar.other}). لا تغطية لهذه البوليصة.`,
  cancelledStatus: (at) => `ملغاة في ${arabicLongDate(isoDay(at))}: لا تغطية`,
  labels: {
    policyNumber: 'رقم البوليصة',
    issueDate: 'تاريخ الإصدار',
    status: 'الحالة',
    insurer: 'شركة التأمين',
    plan: 'الخطة',
    quoteReference: 'رقم عرض السعر',
    tripType: 'نوع الرحلة',
    period: 'فترة التغطية',
    travel: 'الرحلة',
    travellers: 'عدد المسافرين',
    medicalLimit: 'حدّ التغطية الطبية',
    amountPaid: 'المبلغ المدفوع',
    paymentReference: 'الرقم المرجعي للدفع',
  },
  insurerName: (data) => data.insurer.nameAr || data.insurer.nameEn,
  planName: (data) => data.plan.nameAr || data.plan.nameEn,
  plan: (data) => `${data.plan.nameAr || data.plan.nameEn} (${coverageText(data.plan.coverageAr || data.plan.coverageEn, 'ar')})${data.plan.family ? '، خطة عائلية' : ''}`,
  tripType: (tripType) => (tripType === 2 ? 'سنوية متعددة الرحلات' : 'رحلة واحدة'),
  period: (trip) => `من ${arabicLongDate(trip.startDate)} إلى ${arabicLongDate(trip.endDate)} (${arabicDays(trip.days)})`,
  route: (trip) => {
    const names = trip.destinations.map((name, index) => trip.destinationsAr[index] || arabicCountry(name));
    return trip.direction === 'outbound' ? `من لبنان إلى ${names.join('، ')}` : `من ${arabicCountry(trip.source)} إلى لبنان`;
  },
  medicalLimit: (usd) => `${ltr(`USD ${groupThousands(usd)}`)} لكل مسافر`,
  amountPaid: (order) => {
    if (order.totalCents === 0) return order.couponCode ? `مخفّض بالكامل (رمز الخصم ${ltr(order.couponCode)})` : 'مخفّض بالكامل';
    return `${ltr(usdText(order.totalCents))} (شاملًا الضريبة على القيمة المضافة)`;
  },
  latin: ltr,
  addonsHeading: 'التغطيات الإضافية',
  addonName: (addon) => addon.nameAr || addon.nameEn,
  addonLimit: (limitUsd) => (limitUsd === null ? 'مشمولة وفق شروط البوليصة' : `حتى ${ltr(`USD ${groupThousands(limitUsd)}`)} لكل مسافر`),
  premiumHeading: 'القسط المدفوع',
  amount: (cents, discount) => ltr(`${discount ? '-' : ''}${usdText(cents)}`),
  travellersHeading: 'المسافرون المؤمَّن عليهم',
  columns: ['#', 'الاسم كما في جواز السفر', 'تاريخ الميلاد', 'رقم جواز السفر', 'الجنسية'],
  nationality: (nameEn) => (nameEn ? arabicCountry(nameEn) : '-'),
  schengenHeading: 'تأشيرة شنغن',
  schengenStatement: SCHENGEN_STATEMENTS.ar,
  contact: (broker) =>
    [broker.phone && `الهاتف ${ltr(broker.phone)}`, broker.whatsapp && `واتساب ${ltr(broker.whatsapp)}`, broker.email && ltr(broker.email)].filter(Boolean).join('  |  '),
};

export const CERTIFICATE_WORDS: Record<Language, CertificateWords> = { en: EN, ar: AR };
