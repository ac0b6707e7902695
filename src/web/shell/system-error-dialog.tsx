import { Button, Group, Modal, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import { useDialogFocusReturn } from './dialog-focus';
import { useDialogSize } from './dialog-size';

/**
 * "Something went wrong" with a refresh button (spec §8); 40 % wide, 90 % on phones. The header
 * is a div: Mantine's default <header> inside the dialog would be a second banner landmark.
 * Closed, it gives the focus back to the control that was in use (useDialogFocusReturn).
 */
export function SystemErrorDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const size = useDialogSize('narrow');
  useDialogFocusReturn(opened);
  return (
    <Modal.Root opened={opened} onClose={onClose} size={size} centered returnFocus={false}>
      <Modal.Overlay />
      <Modal.Content data-testid="system-error-dialog">
        <Modal.Header component="div">
          <Modal.Title fw={700}>{t`Something went wrong`}</Modal.Title>
          <Modal.CloseButton aria-label={t`Close`} />
        </Modal.Header>
        <Modal.Body>
          <Text mb="lg">{t`An error occurred while fetching data. Please click refresh to try again.`}</Text>
          <Group justify="flex-end">
            <Button leftSection={<IconRefresh size={18} aria-hidden="true" />} onClick={() => window.location.reload()}>
              {t`Refresh`}
            </Button>
          </Group>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
