import { Trans, useLingui } from '@lingui/react/macro';
import { DataList, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { CancellationRequestItem } from '../../../../contract/broker-console';
import { DeclineRequestAction } from '../../components/decline-request-action';
import { StatusBadge } from '../../components/status-badge';
import type { ConsoleAction } from '../../components/use-action';
import { formatDateTime } from '../../i18n/console-format';
import { CANCEL_REASON_LABELS, CANCELLATION_REQUEST_STATUS_LABELS, labelOf } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';

/**
 * The customer's request to cancel this order's policy (issue 37 item 2), above the policy and its
 * Cancel button, so the broker works it here: why, the customer's note, when; while it is open an
 * admin cancels the policy below (which makes it done) or declines it; once handled, by whom and when.
 */
export function CancellationRequestPanel({ request, admin, action, onDone }: { request: CancellationRequestItem; admin: boolean; action: ConsoleAction; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  const open = request.status === 'open';
  return (
    <Paper withBorder p="md" radius="md" data-testid="cancellation-request" aria-labelledby="cancellation-request-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="cancellation-request-title">
            <Trans>The customer asks to cancel this policy</Trans>
          </Title>
          <StatusBadge status={request.status} labels={CANCELLATION_REQUEST_STATUS_LABELS} />
        </Group>
        <DataList orientation="horizontal" labelWidth={140}>
          <DataList.Item>
            <DataList.ItemLabel>{t`Reason`}</DataList.ItemLabel>
            <DataList.ItemValue>{labelOf(i18n, CANCEL_REASON_LABELS, request.reason)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t`Customer's note`}</DataList.ItemLabel>
            <DataList.ItemValue style={{ whiteSpace: 'pre-wrap' }}>{request.note || '—'}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t`Asked on`}</DataList.ItemLabel>
            <DataList.ItemValue>{formatDateTime(request.created, lang)}</DataList.ItemValue>
          </DataList.Item>
          {request.handled_by && (
            <DataList.Item>
              <DataList.ItemLabel>{t`Handled`}</DataList.ItemLabel>
              <DataList.ItemValue>
                <span className="console-ltr">{request.handled_by}</span>, {formatDateTime(request.handled_at, lang)}
              </DataList.ItemValue>
            </DataList.Item>
          )}
        </DataList>
        {open && admin && (
          <Group gap="sm" justify="space-between" wrap="wrap">
            <Text size="sm">
              <Trans>Cancel the policy below to refund it (less the cancellation fee), or decline the request to keep it.</Trans>
            </Text>
            <DeclineRequestAction id={request.id} policyNumber={request.policy_number} action={action} onDone={onDone} />
          </Group>
        )}
        {open && !admin && (
          <Text size="sm">
            <Trans>An admin cancels the policy or declines the request.</Trans>
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
