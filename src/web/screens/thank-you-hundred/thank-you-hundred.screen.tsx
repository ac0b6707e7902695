import { Alert, Box, Button, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { JourneyActorContext } from '../../journey/journey-context';
import { PageHeading } from '../page-heading';
import { ContactOptions } from '../thank-you/contact-options';

/**
 * /thank-you-p (spec §2): the order was fully discounted, so nothing was paid online; the policy
 * will be issued and sent. A new quote starts from travel details.
 */
export function ThankYouHundredScreen() {
  const { t } = useLingui();
  const journey = JourneyActorContext.useActorRef();
  return (
    <Box maw={720}>
      <PageHeading testId="screen-thank-you-hundred" title={t`Thank you for your order`} intro={t`Your policy will be issued and sent to you.`} />
      <Stack gap="lg" align="flex-start">
        <Alert color="green" icon={<IconCircleCheck aria-hidden="true" />} data-testid="order-confirmed">
          {t`Your coupon covered the full amount, so there is nothing to pay. We will e-mail your policy and arrange its delivery.`}
        </Alert>
        <ContactOptions intro={t`Questions about your policy? Call us toll-free, or message us on WhatsApp.`} />
        <Button variant="subtle" onClick={() => journey.send({ type: 'journey.reset' })}>
          {t`Start a new quote`}
        </Button>
      </Stack>
    </Box>
  );
}
