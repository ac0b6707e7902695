import { useLingui } from '@lingui/react/macro';
import { Stack, Title } from '@mantine/core';
import type { OrderDetail } from '../../../../contract/broker-console';
import { canRefund, RefundAction } from '../../components/refund-action';
import { StatusBadge } from '../../components/status-badge';
import type { ConsoleAction } from '../../components/use-action';
import { formatDateTime, formatMoney } from '../../i18n/console-format';
import { labelOf, MAIL_KIND_LABELS, ORDER_REASON_LABELS, REFUND_STATUS_LABELS } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';
import { ConsoleTable } from '../../components/console-table';

type Refund = OrderDetail['refunds'][number];
type Notice = OrderDetail['notices'][number];
type Mail = OrderDetail['mails'][number];

/** The order's captures to give back, with a Refund button for admins where one can be asked for. */
export function RefundsTable({ detail, admin, action, onDone }: { detail: OrderDetail; admin: boolean; action: ConsoleAction; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const reference = detail.order.merchant_reference;
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t`Refunds`}
      </Title>
      <ConsoleTable<Refund>
        records={detail.refunds}
        idAccessor="fort_id"
        noRecordsText={t`No refunds.`}
        data-testid="order-refunds"
        columns={[
          { accessor: 'fort_id', title: t`Gateway ID`, render: (refund) => <span className="console-ltr">{refund.fort_id}</span>, noWrap: true },
          { accessor: 'reason', title: t`Reason`, render: (refund) => labelOf(i18n, ORDER_REASON_LABELS, refund.reason) },
          { accessor: 'amount_cents', title: t`Captured`, render: (refund) => formatMoney(refund.amount_cents), noWrap: true },
          { accessor: 'refund_cents', title: t`Refund asked`, render: (refund) => (refund.refund_cents === null ? '—' : formatMoney(refund.refund_cents)), noWrap: true },
          { accessor: 'status', title: t`Status`, render: (refund) => <StatusBadge status={refund.status} labels={REFUND_STATUS_LABELS} />, noWrap: true },
          { accessor: 'answer', title: t`Gateway answer`, render: (refund) => refund.answer ?? '—' },
          ...(admin
            ? [
                {
                  accessor: 'actions',
                  title: t`Actions`,
                  render: (refund: Refund) =>
                    canRefund(refund.status) ? <RefundAction reference={reference} fortId={refund.fort_id} amountCents={refund.refund_cents ?? refund.amount_cents} action={action} onDone={onDone} /> : null,
                },
              ]
            : []),
        ]}
      />
    </Stack>
  );
}

/** Every notice the gateway (or someone posing as it) sent for the order, with the verdict. */
export function NoticesTable({ notices }: { notices: Notice[] }) {
  const { t } = useLingui();
  const { lang } = useLanguage();
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t`Gateway notices`}
      </Title>
      <ConsoleTable<Notice & { key: number }>
        records={notices.map((notice, index) => ({ ...notice, key: index }))}
        idAccessor="key"
        noRecordsText={t`No notices.`}
        data-testid="order-notices"
        columns={[
          { accessor: 'received', title: t`Received`, render: (notice) => formatDateTime(notice.received, lang), noWrap: true },
          { accessor: 'source', title: t`Source` },
          { accessor: 'verdict', title: t`Verdict` },
          { accessor: 'status', title: t`Gateway status`, render: (notice) => notice.status ?? '—' },
          { accessor: 'response_code', title: t`Response code`, render: (notice) => notice.response_code ?? '—' },
          { accessor: 'fort_id', title: t`Gateway ID`, render: (notice) => <span className="console-ltr">{notice.fort_id ?? '—'}</span>, noWrap: true },
        ]}
      />
    </Stack>
  );
}

/** The e-mails written for the order's lead. */
export function MailsTable({ mails }: { mails: Mail[] }) {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t`E-mails`}
      </Title>
      <ConsoleTable<Mail & { key: number }>
        records={mails.map((mail, index) => ({ ...mail, key: index }))}
        idAccessor="key"
        noRecordsText={t`No e-mails.`}
        data-testid="order-mails"
        columns={[
          { accessor: 'at', title: t`Written`, render: (mail) => formatDateTime(mail.at, lang), noWrap: true },
          { accessor: 'kind', title: t`Kind`, render: (mail) => labelOf(i18n, MAIL_KIND_LABELS, mail.kind) },
          { accessor: 'to', title: t`To`, render: (mail) => <span className="console-ltr">{mail.to}</span> },
          { accessor: 'subject', title: t`Subject` },
        ]}
      />
    </Stack>
  );
}
