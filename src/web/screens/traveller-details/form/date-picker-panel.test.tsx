import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { cleanup, render, screen } from '@testing-library/react';
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
