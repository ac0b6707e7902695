import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { CANCEL_REASONS } from '../../../../contract/broker-console';
import { postJson, segment } from '../../services/console-api';
import type { ConsoleAction } from '../../components/use-action';
import { CANCEL_REASON_LABELS, labelOf } from '../../i18n/console-labels';
import { ConsoleModal } from '../../components/console-dialog';

/**
 * Cancels a policy (admin, POST /policies/:number/cancel) with a reason and an optional note;
 * after the trip's start the server asks for a note and refuses without one, in its own words.
 * `initialReason` is the customer's, when they asked to cancel.
 */
export function CancelPolicyModal({
  policyNumber,
  initialReason = null,
  opened,
  onClose,
  action,
  onDone,
}: {
  policyNumber: string;
  initialReason?: string | null;
  opened: boolean;
  onClose: () => void;
  action: ConsoleAction;
  onDone: () => void;
}) {
  const { t, i18n } = useLingui();
  const [reason, setReason] = useState<string>(initialReason && (CANCEL_REASONS as readonly string[]).includes(initialReason) ? initialReason : CANCEL_REASONS[0]);
  const [note, setNote] = useState('');

  const cancel = async () => {
    const body = note.trim() ? { reason, note: note.trim() } : { reason };
    const answer = await action.run(() => postJson(`/policies/${segment(policyNumber)}/cancel`, body), t`Policy ${policyNumber} is cancelled.`);
    onClose();
    if (answer !== undefined) onDone();
  };

  return (
    <ConsoleModal opened={opened} onClose={action.busy ? () => undefined : onClose} title={t`Cancel policy ${policyNumber}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void cancel();
        }}
      >
        <Stack>
          <Text size="sm">
            <Trans>The customer is e-mailed that the policy is cancelled. Any refund due is listed under Refunds.</Trans>
          </Text>
          <Select
            label={t`Reason`}
            value={reason}
            onChange={(value) => value && setReason(value)}
            allowDeselect={false}
            data={CANCEL_REASONS.map((value) => ({ value, label: labelOf(i18n, CANCEL_REASON_LABELS, value) }))}
            comboboxProps={{ withinPortal: true }}
            data-testid="cancel-reason"
          />
          <Textarea label={t`Note`} description={t`Required once the trip has started.`} value={note} onChange={(event) => setNote(event.currentTarget.value)} maxLength={500} autosize minRows={2} data-testid="cancel-note" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={action.busy}>
              <Trans>Keep the policy</Trans>
            </Button>
            <Button type="submit" color="red" loading={action.busy} disabled={action.busy} data-testid="cancel-confirm">
              <Trans>Cancel the policy</Trans>
            </Button>
          </Group>
        </Stack>
      </form>
    </ConsoleModal>
  );
}
