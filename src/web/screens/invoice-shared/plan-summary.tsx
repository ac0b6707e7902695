import type { ReactNode } from 'react';
import { Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconCalendar, IconMapPin, IconUsers } from '@tabler/icons-react';
import { Plural, useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { Highlight, Invoice } from '../../../contract/invoice.schema';
import type { LeadDetails } from '../../../contract/lead.endpoints';
import { formatIsoDate, formatMoney } from '../../i18n/format';
import { PremiumBreakdown } from '../quotes-shared/premium-breakdown';
import { ProviderLogo } from '../quotes-shared/provider-logo';

/** Destination text longer than this many characters gets its tooltip (spec §9: 150 at review). */
export const LONG_DESTINATION_CHARS = 150;

export interface PlanSummaryProps {
  invoice: Invoice;
  lead: LeadDetails;
  lang: Language;
  /** Highlight sections to list: 1 at review, 1–3 at checkout (spec §2). */
  sections: readonly Highlight['section'][];
  /** Whether the cover-for line shows (checkout leaves it out for provider 3). */
  showCoverFor?: boolean;
  /** Agent share buttons, at the top corner. */
  actions?: ReactNode;
  /** Amounts to the cent: at checkout, beside the price summary (RULINGS 26); whole dollars at review. */
  cents?: boolean;
  testId?: string;
}

/** Where the trip goes as the summary says it: the destinations, or "source → Lebanon". */
function placesOf(lead: LeadDetails): string {
  return lead.inbound_outbound ? lead.destination_country : `${lead.source} → ${lead.destination_country}`;
}

/**
 * The chosen plan as the server stored it (spec §2 review and checkout): reference, insurer and
 * plan, trip, highlights, add-ons and the total premium with its breakdown. Every figure comes
 * from the invoice, so a reload, a second tab or a shared link shows the same ones.
 */
export function PlanSummary({ invoice, lead, lang, sections, showCoverFor = true, actions, cents = false, testId = 'plan-summary' }: PlanSummaryProps) {
  const { t } = useLingui();
  const ar = lang === 'ar';
  const places = placesOf(lead);
  const longPlaces = places.length > LONG_DESTINATION_CHARS;
  const highlights = invoice.highlight.filter((item) => sections.includes(item.section));
  const travellers = lead.no_of_traveller;
  const coverFor = showCoverFor ? invoice.insurance_cover_for : '';
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} mb="lg" data-testid={testId}>
      <Stack gap="md">
        <Group justify="space-between" align="center" wrap="nowrap" gap="sm">
          <ProviderLogo image={invoice.get_provider_detail.image} name={invoice.get_provider_detail.name} />
          {actions}
        </Group>
        <Stack gap={4}>
          <Title order={2} fz={{ base: 'lg', sm: 'xl' }} data-testid="summary-plan-name">
            {invoice.insurance_plan_name}
          </Title>
          <Text c="dimmed" fz="sm">
            {invoice.insurance_coverage_name}
            {coverFor && ` · ${coverFor}`}
          </Text>
          <Text fz="sm" data-testid="summary-reference">
            {t`Quote reference`}{' '}
            <Text span fw={700} dir="ltr">
              {invoice.quote_ref_no}
            </Text>
          </Text>
        </Stack>

        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <Group gap={6} wrap="nowrap" align="flex-start">
            <IconCalendar size={18} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
            <Stack gap={0}>
              <Text fz="xs" c="dimmed">{t`Trip dates`}</Text>
              <Text fz="sm" fw={600} data-testid="summary-dates">
                {formatIsoDate(lead.start_date, lang)} – {formatIsoDate(lead.end_date, lang)}
              </Text>
            </Stack>
          </Group>
          <Group gap={6} wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
            <IconMapPin size={18} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text fz="xs" c="dimmed">{t`Destination`}</Text>
              <Tooltip label={places} disabled={!longPlaces} multiline maw={360} events={{ hover: true, focus: true, touch: true }}>
                <Text fz="sm" fw={600} lineClamp={longPlaces ? 2 : undefined} tabIndex={longPlaces ? 0 : undefined} data-testid="summary-destination">
                  {places}
                </Text>
              </Tooltip>
            </Stack>
          </Group>
          <Group gap={6} wrap="nowrap" align="flex-start">
            <IconUsers size={18} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
            <Stack gap={0}>
              <Text fz="xs" c="dimmed">{t`Travellers`}</Text>
              <Text fz="sm" fw={600} data-testid="summary-travellers">
                <Plural value={travellers} one={`${travellers} traveller`} other={`${travellers} travellers`} />
              </Text>
            </Stack>
          </Group>
        </SimpleGrid>

        {highlights.length > 0 && (
          <Stack gap={4} component="dl" m={0} data-testid="summary-highlights">
            {highlights.map((item) => {
              const value = (ar ? item.value_ar : item.value).trim();
              return (
                <Group key={`${item.section}-${item.key}`} justify="space-between" gap="md" wrap="nowrap">
                  <Text component="dt" fz="sm" c="dimmed">
                    {ar ? item.label_ar : item.label}
                  </Text>
                  <Text component="dd" fz="sm" fw={600} m={0} ta="end">
                    {value || '-'}
                  </Text>
                </Group>
              );
            })}
          </Stack>
        )}

        {invoice.policy_addons.length > 0 && (
          <Stack gap={4} data-testid="summary-addons">
            {/* A heading under the plan's h2, so screen readers can jump to it; it looks as it did. */}
            <Text component="h3" fz="sm" fw={700}>
              {t`Add-ons`}
            </Text>
            {invoice.policy_addons.map((addon) => (
              <Group key={addon.addon_id} justify="space-between" gap="md" wrap="nowrap">
                <Text fz="sm">{addon.addon_name}</Text>
                <Text fz="sm" fw={600}>
                  {formatMoney(addon.addon_price, lang, { signed: true, cents })}
                </Text>
              </Group>
            ))}
          </Stack>
        )}

        <Group justify="space-between" align="center" wrap="nowrap" pt="sm" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          <Stack gap={0}>
            <Text fw={700}>{t`Total premium`}</Text>
            <Text fz="xs" c="dimmed">{t`Excluding VAT`}</Text>
          </Stack>
          <PremiumBreakdown
            total={invoice.total_price_without_vat}
            perPerson={invoice.premium_summary}
            lang={lang}
            size="md"
            breakdownLabel={t`Price breakdown`}
            cents={cents}
          />
        </Group>
      </Stack>
    </Paper>
  );
}
