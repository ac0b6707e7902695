import { ActionIcon, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import { formatMoney } from '../../i18n/format';
import { namedByPlan } from './named-by-plan';

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
            aria-label={breakdownLabel ?? t`Premium per traveller`}
            {...(planNameId ? namedByPlan(`${planNameId}-breakdown`, planNameId) : {})}
          >
            <IconInfoCircle size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
