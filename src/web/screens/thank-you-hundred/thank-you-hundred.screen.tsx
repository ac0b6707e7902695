import { Alert, Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { selectCanRefresh, selectPayment, selectPaymentResultView } from '../../../../machines/payment-result/payment-result.selectors';
import { JourneyActorContext } from '../../journey/journey-context';
import { PageHeading } from '../page-heading';
import { PolicyCard } from '../payment-result/policy-card';
import { usePaymentResultStep } from '../payment-result/use-payment-result-step';
import { ContactOptions } from '../thank-you/contact-options';

/**
 * /thank-you-p (spec §2): the order was fully discounted, so nothing was paid online and the
 * policy was issued at once. The page confirms only what payment-status (the signed read) says
 * of this uuid's order: the policy number and certificate link for a paid order; otherwise (no
 * lead in the address, an unknown uuid, an order not paid) it says no order was found and offers
 * a new quote or a call (issue 17 item 4). A read that failed offers to look again.
 */
export function ThankYouHundredScreen() {
  const { t } = useLingui();
  const journey = JourneyActorContext.useActorRef();
  const { step, lang } = usePaymentResultStep({ withReference: false });
  const view = useSelector(step, selectPaymentResultView);
  const payment = useSelector(step, selectPayment);
  const canRefresh = useSelector(step, selectCanRefresh);
  const policy = view === 'paid' ? (payment?.policy ?? null) : null;
  const waiting = view === 'loading' || view === 'pending';
  const newQuote = (
    <Button variant={policy ? 'subtle' : 'filled'} onClick={() => journey.send({ type: 'journey.reset' })} style={{ alignSelf: 'flex-start' }}>
      {t`Start a new quote`}
    </Button>
  );

  if (waiting) {
    return (
      <Box maw={720}>
        <PageHeading testId="screen-thank-you-hundred" title={t`Your order`} />
        <div role="status" data-testid="hundred-policy">
          <Group gap="sm">
            <Loader size="sm" aria-hidden="true" />
            <Text c="dimmed">{t`Loading your policy…`}</Text>
          </Group>
        </div>
      </Box>
    );
  }

  if (policy) {
    return (
      <Box maw={720}>
        <PageHeading testId="screen-thank-you-hundred" title={t`Thank you for your order`} intro={t`Your policy has been issued and e-mailed to you.`} />
        <Stack gap="lg" align="stretch">
          {payment?.amount === 0 && (
            <Alert color="green" icon={<IconCircleCheck aria-hidden="true" />} data-testid="order-confirmed">
              {t`Your coupon covered the full amount, so there was nothing to pay.`}
            </Alert>
          )}
          <div role="status" data-testid="hundred-policy">
            <PolicyCard policy={policy} amount={null} lang={lang} />
          </div>
          <ContactOptions intro={t`Questions about your policy? Call us toll-free, or message us on WhatsApp.`} />
          {newQuote}
        </Stack>
      </Box>
    );
  }

  // The read failed (network, server): nothing is known about the order yet.
  if (view === 'error') {
    return (
      <Box maw={720}>
        <PageHeading testId="screen-thank-you-hundred" title={t`We could not check your order`} />
        <Stack gap="lg" align="stretch">
          <Alert color="yellow" icon={<IconAlertCircle aria-hidden="true" />} role="status" data-testid="hundred-check-failed">
            {t`Your order could not be checked just now. Please try again in a moment.`}
          </Alert>
          {canRefresh && (
            <Button variant="light" onClick={() => step.send({ type: 'result.refresh' })} style={{ alignSelf: 'flex-start' }}>
              {t`Check again`}
            </Button>
          )}
          <ContactOptions intro={t`Need help with your order? Call us toll-free, or message us on WhatsApp.`} />
          {newQuote}
        </Stack>
      </Box>
    );
  }

  return (
    <Box maw={720}>
      <PageHeading testId="screen-thank-you-hundred" title={t`No order found`} />
      <Stack gap="lg" align="stretch">
        <Alert color="gray" icon={<IconAlertCircle aria-hidden="true" />} role="status" data-testid="hundred-no-order">
          {t`We found no completed order for this link, so no policy has been issued. Start a new quote, or contact us if you think this is a mistake.`}
        </Alert>
        {newQuote}
        <ContactOptions intro={t`Questions about an order? Call us toll-free, or message us on WhatsApp.`} />
      </Stack>
    </Box>
  );
}
