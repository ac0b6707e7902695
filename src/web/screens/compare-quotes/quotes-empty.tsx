import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPhoneCall, IconSearchOff } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';

/** No plan could be quoted online: the insurers need more information; a call back is offered (RULINGS 13). */
export function QuotesEmpty({ onCallBack }: { onCallBack: () => void }) {
  const { t } = useLingui();
  return (
    <Center py={48} data-testid="quotes-empty">
      <Stack align="center" gap="md" maw={520} ta="center">
        <ThemeIcon size={64} radius="xl" variant="light">
          <IconSearchOff size={34} aria-hidden="true" />
        </ThemeIcon>
        <Title order={2} fz={24}>
          {t`No Quotes Found !!`}
        </Title>
        <Text c="dimmed">
          {t`Your requirements need more information from our insurers before they can quote. Our team can call you back with a quote.`}
        </Text>
        <Button leftSection={<IconPhoneCall size={18} aria-hidden="true" />} onClick={onCallBack} data-testid="request-call-back">
          {t`Request a call back`}
        </Button>
      </Stack>
    </Center>
  );
}
