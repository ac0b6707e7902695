import { Button, Group, Modal, Text } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import { useDialogFocusReturn } from '../../shell/dialog-focus';
import { useDialogSize } from '../../shell/dialog-size';

/**
 * The date-of-birth error (spec §8, RULINGS 8): the date given at review is not the quoted one,
 * or the plan does not cover that age. The server's message says which; "Update Details" goes
 * back to travel details to change the date and get new quotes. 40 % wide, 90 % on phones.
 * It opens with the focus on its action, not on its X (issue 38: the step the customer came for),
 * and closed, it gives the focus back to Proceed (useDialogFocusReturn).
 */
export function DobErrorDialog({ opened, message, onUpdate, onClose }: { opened: boolean; message: string; onUpdate: () => void; onClose: () => void }) {
  const { t } = useLingui();
  const size = useDialogSize('narrow');
  useDialogFocusReturn(opened);
  return (
    <Modal.Root opened={opened} onClose={onClose} size={size} centered returnFocus={false}>
      <Modal.Overlay />
      <Modal.Content data-testid="dob-error-dialog">
        <Modal.Header component="div">
          <Modal.Title fw={700}>{t`Sorry we cannot proceed with your application`}</Modal.Title>
          <Modal.CloseButton aria-label={t`Close`} />
        </Modal.Header>
        <Modal.Body>
          <Text mb="sm" data-testid="dob-error-message">
            {message}
          </Text>
          <Text mb="lg" fz="sm" c="dimmed">
            {/* Names this dialog's own button (the spec's "Travel Details" is nowhere to click here, issue 21). */}
            {t`To change the date of birth, click Update Details to go back to travel details.`}
          </Text>
          <Group justify="flex-end">
            <Button onClick={onUpdate} data-autofocus data-testid="dob-update-details">
              {t`Update Details`}
            </Button>
          </Group>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
