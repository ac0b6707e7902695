import { DirectionProvider, MantineProvider } from '@mantine/core';
import { DatesProvider, type DatePickerProps } from '@mantine/dates';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DatePickerPanel } from './date-picker-panel';

afterEach(cleanup);

/** The calendar opened on November 2026, in `locale`. */
function calendarIn(locale: string) {
  render(
    <MantineProvider env="test">
      <DatesProvider settings={{ locale, firstDayOfWeek: 1 }}>
        <DatePickerPanel defaultDate="2026-11-15" />
      </DatesProvider>
    </MantineProvider>,
  );
}

describe('the calendar panel', () => {
  // The month names are built only when a calendar first shows in Arabic (issue 19): the
  // English calendar before it must not have needed them, the Arabic one must still show them.
  it('names the month in English on an English page, then as Lebanese readers do (تشرين الثاني) on an Arabic one', () => {
    calendarIn('en');
    expect(screen.getByText('November 2026')).toBeTruthy();
    cleanup();
    calendarIn('ar');
    expect(screen.getByText(/تشرين الثاني/)).toBeTruthy();
    expect(screen.queryByText(/نوفمبر/)).toBeNull();
  });
});

/** The calendar on November 2026 in a page laid out `dir`, with its 15th focused. */
function calendarFocusedIn(dir: 'ltr' | 'rtl', props: Partial<DatePickerProps<'default'>> = {}) {
  // As the app lays out a page in its language (locale.ts).
  document.documentElement.dir = dir;
  render(
    <DirectionProvider initialDirection={dir} detectDirection={false}>
      <MantineProvider env="test">
        <DatesProvider settings={{ locale: 'en', firstDayOfWeek: 1 }}>
          <DatePickerPanel defaultDate="2026-11-15" {...props} />
        </DatesProvider>
      </MantineProvider>
    </DirectionProvider>,
  );
}

const day = (date: string) => document.querySelector<HTMLElement>(`button[data-date="${date}"]:not([data-outside])`);
/** Presses `key` on the focused day and names the day focused after it (the calendar's render and effects run inside fireEvent). */
function press(key: string): string | undefined {
  fireEvent.keyDown(document.activeElement!, { key });
  return (document.activeElement as HTMLElement).dataset.date;
}

describe("the calendar's arrow keys (issue 21)", () => {
  it('in a right-to-left page, ArrowLeft moves to the next day (drawn on the left) and ArrowRight to the one before', () => {
    calendarFocusedIn('rtl');
    day('2026-11-15')!.focus();
    expect(press('ArrowLeft')).toBe('2026-11-16');
    expect(press('ArrowRight')).toBe('2026-11-15');
    expect(press('ArrowRight')).toBe('2026-11-14');
  });

  it('in a left-to-right page, ArrowRight moves to the next day', () => {
    calendarFocusedIn('ltr');
    day('2026-11-15')!.focus();
    expect(press('ArrowRight')).toBe('2026-11-16');
    expect(press('ArrowLeft')).toBe('2026-11-15');
  });

  it('ArrowDown in the last week goes on into the next month, which the calendar then shows; ArrowUp comes back', () => {
    calendarFocusedIn('rtl');
    day('2026-11-15')!.focus();
    expect(press('ArrowDown')).toBe('2026-11-22');
    expect(press('ArrowDown')).toBe('2026-11-29');
    expect(press('ArrowDown')).toBe('2026-12-06');
    expect(screen.getByText('December 2026')).toBeTruthy();
    expect(press('ArrowUp')).toBe('2026-11-29');
    expect(screen.getByText('November 2026')).toBeTruthy();
  });

  it('does not move past the last day one may pick', () => {
    calendarFocusedIn('ltr', { maxDate: '2026-11-30' });
    day('2026-11-29')!.focus();
    expect(press('ArrowRight')).toBe('2026-11-30');
    expect(press('ArrowRight')).toBe('2026-11-30');
    expect(screen.getByText('November 2026')).toBeTruthy();
  });

  it("in a right-to-left page, a month's ArrowLeft moves to the next month and ArrowDown a row down", () => {
    calendarFocusedIn('rtl', { defaultLevel: 'year' });
    screen.getByRole('button', { name: 'May' }).focus();
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' });
    expect(document.activeElement?.textContent).toBe('Jun');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect(document.activeElement?.textContent).toBe('Apr');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(document.activeElement?.textContent).toBe('Jul');
  });
});
