import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { useState } from 'react';
import { postJson, segment } from '../services/console-api';
import { ConfirmModal } from './confirm-modal';
import type { ConsoleAction } from './use-action';

/**
 * The Decline button of a customer's open request to cancel a policy (admin, as cancelling is):
 * asks first, then POST /cancellation-requests/:id/decline. The policy stays in force. The button
 * and the confirmation are disabled while it runs, and `action` runs one change at a time, so a
 * double click sends once.
 */
export function DeclineRequestAction({ id, policyNumber, action, onDone }: { id: number; policyNumber: string; action: ConsoleAction; onDone: () => void }) {
  const { t } = useLingui();
  const [opened, setOpened] = useState(false);
  // In a left-to-right isolate, so an Arabic sentence keeps the number's own order.
  const number = `\u2066${policyNumber}\u2069`;
  const decline = async () => {
    const answer = await action.run(() => postJson(`/cancellation-requests/${segment(id)}/decline`, {}), t`The request to cancel policy ${number} is declined: the policy stays in force.`);
    setOpened(false);
    if (answer !== undefined) onDone();
  };
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        color="red"
        onClick={() => setOpened(true)}
        disabled={action.busy}
        aria-label={t`Decline the request to cancel policy ${policyNumber}`}
        data-testid={`decline-request-${id}`}
      >
        <Trans>Decline</Trans>
      </Button>
      <ConfirmModal
        opened={opened}
        title={t`Decline the request`}
        question={
          <Trans>
            Decline the customer's request to cancel policy{' '}
            <span className="console-ltr" style={{ whiteSpace: 'nowrap' }}>
              {policyNumber}
            </span>
            ? The policy stays in force and nothing is refunded.
          </Trans>
        }
        confirmLabel={t`Decline the request`}
        busy={action.busy}
        danger
        onConfirm={() => void decline()}
        onClose={() => setOpened(false)}
      />
    </>
  );
}
