import { i18n, type Messages } from '@lingui/core';

/** The console's two languages; English is the default. */
export const CONSOLE_LANGUAGES = ['en', 'ar'] as const;
export type ConsoleLanguage = (typeof CONSOLE_LANGUAGES)[number];

/** The console's own key in localStorage (the customer's app keeps its 'language' apart). */
const STORAGE_KEY = 'safar-console-language';

const catalogs: Record<ConsoleLanguage, () => Promise<{ messages: Messages }>> = {
  en: () => import('../../../../locales/en/broker.po'),
  ar: () => import('../../../../locales/ar/broker.po'),
};

export const directionOf = (lang: ConsoleLanguage): 'rtl' | 'ltr' => (lang === 'ar' ? 'rtl' : 'ltr');

const isLanguage = (value: unknown): value is ConsoleLanguage => CONSOLE_LANGUAGES.includes(value as ConsoleLanguage);

/** The remembered language, or English (storage refused: English). */
export function storedLanguage(): ConsoleLanguage {
  try {
    const value = globalThis.localStorage?.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : 'en';
  } catch {
    return 'en';
  }
}

function remember(lang: ConsoleLanguage): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang);
  } catch {
    // A refused storage only forgets the choice for the next visit.
  }
}

/**
 * Switches Lingui, the page's lang and dir together, and remembers the choice. The Arabic face
 * is declared only when Arabic is shown, so an English page never downloads it.
 */
export async function activateLanguage(lang: ConsoleLanguage): Promise<void> {
  if (lang === 'ar') void import('@fontsource-variable/noto-sans-arabic');
  const { messages } = await catalogs[lang]();
  i18n.loadAndActivate({ locale: lang, messages });
  document.documentElement.lang = lang;
  document.documentElement.dir = directionOf(lang);
  remember(lang);
}
