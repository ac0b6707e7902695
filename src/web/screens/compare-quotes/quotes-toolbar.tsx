import { Group, MultiSelect, Select } from '@mantine/core';
import { useLingui } from '@lingui/react/macro';
import type { Language } from '../../../contract/endpoint';
import type { Quote } from '../../../contract/quote.endpoints';
import type { QuotesSort } from '../../../../machines/quotes/quotes.types';
import { localized } from '../quotes-shared/quote-texts';
import classes from './quotes-toolbar.module.css';
import { useListboxState } from '../../components/listbox-state';

export interface QuotesToolbarProps {
  sort: QuotesSort;
  insurers: Quote['provider'][];
  insurerFilter: number[];
  lang: Language;
  onSort: (sort: QuotesSort) => void;
  onFilter: (providerIds: number[]) => void;
}

/** Sort (price by default, or medical limit) and the insurer filter, both with visible labels. */
export function QuotesToolbar({ sort, insurers, insurerFilter, lang, onSort, onFilter }: QuotesToolbarProps) {
  const { t } = useLingui();
  const listbox = useListboxState();
  return (
    <Group gap="md" align="flex-end" grow preventGrowOverflow={false} wrap="wrap" data-testid="quotes-toolbar">
      <Select
        label={t`Sort by`}
        value={sort}
        allowDeselect={false}
        data={[
          { value: 'price', label: t`Price: low to high` },
          { value: 'medical', label: t`Medical limit: high to low` },
        ]}
        onChange={(value) => value && onSort(value as QuotesSort)}
        {...listbox}
        miw={200}
      />
      <MultiSelect
        label={t`Insurers`}
        placeholder={insurerFilter.length === 0 ? t`All insurers` : undefined}
        value={insurerFilter.map(String)}
        data={insurers.map((insurer) => ({ value: String(insurer.id), label: localized(lang, insurer.name, insurer.name_ar) }))}
        onChange={(values) => onFilter(values.map(Number))}
        {...listbox}
        clearable
        classNames={{ inputField: classes.insurersField }}
        miw={200}
      />
    </Group>
  );
}
