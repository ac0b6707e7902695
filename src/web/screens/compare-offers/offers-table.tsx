import { Button, Checkbox, Stack, Table, Text } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { QuoteAddon } from '../../../contract/quote.endpoints';
import type { QuoteView } from '../../../../machines/quotes/quotes.selectors';
import { focusableWhileBusy } from '../../components/focusable-while-busy';
import { formatMoney } from '../../i18n/format';
import { namedByPlan } from '../quotes-shared/named-by-plan';
import { PremiumBreakdown } from '../quotes-shared/premium-breakdown';
import { ProviderLogo } from '../quotes-shared/provider-logo';
import { localized } from '../quotes-shared/quote-texts';
import { offersRows, type OffersRow } from './offers-rows';
import classes from './offers-table.module.css';
import { useStickyHead } from './use-sticky-head';

/** Column widths (offers-table.module.css): on phones two plans fit beside the labels at 375 px. */
const LABEL_PX = { base: 112, sm: 140 };
const PLAN_PX = { base: 112, sm: 180 };

export interface OffersTableProps {
  views: QuoteView[];
  lang: Language;
  busy: boolean;
  onProceed: (quoteId: number) => void;
  /** Ticks or unticks a plan's add-on: the plan's total follows, and Proceed sends it (spec §4). */
  onToggleAddon: (quoteId: number, addonId: number) => void;
}

/**
 * Up to 3 plans side by side: the plan heads with Proceed, highlights, then add-ons, each ticked
 * as on its card and toggled here too.
 */
export function OffersTable({ views, lang, busy, onProceed, onToggleAddon }: OffersTableProps) {
  const { t } = useLingui();
  const { scrollerRef, headRef, scrolls } = useStickyHead();
  const { top, rest, addons } = offersRows(
    views.map((view) => view.quote),
    lang,
  );
  const row = (item: OffersRow) => {
    const maxAge = item.maxAge;
    return (
      <Table.Tr key={item.key} data-testid={`offers-row-${item.kind}`}>
        <Table.Th scope="row" className={classes.label} fw={500}>
          {item.label}
          {maxAge !== null && (
            <Text component="span" fz="xs" c="dimmed" display="block">
              {t`(travellers aged ${maxAge} or under)`}
            </Text>
          )}
        </Table.Th>
        {item.cells.map((cell, index) => {
          const view = views[index]!;
          const addon = item.addons[index];
          return (
            <Table.Td key={view.quote.id}>
              {addon ? (
                <AddonCell view={view} addon={addon} label={item.label} maxAge={maxAge} lang={lang} busy={busy} onToggle={() => onToggleAddon(view.quote.id, addon.id)} />
              ) : (
                cell
              )}
            </Table.Td>
          );
        })}
      </Table.Tr>
    );
  };
  const section = (title: string, rows: OffersRow[]) =>
    rows.length > 0 && (
      <>
        <Table.Tr>
          <Table.Th scope="colgroup" colSpan={views.length + 1} bg="var(--mantine-color-gray-0)" style={{ textAlign: 'start' }}>
            <span className={classes.sectionTitle}>{title}</span>
          </Table.Th>
        </Table.Tr>
        {rows.map(row)}
      </>
    );
  return (
    // A named region (issue 38, WCAG 2.1.1 and 4.1.2): a screen reader says what it holds, and
    // where it scrolls sideways (phones) it takes the focus, so arrow keys scroll it.
    <div
      ref={scrollerRef}
      className={classes.scroller}
      role="region"
      aria-label={t`Plans side by side`}
      // A scrolling region is focusable so a keyboard can scroll it (axe scrollable-region-focusable).
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={scrolls ? 0 : undefined}
      data-testid="offers-scroll"
    >
      <Table
        className={classes.table}
        miw={{ base: LABEL_PX.base + views.length * PLAN_PX.base, sm: LABEL_PX.sm + views.length * PLAN_PX.sm }}
        verticalSpacing="sm"
        withTableBorder
        withColumnBorders
        // The plan heads stay in view while the benefits and add-ons scroll under them (issue 38).
        stickyHeader
        data-testid="offers-table"
      >
        <Table.Thead ref={headRef} className={classes.head} data-testid="offers-head">
          <Table.Tr>
            <Table.Th className={classes.label}>
              <Text fz="sm" c="dimmed">{t`Plan`}</Text>
            </Table.Th>
            {views.map(({ quote, total, buying }) => (
              <Table.Th key={quote.id} scope="col" className={classes.plan} data-testid="offers-plan">
                <Stack gap={6}>
                  <ProviderLogo image={quote.provider.image} name={localized(lang, quote.provider.name, quote.provider.name_ar)} height={32} />
                  <Text fw={700} id={`offers-plan-${quote.id}`}>
                    {quote.wizard_plan_name}
                  </Text>
                  <Text fz="xs" c="dimmed" fw={400}>
                    {quote.product_type_name}
                  </Text>
                  <PremiumBreakdown total={total} perPerson={quote.premium_per_person} lang={lang} size="md" planNameId={`offers-plan-${quote.id}`} />
                  <Button
                    size="sm"
                    px="xs"
                    fullWidth
                    onClick={() => onProceed(quote.id)}
                    loading={buying}
                    // The focus stays on the Proceed pressed while its plan is bought (issue 21); the
                    // quotes machine ignores presses meanwhile.
                    renderRoot={focusableWhileBusy(buying)}
                    disabled={busy && !buying}
                    {...namedByPlan(`offers-proceed-${quote.id}`, `offers-plan-${quote.id}`)}
                    data-testid="offers-proceed"
                  >
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
    </div>
  );
}

interface AddonCellProps {
  view: QuoteView;
  addon: QuoteAddon;
  /** The add-on's name, as its row heads it. */
  label: string;
  maxAge: number | null;
  lang: Language;
  busy: boolean;
  onToggle: () => void;
}

/**
 * A plan's add-on in the table: a checkbox showing its price, named for screen readers by the
 * add-on and the plan (the price alone says nothing out of the table); a disabled one shows why
 * instead of a price.
 */
function AddonCell({ view, addon, label, maxAge, lang, busy, onToggle }: AddonCellProps) {
  const { t } = useLingui();
  // The insurer too: two insurers may name a plan alike.
  const plan = `${localized(lang, view.quote.provider.name, view.quote.provider.name_ar)} ${view.quote.wizard_plan_name}`;
  const unavailable = addon.disabled_addon;
  // The same words as the card's add-on: a price, or why it cannot be added.
  let detail = formatMoney(addon.value, lang);
  if (unavailable) detail = maxAge === null ? t`Not available for this trip` : t`Not available: every traveller is over ${maxAge}`;
  return (
    <Checkbox
      checked={!unavailable && view.checkedAddonIds.includes(addon.id)}
      disabled={unavailable || busy}
      onChange={onToggle}
      label={detail}
      aria-label={t`${label}, ${plan}: ${detail}`}
      data-testid="offers-addon"
      data-code={addon.code}
    />
  );
}
