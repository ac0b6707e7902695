import { Center, Loader, Stack, Text } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';

/** The "Searching" state of both quote pages (spec §2), announced to screen readers. */
export function QuotesLoading({ testId }: { testId: string }) {
  const { t } = useLingui();
  return (
    <Center py={64} role="status" data-testid={testId}>
      <Stack align="center" gap="sm">
        <Loader aria-hidden="true" />
        <Text c="dimmed">{t`Searching for plans…`}</Text>
      </Stack>
    </Center>
  );
}
