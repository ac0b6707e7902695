import { Box, Button, Stack } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { JourneyActorContext } from '../../journey/journey-context';
import { PageHeading } from '../page-heading';
import { CallBackSteps } from '../request-call-back/call-back-steps';
import { ContactOptions } from '../thank-you/contact-options';

/** /call-back (spec §2): the call-back request is stored; the short wizard's second step. */
export function CallBackScreen() {
  const { t } = useLingui();
  const journey = JourneyActorContext.useActorRef();
  return (
    <Box maw={720}>
      <CallBackSteps step={2} />
      <PageHeading testId="screen-call-back" title={t`Thank you for your call-back request`} intro={t`Our team will call you back shortly.`} />
      <Stack gap="lg" align="flex-start">
        <ContactOptions intro={t`Need a quote sooner? Call our manual quote line toll-free, or message us on WhatsApp.`} />
        <Button variant="subtle" onClick={() => journey.send({ type: 'journey.reset' })}>
          {t`Back to travel details`}
        </Button>
      </Stack>
    </Box>
  );
}
