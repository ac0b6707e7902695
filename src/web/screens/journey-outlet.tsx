import { useState, type ComponentType } from 'react';
import type { StepId } from '../../../machines/journey.routes';
import { selectStep } from '../../../machines/journey.selectors';
import { JourneyActorContext } from '../journey/journey-context';
import { ScreenFocusContext } from './page-heading';
import { CallBackScreen } from './call-back/call-back.screen';
import { CheckoutScreen } from './checkout/checkout.screen';
import { CompareOffersScreen } from './compare-offers/compare-offers.screen';
import { CompareQuotesScreen } from './compare-quotes/compare-quotes.screen';
import { PaymentResultScreen } from './payment-result/payment-result.screen';
import { RequestCallBackScreen } from './request-call-back/request-call-back.screen';
import { ReviewDetailsScreen } from './review-details/review-details.screen';
import { ThankYouHundredScreen } from './thank-you-hundred/thank-you-hundred.screen';
import { ThankYouScreen } from './thank-you/thank-you.screen';
import { TravellerDetailsScreen } from './traveller-details/traveller-details.screen';

const SCREENS: Record<StepId, ComponentType> = {
  travellerDetails: TravellerDetailsScreen,
  compareQuotes: CompareQuotesScreen,
  compareOffers: CompareOffersScreen,
  reviewDetails: ReviewDetailsScreen,
  checkout: CheckoutScreen,
  thankYou: ThankYouScreen,
  callBack: CallBackScreen,
  thankYouHundred: ThankYouHundredScreen,
  requestCallBack: RequestCallBackScreen,
  paymentResult: PaymentResultScreen,
};

/**
 * Renders the screen of the journey's current step: the machine, not the URL, decides. After
 * a step change the new screen's heading takes focus; on the first page load focus stays at
 * the top, so Tab reaches the skip link and the header first.
 */
export function JourneyOutlet() {
  const step = JourneyActorContext.useSelector(selectStep);
  const [initialStep] = useState(step);
  const [navigated, setNavigated] = useState(false);
  // Derived during render (React's pattern for state from a changed value): once the step
  // has changed, every later screen, the first one included, takes focus when it opens.
  if (!navigated && step !== initialStep) setNavigated(true);
  const Screen = SCREENS[step];
  return (
    <ScreenFocusContext.Provider value={navigated || step !== initialStep}>
      <Screen key={step} />
    </ScreenFocusContext.Provider>
  );
}
