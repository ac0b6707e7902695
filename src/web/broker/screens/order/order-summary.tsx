import { useLingui } from '@lingui/react/macro';
import { DataList } from '@mantine/core';
import type { OrderDetail } from '../../../../contract/broker-console';
import { StatusBadge } from '../../components/status-badge';
import { formatDateTime, formatMoney } from '../../i18n/console-format';
import { labelOf, ORDER_REASON_LABELS, ORDER_STATUS_LABELS } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';

/** The order's own facts: status, amount, coupon, dates and the gateway's id. */
export function OrderSummary({ order }: { order: OrderDetail['order'] }) {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  const rows: [string, React.ReactNode][] = [
    [t`Status`, <StatusBadge key="status" status={order.status} labels={ORDER_STATUS_LABELS} />],
    [t`Amount`, formatMoney(order.amount_cents)],
    [t`Coupon`, order.coupon ?? '—'],
    [t`Created`, formatDateTime(order.created, lang)],
    [t`Paid`, formatDateTime(order.paid_at, lang)],
    [t`Reason`, labelOf(i18n, ORDER_REASON_LABELS, order.reason)],
    [t`Gateway ID`, <span key="fort" className="console-ltr">{order.fort_id ?? '—'}</span>],
    [t`Customer's language`, order.lang === 'ar' ? 'العربية' : 'English'],
  ];
  return (
    <DataList orientation="horizontal" labelWidth={160} data-testid="order-summary">
      {rows.map(([label, value]) => (
        <DataList.Item key={label}>
          <DataList.ItemLabel>{label}</DataList.ItemLabel>
          <DataList.ItemValue>{value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList>
  );
}
