import { Trans, useLingui } from '@lingui/react/macro';
import { Code, DataList, Spoiler, Stack, Table, Title } from '@mantine/core';
import { formatDay, formatList, formatMoney } from '../../i18n/console-format';
import { useLanguage } from '../../i18n/language-provider';
import { readContract } from './contract-reading';
import { ScrollTable } from '../../components/scroll-table';

/** What was bought, frozen when the order was placed: the plan, the trip and the travellers, then the whole record as JSON. */
export function OrderContractView({ contract }: { contract: unknown }) {
  const { t } = useLingui();
  const { lang } = useLanguage();
  const reading = readContract(contract, lang);
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        <Trans>What was bought</Trans>
      </Title>
      <DataList orientation="horizontal" labelWidth={140}>
        <DataList.Item>
          <DataList.ItemLabel>{t`Insurer`}</DataList.ItemLabel>
          <DataList.ItemValue>{reading.insurer ?? '—'}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t`Plan`}</DataList.ItemLabel>
          <DataList.ItemValue>{reading.plan ?? '—'}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t`Trip`}</DataList.ItemLabel>
          <DataList.ItemValue>{reading.tripStart ? `${formatDay(reading.tripStart, lang)} – ${formatDay(reading.tripEnd, lang)}` : '—'}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t`Destinations`}</DataList.ItemLabel>
          <DataList.ItemValue>{reading.destinations.length ? formatList(reading.destinations, lang) : '—'}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{t`Total`}</DataList.ItemLabel>
          <DataList.ItemValue>{reading.totalCents === null ? '—' : formatMoney(reading.totalCents)}</DataList.ItemValue>
        </DataList.Item>
      </DataList>
      {reading.travellers.length > 0 && (
        <ScrollTable minWidth={420}>
          <Table withTableBorder striped captionSide="top">
            <Table.Caption>
              <Trans>Travellers</Trans>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t`Name`}</Table.Th>
                <Table.Th scope="col">{t`Date of birth`}</Table.Th>
                <Table.Th scope="col">{t`Passport`}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {reading.travellers.map((traveller, index) => (
                <Table.Tr key={index}>
                  <Table.Td>{traveller.name || '—'}</Table.Td>
                  <Table.Td>{formatDay(traveller.dob, lang)}</Table.Td>
                  <Table.Td className="console-ltr">{traveller.passport ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      <Title order={3} size="h5">
        <Trans>The whole record (JSON)</Trans>
      </Title>
      <Spoiler maxHeight={96} showLabel={t`Show all of it`} hideLabel={t`Show less`}>
        <Code block className="console-json console-ltr" dir="ltr" data-testid="order-contract-json">
          {JSON.stringify(contract, null, 2)}
        </Code>
      </Spoiler>
    </Stack>
  );
}
