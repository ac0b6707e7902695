import { Plural, Trans } from '@lingui/react/macro';
import { Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { Funnel } from '../../../../contract/broker-console';
import { formatDay, formatMoney, formatNumber, formatShortDay } from '../../i18n/console-format';
import { useLanguage } from '../../i18n/language-provider';
import { ScrollTable } from '../../components/scroll-table';

const RevenueBars = lazy(() => import('./revenue-bars'));

/**
 * The money paid each day as bars, with its text alternative: a sentence with the total, and
 * the same figures as a table (in a disclosure), which is what a screen reader reads; the
 * chart itself is hidden from it.
 */
export function RevenueChart({ funnel }: { funnel: Funnel }) {
  const { lang } = useLanguage();
  const totalCents = funnel.revenue.reduce((sum, day) => sum + day.cents, 0);
  const orders = funnel.revenue.reduce((sum, day) => sum + day.paid_orders, 0);
  const total = formatMoney(totalCents);
  const dayCount = funnel.revenue.length;
  const orderCount = formatNumber(orders, lang);
  const data = funnel.revenue.map((day) => ({ day: formatShortDay(day.day, lang), dollars: day.cents / 100 }));
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        <Trans>Revenue by day</Trans>
      </Title>
      <Text data-testid="revenue-summary">
        <Trans>
          Total paid: {total} over <Plural value={dayCount} one={`${dayCount} day`} other={`${dayCount} days`} />. Paid orders: {orderCount}.
        </Trans>
      </Text>
      <Suspense fallback={<Skeleton h={240} />}>
        <RevenueBars data={data} />
      </Suspense>
      <details>
        <summary>
          <Trans>Show the figures as a table</Trans>
        </summary>
        <ScrollTable minWidth={320}>
          <Table striped withTableBorder mt="xs" data-testid="revenue-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">
                  <Trans>Day</Trans>
                </Table.Th>
                <Table.Th scope="col" ta="end">
                  <Trans>Paid orders</Trans>
                </Table.Th>
                <Table.Th scope="col" ta="end">
                  <Trans>Amount</Trans>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {funnel.revenue.map((day) => (
                <Table.Tr key={day.day}>
                  <Table.Th scope="row" fw={400}>
                    {formatDay(day.day, lang)}
                  </Table.Th>
                  <Table.Td ta="end">{formatNumber(day.paid_orders, lang)}</Table.Td>
                  <Table.Td ta="end">{formatMoney(day.cents)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      </details>
    </Stack>
  );
}
