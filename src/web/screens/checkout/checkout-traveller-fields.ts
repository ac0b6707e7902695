import { PROVIDER, type ReviewPlan } from '../../../contract/traveller-review.rules';

/** The facts the checkout's read-only traveller summary shows beside the name and date of birth. */
export type CheckoutTravellerField = 'passport' | 'gender' | 'relationship' | 'residence' | 'nationality';

/**
 * Which of them traveller `index` shows at checkout (spec §2 /checkout, §9): provider 7 shows
 * residence, nationality and passport; provider 3 gender, relationship (after the principal, as
 * asked at review), residence, nationality and passport; a plan not issued through the insurer's
 * API (is_api_plan 0) residence, nationality and passport; provider 1000, passport only. Other
 * insurers' plans show the name and date of birth alone. Review asks for what §5 requires
 * (reviewFieldRules); this is only what checkout reads back.
 */
export function checkoutTravellerFields(plan: ReviewPlan, index: number): CheckoutTravellerField[] {
  const ownRules = plan.providerId === PROVIDER.ownVat || plan.providerId === PROVIDER.stampFee;
  const place = ownRules || plan.isApiPlan === 0;
  const passport = place || plan.providerId === PROVIDER.passportOnly;
  const stampFee = plan.providerId === PROVIDER.stampFee;
  const fields: CheckoutTravellerField[] = [];
  if (passport) fields.push('passport');
  if (stampFee) fields.push('gender');
  if (stampFee && index > 0) fields.push('relationship');
  if (place) fields.push('residence', 'nationality');
  return fields;
}
