import { DatePicker, useDatesContext, type DatePickerProps } from '@mantine/dates';
import { applyLevantineMonths } from '../../../i18n/calendar-locale';

/**
 * The calendar of a date field, in its own lazy chunk (DateField loads it when the browser is
 * idle or a calendar first opens), so the first page carries no calendar code.
 */
export function DatePickerPanel(props: DatePickerProps<'default'>) {
  // Before the calendar renders its month names: it writes them with dayjs's locale.
  applyLevantineMonths(useDatesContext().locale);
  return <DatePicker {...props} />;
}
