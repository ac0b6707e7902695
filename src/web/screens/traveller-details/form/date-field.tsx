import { Suspense, lazy, useRef, useState, type FocusEvent, type ReactNode, type Ref } from 'react';
import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Center, Loader, Popover } from '@mantine/core';
import type { CalendarLevel } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { NumericTextInput } from '../../../components/number-input';
import { acceptedDate, formatDateText, normalizeDateText } from './date-text';
import classes from './travel-details-form.module.css';

export interface DateFieldProps {
  label: string;
  /** "YYYY-MM-DD" or null. */
  value: string | null;
  onChange: (value: string | null) => void;
  /** Called when the field is left (typed text committed or cleared first). */
  onBlur?: () => void;
  min?: string;
  max?: string;
  /** The month the calendar shows when the field is empty. */
  calendarStart?: string;
  /** The calendar's first view when the field is empty ('decade' suits a date of birth). */
  emptyLevel?: CalendarLevel;
  error?: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
  required?: boolean;
  name?: string;
  inputRef?: Ref<HTMLInputElement>;
}

const AUTOFOCUS = { 'data-autofocus': true } as const;

/** The calendar's code, fetched once: by preloadDatePicker when the browser is idle, or when a calendar first opens. */
const loadDatePicker = () => import('./date-picker-panel').then((panel) => ({ default: panel.DatePickerPanel }));
let pickerLoad: ReturnType<typeof loadDatePicker> | null = null;
/** Starts fetching the calendar (a lazy chunk, so the first page carries no calendar code). */
export const preloadDatePicker = () => (pickerLoad ??= loadDatePicker());
const LazyDatePicker = lazy(preloadDatePicker);

/**
 * The DD/MM/YYYY hint reads day first from the left, like the digits typed under it, in
 * Arabic too: each slashed run (DD/MM/YYYY, the Arabic «مثال: 25/12/1990»'s date) an isolated
 * left-to-right run, with each part kept apart from the slashes; the words around it stay
 * right-to-left, so «مثال:» comes first.
 */
const leftToRight = (hint: string) => hint.replace(/[^\s/]+(?:\/[^\s/]+)+/g, (run) => `\u2066${run.split('/').join('\u200e/\u200e')}\u2069`);

/**
 * A date typed as DD/MM/YYYY or picked on a calendar (spec §5). The app's number input keeps
 * digits and slashes only, at most 10 characters once normalised, so Arabic-keyboard digits
 * and a pasted "25-12-1990" are read, not dropped (issue 8 row 2). The value changes when the text is a complete date inside the
 * bounds; on leaving the field, text that is incomplete, not a real date or out of bounds is
 * cleared, and so is the value.
 */
export function DateField(props: DateFieldProps) {
  const { label, value, onChange, onBlur, min, max, calendarStart, emptyLevel = 'month', error, description, disabled, required, name, inputRef } = props;
  const { t } = useLingui();
  const [text, setText] = useState(() => formatDateText(value));
  // The text follows the value when the value changes from outside (annual end, cleared end).
  const [shownValue, setShownValue] = useState(value);
  if (shownValue !== value) {
    setShownValue(value);
    setText(formatDateText(value));
  }
  const [calendarOpen, setCalendarOpen] = useState(false);
  const calendarRef = useRef<HTMLDivElement>(null);
  const targetRef = useRef<HTMLDivElement>(null);
  const calendarButtonRef = useRef<HTMLButtonElement>(null);

  // Picking a year or a month replaces the focused button; the keyboard focus moves on to the
  // new view (the remembered date's cell, else the first one that can be picked).
  const focusCalendar = () =>
    window.requestAnimationFrame(() => {
      const root = calendarRef.current;
      const target =
        root?.querySelector<HTMLElement>('[data-autofocus]:not(:disabled)') ??
        root?.querySelector<HTMLElement>('table button:not(:disabled):not([data-outside])');
      target?.focus();
    });

  const emit = (next: string | null) => {
    setShownValue(next);
    if (next !== value) onChange(next);
  };

  /** `next` is already normalised by the number input (normalizeDateText). */
  const handleTyping = (next: string) => {
    setText(next);
    if (next === '') emit(null);
    else {
      const date = acceptedDate(next, min, max);
      if (date) emit(date);
    }
  };

  /** Keeps a typed complete date in bounds (shown as DD/MM/YYYY); clears anything else. */
  const commit = () => {
    // Untouched text (a saved date, the annual end) stays: the rules say what is wrong with it.
    if (text === formatDateText(value)) return;
    const date = acceptedDate(text, min, max);
    setText(formatDateText(date));
    emit(date);
  };

  /**
   * The field and its calendar (button and dialog) are left together: going from the text to its
   * own calendar button, into the calendar and back neither commits the text nor touches the
   * field, so no "choose a date" message greets someone about to choose one (issue 21). Where
   * the blur names no next element (the window left), the focused element says.
   */
  const leaveUnlessWithin = (event: FocusEvent) => {
    const next = event.relatedTarget ?? document.activeElement;
    if (next instanceof Node && (targetRef.current?.contains(next) || calendarRef.current?.contains(next))) return;
    commit();
    onBlur?.();
  };

  // The focus leaves the calendar for its button at once, not when the closing popover gives it
  // back: a Tab pressed straight after Enter went on inside the closing calendar and left it open.
  const pick = (picked: string | null) => {
    setText(formatDateText(picked));
    emit(picked);
    calendarButtonRef.current?.focus();
    setCalendarOpen(false);
  };

  const clampedStart = (() => {
    const start = value ?? calendarStart;
    if (!start) return undefined;
    if (min && start < min) return min;
    if (max && start > max) return max;
    return start;
  })();
  const calendarLabel = t`${label}: calendar`;
  // The day, month or year the calendar puts the keyboard focus on when it opens.
  const focusDate = value ?? clampedStart ?? min;

  return (
    <Popover
      opened={calendarOpen}
      onChange={setCalendarOpen}
      position="bottom-end"
      shadow="md"
      trapFocus
      returnFocus
      // Closed, the calendar goes at once: fading out, it lay over the fields a Tab moves on to.
      transitionProps={{ exitDuration: 0 }}
      withRoles={false}
      disabled={disabled}
    >
      <Popover.Target>
        <div ref={targetRef} onBlur={leaveUnlessWithin}>
          <NumericTextInput
            ref={inputRef}
            label={label}
            name={name}
            value={text}
            normalize={normalizeDateText}
            onValueChange={handleTyping}
            onKeyDown={(event) => {
              if (event.key === 'Enter') commit();
            }}
            placeholder={leftToRight(t`DD/MM/YYYY`)}
            autoComplete="off"
            error={error}
            // The order of the parts, shown for as long as the field is: a placeholder is faint
            // and goes at the first digit (WCAG 3.3.2, issue 21). Mantine ties it to the input
            // (aria-describedby), after any description of the field's own.
            description={
              <>
                {description && <span className={classes.dateDescription}>{description}</span>}
                <span className={classes.dateDescription}>{t`Format DD/MM/YYYY, e.g. 25/12/1990`}</span>
              </>
            }
            // A hint under the field keeps side-by-side date inputs level with each other.
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            disabled={disabled}
            required={required}
            classNames={{ input: classes.dateInput }}
            size="md"
            rightSectionWidth={44}
            rightSectionPointerEvents="all"
            rightSection={
              <ActionIcon
                ref={calendarButtonRef}
                variant="subtle"
                size={36}
                aria-label={calendarLabel}
                aria-haspopup="dialog"
                aria-expanded={calendarOpen}
                disabled={disabled}
                onClick={() => setCalendarOpen((open) => !open)}
              >
                <IconCalendar size={20} aria-hidden="true" />
              </ActionIcon>
            }
          />
        </div>
      </Popover.Target>
      <Popover.Dropdown role="dialog" aria-label={calendarLabel} p="xs" ref={calendarRef} onBlur={leaveUnlessWithin}>
        <Suspense
          fallback={
            <Center w={252} h={280}>
              <Loader size="sm" aria-hidden="true" />
            </Center>
          }
        >
        <LazyDatePicker
          value={value}
          onChange={pick}
          minDate={min}
          maxDate={max}
          defaultDate={clampedStart}
          defaultLevel={value ? 'month' : emptyLevel}
          onLevelChange={focusCalendar}
          getDayProps={(date) => (date === focusDate ? AUTOFOCUS : {})}
          getMonthControlProps={(date) => (focusDate && date.slice(0, 7) === focusDate.slice(0, 7) ? AUTOFOCUS : {})}
          getYearControlProps={(date) => (focusDate && date.slice(0, 4) === focusDate.slice(0, 4) ? AUTOFOCUS : {})}
          ariaLabels={{
            previousMonth: t`Previous month`,
            nextMonth: t`Next month`,
            previousYear: t`Previous year`,
            nextYear: t`Next year`,
            previousDecade: t`Previous decade`,
            nextDecade: t`Next decade`,
            monthLevelControl: t`Choose a month`,
            yearLevelControl: t`Choose a year`,
          }}
        />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
