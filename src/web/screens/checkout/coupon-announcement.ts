import { useEffect } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { ActorRefFrom } from 'xstate';
import { selectCoupon, selectTotals, type CouponView } from '../../../../machines/checkout/checkout.selectors';
import type { Language } from '../../../contract/endpoint';
import { formatMoney } from '../../i18n/format';
import { useAnnounce } from '../../shell/announcer';
import type { checkoutLogic } from './checkout.actors';

/** What changed in the coupon box between two snapshots, as it is said out loud. */
export type CouponChange = { kind: 'applied'; code: string } | { kind: 'removed' } | { kind: 'refused'; message: string };

/**
 * Pure: the coupon change to announce, or null. A check that ends says whether the coupon is
 * applied or why it was refused; an applied coupon that goes without a check was removed, or
 * refused by the payment call after all (then with its reason). A check that failed for another
 * reason says nothing here: the rate-limit notice or the system error dialog says it.
 */
export function couponChange(before: CouponView, after: CouponView): CouponChange | null {
  if (after.applying) return null;
  if (before.applying) {
    if (after.applied) return { kind: 'applied', code: after.applied };
    return after.message ? { kind: 'refused', message: after.message } : null;
  }
  if (before.applied && !after.applied) return after.message ? { kind: 'refused', message: after.message } : { kind: 'removed' };
  return null;
}

/**
 * Says each coupon change out loud with the new total (WCAG 4.1.3, issue 21): applied or removed
 * politely, a refusal's reason at once.
 */
export function useCouponAnnouncements(step: ActorRefFrom<typeof checkoutLogic>, lang: Language): void {
  const { t } = useLingui();
  const announce = useAnnounce();
  useEffect(() => {
    let before = selectCoupon(step.getSnapshot());
    const subscription = step.subscribe((snapshot) => {
      const after = selectCoupon(snapshot);
      const change = couponChange(before, after);
      before = after;
      if (!change) return;
      if (change.kind === 'refused') {
        announce(change.message, { urgent: true });
        return;
      }
      const totals = selectTotals(snapshot);
      const total = totals ? formatMoney(totals.total, lang, { cents: true }) : '';
      const code = change.kind === 'applied' ? change.code : '';
      announce(change.kind === 'applied' ? t`Coupon ${code} applied. New total: ${total}` : t`Coupon removed. New total: ${total}`);
    });
    return () => subscription.unsubscribe();
  }, [step, lang, announce, t]);
}
