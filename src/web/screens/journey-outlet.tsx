import type { ComponentType } from 'react';
import type { StepId } from '../../../machines/journey.routes';
import { selectStep } from '../../../machines/journey.selectors';
import { JourneyActorContext } from '../journey/journey-context';
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

/** Renders the screen of the journey's current step: the machine, not the URL, decides. */
export function JourneyOutlet() {
  const step = JourneyActorContext.useSelector(selectStep);
  const Screen = SCREENS[step];
  return <Screen key={step} />;
}
