import { useState, type ReactNode } from 'react';
import { Group, Stack, Text, Title, Tooltip, UnstyledButton } from '@mantine/core';
import { IconCalendar, IconMapPin } from '@tabler/icons-react';
import { Plural, Trans } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { QuotedLead } from '../../../contract/quote.endpoints';
import { formatIsoDate, formatList } from '../../i18n/format';

/** Destination text longer than this (about 200 px of text, spec §2) gets its tooltip. */
const LONG_DESTINATION_CHARS = 28;

/** What heads the list: how many plans for how many travellers, where and when. */
export function QuotesSummary({ count, lead, lang, actions }: { count: number; lead: QuotedLead; lang: Language; actions?: ReactNode }) {
  const travellers = lead.no_of_traveller;
  const destinations = formatList(lead.destination_names, lang);
  const places = lead.inbound_outbound ? destinations : `${lead.source_name} → ${destinations}`;
  return (
    <Stack gap={6} mb="md" data-testid="quotes-summary">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Title order={2} fz={{ base: 'lg', sm: 'xl' }} data-testid="quotes-count">
          <Trans>
            <Plural value={count} one={`${count} plan`} other={`${count} plans`} /> for{' '}
            <Plural value={travellers} one={`${travellers} traveller`} other={`${travellers} travellers`} />
          </Trans>
        </Title>
        {actions}
      </Group>
      <Group gap="lg" c="dimmed" fz="sm" wrap="wrap">
        <Group gap={4} wrap="nowrap" style={{ minWidth: 0, maxWidth: '100%' }}>
          <IconMapPin size={16} aria-hidden="true" style={{ flexShrink: 0 }} />
          {places.length > LONG_DESTINATION_CHARS ? (
            <LongPlaces places={places} />
          ) : (
            <Text fz="sm" data-testid="quotes-destinations">
              {places}
            </Text>
          )}
        </Group>
        <Group gap={4} wrap="nowrap">
          <IconCalendar size={16} aria-hidden="true" />
          <Text fz="sm" data-testid="quotes-dates">
            {formatIsoDate(lead.start_date, lang)} – {formatIsoDate(lead.end_date, lang)}
          </Text>
        </Group>
      </Group>
    </Stack>
  );
}

/**
 * A destination list too long for its line: cut short with its tooltip (spec §2), and a button
 * that shows the whole text in place (issue 38: it was a focusable paragraph with no role, and
 * touch and keyboard users saw the whole text only in a tooltip). The button's name is the whole
 * text, which a screen reader reads either way.
 */
function LongPlaces({ places }: { places: string }) {
  const [whole, setWhole] = useState(false);
  return (
    <Tooltip label={places} disabled={whole} multiline maw={320} events={{ hover: true, focus: true, touch: false }}>
      <UnstyledButton onClick={() => setWhole((shown) => !shown)} aria-expanded={whole} maw={whole ? '100%' : 200} style={{ minWidth: 0 }} data-testid="quotes-destinations">
        <Text span fz="sm" display="block" truncate={whole ? undefined : 'end'}>
          {places}
        </Text>
      </UnstyledButton>
    </Tooltip>
  );
}
