import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '@mantine/core';
import { useState } from 'react';
import { postJson } from '../services/console-api';
import { formatMoney } from '../i18n/console-format';
import { ConfirmModal } from './confirm-modal';
import type { ConsoleAction } from './use-action';

/** A refund can be asked for while it is due, or again once the gateway refused it. */
export const canRefund = (status: string) => status === 'due' || status === 'refused';

/**
 * The Refund button of a capture that is due or was refused: asks first ("Refund $X to the card
 * of REF?"), then POST /refunds/pay. The button and the confirmation are disabled while it
 * runs, and `action` runs one change at a time, so a double click sends once.
 */
export function RefundAction({ reference, fortId, amountCents, action, onDone }: { reference: string; fortId: string; amountCents: number; action: ConsoleAction; onDone: () => void }) {
  const { t } = useLingui();
  const [opened, setOpened] = useState(false);
  const amount = formatMoney(amountCents);
  const pay = async () => {
    const answer = await action.run(() => postJson('/refunds/pay', { merchant_reference: reference, fort_id: fortId }), t`The refund of ${amount} to the card of ${reference} is on its way.`);
    setOpened(false);
    if (answer !== undefined) onDone();
  };
  return (
    <>
      <Button size="compact-sm" variant="light" onClick={() => setOpened(true)} disabled={action.busy} aria-label={t`Refund ${amount} of ${reference}`} data-testid={`refund-${reference}-${fortId}`}>
        <Trans>Refund</Trans>
      </Button>
      <ConfirmModal
        opened={opened}
        title={t`Refund`}
        question={t`Refund ${amount} to the card of ${reference}?`}
        confirmLabel={t`Refund ${amount}`}
        busy={action.busy}
        danger
        onConfirm={() => void pay()}
        onClose={() => setOpened(false)}
      />
    </>
  );
}
