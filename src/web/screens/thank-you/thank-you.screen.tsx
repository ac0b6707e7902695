import { Box, Button, Group, List, Stack, Text } from '@mantine/core';
import { IconPhoneCall } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { Link, useLocation } from '../../journey/app-location';
import { JourneyActorContext } from '../../journey/journey-context';
import { STEP_PATHS } from '../../../../machines/journey.routes';
import { PageHeading } from '../page-heading';
import { ContactOptions } from './contact-options';

/**
 * /thank-you (spec §2, RULINGS 12): no plan can quote the trip online, so the lead waits for a
 * manual quote and the team calls the number it was saved with (its call-back task is already
 * recorded). The visitor may call now, ask to be called on another number or by another name,
 * or go back to this lead's travel details to change the trip (issue 8 row 13). Issue 38: the
 * page says once that the team will call, and offers the call-back form only for another number.
 */
export function ThankYouScreen() {
  const { t } = useLingui();
  const journey = JourneyActorContext.useActorRef();
  const { search } = useLocation();
  const canRequest = JourneyActorContext.useSelector((snapshot) => snapshot.can({ type: 'callBack.requested', reason: 'no_online_quote' }));
  return (
    <Box maw={720}>
      <PageHeading
        testId="screen-thank-you"
        title={t`We need a little more information`}
        intro={t`We cannot quote your trip online, so our team will call you shortly on the number you gave us.`}
      />
      <Stack gap="lg">
        <Text>{t`Your trip needs details from our insurers that we cannot collect online, for example because of a traveller's age or the length of the trip.`}</Text>
        <List spacing="xs">
          <List.Item>{t`We have saved your details, so you do not need to enter them again.`}</List.Item>
          <List.Item>{t`Our team prepares a manual quote for you and sends it by e-mail.`}</List.Item>
        </List>
        <ContactOptions intro={t`Prefer to talk now? Call us toll-free or message us on WhatsApp.`} />
        <Text>{t`Would you rather we called another number?`}</Text>
        <Group gap="sm">
          <Button
            leftSection={<IconPhoneCall size={18} aria-hidden="true" />}
            disabled={!canRequest}
            onClick={() => journey.send({ type: 'callBack.requested', reason: 'no_online_quote' })}
            data-testid="thank-you-call-back"
          >
            {t`Call me on another number`}
          </Button>
          {/* A link with the query (uuid, sid, agent) kept: the journey's guards open this lead's
              travel details, not the leads chooser a reset would show. */}
          <Button variant="subtle" component={Link} to={{ pathname: STEP_PATHS.travellerDetails, search }} data-testid="thank-you-back">
            {t`Back to travel details`}
          </Button>
        </Group>
      </Stack>
    </Box>
  );
}
