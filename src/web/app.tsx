import { Suspense, lazy, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { useLingui } from '@lingui/react/macro';
import { Center, Container, DirectionProvider, Loader, MantineProvider, Overlay, Stack, Text } from '@mantine/core';
import type { Language } from '../contract/endpoint';
import type { CompanyInfo } from '../contract/reference.endpoints';
import type { JourneyInput } from '../../machines/journey.types';
import { LANGUAGE_RELOAD_DELAY_MS, directionOf } from './i18n/locale';
import { JourneyProvider } from './journey/journey-provider';
import { JourneyOutlet } from './screens/journey-outlet';
import { AnnouncerProvider } from './shell/announcer';
import { AppContext, type AppContextValue } from './shell/app-context';
import { AppFooter } from './shell/app-footer';
import { AppHeader } from './shell/app-header';
import { ErrorBoundary } from './shell/error-boundary';
import { ErrorView } from './shell/error-view';
import { WizardHeader } from './shell/wizard-header';
import classes from './shell/shell.module.css';
import { whenIdle } from './shell/when-idle';
import { localStore } from './storage/local-store';
import { theme } from './theme/theme';

// The error dialog is rarely needed, so it is not in the first load; it is fetched when the
// browser is idle, so it can still open when the network fails later.
export const preloadSystemErrorDialog = () => import('./shell/system-error-dialog');
const SystemErrorDialog = lazy(() => preloadSystemErrorDialog().then((module) => ({ default: module.SystemErrorDialog })));

export interface AppBoot {
  lang: Language;
  journey: JourneyInput;
  companyInfo: CompanyInfo;
  mainSiteUrl: string;
}

/**
 * The whole SPA below the router: providers (Lingui, direction, Mantine), the journey machine
 * and the page frame. The router is outside so tests can use a memory router; `children`
 * render inside the journey (tests use it to reach the actor).
 */
export function App({ boot, env, children }: { boot: AppBoot; env?: 'test'; children?: ReactNode }) {
  const [errorOpen, setErrorOpen] = useState(false);
  // Mounted from its first opening on, so closing it plays Mantine's transition.
  const [errorShown, setErrorShown] = useState(false);
  useEffect(() => whenIdle(() => void preloadSystemErrorDialog()), []);
  const [switchingTo, setSwitchingTo] = useState<Language | null>(null);

  const switchLanguage = useCallback((lang: Language) => {
    localStore.set('language', lang);
    const url = new URL(window.location.href);
    url.searchParams.set('lang', lang);
    window.history.replaceState(window.history.state, '', url);
    setSwitchingTo(lang);
    window.setTimeout(() => window.location.reload(), LANGUAGE_RELOAD_DELAY_MS);
  }, []);

  const context = useMemo<AppContextValue>(
    () => ({
      lang: boot.lang,
      companyInfo: boot.companyInfo,
      mainSiteUrl: boot.mainSiteUrl,
      switchLanguage,
      showSystemError: () => {
        setErrorShown(true);
        setErrorOpen(true);
      },
    }),
    [boot, switchLanguage],
  );

  return (
    <I18nProvider i18n={i18n}>
      <DirectionProvider initialDirection={directionOf(boot.lang)} detectDirection={false}>
        {/* No <style> elements of the theme: the stylesheet has them, computed at build (mantine-theme-css.ts). */}
        <MantineProvider theme={theme} env={env} withCssVariables={false} withGlobalClasses={false}>
          <AppContext.Provider value={context}>
            <AnnouncerProvider>
              <JourneyProvider input={boot.journey}>
                <div className={classes.page}>
                  <SkipLink />
                  <AppHeader />
                  <WizardHeader />
                  <main id="main" className={classes.main} tabIndex={-1}>
                    <Container size="lg" py={{ base: 'lg', sm: 40 }}>
                      <ErrorBoundary fallback={<ErrorView />}>
                        <JourneyOutlet />
                      </ErrorBoundary>
                    </Container>
                  </main>
                  <AppFooter />
                </div>
                {errorShown && (
                  <Suspense fallback={null}>
                    <SystemErrorDialog opened={errorOpen} onClose={() => setErrorOpen(false)} />
                  </Suspense>
                )}
                {switchingTo && <LanguageSwitchNotice lang={switchingTo} />}
                {children}
              </JourneyProvider>
            </AnnouncerProvider>
          </AppContext.Provider>
        </MantineProvider>
      </DirectionProvider>
    </I18nProvider>
  );
}

function SkipLink() {
  const { t } = useLingui();
  return (
    <a href="#main" className="skip-link">
      {t`Skip to main content`}
    </a>
  );
}

/** Shown for the second before the reload, written in the language being switched to. */
function LanguageSwitchNotice({ lang }: { lang: Language }) {
  return (
    <Overlay fixed color="#fff" backgroundOpacity={0.92} zIndex={1000}>
      <Center h="100%">
        <Stack align="center" gap="sm" role="status" lang={lang} dir={directionOf(lang)}>
          <Loader />
          <Text fw={600}>{lang === 'ar' ? 'جارٍ التبديل إلى العربية…' : 'Switching to English…'}</Text>
        </Stack>
      </Center>
    </Overlay>
  );
}
