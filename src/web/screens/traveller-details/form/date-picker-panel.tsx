import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { DatePicker, useDatesContext, type DatePickerProps } from '@mantine/dates';
import dayjs from 'dayjs';
import { applyLevantineMonths } from '../../../i18n/calendar-locale';

const ARROWS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']);

/**
 * The step an arrow key makes, in cells of the calendar's grid: left and right follow what the
 * eye sees, so in a right-to-left page ArrowLeft moves on to the next cell (WCAG 2.1.1, issue 21).
 */
export function arrowStep(key: string, rtl: boolean, perRow: number): number {
  const onward = rtl ? 'ArrowLeft' : 'ArrowRight';
  if (key === 'ArrowUp') return -perRow;
  if (key === 'ArrowDown') return perRow;
  return key === onward ? 1 : -1;
}

/**
 * The calendar of a date field, in its own lazy chunk (DateField loads it when the browser is
 * idle or a calendar first opens), so the first page carries no calendar code.
 *
 * Arrow keys are handled here, not by Mantine: Mantine moves to the next control in the page's
 * order whatever the direction (in Arabic, ArrowRight went to the day on the left), and stops at
 * the edge of the month shown. Here a day's arrows move by one day or one week, on into the
 * month before or after (which the calendar then shows); months and years move in the grid.
 */
export function DatePickerPanel(props: DatePickerProps<'default'>) {
  // Before the calendar renders its month names: it writes them with dayjs's locale.
  applyLevantineMonths(useDatesContext().locale);
  const { getDayProps, minDate, maxDate } = props;
  const [month, setMonth] = useState(props.date ?? props.defaultDate);
  // A day of another month, focused once the calendar shows its month.
  const dayToFocus = useRef<string | null>(null);
  const root = useRef<HTMLDivElement>(null);

  const focusDay = (date: string) => root.current?.querySelector<HTMLElement>(`button[data-date="${date}"]:not([data-outside])`)?.focus();

  // The calendar opens in a dialog that takes the focus, but the dialog may have opened before
  // this chunk arrived, with nothing in it to focus: the calendar takes it as it first shows.
  // A frame later, not in this effect: the dialog's own effects (they run after this one) note
  // where the focus was, to give it back on closing, and that must be the calendar's button,
  // not a day about to go with the calendar (the focus fell to <body>, issue 21).
  useEffect(() => {
    const frame = window.requestAnimationFrame(() => {
      const panel = root.current;
      if (!panel || panel.contains(document.activeElement)) return;
      (panel.querySelector<HTMLElement>('[data-autofocus]:not(:disabled)') ?? panel.querySelector<HTMLElement>('table button:not(:disabled):not([data-outside])'))?.focus();
    });
    return () => window.cancelAnimationFrame(frame);
  }, []);

  useEffect(() => {
    if (dayToFocus.current === null) return;
    focusDay(dayToFocus.current);
    dayToFocus.current = null;
  });

  const moveByArrow = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!ARROWS.has(event.key) || event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    const control = (event.target as HTMLElement).closest('table button');
    if (!(control instanceof HTMLButtonElement)) return;
    // Mantine's own handler (on the control) never sees the key.
    event.stopPropagation();
    event.preventDefault();
    // The page's direction, as drawn (the app sets <html dir> for its language). Not Mantine's
    // useDirection: an import from @mantine/core in this lazy chunk made the bundler split the
    // first load's shared Mantine parts into ten more chunks, 3.5 KB more to load (issue 21).
    const rtl = control.closest<HTMLElement>('[dir]')?.dir === 'rtl';
    const day = control.dataset.date;
    if (day) {
      const next = dayjs(day).add(arrowStep(event.key, rtl, 7), 'day').format('YYYY-MM-DD');
      if ((minDate && dayjs(next).isBefore(minDate, 'day')) || (maxDate && dayjs(next).isAfter(maxDate, 'day'))) return;
      if (next.slice(0, 7) === day.slice(0, 7)) focusDay(next);
      else {
        dayToFocus.current = next;
        setMonth(next);
      }
      return;
    }
    // A month or a year: the next one that can be picked, in the grid as it is drawn.
    const controls = [...control.closest('table')!.querySelectorAll('button')];
    const step = arrowStep(event.key, rtl, control.closest('tr')!.querySelectorAll('button').length);
    for (let at = controls.indexOf(control) + step; at >= 0 && at < controls.length; at += step) {
      if (!controls[at]!.disabled) {
        controls[at]!.focus();
        return;
      }
    }
  };

  return (
    <div ref={root} onKeyDownCapture={moveByArrow}>
      <DatePicker
        {...props}
        date={month}
        onDateChange={setMonth}
        getDayProps={(date) => ({ ...getDayProps?.(date), 'data-date': date })}
      />
    </div>
  );
}
