import { createContext, useContext } from 'react';
import type { Language } from '../../contract/endpoint';
import type { CompanyInfo } from '../../contract/reference.endpoints';

/** What every part of the shell needs: language, company information and the main-site address. */
export interface AppContextValue {
  lang: Language;
  companyInfo: CompanyInfo;
  mainSiteUrl: string;
  /** Stores the language and reloads after LANGUAGE_RELOAD_DELAY_MS (spec §1). */
  switchLanguage: (lang: Language) => void;
  /** Opens the system error dialog (spec §8). */
  showSystemError: () => void;
}

export const AppContext = createContext<AppContextValue | null>(null);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp() must be used inside <AppContext.Provider>');
  return value;
}
