import { Select, type SelectProps } from '@mantine/core';

/** Mantine's Select takes '' as "nothing chosen"; a choice whose value is '' (any status) goes by this instead. */
const EMPTY = '__any__';

/**
 * One of fixed choices, as Mantine's Select (a labelled combobox; its options exist only while
 * its list is open, so no two lists on a page share an option's name). A value of '' is a
 * choice like any other ("Any status"), and a choice cannot be taken back to nothing.
 */
export function ChoiceSelect({
  value,
  onChange,
  data,
  ...rest
}: Omit<SelectProps, 'value' | 'onChange' | 'data'> & { value: string; onChange: (value: string) => void; data: { value: string; label: string }[]; 'data-testid'?: string }) {
  return (
    <Select
      {...rest}
      value={value === '' ? EMPTY : value}
      onChange={(next) => next !== null && onChange(next === EMPTY ? '' : next)}
      data={data.map((choice) => (choice.value === '' ? { ...choice, value: EMPTY } : choice))}
      allowDeselect={false}
    />
  );
}
