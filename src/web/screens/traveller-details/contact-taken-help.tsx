import { Alert, Button, Text } from '@mantine/core';
import { IconPhoneCall, IconUserCheck } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';

/**
 * A returning customer whose e-mail is on file with another phone gets `email_taken` (the
 * server's rule stays: one customer per e-mail and phone). The field's message says what to
 * change; this box, under the form, offers the other way forward: a call back (issue 8 row 13).
 */
export function ContactTakenHelp({ onCallBack }: { onCallBack: () => void }) {
  const { t } = useLingui();
  return (
    <Alert
      color="yellow"
      variant="light"
      mt="lg"
      radius="lg"
      icon={<IconUserCheck aria-hidden="true" />}
      title={t`Bought from us before?`}
      // The light yellow title colour is too pale on its background to read (WCAG contrast).
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      data-testid="contact-taken-help"
    >
      <Text fz="sm" mb="sm">
        {t`We know this e-mail with another phone number. Enter the phone number you used before with it, or use another e-mail. Or leave it to us: we will call you back and sort it out.`}
      </Text>
      <Button variant="default" leftSection={<IconPhoneCall size={18} aria-hidden="true" />} onClick={onCallBack}>
        {t`Call me back`}
      </Button>
    </Alert>
  );
}
