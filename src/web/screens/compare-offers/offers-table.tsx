import { Button, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import type { CSSProperties } from 'react';
import type { Language } from '../../../contract/endpoint';
import type { QuoteView } from '../../../../machines/quotes.selectors';
import { PremiumBreakdown } from '../quotes-shared/premium-breakdown';
import { ProviderLogo } from '../quotes-shared/provider-logo';
import { localized } from '../quotes-shared/quote-texts';
import { offersRows, type OffersRow } from './offers-rows';

/** The first column stays in view while the plans scroll sideways on phones. */
const STICKY: CSSProperties = {
  position: 'sticky',
  insetInlineStart: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
  minWidth: 140,
};

export interface OffersTableProps {
  views: QuoteView[];
  lang: Language;
  busy: boolean;
  onProceed: (quoteId: number) => void;
}

/** Up to 3 plans side by side: the plan heads with Proceed, highlights, then add-ons. */
export function OffersTable({ views, lang, busy, onProceed }: OffersTableProps) {
  const { t } = useLingui();
  const { top, rest, addons } = offersRows(
    views.map((view) => view.quote),
    lang,
  );
  const row = (item: OffersRow) => {
    const maxAge = item.maxAge;
    return (
      <Table.Tr key={item.key} data-testid={`offers-row-${item.kind}`}>
        <Table.Th scope="row" style={STICKY} fw={500}>
          {item.label}
          {maxAge !== null && (
            <Text component="span" fz="xs" c="dimmed" display="block">
              {t`(travellers aged ${maxAge} or under)`}
            </Text>
          )}
        </Table.Th>
        {item.cells.map((cell, index) => (
          <Table.Td key={views[index]!.quote.id}>{cell}</Table.Td>
        ))}
      </Table.Tr>
    );
  };
  const section = (title: string, rows: OffersRow[]) =>
    rows.length > 0 && (
      <>
        <Table.Tr>
          <Table.Th scope="colgroup" colSpan={views.length + 1} bg="var(--mantine-color-gray-0)" style={{ textAlign: 'start' }}>
            {title}
          </Table.Th>
        </Table.Tr>
        {rows.map(row)}
      </>
    );
  return (
    <ScrollArea type="auto" offsetScrollbars data-testid="offers-scroll">
      <Table miw={140 + views.length * 180} verticalSpacing="sm" withTableBorder withColumnBorders data-testid="offers-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={STICKY}>
              <Text fz="sm" c="dimmed">{t`Plan`}</Text>
            </Table.Th>
            {views.map(({ quote, total, buying }) => (
              <Table.Th key={quote.id} scope="col" miw={180} data-testid="offers-plan">
                <Stack gap={6}>
                  <ProviderLogo image={quote.provider.image} name={localized(lang, quote.provider.name, quote.provider.name_ar)} height={32} />
                  <Text fw={700}>{quote.wizard_plan_name}</Text>
                  <Text fz="xs" c="dimmed" fw={400}>
                    {quote.product_type_name}
                  </Text>
                  <PremiumBreakdown total={total} perPerson={quote.premium_per_person} lang={lang} size="md" />
                  <Button size="sm" onClick={() => onProceed(quote.id)} loading={buying} disabled={busy && !buying} data-testid="offers-proceed">
                    {t`Proceed`}
                  </Button>
                </Stack>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {section(t`Main benefits`, top)}
          {section(t`More benefits`, rest)}
          {section(t`Optional covers`, addons)}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
