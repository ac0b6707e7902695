import { memo, type ReactNode } from 'react';
import { Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';

/**
 * The "Searching" state of both quote pages (spec §2), announced to screen readers. With a
 * `skeleton`, the words sit where the list's heading will be and the skeleton holds the room of
 * what follows, so the quotes take the place of their outline instead of pushing the page (and
 * its footer) down when they arrive (issue 19: layout shift). Memoised, with a `skeleton` made
 * once: when the plans arrive, the screen renders once more with this still shown (its view state
 * is deferred, use-shown-view-state.ts), and at once, so that render must not redraw the outline.
 */
export const QuotesLoading = memo(function QuotesLoading({ testId, skeleton }: { testId: string; skeleton?: ReactNode }) {
  const { t } = useLingui();
  const searching = t`Searching for plans…`;
  if (skeleton) {
    return (
      <div role="status" data-testid={testId}>
        <Group gap="sm" wrap="nowrap" mih={28}>
          <Loader size="sm" aria-hidden="true" />
          <Text fw={600} c="dimmed">
            {searching}
          </Text>
        </Group>
        <div aria-hidden="true">{skeleton}</div>
      </div>
    );
  }
  return (
    <Center py={64} role="status" data-testid={testId}>
      <Stack align="center" gap="sm">
        <Loader aria-hidden="true" />
        <Text c="dimmed">{searching}</Text>
      </Stack>
    </Center>
  );
});
