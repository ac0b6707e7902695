import { Alert, Button, Text } from '@mantine/core';
import { IconPhoneCall, IconUserCheck } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';

/** Which of the typed contact details the server knows with other details (409 email_taken, phone_taken, or both). */
export type TakenContact = 'email' | 'phone' | 'both';

/**
 * A returning customer whose e-mail or phone is on file with other details gets `email_taken` or
 * `phone_taken` (the server's rule stays: one customer per e-mail and phone). The field's message
 * says what to change; this box, under the form, offers the other way forward: a call back, one
 * tap away, the form starting from what was typed (issue 8 row 13; the phone, issue 38). A lazy
 * chunk: most visits never show it.
 */
export function ContactTakenHelp({ taken, onCallBack }: { taken: TakenContact; onCallBack: () => void }) {
  const { t } = useLingui();
  const advice: Record<TakenContact, string> = {
    email: t`We know this e-mail with another phone number. Enter the phone number you used before with it, or use another e-mail. Or leave it to us: we will call you back and sort it out.`,
    phone: t`We know this phone number with another e-mail. Enter the e-mail you used before with it, or use another phone number. Or leave it to us: we will call you back and sort it out.`,
    both: t`We know this e-mail and this phone number, each with other details. Enter the e-mail and phone number you used together before, or leave it to us: we will call you back and sort it out.`,
  };
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
      data-taken={taken}
    >
      <Text fz="sm" mb="sm">
        {advice[taken]}
      </Text>
      <Button variant="default" leftSection={<IconPhoneCall size={18} aria-hidden="true" />} onClick={onCallBack} data-testid="contact-taken-call-back">
        {t`Call me back`}
      </Button>
    </Alert>
  );
}
