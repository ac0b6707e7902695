import { Box } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { selectPayment, selectPaymentResultView, type PaymentResultView } from '../../../../machines/payment-result/payment-result.selectors';
import { PageHeading } from '../page-heading';
import { FailedView, NotFoundView, PaidView, ReadFailedView, UnconfirmedView, WaitingView } from './result-views';
import { usePaymentResultStep } from './use-payment-result-step';

/**
 * /payment-result: where the gateway's return sends the browser (RULINGS 20), with the lead and
 * the attempt in the address. The outcome is read from the server (payment-status), never from
 * the address: the policy, the failure with "Try again", or the wait for the bank's answer.
 */
export function PaymentResultScreen() {
  const { t } = useLingui();
  const { step, lang } = usePaymentResultStep({ withReference: true });
  const view = useSelector(step, selectPaymentResultView);
  const payment = useSelector(step, selectPayment);

  const titles: Record<PaymentResultView, string> = {
    loading: t`Checking your payment`,
    pending: t`Checking your payment`,
    done: t`Checking your payment`,
    paid: t`Your policy is ready`,
    failed: t`Your payment did not go through`,
    unconfirmed: t`We are still waiting for your bank`,
    notFound: t`We could not find this payment`,
    error: t`Payment result`,
  };
  const intro = view === 'paid' ? t`Thank you. Your payment was successful and your travel insurance policy has been issued.` : undefined;

  let body;
  if (view === 'paid' && payment) body = <PaidView step={step} payment={payment} lang={lang} />;
  else if (view === 'failed' && payment) body = <FailedView step={step} payment={payment} lang={lang} />;
  else if (view === 'unconfirmed') body = <UnconfirmedView step={step} />;
  else if (view === 'notFound') body = <NotFoundView step={step} />;
  else if (view === 'error') body = <ReadFailedView step={step} />;
  else body = <WaitingView waiting={view === 'pending'} />;

  // The money of a refunded payment was taken: it did go through, it bought no policy.
  const title = view === 'failed' && payment?.reason === 'refund' ? t`No policy was issued for this payment` : titles[view];
  return (
    <Box maw={720}>
      <PageHeading testId="screen-payment-result" title={title} intro={intro} />
      {body}
    </Box>
  );
}
