import { useLingui } from '@lingui/react/macro';
import { Anchor, Stack } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ORDER_PAGE_SIZES, ORDER_SORTS, type OrderListItem, type OrderPage } from '../../../../contract/broker-console';
import { segment, withQuery } from '../../services/console-api';
import { useConsoleData } from '../../services/use-console-data';
import { LoadError } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { StatusBadge } from '../../components/status-badge';
import { formatDateTime, formatMoney, formatNumber } from '../../i18n/console-format';
import { labelOf, ORDER_REASON_LABELS, ORDER_STATUS_LABELS } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';
import { OrderFilters, type OrderFilterValues } from './order-filters';
import { ConsoleTable } from '../../components/console-table';

const DEFAULT_PAGE_SIZE = 25;

/** A whole number from the query within [1, max], else `fallback`. */
function whole(value: string | null, fallback: number): number {
  const number = Number(value);
  return Number.isInteger(number) && number >= 1 ? number : fallback;
}

/**
 * The orders, a page at a time from the server (GET /orders?page&page_size&sort&status&search&
 * from&to). The filters, page and order live in the address, so going back from an order
 * returns to the same page, and a search is a link one can share.
 */
export function OrdersScreen() {
  const { t, i18n } = useLingui();
  const { lang } = useLanguage();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const filters: OrderFilterValues = { search: params.get('search') ?? '', status: params.get('status') ?? '', from: params.get('from') ?? '', to: params.get('to') ?? '' };
  const page = whole(params.get('page'), 1);
  const requestedSize = whole(params.get('page_size'), DEFAULT_PAGE_SIZE);
  const pageSize = (ORDER_PAGE_SIZES as readonly number[]).includes(requestedSize) ? requestedSize : DEFAULT_PAGE_SIZE;
  const sort = params.get('sort') === 'oldest' ? 'oldest' : ORDER_SORTS[0];
  const result = useConsoleData<OrderPage>(withQuery('/orders', { page, page_size: pageSize, sort, ...filters }));

  /** Changes the address's query: empty values are dropped, and any filter change starts at page 1. */
  const update = (change: Record<string, string | number>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(change)) {
      if (value === '' || value === null) next.delete(key);
      else next.set(key, String(value));
    }
    if (!('page' in change)) next.delete('page');
    setParams(next, { replace: !('page' in change) });
  };

  return (
    <Stack>
      <PageTitle>{t`Orders`}</PageTitle>
      <OrderFilters values={filters} onChange={update} />
      {result.error && <LoadError error={result.error} onRetry={result.reload} />}
      <ConsoleTable<OrderListItem>
        highlightOnHover
        records={result.data?.items ?? []}
        fetching={result.loading}
        idAccessor="merchant_reference"
        noRecordsText={t`No orders match.`}
        loadingText={t`Loading`}
        totalRecords={result.data?.total ?? 0}
        recordsPerPage={pageSize}
        page={page}
        onPageChange={(next) => update({ page: next })}
        recordsPerPageOptions={[...ORDER_PAGE_SIZES]}
        onRecordsPerPageChange={(size) => update({ page_size: size })}
        recordsPerPageLabel={t`Orders per page`}
        paginationText={({ from, to, totalRecords }) => t`${formatNumber(from, lang)}–${formatNumber(to, lang)} of ${formatNumber(totalRecords, lang)}`}
        getPaginationControlProps={(control) => ({
          'aria-label': { first: t`First page`, last: t`Last page`, previous: t`Previous page`, next: t`Next page` }[control],
        })}
        getPaginationItemProps={(number) => ({ 'aria-label': t`Page ${number}` })}
        sortStatus={{ columnAccessor: 'created', direction: sort === 'oldest' ? 'asc' : 'desc' }}
        onSortStatusChange={(status) => update({ sort: status.direction === 'asc' ? 'oldest' : 'newest' })}
        onRowClick={({ record, event }) => {
          // The reference is a link of its own; a click elsewhere on the row opens the order too.
          if ((event.target as HTMLElement).closest('a')) return;
          void navigate(`/orders/${segment(record.merchant_reference)}`);
        }}
        data-testid="orders-table"
        columns={[
          {
            accessor: 'merchant_reference',
            title: t`Reference`,
            noWrap: true,
            render: (order) => (
              <Anchor component={Link} to={`/orders/${segment(order.merchant_reference)}`} className="console-ltr" data-testid={`order-link-${order.merchant_reference}`}>
                {order.merchant_reference}
              </Anchor>
            ),
          },
          { accessor: 'created', title: t`Created`, sortable: true, render: (order) => formatDateTime(order.created, lang), noWrap: true },
          { accessor: 'status', title: t`Status`, render: (order) => <StatusBadge status={order.status} labels={ORDER_STATUS_LABELS} />, noWrap: true },
          { accessor: 'amount_cents', title: t`Amount`, render: (order) => formatMoney(order.amount_cents), noWrap: true },
          { accessor: 'coupon', title: t`Coupon`, render: (order) => order.coupon ?? '—' },
          { accessor: 'policy_number', title: t`Policy`, render: (order) => <span className="console-ltr">{order.policy_number ?? '—'}</span>, noWrap: true },
          { accessor: 'mailed', title: t`Certificate e-mailed`, render: (order) => (order.mailed === null ? '—' : order.mailed ? t`Yes` : t`No`) },
          { accessor: 'reason', title: t`Reason`, render: (order) => labelOf(i18n, ORDER_REASON_LABELS, order.reason) },
        ]}
      />
    </Stack>
  );
}
