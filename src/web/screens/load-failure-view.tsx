import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { JourneyActorContext } from '../journey/journey-context';
import { ErrorView } from '../shell/error-view';
import { ContactOptions } from './thank-you/contact-options';

/**
 * What a step shows when it could not read its lead (selectLeadNotFound): the refresh view for a
 * failure Refresh may mend (network, server), or, when no lead has the uuid in the address (a
 * stale or mistyped link), "We could not find this quote" with a new quote and the contact
 * options, since refreshing cannot help. Shared by compare-quotes, compare-offers, review and
 * checkout; each sits under the page's h1.
 */
export function LoadFailureView({ leadNotFound }: { leadNotFound: boolean }) {
  return leadNotFound ? <LeadNotFoundView /> : <ErrorView headingOrder={2} />;
}

function LeadNotFoundView() {
  const { t } = useLingui();
  return (
    <NotFoundView
      testId="lead-not-found"
      heading={t`We could not find this quote`}
      text={t`The link may be out of date or mistyped. Start a new quote; it takes under a minute. Or contact us and we will help you find it.`}
    />
  );
}

/**
 * What a page shows when its address names nothing (a quote, a policy): why, a new quote, and the
 * contact options, since refreshing cannot help. `testId` names the view and, with
 * "-new-quote", its button.
 */
export function NotFoundView({ heading, text, testId }: { heading: string; text: string; testId: string }) {
  const { t } = useLingui();
  const journey = JourneyActorContext.useActorRef();
  return (
    <Stack gap="lg" maw={640} data-testid={testId}>
      <Paper withBorder radius="lg" p="lg">
        <Stack gap="sm" align="flex-start" role="alert">
          <ThemeIcon size={48} radius="xl" color="gray" variant="light">
            <IconSearch size={26} aria-hidden="true" />
          </ThemeIcon>
          <Title order={2} fz={22}>
            {heading}
          </Title>
          <Text>{text}</Text>
        </Stack>
        <Button mt="md" onClick={() => journey.send({ type: 'journey.reset' })} data-testid={`${testId}-new-quote`}>
          {t`Start a new quote`}
        </Button>
      </Paper>
      <ContactOptions intro={t`Call us toll-free, or message us on WhatsApp.`} />
    </Stack>
  );
}
