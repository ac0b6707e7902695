import { DataTable, type DataTableProps } from 'mantine-datatable';

/**
 * The console's tables: mantine-datatable (a real <table> with column titles), bordered and
 * striped, tall enough to show its empty text, and with a scroll viewport that takes the
 * keyboard's focus, so a table wider than a phone can be scrolled without a mouse (axe
 * scrollable-region-focusable).
 */
export function ConsoleTable<T>(props: DataTableProps<T>) {
  const empty = (props.records?.length ?? 0) === 0;
  return <DataTable<T> withTableBorder striped minHeight={empty ? 150 : undefined} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }} {...props} />;
}
