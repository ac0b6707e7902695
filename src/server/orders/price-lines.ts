import type { Language } from '../../contract/endpoint';
import type { OrderContract } from './order-contract.types';

/**
 * An order's receipt, line by line, from its contract (what was frozen at checkout): the plan,
 * each add-on bought, the discount (with its coupon code), VAT, the stamp fee when charged, and
 * the total. The payments page, the policy e-mail and the certificate all draw their receipt from
 * here, so they list the same lines, and the lines before the total add up to it to the cent
 * (RULINGS 26): plan + add-ons − discount + VAT + stamp fee = total (totals.ts).
 */

export type PriceLineKind = 'plan' | 'addon' | 'discount' | 'vat' | 'stamp' | 'total';

export interface PriceLine {
  kind: PriceLineKind;
  label: string;
  /** Integer cents, positive; a discount is taken off (its `kind` says so). */
  cents: number;
}

/** The receipt's labels in each language (exported for the Arabic terminology check, tests/i18n/server-texts.ts). */
export const LABELS = {
  en: {
    plan: 'Plan premium',
    discount: 'Discount',
    coupon: (code: string) => `Discount (coupon ${code})`,
    vat: (percent: number) => `VAT (${percent}%)`,
    stamp: 'Stamp fee',
    total: 'Total paid',
  },
  ar: {
    plan: 'قسط الخطة',
    discount: 'الخصم',
    coupon: (code: string) => `الخصم (رمز الخصم ${code})`,
    vat: (percent: number) => `الضريبة على القيمة المضافة (${percent}%)`,
    stamp: 'رسم الطابع المالي',
    total: 'المبلغ المدفوع',
  },
} as const;

/** The receipt of an order in `lang`; `wrapCode` isolates the coupon code in right-to-left text. */
export function priceLines(
  contract: Pick<OrderContract, 'addons' | 'price'>,
  lang: Language,
  options: { wrapCode?: (code: string) => string; totalLabel?: string } = {},
): PriceLine[] {
  const words = LABELS[lang];
  const { price } = contract;
  const code = price.couponCode ? (options.wrapCode ?? ((text: string) => text))(price.couponCode) : null;
  const addons = contract.addons.map((addon): PriceLine => ({ kind: 'addon', label: lang === 'ar' ? addon.nameAr : addon.nameEn, cents: addon.cents }));
  // The add-ons as bought are the add-on line; an older contract without them keeps its sum.
  const listed = addons.reduce((sum, line) => sum + line.cents, 0);
  const addonLines = listed === price.addonsCents ? addons : price.addonsCents > 0 ? [{ kind: 'addon' as const, label: lang === 'ar' ? 'التغطيات الإضافية' : 'Add-ons', cents: price.addonsCents }] : [];
  return [
    { kind: 'plan', label: words.plan, cents: price.planCents },
    ...addonLines,
    ...(price.discountCents > 0 ? [{ kind: 'discount' as const, label: code ? words.coupon(code) : words.discount, cents: price.discountCents }] : []),
    { kind: 'vat', label: words.vat(price.vatPercent), cents: price.vatCents },
    ...(price.stampCents > 0 ? [{ kind: 'stamp' as const, label: words.stamp, cents: price.stampCents }] : []),
    { kind: 'total', label: options.totalLabel ?? words.total, cents: price.totalCents },
  ];
}

/** The signed sum of every line before the total: equal to the total for every order. */
export function linesSum(lines: readonly PriceLine[]): number {
  return lines.filter((line) => line.kind !== 'total').reduce((sum, line) => sum + (line.kind === 'discount' ? -line.cents : line.cents), 0);
}
