import type { Language } from '../../contract/endpoint';
import type { Highlight } from '../../contract/invoice.schema';
import type { Quote, QuoteAddon, Zone } from '../../contract/quote.endpoints';
import type { LoadedPlan } from './catalogue';
import type { LeadQuoteRow } from './quote-service';

/** "$1,234": whole dollars with Western digits in both languages, as the spec shows prices (RULINGS 17). */
export function dollarsText(cents: number): string {
  return `$${Math.round(cents / 100).toLocaleString('en-US')}`;
}

/**
 * A plan's coverage name where it stands on its own (beside the plan's name, the insurer's, the
 * travellers): in Arabic «تغطية ذكية», since the bare feminine adjective ذكية names nothing (issue
 * 38). A name the broker already wrote with تغطية keeps it once. English names stand alone.
 */
export function coverageText(name: string, lang: Language): string {
  if (lang !== 'ar' || name === '' || name.startsWith('تغطية')) return name;
  return `تغطية ${name}`;
}

/** Where the plan-benefits PDF of a plan is served, in a language. */
export function planDocumentUrl(planId: number, lang: Language): string {
  return `/plan-documents/${planId}.pdf?lang=${lang}`;
}

/** Texts of the quote views in both languages (exported for the Arabic terminology check, tests/i18n/server-texts.ts). */
export const TEXTS = {
  traveller: { en: (n: number, age: number) => `Traveller ${n}, ${age} years`, ar: (n: number, age: number) => `المسافر ${n}، بعمر ${age}` },
  family: { en: 'Family', ar: 'عائلي' },
  individual: { en: 'Individual', ar: 'فردي' },
  several: { en: 'Several travellers', ar: 'عدة مسافرين' },
  instant: { en: 'Instant policy: issued as soon as you pay', ar: 'بوليصة فورية: تصدر فور الدفع' },
  notInstant: { en: 'Issued by the insurer within 1 working day', ar: 'تصدرها شركة التأمين خلال يوم عمل واحد' },
} as const;

/** "Individual", "Family" or "Several travellers", in the asked language. */
export function productTypeName(lead: { isFamily: boolean; productType: number }, lang: Language): string {
  if (lead.isFamily) return TEXTS.family[lang];
  return lead.productType === 1 ? TEXTS.individual[lang] : TEXTS.several[lang];
}

/** A plan's highlights (sections 1–3) in spec §3 form, both languages, in catalogue order. */
export function highlightsOf(plan: Pick<LoadedPlan, 'features'>): Highlight[] {
  return plan.features.flatMap((feature) =>
    feature.kind === 'highlight' && (feature.section === 1 || feature.section === 2 || feature.section === 3)
      ? [
          {
            key: feature.key,
            label: feature.labelEn,
            label_ar: feature.labelAr,
            value: feature.valueEn,
            value_ar: feature.valueAr,
            section: feature.section,
          },
        ]
      : [],
  );
}

/** A stored quote as spec §3 Quote, in the asked language. */
export function quoteView(row: LeadQuoteRow, plan: LoadedPlan, lead: { isFamily: boolean; productType: number }, lang: Language): Quote {
  const ar = lang === 'ar';
  const addonsById = new Map(plan.addons.map((addon) => [addon.id, addon]));
  const addon: QuoteAddon[] = row.addons.flatMap((priced) => {
    const definition = addonsById.get(priced.addonId);
    if (!definition) return [];
    return [
      {
        id: definition.id,
        code: definition.code,
        label: definition.labelEn,
        label_ar: definition.labelAr,
        value: priced.cents,
        value_to_display: dollarsText(priced.cents),
        addonCheck: false,
        checked_addon: false,
        disabled_addon: priced.disabled,
        max_age: definition.maxAge,
        covered_travellers: priced.coveredTravellers,
      },
    ];
  });
  return {
    id: row.id,
    compare_id: `${plan.id}-${row.zone}`,
    premium: row.premiumCents,
    premium_round: Math.round(row.premiumCents / 100),
    premium_per_person: row.perPerson.map((line) => ({ label: TEXTS.traveller[lang](line.position + 1, line.age), value: line.cents })),
    provider: { id: plan.insurer.id, name: ar ? plan.insurer.nameAr : plan.insurer.nameEn, name_ar: plan.insurer.nameAr, image: plan.insurer.logo },
    provider_plan_id: plan.id,
    coverage_id: plan.coverageId,
    wizard_plan_name: ar ? plan.nameAr : plan.nameEn,
    product_type_name: productTypeName(lead, lang),
    zone: row.zone as Zone,
    trip_type: plan.tripType === 2 ? 2 : 1,
    medical_limit_usd: plan.medicalLimitUsd,
    schengen_visa_compliant: plan.schengenVisaCompliant,
    planDocuments: { file_url: planDocumentUrl(plan.id, lang) },
    is_instant_policy: plan.isInstantPolicy,
    is_instant_policy_text: plan.isInstantPolicy ? TEXTS.instant[lang] : TEXTS.notInstant[lang],
    is_api_plan: plan.isApiPlan ? 1 : 0,
    highlight: highlightsOf(plan),
    addon,
    benefits: plan.features
      .filter((feature) => feature.kind === 'benefit')
      .map((feature) => ({
        label: feature.labelEn,
        label_ar: feature.labelAr,
        value_to_display: feature.valueEn,
        value_to_display_ar: feature.valueAr,
      })),
  };
}
