import type { Zone } from '../../contract/quote.endpoints';
import type { Db } from './client';
import * as t from './schema';

/**
 * The demo catalogue (RULINGS 10): plans of the fictional insurers of seed-data.ts with their
 * rate tables, limits, add-ons, highlights and benefits. It is data: seeded once when missing,
 * then the broker's to edit (a corrected demo text reaches older databases by a migration, as
 * 0013 does, seed-data.ts). Rates are generated here from a base price and multipliers so the
 * tables stay consistent, but once stored they are plain rows like any broker-entered rate.
 */

type Money = number;

interface PlanSpec {
  id: number;
  insurerId: number;
  coverageId: number;
  nameEn: string;
  nameAr: string;
  coverageEn: string;
  coverageAr: string;
  tripType: 1 | 2;
  minAge: number;
  maxAge: number;
  maxTripDays: number;
  excluded?: number[];
  familyFactorPct: number | null;
  medicalUsd: number;
  zones: Zone[];
  /** Rate of an adult (18–40) for the shortest band in the Schengen zone, cents. */
  baseCents: Money;
  instant?: boolean;
  api?: boolean;
  /** Extra add-on: adventure sports (per traveller). */
  adventure?: boolean;
  covid?: boolean;
}

const SYRIA = 760;
const YEMEN = 887;
const IRAN = 364;

export const CATALOGUE_PLANS: PlanSpec[] = [
  // Single trip
  { id: 101, insurerId: 7, coverageId: 1, nameEn: 'Schengen Essential', nameAr: 'شنغن الأساسية', coverageEn: 'Essential', coverageAr: 'أساسية', tripType: 1, minAge: 0, maxAge: 85, maxTripDays: 90, familyFactorPct: 250, medicalUsd: 50_000, zones: ['schengen'], baseCents: 900, covid: true },
  { id: 102, insurerId: 7, coverageId: 2, nameEn: 'Worldwide Plus', nameAr: 'Worldwide Plus', coverageEn: 'Plus', coverageAr: 'Plus', tripType: 1, minAge: 0, maxAge: 75, maxTripDays: 180, familyFactorPct: 260, medicalUsd: 250_000, zones: ['schengen', 'worldwide_ex_us_ca', 'worldwide'], baseCents: 1400, adventure: true, covid: true },
  { id: 103, insurerId: 3, coverageId: 1, nameEn: 'Schengen Visa Care', nameAr: 'رعاية تأشيرة شنغن', coverageEn: 'Standard', coverageAr: 'قياسية', tripType: 1, minAge: 0, maxAge: 80, maxTripDays: 92, familyFactorPct: 240, medicalUsd: 60_000, zones: ['schengen'], baseCents: 1000, covid: true },
  { id: 104, insurerId: 3, coverageId: 2, nameEn: 'Global Explorer', nameAr: 'المستكشف العالمي', coverageEn: 'Explorer', coverageAr: 'المستكشف', tripType: 1, minAge: 0, maxAge: 75, maxTripDays: 180, excluded: [SYRIA], familyFactorPct: 260, medicalUsd: 150_000, zones: ['worldwide_ex_us_ca', 'worldwide'], baseCents: 1300, adventure: true },
  { id: 105, insurerId: 1000, coverageId: 1, nameEn: 'Europe Flex', nameAr: 'أوروبا المرنة', coverageEn: 'Flex', coverageAr: 'مرنة', tripType: 1, minAge: 0, maxAge: 85, maxTripDays: 180, familyFactorPct: null, medicalUsd: 75_000, zones: ['schengen', 'worldwide_ex_us_ca'], baseCents: 1100 },
  { id: 106, insurerId: 1000, coverageId: 2, nameEn: 'Worldwide Premier', nameAr: 'العالمية المميزة', coverageEn: 'Premier', coverageAr: 'مميزة', tripType: 1, minAge: 0, maxAge: 70, maxTripDays: 180, familyFactorPct: 270, medicalUsd: 500_000, zones: ['schengen', 'worldwide_ex_us_ca', 'worldwide'], baseCents: 2000, instant: false, api: false, adventure: true, covid: true },
  { id: 107, insurerId: 12, coverageId: 1, nameEn: 'Schengen Basic', nameAr: 'شنغن المبسّطة', coverageEn: 'Basic', coverageAr: 'مبسّطة', tripType: 1, minAge: 0, maxAge: 75, maxTripDays: 60, familyFactorPct: 230, medicalUsd: 50_000, zones: ['schengen'], baseCents: 800 },
  { id: 108, insurerId: 12, coverageId: 2, nameEn: 'World Standard', nameAr: 'العالمية القياسية', coverageEn: 'Standard', coverageAr: 'قياسية', tripType: 1, minAge: 0, maxAge: 80, maxTripDays: 120, excluded: [SYRIA, YEMEN], familyFactorPct: 250, medicalUsd: 100_000, zones: ['worldwide_ex_us_ca'], baseCents: 1200, covid: true },
  { id: 109, insurerId: 15, coverageId: 1, nameEn: 'Smart Traveller', nameAr: 'المسافر الذكي', coverageEn: 'Smart', coverageAr: 'ذكية', tripType: 1, minAge: 0, maxAge: 80, maxTripDays: 180, familyFactorPct: 250, medicalUsd: 100_000, zones: ['schengen', 'worldwide_ex_us_ca', 'worldwide'], baseCents: 1050, adventure: true, covid: true },
  { id: 110, insurerId: 21, coverageId: 1, nameEn: 'Budget Trip', nameAr: 'الرحلة الاقتصادية', coverageEn: 'Budget', coverageAr: 'اقتصادية', tripType: 1, minAge: 0, maxAge: 65, maxTripDays: 30, excluded: [SYRIA, IRAN], familyFactorPct: null, medicalUsd: 30_000, zones: ['worldwide_ex_us_ca'], baseCents: 700 },
  // Annual multi-trip
  { id: 111, insurerId: 7, coverageId: 3, nameEn: 'Annual Europe', nameAr: 'أوروبا السنوية', coverageEn: 'Annual', coverageAr: 'سنوية', tripType: 2, minAge: 18, maxAge: 75, maxTripDays: 60, familyFactorPct: 250, medicalUsd: 50_000, zones: ['schengen'], baseCents: 9000, covid: true },
  { id: 112, insurerId: 3, coverageId: 3, nameEn: 'Annual Worldwide', nameAr: 'العالمية السنوية', coverageEn: 'Annual', coverageAr: 'سنوية', tripType: 2, minAge: 18, maxAge: 70, maxTripDays: 90, familyFactorPct: 260, medicalUsd: 200_000, zones: ['worldwide_ex_us_ca', 'worldwide'], baseCents: 15_000, adventure: true },
  { id: 113, insurerId: 1000, coverageId: 3, nameEn: 'Annual Schengen Multi', nameAr: 'شنغن السنوية متعددة الرحلات', coverageEn: 'Multi-trip', coverageAr: 'متعددة الرحلات', tripType: 2, minAge: 0, maxAge: 75, maxTripDays: 45, familyFactorPct: 240, medicalUsd: 60_000, zones: ['schengen'], baseCents: 8500 },
  { id: 114, insurerId: 15, coverageId: 2, nameEn: 'Annual Smart', nameAr: 'الذكية السنوية', coverageEn: 'Annual', coverageAr: 'سنوية', tripType: 2, minAge: 18, maxAge: 70, maxTripDays: 60, familyFactorPct: 250, medicalUsd: 150_000, zones: ['worldwide_ex_us_ca', 'worldwide'], baseCents: 14_000, covid: true },
  { id: 115, insurerId: 12, coverageId: 3, nameEn: 'Annual Global', nameAr: 'العالمية السنوية الشاملة', coverageEn: 'Global', coverageAr: 'شاملة', tripType: 2, minAge: 18, maxAge: 65, maxTripDays: 90, familyFactorPct: 260, medicalUsd: 250_000, zones: ['schengen', 'worldwide_ex_us_ca', 'worldwide'], baseCents: 16_000, adventure: true, covid: true },
  { id: 116, insurerId: 21, coverageId: 2, nameEn: 'Annual Schengen Lite', nameAr: 'شنغن السنوية الخفيفة', coverageEn: 'Lite', coverageAr: 'خفيفة', tripType: 2, minAge: 18, maxAge: 60, maxTripDays: 30, familyFactorPct: null, medicalUsd: 50_000, zones: ['schengen'], baseCents: 7000 },
];

/** Age bands and their price multiplier (bounds inclusive), cut to each plan's ages. */
const AGE_BANDS: [number, number, number][] = [
  [0, 17, 0.6],
  [18, 40, 1],
  [41, 60, 1.4],
  [61, 70, 2.1],
  [71, 75, 3],
  [76, 80, 4],
  [81, 85, 5.2],
];
/** Trip-length bands of single-trip plans, cut to each plan's longest trip. */
const DAY_BANDS: [number, number, number][] = [
  [1, 7, 1],
  [8, 15, 1.6],
  [16, 31, 2.4],
  [32, 62, 3.6],
  [63, 92, 5],
  [93, 180, 7.5],
];
/** An annual policy is priced on its year (366 days covers a leap year). */
const ANNUAL_BAND: [number, number, number] = [1, 366, 1];
const ZONE_FACTOR: Record<Zone, number> = { schengen: 1, worldwide_ex_us_ca: 1.3, worldwide: 2.1 };

/** Whole dollars, so the rates read like a broker's price list. */
const dollars = (cents: number) => Math.round(cents / 100) * 100;

export function rateRows(plan: PlanSpec): (typeof t.planRates.$inferInsert)[] {
  const ages = AGE_BANDS.filter(([min, max]) => max >= plan.minAge && min <= plan.maxAge);
  const days = plan.tripType === 2 ? [ANNUAL_BAND] : DAY_BANDS.filter(([min]) => min <= plan.maxTripDays);
  return plan.zones.flatMap((zone) =>
    ages.flatMap(([minAge, maxAge, ageFactor]) =>
      days.map(([minDays, maxDays, dayFactor]) => ({
        planId: plan.id,
        zone,
        minAge: Math.max(minAge, plan.minAge),
        maxAge: Math.min(maxAge, plan.maxAge),
        minDays,
        maxDays: plan.tripType === 2 ? maxDays : Math.min(maxDays, plan.maxTripDays),
        premiumCents: dollars(plan.baseCents * ageFactor * dayFactor * ZONE_FACTOR[zone]),
      })),
    ),
  );
}

export function addonRows(plan: PlanSpec): (typeof t.planAddons.$inferInsert)[] {
  const annual = plan.tripType === 2;
  const rows: Omit<typeof t.planAddons.$inferInsert, 'id' | 'planId' | 'sort'>[] = [
    { code: 'winter_sports', labelEn: 'Winter sports', labelAr: 'الرياضات الشتوية', perTravellerCents: annual ? 4500 : 1500, premiumShareBp: null, maxAge: 70, limitUsd: 10_000 },
    { code: 'trip_cancellation', labelEn: 'Trip cancellation', labelAr: 'إلغاء الرحلة', perTravellerCents: null, premiumShareBp: annual ? 1000 : 1500, maxAge: null, limitUsd: 5_000 },
  ];
  if (plan.adventure) {
    rows.push({ code: 'adventure_sports', labelEn: 'Adventure sports', labelAr: 'الرياضات الخطرة والمغامرات', perTravellerCents: annual ? 6000 : 2000, premiumShareBp: null, maxAge: null, limitUsd: 15_000 });
  }
  rows.push({ code: 'rental_car_excess', labelEn: 'Rental car excess', labelAr: 'تغطية مبلغ التحمّل للسيارة المستأجرة', perTravellerCents: annual ? 3500 : 900, premiumShareBp: null, maxAge: null, limitUsd: 3_000 });
  return rows.map((row, sort) => ({ ...row, id: plan.id * 10 + sort + 1, planId: plan.id, sort }));
}

/** An amount of a benefit: "USD 30,000" in English; in Arabic "$30,000", the one money format the quote cards show (issue 38). */
const usd = (amount: number) => ({ en: `USD ${amount.toLocaleString('en-US')}`, ar: `$${amount.toLocaleString('en-US')}` });

export function featureRows(plan: PlanSpec): (typeof t.planFeatures.$inferInsert)[] {
  const m = plan.medicalUsd;
  const tier = m >= 200_000 ? 3 : m >= 75_000 ? 2 : 1;
  const compliant = schengenCompliant(plan);
  const delay = usd([150, 300, 500][tier - 1]!);
  const highlights: [string, 1 | 2 | 3, string, string, { en: string; ar: string }][] = [
    ['medical', 1, 'Emergency medical expenses', 'النفقات الطبية الطارئة', usd(m)],
    ['evacuation', 1, 'Emergency medical evacuation', 'الإخلاء الطبي الطارئ', usd(Math.round(m / 2))],
    ['repatriation', 1, 'Repatriation of remains', 'إعادة جثمان المتوفى إلى بلده', usd([10_000, 20_000, 50_000][tier - 1]!)],
    ['baggage', 2, 'Loss of checked baggage', 'فقدان الأمتعة المسجلة', usd([500, 1_000, 2_500][tier - 1]!)],
    ['delay', 2, 'Travel delay (after 6 hours)', 'تأخر السفر (بعد 6 ساعات)', delay],
    ['liability', 3, 'Personal liability', 'المسؤولية المدنية الشخصية', usd([25_000, 50_000, 100_000][tier - 1]!)],
    [
      'covid19',
      3,
      'COVID-19 medical cover',
      'التغطية الطبية لكوفيد-19',
      plan.covid ? { en: `Included up to USD ${m.toLocaleString('en-US')}`, ar: `مشمولة حتى ${usd(m).ar}` } : { en: 'Not covered', ar: 'غير مشمولة' },
    ],
  ];
  const benefits: [string, string, string, { en: string; ar: string }][] = [];
  if (compliant) {
    benefits.push([
      'schengen_visa',
      'Schengen visa',
      'تأشيرة شنغن',
      {
        en: 'Meets the Schengen visa requirement: at least EUR 30,000 medical cover in every Schengen state',
        ar: 'تستوفي شرط تأشيرة شنغن: تغطية طبية لا تقل عن 30,000 يورو في جميع دول شنغن',
      },
    ]);
  }
  benefits.push(
    ['ages', 'Ages covered', 'الأعمار المشمولة', { en: `${plan.minAge} to ${plan.maxAge} years`, ar: `من ${plan.minAge} إلى ${plan.maxAge} سنة` }],
    [
      'longest_trip',
      plan.tripType === 2 ? 'Longest trip within the year' : 'Longest trip',
      plan.tripType === 2 ? 'أطول رحلة خلال السنة' : 'أطول رحلة',
      { en: `${plan.maxTripDays} days`, ar: `${plan.maxTripDays} يومًا` },
    ],
    ['dental', 'Emergency dental care', 'علاج الأسنان الطارئ', usd([250, 500, 1_000][tier - 1]!)],
    ['passport', 'Loss of passport', 'فقدان جواز السفر', usd([150, 250, 500][tier - 1]!)],
    ['pre_existing', 'Pre-existing conditions (emergency only)', 'الحالات المرضية السابقة (الطوارئ فقط)', tier === 1 ? { en: 'Not covered', ar: 'غير مشمولة' } : usd(tier === 2 ? 5_000 : 15_000)],
    ['assistance', '24/7 emergency assistance', 'مساعدة طارئة على مدار الساعة', { en: 'Included', ar: 'مشمولة' }],
    ['hijack', 'Hijacking', 'الاختطاف', { en: 'USD 100 per day, up to 10 days', ar: '$100 يوميًا، حتى 10 أيام' }],
  );
  return [
    ...highlights.map(([key, section, labelEn, labelAr, value], sort) => ({
      planId: plan.id,
      kind: 'highlight',
      key,
      section,
      labelEn,
      labelAr,
      valueEn: value.en,
      valueAr: value.ar,
      sort,
    })),
    ...benefits.map(([key, labelEn, labelAr, value], sort) => ({
      planId: plan.id,
      kind: 'benefit',
      key,
      section: 0,
      labelEn,
      labelAr,
      valueEn: value.en,
      valueAr: value.ar,
      sort,
    })),
  ];
}

/**
 * Meets the Schengen visa minimum: sells the Schengen zone with medical cover above EUR 30,000
 * (USD 50,000 leaves room for any EUR/USD rate of recent decades).
 */
function schengenCompliant(plan: PlanSpec): boolean {
  return plan.zones.includes('schengen') && plan.medicalUsd >= 50_000;
}

/**
 * Inserts the plans that are missing, and the rates, add-ons and features of those plans only:
 * a plan the broker already has keeps the rows the broker gave it.
 */
export async function seedCatalogue(db: Db): Promise<void> {
  // Read first: on a seeded database (every start) there is nothing to write (seed.ts).
  const stored = new Set((await db.select({ id: t.plans.id }).from(t.plans)).map((row) => row.id));
  if (CATALOGUE_PLANS.every((plan) => stored.has(plan.id))) return;
  // One transaction: a crash between statements must not leave a plan without its rates.
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(t.plans)
      .values(
        CATALOGUE_PLANS.map((plan, sort) => ({
          id: plan.id,
          insurerId: plan.insurerId,
          coverageId: plan.coverageId,
          nameEn: plan.nameEn,
          nameAr: plan.nameAr,
          coverageNameEn: plan.coverageEn,
          coverageNameAr: plan.coverageAr,
          tripType: plan.tripType,
          minAge: plan.minAge,
          maxAge: plan.maxAge,
          maxTripDays: plan.maxTripDays,
          excludedDestinationIds: plan.excluded ?? [],
          familyFactorPct: plan.familyFactorPct,
          medicalLimitUsd: plan.medicalUsd,
          schengenVisaCompliant: schengenCompliant(plan),
          isInstantPolicy: plan.instant ?? true,
          isApiPlan: plan.api ?? true,
          sort,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: t.plans.id });
    const fresh = CATALOGUE_PLANS.filter((plan) => inserted.some((row) => row.id === plan.id));
    if (fresh.length === 0) return;
    await tx.insert(t.planRates).values(fresh.flatMap(rateRows));
    await tx.insert(t.planAddons).values(fresh.flatMap(addonRows)).onConflictDoNothing();
    await tx.insert(t.planFeatures).values(fresh.flatMap(featureRows));
  });
}
