import { Trans } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ConsoleModal } from './console-dialog';

/**
 * A yes-or-no question before a change. The confirm button is disabled (and shows a loader)
 * while the change runs, so a double click sends once.
 */
export function ConfirmModal({
  opened,
  title,
  question,
  confirmLabel,
  busy,
  danger,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  question: ReactNode;
  confirmLabel: string;
  busy: boolean;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConsoleModal opened={opened} onClose={busy ? () => undefined : onClose} title={title}>
      <Stack>
        <Text>{question}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            <Trans>Cancel</Trans>
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={busy} disabled={busy} data-testid="confirm-action">
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </ConsoleModal>
  );
}
