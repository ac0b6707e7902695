import { useLingui } from '@lingui/react/macro';
import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { CANCELLATION_REQUEST_STATUSES, type CancellationRequestItem } from '../../../../contract/broker-console';
import { segment, withQuery } from '../../services/console-api';
import { useMe } from '../../services/console-session';
import { useConsoleData } from '../../services/use-console-data';
import { ChoiceSelect } from '../../components/choice-select';
import { ConsoleTable } from '../../components/console-table';
import { DataView } from '../../components/data-view';
import { DeclineRequestAction } from '../../components/decline-request-action';
import { PageTitle } from '../../components/page-title';
import { ResultAlert } from '../../components/result-alert';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { formatDateTime, formatDay } from '../../i18n/console-format';
import { CANCEL_REASON_LABELS, CANCELLATION_REQUEST_STATUS_LABELS, labelOf } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';

/** The filter's value for every status; no value in the address is the open ones. */
const ALL = 'all';

/**
 * Customers' requests to cancel a policy that has not started (GET /cancellation-requests?status=):
 * the open ones by default, or those of one status, or all (open ones first). A row's policy
 * opens its order's page, where an admin cancels the policy with its refund (which makes the
 * request done); an admin may instead decline it here, after a confirmation.
 */
export function CancellationRequestsScreen() {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  const admin = useMe().role === 'admin';
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? 'open';
  const result = useConsoleData<CancellationRequestItem[]>(withQuery('/cancellation-requests', { status }));
  const action = useAction();

  return (
    <Stack>
      <PageTitle>{t`Cancellation requests`}</PageTitle>
      <ChoiceSelect
        label={t`Status`}
        value={status}
        onChange={(value) => setParams(value === 'open' ? {} : { status: value }, { replace: true })}
        data={[...CANCELLATION_REQUEST_STATUSES.map((value) => ({ value, label: labelOf(i18n, CANCELLATION_REQUEST_STATUS_LABELS, value) })), { value: ALL, label: t`Any status` }]}
        maw={280}
        data-testid="cancellation-requests-status"
      />
      <ResultAlert result={action.result} onClose={action.clear} />
      <DataView result={result}>
        {(items) => (
          <ConsoleTable<CancellationRequestItem>
            records={items}
            fetching={result.loading}
            idAccessor="id"
            noRecordsText={t`No cancellation requests.`}
            data-testid="cancellation-requests-table"
            columns={[
              {
                accessor: 'policy_number',
                title: t`Policy`,
                noWrap: true,
                render: (item) => (
                  <Anchor component={Link} to={`/orders/${segment(item.merchant_reference)}`} className="console-ltr" aria-label={t`Open the order of policy ${item.policy_number}`} data-testid={`cancellation-request-order-${item.id}`}>
                    {item.policy_number}
                  </Anchor>
                ),
              },
              {
                accessor: 'customer_name',
                title: t`Customer`,
                render: (item) => (
                  <>
                    <Text size="sm">{item.customer_name}</Text>
                    <Text size="sm" c="dimmed" className="console-ltr">
                      {item.email}
                    </Text>
                  </>
                ),
              },
              {
                accessor: 'trip_start',
                title: t`Trip starts`,
                render: (item) => (
                  <>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatDay(item.trip_start, lang)}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {(lang === 'ar' ? item.plan.ar : item.plan.en) || '—'}
                    </Text>
                  </>
                ),
              },
              {
                accessor: 'reason',
                title: t`Reason and note`,
                cellsStyle: () => ({ minWidth: 200 }),
                render: (item) => (
                  <>
                    <Text size="sm">{labelOf(i18n, CANCEL_REASON_LABELS, item.reason)}</Text>
                    {item.note && (
                      <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                        {item.note}
                      </Text>
                    )}
                  </>
                ),
              },
              { accessor: 'created', title: t`Asked on`, render: (item) => formatDateTime(item.created, lang) },
              {
                accessor: 'status',
                title: t`Status`,
                render: (item) => (
                  <Stack gap={4} align="flex-start">
                    <StatusBadge status={item.status} labels={CANCELLATION_REQUEST_STATUS_LABELS} />
                    {item.handled_by && (
                      <Text size="sm" c="dimmed" className="console-ltr">
                        {item.handled_by}
                      </Text>
                    )}
                    {item.handled_at && (
                      <Text size="sm" c="dimmed">
                        {formatDateTime(item.handled_at, lang)}
                      </Text>
                    )}
                  </Stack>
                ),
              },
              {
                accessor: 'actions',
                title: t`Actions`,
                render: (item) => (admin && item.status === 'open' ? <DeclineRequestAction id={item.id} policyNumber={item.policy_number} action={action} onDone={result.reload} /> : null),
              },
            ]}
          />
        )}
      </DataView>
    </Stack>
  );
}
