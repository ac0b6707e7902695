import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, TextInput } from '@mantine/core';
import { ORDER_STATUSES } from '../../../../contract/broker-console';
import { labelOf, ORDER_STATUS_LABELS } from '../../i18n/console-labels';
import { ChoiceSelect } from '../../components/choice-select';

export interface OrderFilterValues {
  search: string;
  status: string;
  from: string;
  to: string;
}

/**
 * The order list's filters: a search (reference, policy number, e-mail or phone) sent with its
 * button or Enter, and the status and dates, which apply as soon as they change.
 */
export function OrderFilters({ values, onChange }: { values: OrderFilterValues; onChange: (change: Partial<OrderFilterValues>) => void }) {
  const { t, i18n } = useLingui();
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const search = new FormData(event.currentTarget).get('search');
          onChange({ search: typeof search === 'string' ? search.trim() : '' });
        }}
        style={{ display: 'flex', alignItems: 'flex-end', gap: 'var(--mantine-spacing-xs)', flexWrap: 'wrap' }}
      >
        <TextInput
          key={values.search}
          name="search"
          type="search"
          label={t`Search`}
          description={t`Reference, policy number, e-mail or phone`}
          defaultValue={values.search}
          w={260}
          data-testid="orders-search"
        />
        <Button type="submit" variant="light" data-testid="orders-search-submit">
          <Trans>Search</Trans>
        </Button>
      </form>
      <ChoiceSelect
        label={t`Status`}
        value={values.status}
        onChange={(value) => onChange({ status: value })}
        data={[{ value: '', label: t`Any status` }, ...ORDER_STATUSES.map((value) => ({ value, label: labelOf(i18n, ORDER_STATUS_LABELS, value) }))]}
        w={180}
        data-testid="orders-status"
      />
      <TextInput type="date" label={t`From`} value={values.from} onChange={(event) => onChange({ from: event.currentTarget.value })} w={170} data-testid="orders-from" />
      <TextInput type="date" label={t`To`} value={values.to} onChange={(event) => onChange({ to: event.currentTarget.value })} w={170} data-testid="orders-to" />
    </Group>
  );
}
