import { Checkbox, Stack } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { QuoteAddon } from '../../../contract/quote.endpoints';
import { localized } from '../quotes-shared/quote-texts';

export interface AddonCheckboxesProps {
  quoteId: number;
  addons: QuoteAddon[];
  checkedIds: number[];
  lang: Language;
  disabled: boolean;
  onToggle: (addonId: number) => void;
}

/** Optional covers with their price; ticking one moves the card's total (spec §4). */
export function AddonCheckboxes({ quoteId, addons, checkedIds, lang, disabled, onToggle }: AddonCheckboxesProps) {
  const { t } = useLingui();
  if (addons.length === 0) return null;
  return (
    <Stack gap={8} role="group" aria-label={t`Optional covers`}>
      {addons.map((addon) => {
        const label = localized(lang, addon.label, addon.label_ar);
        const price = addon.value_to_display;
        const maxAge = addon.max_age;
        return (
          <Checkbox
            key={addon.id}
            id={`addon-${quoteId}-${addon.id}`}
            label={t`${label} (+${price})`}
            description={maxAge === null ? undefined : t`Travellers aged ${maxAge} or under`}
            checked={checkedIds.includes(addon.id)}
            disabled={disabled || addon.disabled_addon}
            onChange={() => onToggle(addon.id)}
            data-testid="addon-checkbox"
            data-code={addon.code}
          />
        );
      })}
    </Stack>
  );
}
