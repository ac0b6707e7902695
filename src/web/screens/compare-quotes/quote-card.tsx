import { memo, useState } from 'react';
import { Anchor, Badge, Button, Checkbox, Collapse, Divider, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBolt, IconChevronDown, IconChevronUp, IconFileTypePdf, IconListDetails, IconShieldCheck } from '@tabler/icons-react';
import { Plural, useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { QuoteView } from '../../../../machines/quotes/quotes.selectors';
import { focusableWhileBusy } from '../../components/focusable-while-busy';
import { PremiumBreakdown } from '../quotes-shared/premium-breakdown';
import { namedByPlan } from '../quotes-shared/named-by-plan';
import { ProviderLogo } from '../quotes-shared/provider-logo';
import { TRIP_TYPE_LABELS, ZONE_LABELS, localized } from '../quotes-shared/quote-texts';
import { AddonCheckboxes, TARGET_SIZE_BOX } from './addon-checkboxes';
import { HighlightList } from './highlight-list';
import classes from './quote-card.module.css';

export interface QuoteCardProps {
  view: QuoteView;
  lang: Language;
  travellers: number;
  /** A buy is under way (this card's or another's). */
  busy: boolean;
  /** Two or more plans are in the compare bar, so its Compare plans button works. */
  compareReady: boolean;
  /** Each takes the card's quote id, so one function serves every card and a card can be memoised. */
  onBuy: (quoteId: number) => void;
  onToggleAddon: (quoteId: number, addonId: number) => void;
  onToggleCompare: (quoteId: number) => void;
  onOpenBenefits: (quoteId: number) => void;
  /** Moves the focus to the compare bar's Compare plans button. */
  onGoToCompare: () => void;
}

/** The id of a card's add-to-compare box: focus goes back to it when its plan leaves the tray. */
export const compareBoxId = (quoteId: number) => `quote-${quoteId}-compare`;

/**
 * Badges whose text is a sentence ("Instant policy: issued as soon as you pay") wrap onto a
 * second line on a phone instead of being cut (Mantine's badge is one clipped line; issue 8 row 13).
 */
const WRAPPING_BADGE = {
  root: { height: 'auto', minHeight: 'var(--badge-height)', maxWidth: '100%', paddingBlock: 2, lineHeight: 1.35 },
  label: { whiteSpace: 'normal', overflow: 'visible', textAlign: 'start' },
} as const;

/**
 * One plan (spec §2 quote card): logo, name and details, the benefits document, the total with
 * its per-traveller tooltip, buy now, add to compare, the section-1 highlights, add-ons, and
 * sections 2–3 behind show more. Each control is named by the plan too (named-by-plan.ts).
 */
export const QuoteCard = memo(function QuoteCard({ view, lang, travellers, busy, compareReady, onBuy, onToggleAddon, onToggleCompare, onOpenBenefits, onGoToCompare }: QuoteCardProps) {
  const { t, i18n } = useLingui();
  const [expanded, setExpanded] = useState(false);
  const { quote, total, checkedAddonIds, compared, buying } = view;
  const providerName = localized(lang, quote.provider.name, quote.provider.name_ar);
  const main = quote.highlight.filter((highlight) => highlight.section === 1);
  const more = quote.highlight.filter((highlight) => highlight.section !== 1);
  const moreId = `quote-more-${quote.id}`;
  const titleId = `quote-title-${quote.id}`;
  const named = (control: string) => namedByPlan(`quote-${quote.id}-${control}`, titleId);
  const count = travellers;

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="article" className={classes.card} data-testid="quote-card" data-quote-id={quote.id}>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm">
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
              <Stack gap={4} style={{ minWidth: 0 }}>
                <ProviderLogo image={quote.provider.image} name={providerName} />
                <Title order={3} fz="lg" id={titleId}>
                  {quote.wizard_plan_name}
                </Title>
                <Text fz="sm" c="dimmed">
                  {quote.product_type_name} · {i18n._(ZONE_LABELS[quote.zone])} · {i18n._(TRIP_TYPE_LABELS[quote.trip_type])}
                </Text>
              </Stack>
            </Group>
            <Group gap="xs">
              {quote.is_instant_policy && quote.is_instant_policy_text && (
                <Badge variant="light" color="teal" bg="teal.0" c="teal.9" styles={WRAPPING_BADGE} leftSection={<IconBolt size={14} aria-hidden="true" />} data-testid="instant-policy-badge">
                  {quote.is_instant_policy_text}
                </Badge>
              )}
              {quote.schengen_visa_compliant && (
                <Badge variant="light" color="blue" styles={WRAPPING_BADGE} leftSection={<IconShieldCheck size={14} aria-hidden="true" />}>
                  {t`Meets Schengen visa rules`}
                </Badge>
              )}
            </Group>
            <HighlightList highlights={main} lang={lang} testId="quote-highlights" />
            {more.length > 0 && (
              <>
                <Collapse expanded={expanded} id={moreId}>
                  <Stack gap={6} pt={4}>
                    <HighlightList highlights={more} lang={lang} testId="quote-more-highlights" />
                  </Stack>
                </Collapse>
                <Group gap="md">
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    px={0}
                    onClick={() => setExpanded((open) => !open)}
                    aria-expanded={expanded}
                    aria-controls={moreId}
                    {...named('more')}
                    rightSection={expanded ? <IconChevronUp size={16} aria-hidden="true" /> : <IconChevronDown size={16} aria-hidden="true" />}
                  >
                    {expanded ? t`Show less` : t`Show more`}
                  </Button>
                </Group>
              </>
            )}
            <Group gap="md">
              <Button
                variant="subtle"
                size="compact-sm"
                px={0}
                onClick={() => onOpenBenefits(quote.id)}
                leftSection={<IconListDetails size={16} aria-hidden="true" />}
                {...named('benefits')}
                data-testid="open-benefits"
              >
                {t`All benefits`}
              </Button>
              <Anchor href={quote.planDocuments.file_url} target="_blank" rel="noopener noreferrer" fz="sm" {...named('document')} data-testid="plan-document">
                <Group gap={4} wrap="nowrap" component="span">
                  <IconFileTypePdf size={16} aria-hidden="true" />
                  {t`Plan benefits (PDF)`}
                </Group>
              </Anchor>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="sm" h="100%">
            <Divider hiddenFrom="md" />
            <Stack gap={2}>
              <PremiumBreakdown total={total} perPerson={quote.premium_per_person} lang={lang} planNameId={titleId} />
              <Text fz="sm" c="dimmed">
                <Plural value={count} one={`for ${count} traveller`} other={`for ${count} travellers`} />
              </Text>
              <Text fz="xs" c="dimmed">{t`VAT excluded`}</Text>
            </Stack>
            <Button
              onClick={() => onBuy(quote.id)}
              loading={buying}
              // The focus stays on the button pressed while its plan is bought (issue 21); the quotes
              // machine ignores presses meanwhile.
              renderRoot={focusableWhileBusy(buying)}
              disabled={busy && !buying}
              fullWidth
              {...named('buy')}
              data-testid="buy-now"
            >
              {t`Buy now`}
            </Button>
            <Checkbox
              // Named by its label's words, then the plan's: a box has no text of its own to point at, so its label's has an id.
              label={<span id={`${compareBoxId(quote.id)}-label`}>{t`Add to compare`}</span>}
              aria-labelledby={`${compareBoxId(quote.id)}-label ${titleId}`}
              id={compareBoxId(quote.id)}
              checked={compared}
              onChange={() => onToggleCompare(quote.id)}
              disabled={busy}
              vars={TARGET_SIZE_BOX}
              data-testid="compare-checkbox"
            />
            {compared && compareReady && (
              // The compare bar comes after every card in the Tab order (46 to 55 stops from the
              // first card on a phone, issue 38): a compared plan offers the way there, next stop.
              <Button variant="subtle" size="compact-sm" px={0} style={{ alignSelf: 'flex-start' }} onClick={onGoToCompare} data-testid="go-to-compare">
                {t`Go to the compare bar`}
              </Button>
            )}
            <Divider label={t`Optional covers`} labelPosition="left" />
            <AddonCheckboxes
              quoteId={quote.id}
              addons={quote.addon}
              checkedIds={checkedAddonIds}
              lang={lang}
              disabled={busy}
              planNameId={titleId}
              onToggle={(addonId) => onToggleAddon(quote.id, addonId)}
            />
          </Stack>
        </Grid.Col>
      </Grid>
    </Paper>
  );
});
