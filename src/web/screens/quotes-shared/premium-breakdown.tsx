import { ActionIcon, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import { formatMoney } from '../../i18n/format';

export interface PremiumBreakdownProps {
  total: number;
  perPerson: { label: string; value: number }[];
  lang: Language;
  size?: 'lg' | 'md';
  /** The tooltip button's name; by default the per-traveller premiums. */
  breakdownLabel?: string;
  /**
   * The element showing the plan's name, where several plans show their totals: the tooltip
   * button is then named by the plan too (named-by-plan.ts), each id made from this one.
   */
  planNameId?: string;
  /** Amounts to the cent (checkout, RULINGS 26); whole dollars on quotes, compare and review. */
  cents?: boolean;
}

/**
 * The displayed total (whole dollars, or to the cent with `cents`), with its breakdown (the
 * per-traveller premiums, or an invoice's lines) in a tooltip. The tooltip hangs on a button, so
 * keyboard users reach it too (focus shows it).
 */
export function PremiumBreakdown({ total, perPerson, lang, size = 'lg', breakdownLabel, planNameId, cents = false }: PremiumBreakdownProps) {
  const { t } = useLingui();
  const amount = formatMoney(total, lang, { cents });
  const label = breakdownLabel ?? t`Premium per traveller`;
  // Where several plans show their totals, the button is named by its words, then the plan's
  // (as named-by-plan.ts does), from a text of its own. It pointed at itself and leaned on its
  // aria-label: Chromium computes that name in full, but the audit of issue 38 heard the bare
  // words, and not every browser and reader treats a self-reference alike.
  const labelId = planNameId ? `${planNameId}-breakdown-label` : undefined;
  return (
    <Group gap={4} wrap="nowrap" align="center">
      <Text fw={800} fz={size === 'lg' ? 28 : 20} lh={1.1} data-testid="quote-total">
        {amount}
      </Text>
      {perPerson.length > 0 && (
        <Tooltip
          withArrow
          events={{ hover: true, focus: true, touch: true }}
          label={
            <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
              {perPerson.map((line) => (
                <li key={line.label}>
                  {line.label}: {formatMoney(line.value, lang, { cents })}
                </li>
              ))}
            </Stack>
          }
        >
          <ActionIcon
            variant="subtle"
            size="sm"
            id={planNameId ? `${planNameId}-breakdown` : undefined}
            aria-label={labelId ? undefined : label}
            aria-labelledby={labelId ? `${labelId} ${planNameId}` : undefined}
          >
            <IconInfoCircle size={18} aria-hidden="true" />
            {labelId && <VisuallyHidden id={labelId}>{label}</VisuallyHidden>}
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
