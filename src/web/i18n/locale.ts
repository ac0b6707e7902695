import { i18n } from '@lingui/core';
import { LANGUAGES, type Language } from '../../contract/endpoint';
import { localStore } from '../storage/local-store';

export const DEFAULT_LANGUAGE: Language = 'en';

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

let arabicFont: Promise<unknown> | null = null;

/**
 * The Arabic face (its unicode-range subsets, font-display: swap), declared only when Arabic is
 * shown: an English page never downloads it for the "العربية" switch (issue 19). Settles once the
 * face is loaded (or failed), so the app's first render can be in it, not reflow into it.
 */
export function loadArabicFont(): Promise<unknown> {
  arabicFont ??= import('@fontsource-variable/noto-sans-arabic')
    .then(() => document.fonts?.load('700 16px "Noto Sans Arabic Variable"', 'سفر'))
    .catch(() => undefined);
  return arabicFont;
}

/**
 * Settles once the faces the page shows in this language are loaded (or failed): Inter, whose
 * stylesheet the entry imports, and the Arabic face for Arabic. The browser fetches a face only
 * when text first uses it, so the app's first render in place of a pre-rendered outline would
 * otherwise paint in the fallback face and then reflow into Inter, a layout shift (issue 19).
 */
export function loadFaces(lang: Language): Promise<unknown> {
  const latin = document.fonts?.load('700 16px "Inter Variable"', 'Safar').catch(() => undefined);
  return Promise.all([latin, lang === 'ar' ? loadArabicFont() : undefined]);
}

/**
 * Switches Lingui and the document's lang/dir together (DESIGN convention 7), so every text,
 * date and the mirrored layout change as one. The calendar takes its language from
 * DatesProvider, and its Arabic month names from calendar-locale.ts, in its own chunk.
 */
export async function activateLanguage(lang: Language, doc: Document = document): Promise<void> {
  if (lang === 'ar') void loadArabicFont();
  const { messages } = await catalogs[lang]();
  i18n.loadAndActivate({ locale: lang, messages: messages as Parameters<typeof i18n.load>[1] });
  doc.documentElement.lang = lang;
  doc.documentElement.dir = directionOf(lang);
}
