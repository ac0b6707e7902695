import { i18n } from '@lingui/core';
import dayjs from 'dayjs';
import 'dayjs/locale/ar';
import updateLocale from 'dayjs/plugin/updateLocale';
import { LANGUAGES, type Language } from '../../contract/endpoint';
import { localStore } from '../storage/local-store';

export const DEFAULT_LANGUAGE: Language = 'en';

dayjs.extend(updateLocale);
// Calendars in Arabic name the months as Lebanese readers do (تشرين الثاني, not نوفمبر), the
// same names formatDate prints, taken from the platform's ar-LB data rather than typed here.
const levantineMonths = Array.from({ length: 12 }, (_, month) =>
  new Intl.DateTimeFormat('ar-LB', { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, month, 15))),
);
dayjs.updateLocale('ar', { months: levantineMonths, monthsShort: levantineMonths });

/** How long the "switching language" notice shows before the reload (spec §1). */
export const LANGUAGE_RELOAD_DELAY_MS = 1000;

const catalogs: Record<Language, () => Promise<{ messages: Record<string, unknown> }>> = {
  en: () => import('../../../locales/en/messages.po'),
  ar: () => import('../../../locales/ar/messages.po'),
};

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

export const directionOf = (lang: Language): 'rtl' | 'ltr' => (lang === 'ar' ? 'rtl' : 'ltr');

/** The stored language, or English. */
export function storedLanguage(): Language {
  const value = localStore.get('language');
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

/**
 * Switches Lingui, dayjs and the document's lang/dir together (DESIGN convention 7), so every
 * text, date and the mirrored layout change as one.
 */
export async function activateLanguage(lang: Language, doc: Document = document): Promise<void> {
  const { messages } = await catalogs[lang]();
  i18n.loadAndActivate({ locale: lang, messages: messages as Parameters<typeof i18n.load>[1] });
  dayjs.locale(lang);
  doc.documentElement.lang = lang;
  doc.documentElement.dir = directionOf(lang);
}
