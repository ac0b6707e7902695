import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import updateLocale from 'dayjs/plugin/updateLocale';

// Part of the calendar's lazy chunk (date-picker-panel.tsx), not the first load: building
// these names at start-up cost the entry script ~30 ms on a phone (issue 19).
dayjs.extend(updateLocale);
// Calendars in Arabic name the months as Lebanese readers do (تشرين الثاني, not نوفمبر), the
// same names formatDate prints, taken from the platform's ar-LB data rather than typed here.
const monthName = new Intl.DateTimeFormat('ar-LB', { month: 'long', timeZone: 'UTC' });
const levantineMonths = Array.from({ length: 12 }, (_, month) => monthName.format(new Date(Date.UTC(2026, month, 15))));
dayjs.updateLocale('ar', { months: levantineMonths, monthsShort: levantineMonths });
