import { useEffect, useState } from 'react';
import { useSelector } from '@xstate/react';
import { useStepActor } from '../../journey/step-actor';
import { useLocation } from '../../journey/app-location';
import { checkoutOutcomeEvent, selectCouponFailed, selectOutcome, selectPayFailed } from '../../../../machines/checkout/checkout.selectors';
import type { CheckoutInput } from '../../../../machines/checkout/checkout.types';
import { JourneyActorContext } from '../../journey/journey-context';
import { stepLead } from '../../journey/step-lead';
import { useStepOutcome } from '../../journey/use-step-outcome';
import { useApp } from '../../shell/app-context';
import { storedCoupon, thankYouStored } from '../../storage/journey-flags';
import { checkoutLogic } from './checkout.actors';

/** The coupon an agent's checkout link carries (`coupon=`), or null. */
export function couponFromLink(search: string): string | null {
  return new URLSearchParams(search).get('coupon') || null;
}

/**
 * Runs the checkout machine for the page: input read once from the journey and storage, the
 * step's end told to the journey, and a failed call shown in the system error dialog (spec §8).
 */
export function useCheckoutStep() {
  const { lang, showSystemError } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const { search } = useLocation();
  const [input] = useState<CheckoutInput>(() => ({
    lang,
    ...stepLead(journey.getSnapshot(), '/checkout'),
    thankYou: thankYouStored(journey.getSnapshot().context.uuid),
    // An agent's link carries the coupon the agent applied (issue 17): it is applied as if typed.
    storedCoupon: couponFromLink(search) ?? storedCoupon(),
  }));
  const step = useStepActor(checkoutLogic, input);
  const outcome = useSelector(step, selectOutcome);
  const payFailed = useSelector(step, selectPayFailed);
  const couponFailed = useSelector(step, selectCouponFailed);
  useStepOutcome(outcome, checkoutOutcomeEvent);

  useEffect(() => {
    if (payFailed || couponFailed) showSystemError();
  }, [payFailed, couponFailed, showSystemError]);

  return { step, lang, isAgent: input.agentId !== null };
}
