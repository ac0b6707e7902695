import { Trans, useLingui } from '@lingui/react/macro';
import { Fieldset, SegmentedControl, Stack } from '@mantine/core';
import { useState } from 'react';
import { FUNNEL_DAYS, type Funnel, type FunnelDays } from '../../../../contract/broker-console';
import { useConsoleData } from '../../services/use-console-data';
import { DataView } from '../../components/data-view';
import { PageTitle } from '../../components/page-title';
import { FunnelTable } from './funnel-table';
import { RevenueChart } from './revenue-chart';

/** The funnel of the last 1, 7 or 30 days' leads and the money paid each day (GET /today?days=N). */
export function TodayScreen() {
  const { t } = useLingui();
  const [days, setDays] = useState<FunnelDays>(7);
  const result = useConsoleData<Funnel>(`/today?days=${days}`);
  const labels: Record<FunnelDays, string> = { 1: t`1 day`, 7: t`7 days`, 30: t`30 days` };
  return (
    <Stack>
      <PageTitle>{t`Today`}</PageTitle>
      <Fieldset legend={<Trans>Period</Trans>} variant="unstyled">
        <SegmentedControl<string>
          value={String(days)}
          onChange={(value) => setDays(Number(value) as FunnelDays)}
          data={FUNNEL_DAYS.map((value) => ({ value: String(value), label: labels[value] }))}
          data-testid="today-days"
        />
      </Fieldset>
      <DataView result={result}>
        {(funnel) => (
          <Stack gap="xl">
            <FunnelTable funnel={funnel} />
            <RevenueChart funnel={funnel} />
          </Stack>
        )}
      </DataView>
    </Stack>
  );
}
