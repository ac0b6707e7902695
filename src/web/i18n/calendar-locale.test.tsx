import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DatePickerPanel } from '../screens/traveller-details/form/date-picker-panel';

afterEach(cleanup);

/** The weekday headers of the calendar, opened on November 2026 in `locale`, as shown. */
function weekdayHeaders(locale: string): string[] {
  render(
    <MantineProvider env="test">
      <DatesProvider settings={{ locale, firstDayOfWeek: 1 }}>
        <DatePickerPanel defaultDate="2026-11-15" />
      </DatesProvider>
    </MantineProvider>,
  );
  return screen.getAllByRole('columnheader').map((cell) => cell.textContent ?? '');
}

describe('the calendar\'s weekday headers', () => {
  it('issue 21: names each day in Arabic by its short name, Monday first («إثنين»), never a one-letter abbreviation', () => {
    expect(weekdayHeaders('ar')).toEqual(['إثنين', 'ثلاثاء', 'أربعاء', 'خميس', 'جمعة', 'سبت', 'أحد']);
  });

  it('issue 21: leaves the English headers as Mantine writes them', () => {
    expect(weekdayHeaders('en')).toEqual(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su']);
  });
});
