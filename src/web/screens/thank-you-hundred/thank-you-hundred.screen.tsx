import { Alert, Box, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { selectPayment, selectPaymentResultView } from '../../../../machines/payment-result.selectors';
import { JourneyActorContext } from '../../journey/journey-context';
import { PageHeading } from '../page-heading';
import { PolicyCard } from '../payment-result/policy-card';
import { usePaymentResultStep } from '../payment-result/use-payment-result-step';
import { ContactOptions } from '../thank-you/contact-options';

/**
 * /thank-you-p (spec §2): the order was fully discounted, so nothing was paid online and the
 * policy was issued at once. Its number and certificate link are read with payment-status (the
 * lead's paid order); if that read fails the page still thanks the customer, and says the policy
 * comes by e-mail. A new quote starts from travel details.
 */
export function ThankYouHundredScreen() {
  const { t } = useLingui();
  const journey = JourneyActorContext.useActorRef();
  const { step, lang } = usePaymentResultStep({ withReference: false });
  const view = useSelector(step, selectPaymentResultView);
  const policy = useSelector(step, selectPayment)?.policy ?? null;
  const waiting = view === 'loading' || view === 'pending';
  return (
    <Box maw={720}>
      <PageHeading testId="screen-thank-you-hundred" title={t`Thank you for your order`} intro={t`Your policy has been issued and sent to your e-mail.`} />
      <Stack gap="lg" align="stretch">
        <Alert color="green" icon={<IconCircleCheck aria-hidden="true" />} data-testid="order-confirmed">
          {t`Your coupon covered the full amount, so there is nothing to pay. We will e-mail your policy and arrange its delivery.`}
        </Alert>
        <div role="status" data-testid="hundred-policy">
          {policy && view === 'paid' ? (
            <PolicyCard policy={policy} amount={null} lang={lang} />
          ) : waiting ? (
            <Group gap="sm">
              <Loader size="sm" aria-hidden="true" />
              <Text c="dimmed">{t`Loading your policy…`}</Text>
            </Group>
          ) : (
            <Text c="dimmed" data-testid="hundred-policy-missing">
              {t`Your policy number and certificate could not be shown here just now. You will find them in the e-mail we sent you.`}
            </Text>
          )}
        </div>
        <ContactOptions intro={t`Questions about your policy? Call us toll-free, or message us on WhatsApp.`} />
        <Button variant="subtle" onClick={() => journey.send({ type: 'journey.reset' })} style={{ alignSelf: 'flex-start' }}>
          {t`Start a new quote`}
        </Button>
      </Stack>
    </Box>
  );
}
