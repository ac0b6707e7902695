import { useDirection } from '@mantine/core';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { configureConsoleApi } from '../services/console-api';
import { activateLanguage, directionOf, type ConsoleLanguage } from './console-language';

interface LanguageValue {
  lang: ConsoleLanguage;
  /** Loads the catalogue, then switches Lingui, the page's lang and dir and Mantine's direction together. */
  setLanguage: (lang: ConsoleLanguage) => Promise<void>;
}

const LanguageContext = createContext<LanguageValue | null>(null);

/** The UI language; `initial` is already active (main.tsx activates it before the first render). */
export function LanguageProvider({ initial, children }: { initial: ConsoleLanguage; children: ReactNode }) {
  const [lang, setLang] = useState(initial);
  const { setDirection } = useDirection();
  const setLanguage = useCallback(
    async (next: ConsoleLanguage) => {
      await activateLanguage(next);
      configureConsoleApi({ language: next });
      setDirection(directionOf(next));
      setLang(next);
    },
    [setDirection],
  );
  const value = useMemo(() => ({ lang, setLanguage }), [lang, setLanguage]);
  return <LanguageContext.Provider value={value}>{children}</LanguageContext.Provider>;
}

export function useLanguage(): LanguageValue {
  const value = useContext(LanguageContext);
  if (!value) throw new Error('useLanguage outside LanguageProvider');
  return value;
}
