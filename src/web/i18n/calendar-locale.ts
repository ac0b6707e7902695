import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import updateLocale from 'dayjs/plugin/updateLocale';

// Part of the calendar's lazy chunk (date-picker-panel.tsx), not the first load: building
// these names at start-up cost the entry script ~30 ms on a phone (issue 19).
dayjs.extend(updateLocale);

let levantine = false;

/**
 * Calendars in Arabic name the months as Lebanese readers do (تشرين الثاني, not نوفمبر), the
 * same names formatDate prints, taken from the platform's ar-LB data rather than typed here.
 * Built when a calendar first shows in Arabic: the Arabic date data costs a phone 100 ms or
 * more, which an English page never needs (issue 19).
 */
export function applyLevantineMonths(locale: string): void {
  if (locale !== 'ar' || levantine) return;
  levantine = true;
  const monthName = new Intl.DateTimeFormat('ar-LB', { month: 'long', timeZone: 'UTC' });
  const months = Array.from({ length: 12 }, (_, month) => monthName.format(new Date(Date.UTC(2026, month, 15))));
  dayjs.updateLocale('ar', { months, monthsShort: months });
}
