import { useState } from 'react';
import { useSelector } from '@xstate/react';
import { useStepActor } from '../../journey/step-actor';
import { useLocation } from '../../journey/app-location';
import { selectLead } from '../../../../machines/journey.selectors';
import { paymentResultOutcomeEvent, selectPaymentResultOutcome } from '../../../../machines/payment-result/payment-result.selectors';
import type { PaymentResultInput } from '../../../../machines/payment-result/payment-result.types';
import { JourneyActorContext } from '../../journey/journey-context';
import { useStepOutcome } from '../../journey/use-step-outcome';
import { useApp } from '../../shell/app-context';
import { paymentResultLogic } from './payment-result.actors';

/**
 * Runs the payment result machine for a page: the lead from the journey (the return address's
 * `uuid`, kept in the journey), the attempt from the address's `ref` when `withReference`
 * (/payment-result; /thank-you-p reads the lead's paid order), and the step's end told to the
 * journey.
 */
export function usePaymentResultStep({ withReference }: { withReference: boolean }) {
  const { lang } = useApp();
  const journey = JourneyActorContext.useActorRef();
  const { search } = useLocation();
  const [input] = useState<PaymentResultInput>(() => ({
    lang,
    uuid: selectLead(journey.getSnapshot()).uuid,
    reference: withReference ? new URLSearchParams(search).get('ref') || null : null,
  }));
  const step = useStepActor(paymentResultLogic, input);
  const outcome = useSelector(step, selectPaymentResultOutcome);
  useStepOutcome(outcome, paymentResultOutcomeEvent);
  return { step, lang };
}
