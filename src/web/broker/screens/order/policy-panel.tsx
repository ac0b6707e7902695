import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, DataList, Group, Paper, Stack, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import type { OrderDetail } from '../../../../contract/broker-console';
import { postJson, segment } from '../../services/console-api';
import type { ConsoleAction } from '../../components/use-action';
import { formatDateTime } from '../../i18n/console-format';
import { useLanguage } from '../../i18n/language-provider';
import { CancelPolicyModal } from './cancel-policy-modal';
import { ToneBadge } from '../../components/tone-badge';

type Policy = NonNullable<OrderDetail['policy']>;

/**
 * The order's policy: its number, certificate (opened in a new tab), when it was e-mailed or
 * cancelled, and its actions: resend the certificate (POST /orders/:ref/resend) and, for admins,
 * cancel it (with the reason of the customer's open request, when there is one, chosen first).
 */
export function PolicyPanel({
  reference,
  policy,
  admin,
  action,
  onDone,
  requestedReason = null,
}: {
  reference: string;
  policy: Policy;
  admin: boolean;
  action: ConsoleAction;
  onDone: () => void;
  /** The reason of the customer's open cancellation request; null when there is none. */
  requestedReason?: string | null;
}) {
  const { t } = useLingui();
  const { lang } = useLanguage();
  const [cancelling, setCancelling] = useState(false);
  const number = policy.number;

  const resend = async () => {
    const answer = await action.run(() => postJson(`/orders/${segment(reference)}/resend`, {}), t`The certificate of policy ${number} is sent again.`);
    if (answer !== undefined) onDone();
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            <Trans>Policy</Trans> <span className="console-ltr">{policy.number}</span>
          </Title>
          {policy.cancelled ? (
            <ToneBadge color="red">
              <Trans>Cancelled</Trans>
            </ToneBadge>
          ) : (
            <ToneBadge color="cedar">
              <Trans>In force</Trans>
            </ToneBadge>
          )}
        </Group>
        <DataList orientation="horizontal" labelWidth={140}>
          <DataList.Item>
            <DataList.ItemLabel>{t`Issued`}</DataList.ItemLabel>
            <DataList.ItemValue>{formatDateTime(policy.issued, lang)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t`E-mailed`}</DataList.ItemLabel>
            <DataList.ItemValue>{policy.mailed ? formatDateTime(policy.mailed, lang) : t`Not yet`}</DataList.ItemValue>
          </DataList.Item>
          {policy.cancelled && (
            <DataList.Item>
              <DataList.ItemLabel>{t`Cancelled`}</DataList.ItemLabel>
              <DataList.ItemValue>{formatDateTime(policy.cancelled, lang)}</DataList.ItemValue>
            </DataList.Item>
          )}
          <DataList.Item>
            <DataList.ItemLabel>{t`Certificate`}</DataList.ItemLabel>
            <DataList.ItemValue>
              <Anchor href={policy.certificate_path} target="_blank" rel="noopener" className="console-ltr" data-testid="certificate-link">
                {policy.number}
                <IconExternalLink size={16} role="img" aria-label={t`(PDF, opens in a new tab)`} style={{ marginInlineStart: 4, verticalAlign: 'text-bottom' }} />
              </Anchor>
            </DataList.ItemValue>
          </DataList.Item>
        </DataList>
        <Group gap="sm">
          <Button variant="light" onClick={() => void resend()} loading={action.busy} disabled={action.busy} data-testid="resend-certificate">
            <Trans>Resend certificate</Trans>
          </Button>
          {admin && !policy.cancelled && (
            <Button variant="light" color="red" onClick={() => setCancelling(true)} disabled={action.busy} data-testid="cancel-policy">
              <Trans>Cancel policy</Trans>
            </Button>
          )}
        </Group>
      </Stack>
      {admin && !policy.cancelled && (
        // Made again when the customer's request arrives, so its reason is the one first chosen.
        <CancelPolicyModal key={requestedReason ?? ''} policyNumber={policy.number} initialReason={requestedReason} opened={cancelling} onClose={() => setCancelling(false)} action={action} onDone={onDone} />
      )}
    </Paper>
  );
}
