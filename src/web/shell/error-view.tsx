import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';

/**
 * The generic error view of spec §8, with a refresh button. Inside a screen that already has
 * its h1, `headingOrder={2}` keeps one h1 per page.
 */
export function ErrorView({ headingOrder = 1 }: { headingOrder?: 1 | 2 }) {
  const { t } = useLingui();
  return (
    <Center py={64} role="alert">
      <Stack align="center" gap="md" maw={480} ta="center">
        <ThemeIcon size={64} radius="xl" color="red" variant="light">
          <IconAlertTriangle size={36} aria-hidden="true" />
        </ThemeIcon>
        <Title order={headingOrder} fz={26}>
          {t`An error occurred`}
        </Title>
        <Text c="dimmed">
          {t`Sorry, there was an error while fetching the data. Please click the refresh button to reload.`}
        </Text>
        <Button leftSection={<IconRefresh size={18} aria-hidden="true" />} onClick={() => window.location.reload()}>
          {t`Refresh`}
        </Button>
      </Stack>
    </Center>
  );
}
