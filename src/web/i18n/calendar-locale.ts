import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import updateLocale from 'dayjs/plugin/updateLocale';
import { MONTH_NAMES } from '../../contract/month-names';

// Part of the calendar's lazy chunk (date-picker-panel.tsx), not the first load: building
// these names at start-up cost the entry script ~30 ms on a phone (issue 19).
dayjs.extend(updateLocale);

let levantine = false;

/**
 * The calendar's weekday headers, Sunday first as dayjs counts them. dayjs's Arabic headers are
 * one letter each (ن for Monday, ث for Tuesday, س for Saturday…), which Lebanese readers cannot
 * tell apart (issue 21): the calendar writes each day's short name instead, «إثنين» for Monday.
 */
export const ARABIC_WEEKDAYS = ['أحد', 'إثنين', 'ثلاثاء', 'أربعاء', 'خميس', 'جمعة', 'سبت'] as const;

/**
 * Calendars in Arabic name the months as Lebanese readers do (تشرين الثاني, not نوفمبر), the
 * same names formatDate prints (month-names.ts), and the weekdays by their names, not a letter.
 * Applied when a calendar first shows in Arabic.
 */
export function applyLevantineMonths(locale: string): void {
  if (locale !== 'ar' || levantine) return;
  levantine = true;
  const months = [...MONTH_NAMES.ar];
  // Mantine's calendar writes its weekday headers with the "dd" format, dayjs's weekdaysMin.
  dayjs.updateLocale('ar', { months, monthsShort: months, weekdaysMin: [...ARABIC_WEEKDAYS] });
}
