import { useLingui } from '@lingui/react/macro';
import { Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { RefundListItem } from '../../../../contract/broker-console';
import { segment } from '../../services/console-api';
import { useConsoleData } from '../../services/use-console-data';
import { DataView } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { canRefund, RefundAction } from '../../components/refund-action';
import { ResultAlert } from '../../components/result-alert';
import { StatusBadge } from '../../components/status-badge';
import { useAction } from '../../components/use-action';
import { formatAge, formatMoney } from '../../i18n/console-format';
import { labelOf, ORDER_REASON_LABELS, REFUND_STATUS_LABELS } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';
import { ConsoleTable } from '../../components/console-table';

/** Captures to give back (admin, GET /refunds), with a Refund button where one can be asked for. */
export function RefundsScreen() {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  const result = useConsoleData<RefundListItem[]>('/refunds');
  const action = useAction();
  return (
    <Stack>
      <PageTitle>{t`Refunds`}</PageTitle>
      <ResultAlert result={action.result} onClose={action.clear} />
      <DataView result={result}>
        {(refunds) => (
          <ConsoleTable<RefundListItem>
            records={refunds}
            fetching={result.loading}
            idAccessor={(refund) => `${refund.merchant_reference}-${refund.fort_id}`}
            noRecordsText={t`No refunds.`}
            data-testid="refunds-table"
            columns={[
              {
                accessor: 'merchant_reference',
                title: t`Reference`,
                noWrap: true,
                render: (refund) => (
                  <Anchor component={Link} to={`/orders/${segment(refund.merchant_reference)}`} className="console-ltr">
                    {refund.merchant_reference}
                  </Anchor>
                ),
              },
              { accessor: 'fort_id', title: t`Gateway ID`, render: (refund) => <span className="console-ltr">{refund.fort_id}</span>, noWrap: true },
              { accessor: 'amount_cents', title: t`Amount`, render: (refund) => formatMoney(refund.refund_cents ?? refund.amount_cents), noWrap: true },
              { accessor: 'reason', title: t`Reason`, render: (refund) => labelOf(i18n, ORDER_REASON_LABELS, refund.reason) },
              { accessor: 'recorded', title: t`Age`, render: (refund) => formatAge(refund.recorded, lang), noWrap: true },
              { accessor: 'status', title: t`Status`, render: (refund) => <StatusBadge status={refund.status} labels={REFUND_STATUS_LABELS} />, noWrap: true },
              { accessor: 'answer', title: t`Gateway answer`, render: (refund) => refund.answer ?? '—' },
              {
                accessor: 'actions',
                title: t`Actions`,
                render: (refund) =>
                  canRefund(refund.status) ? (
                    <RefundAction reference={refund.merchant_reference} fortId={refund.fort_id} amountCents={refund.refund_cents ?? refund.amount_cents} action={action} onDone={result.reload} />
                  ) : null,
              },
            ]}
          />
        )}
      </DataView>
    </Stack>
  );
}
