import type { Language } from '../../contract/endpoint';
import type { Highlight, Invoice } from '../../contract/invoice.schema';
import { checkoutTotals } from './totals';
import { coverageText } from '../quoting/quote-views';

/**
 * The invoice of spec §3, computed only from what the server stored (RULINGS 11, 17). Pure:
 * the caller loads the quote, the plan and the settings; this does the arithmetic and labels.
 */

export interface QuotedAddon {
  addonId: number;
  code: string;
  cents: number;
  disabled: boolean;
}

export interface ChosenAddon {
  addonId: number;
  code: string;
  nameEn: string;
  nameAr: string;
  cents: number;
}

/**
 * The quote's add-ons named by `ids`, in the quote's order; null when an id is not an add-on of
 * this quote or is disabled for this party (the route answers 422 addons).
 */
export function chooseAddons(
  quoted: readonly QuotedAddon[],
  ids: readonly number[],
  labels: ReadonlyMap<number, { labelEn: string; labelAr: string }>,
): ChosenAddon[] | null {
  const wanted = new Set(ids);
  const usable = new Map(quoted.filter((addon) => !addon.disabled).map((addon) => [addon.addonId, addon]));
  if ([...wanted].some((id) => !usable.has(id))) return null;
  return quoted
    .filter((addon) => wanted.has(addon.addonId))
    .map((addon) => {
      const label = labels.get(addon.addonId);
      return { addonId: addon.addonId, code: addon.code, nameEn: label?.labelEn ?? addon.code, nameAr: label?.labelAr ?? addon.code, cents: addon.cents };
    });
}

export interface InvoiceTotals {
  planPriceCents: number;
  addonsCents: number;
  totalWithoutVatCents: number;
  vatPercent: number;
  vatCents: number;
  stampFeeCents: number;
  totalWithVatCents: number;
}

/**
 * Plan + add-ons, VAT and stamp fee of a chosen plan, before any coupon: the totals module's
 * answer without a coupon (checkoutTotals, the one way money is computed), in the invoice's names.
 */
export function invoiceTotals(
  providerId: number,
  planPriceCents: number,
  addons: readonly { cents: number }[],
  settings: { vat_percent: number; stamp_fee_cents: number },
): InvoiceTotals {
  const totals = checkoutTotals(
    { providerId, planCents: planPriceCents, addons, vatPercent: settings.vat_percent, stampFeeCents: settings.stamp_fee_cents },
    null,
  );
  return {
    planPriceCents: totals.plan_price,
    addonsCents: totals.addons_price,
    totalWithoutVatCents: totals.subtotal,
    vatPercent: totals.vat_percent,
    vatCents: totals.vat_amount,
    stampFeeCents: totals.stamp_fee,
    totalWithVatCents: totals.total,
  };
}

/** "SAF-2026-000042": the broker's reference of the invoice with this id. */
export function quoteRefNo(year: number, invoiceId: number): string {
  return `SAF-${year}-${String(invoiceId).padStart(6, '0')}`;
}

/**
 * Whether the premium the browser said it showed differs from the server's. The spec's client
 * sends it in cents or in whole dollars, with or without add-ons; any of those readings of the
 * server's figures counts as agreeing. Absent or unreadable values are not compared.
 */
export function premiumMismatch(selected: unknown, totals: InvoiceTotals): { selected_premium: unknown; server_cents: number } | null {
  if (selected === undefined || selected === null || selected === '') return null;
  const value = typeof selected === 'number' ? selected : typeof selected === 'string' ? Number(selected.replace(/[$,\s]/g, '')) : NaN;
  const agreeing = [totals.totalWithoutVatCents, totals.planPriceCents].flatMap((cents) => [cents, cents / 100, Math.round(cents / 100)]);
  if (Number.isFinite(value) && agreeing.some((figure) => Math.abs(figure - value) < 1e-9)) return null;
  return { selected_premium: selected, server_cents: totals.totalWithoutVatCents };
}

/** The invoice's labels in both languages (exported for the Arabic terminology check, tests/i18n/server-texts.ts). */
export const LABELS = {
  plan: { en: 'Plan premium', ar: 'قسط الخطة' },
  subtotal: { en: 'Total excluding VAT', ar: 'المجموع من دون الضريبة على القيمة المضافة' },
  vat: { en: 'VAT ({percent}%)', ar: 'الضريبة على القيمة المضافة ({percent}%)' },
  stamp: { en: 'Stamp fee', ar: 'رسم الطابع المالي' },
  total: { en: 'Total', ar: 'المجموع' },
} as const;

/** "3 travellers" / "Family, 3 travellers", in the asked language (Arabic counts its own way). */
export function coverFor(lang: Language, travellers: number, isFamily: boolean): string {
  if (lang === 'ar') {
    const count =
      travellers === 1 ? 'مسافر واحد' : travellers === 2 ? 'مسافران' : travellers <= 10 ? `${travellers} مسافرين` : `${travellers} مسافرًا`;
    return isFamily ? `عائلة، ${count}` : count;
  }
  const count = travellers === 1 ? '1 traveller' : `${travellers} travellers`;
  return isFamily ? `Family, ${count}` : count;
}

export interface InvoiceViewInput {
  lang: Language;
  refNo: string;
  quoteId: number;
  provider: { id: number; nameEn: string; nameAr: string; image: string };
  plan: { id: number; nameEn: string; nameAr: string; coverageNameEn: string; coverageNameAr: string; isApiPlan: boolean };
  travellers: number;
  isFamily: boolean;
  addons: readonly ChosenAddon[];
  totals: InvoiceTotals;
  highlight: Highlight[];
}

/** The invoice as the contract's invoiceSchema, labelled in the asked language. */
export function invoiceView(input: InvoiceViewInput): Invoice {
  const { lang, totals } = input;
  const ar = lang === 'ar';
  const summary: Invoice['premium_summary'] = [
    { label: LABELS.plan[lang], value: totals.planPriceCents },
    ...input.addons.map((addon) => ({ label: ar ? addon.nameAr : addon.nameEn, value: addon.cents })),
    { label: LABELS.subtotal[lang], value: totals.totalWithoutVatCents },
    { label: LABELS.vat[lang].replace('{percent}', String(totals.vatPercent)), value: totals.vatCents },
    ...(totals.stampFeeCents > 0 ? [{ label: LABELS.stamp[lang], value: totals.stampFeeCents }] : []),
    { label: LABELS.total[lang], value: totals.totalWithVatCents },
  ];
  return {
    quote_ref_no: input.refNo,
    quote_id: input.quoteId,
    insurance_provider_id: input.provider.id,
    insurance_plan_id: input.plan.id,
    insurance_plan_name: ar ? input.plan.nameAr : input.plan.nameEn,
    insurance_coverage_name: ar ? coverageText(input.plan.coverageNameAr, lang) : input.plan.coverageNameEn,
    insurance_cover_for: coverFor(lang, input.travellers, input.isFamily),
    insurance_plan_price: totals.planPriceCents,
    policy_addons: input.addons.map((addon) => ({
      addon_id: addon.addonId,
      code: addon.code,
      addon_name: ar ? addon.nameAr : addon.nameEn,
      addon_price: addon.cents,
    })),
    total_price_without_vat: totals.totalWithoutVatCents,
    vat: totals.vatPercent,
    vat_amount: totals.vatCents,
    stamp_fee: totals.stampFeeCents,
    total_price_vat: totals.totalWithVatCents,
    is_api_plan: input.plan.isApiPlan ? 1 : 0,
    premium_summary: summary,
    highlight: input.highlight,
    get_provider_detail: { id: input.provider.id, name: ar ? input.provider.nameAr : input.provider.nameEn, image: input.provider.image },
  };
}
