import { useLingui } from '@lingui/react/macro';
import { BarChart } from '@mantine/charts';

/**
 * The bars of the money paid each day. In a chunk of its own (recharts is most of the console's
 * code): the Today screen's figures show without waiting for it. Hidden from screen readers,
 * which read the summary and the table beside it.
 */
export default function RevenueBars({ data }: { data: { day: string; dollars: number }[] }) {
  const { t } = useLingui();
  return (
    <div aria-hidden="true" dir="ltr">
      <BarChart
        h={240}
        data={data}
        dataKey="day"
        series={[{ name: 'dollars', label: t`Paid ($)`, color: 'safar.6' }]}
        valueFormatter={(value) => `$${new Intl.NumberFormat('en-US').format(value)}`}
        tickLine="y"
        withTooltip={false}
        accessibilityLayer={false}
      />
    </div>
  );
}
