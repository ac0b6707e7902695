import { Trans, useLingui } from '@lingui/react/macro';
import { Stack, Table, Text, Title } from '@mantine/core';
import type { Funnel } from '../../../../contract/broker-console';
import { formatDay, formatNumber, formatPercent } from '../../i18n/console-format';
import { FUNNEL_STAGE_LABELS, labelOf } from '../../i18n/console-labels';
import { useLanguage } from '../../i18n/language-provider';
import { ScrollTable } from '../../components/scroll-table';

/** The funnel's stages: how many, and what share of the stage before and of the leads (the bar draws the latter). */
export function FunnelTable({ funnel }: { funnel: Funnel }) {
  const { i18n } = useLingui();
  const { lang } = useLanguage();
  const from = formatDay(funnel.from, lang);
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        <Trans>Funnel</Trans>
      </Title>
      <Text size="sm" c="dimmed">
        <Trans>Leads saved since {from}, and how far they went.</Trans>
      </Text>
      <ScrollTable minWidth={480}>
        <Table striped withTableBorder data-testid="funnel-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">
                <Trans>Stage</Trans>
              </Table.Th>
              <Table.Th scope="col" ta="end">
                <Trans>Count</Trans>
              </Table.Th>
              <Table.Th scope="col" ta="end">
                <Trans>Of previous stage</Trans>
              </Table.Th>
              <Table.Th scope="col" ta="end">
                <Trans>Of leads</Trans>
              </Table.Th>
              <Table.Th scope="col" w="30%">
                <Trans>Share of leads</Trans>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {funnel.stages.map((stage) => (
              <Table.Tr key={stage.stage} data-stage={stage.stage}>
                <Table.Th scope="row" fw={500}>
                  {labelOf(i18n, FUNNEL_STAGE_LABELS, stage.stage)}
                </Table.Th>
                <Table.Td ta="end">{formatNumber(stage.count, lang)}</Table.Td>
                <Table.Td ta="end">{formatPercent(stage.of_previous_pct, lang)}</Table.Td>
                <Table.Td ta="end">{formatPercent(stage.of_leads_pct, lang)}</Table.Td>
                <Table.Td>
                  <div className="console-bar" aria-hidden="true" style={{ inlineSize: `${Math.min(100, stage.stage === 'leads' && stage.count > 0 ? 100 : (stage.of_leads_pct ?? 0))}%` }} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </Stack>
  );
}
