import { Checkbox, Stack, type CheckboxProps } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { QuoteAddon } from '../../../contract/quote.endpoints';
import { formatMoney } from '../../i18n/format';
import { localized } from '../quotes-shared/quote-texts';

export interface AddonCheckboxesProps {
  quoteId: number;
  addons: QuoteAddon[];
  checkedIds: number[];
  lang: Language;
  disabled: boolean;
  /** The element showing the plan's name: each box is named "<add-on> (<price>) <plan>". */
  planNameId: string;
  onToggle: (addonId: number) => void;
}

/**
 * A card's boxes are 24 px, the minimum target (WCAG 2.5.8, issue 38: axe found the 20 px add-on
 * boxes under 24 px apart on a phone), with their labels' text kept at the card's size.
 */
export const TARGET_SIZE_BOX: CheckboxProps['vars'] = () => ({ root: { '--checkbox-size': 'calc(1.5rem * var(--mantine-scale))' } });

/** Optional covers with their price; ticking one moves the card's total (spec §4). */
export function AddonCheckboxes({ quoteId, addons, checkedIds, lang, disabled, planNameId, onToggle }: AddonCheckboxesProps) {
  const { t } = useLingui();
  if (addons.length === 0) return null;
  return (
    <Stack gap={8} role="group" aria-label={t`Optional covers`}>
      {addons.map((addon) => {
        const label = localized(lang, addon.label, addon.label_ar);
        // Through formatMoney, like every amount: "+$30" kept whole in Arabic lines (issue 8 row 12).
        const price = formatMoney(addon.value, lang, { signed: true });
        const maxAge = addon.max_age;
        // A disabled add-on cannot be bought: it says why rather than "(+$0)" (issue 8 row 13).
        const description = addon.disabled_addon
          ? maxAge === null
            ? t`Not available for this trip`
            : t`Not available: every traveller is over ${maxAge}`
          : maxAge === null
            ? undefined
            : t`Travellers aged ${maxAge} or under`;
        const id = `addon-${quoteId}-${addon.id}`;
        return (
          <Checkbox
            key={addon.id}
            id={id}
            // Named by its label's words, then the plan's (named-by-plan.ts): the label's text has an id to point at.
            label={<span id={`${id}-label`}>{addon.disabled_addon ? label : t`${label} (${price})`}</span>}
            aria-labelledby={`${id}-label ${planNameId}`}
            description={description}
            checked={checkedIds.includes(addon.id)}
            disabled={disabled || addon.disabled_addon}
            onChange={() => onToggle(addon.id)}
            vars={TARGET_SIZE_BOX}
            data-testid="addon-checkbox"
            data-code={addon.code}
          />
        );
      })}
    </Stack>
  );
}
