import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { DirectionProvider, MantineProvider } from '@mantine/core';
import { StrictMode, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { cssVariablesResolver, theme } from '../theme/theme';
import { SessionProvider } from './services/console-session';
import { directionOf, type ConsoleLanguage } from './i18n/console-language';
import { LanguageProvider } from './i18n/language-provider';
import { createConsoleRouter } from './console-routes';

/** The console: Lingui, Mantine (the customer's theme) in the language's direction, the session, the routes. */
export function ConsoleApp({ lang }: { lang: ConsoleLanguage }) {
  const [router] = useState(createConsoleRouter);
  return (
    <StrictMode>
      <I18nProvider i18n={i18n}>
        <DirectionProvider initialDirection={directionOf(lang)} detectDirection={false}>
          <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
            <LanguageProvider initial={lang}>
              <SessionProvider>
                <RouterProvider router={router} />
                <LiveMark />
              </SessionProvider>
            </LanguageProvider>
          </MantineProvider>
        </DirectionProvider>
      </I18nProvider>
    </StrictMode>
  );
}

/** Marks the page `<html data-app="live">` once the console is on screen, as the customer's app does (the end-to-end harness reads it). */
function LiveMark() {
  useEffect(() => document.documentElement.setAttribute('data-app', 'live'), []);
  return null;
}
