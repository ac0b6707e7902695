import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import updateLocale from 'dayjs/plugin/updateLocale';
import { MONTH_NAMES } from '../../contract/month-names';

// Part of the calendar's lazy chunk (date-picker-panel.tsx), not the first load: building
// these names at start-up cost the entry script ~30 ms on a phone (issue 19).
dayjs.extend(updateLocale);

let levantine = false;

/**
 * Calendars in Arabic name the months as Lebanese readers do (تشرين الثاني, not نوفمبر), the
 * same names formatDate prints (month-names.ts). Applied when a calendar first shows in Arabic.
 */
export function applyLevantineMonths(locale: string): void {
  if (locale !== 'ar' || levantine) return;
  levantine = true;
  const months = [...MONTH_NAMES.ar];
  dayjs.updateLocale('ar', { months, monthsShort: months });
}
