import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@fontsource-variable/inter';
import '@fontsource-variable/noto-sans-arabic';
import './global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app';
import { activateLanguage } from './i18n/locale';
import { normalisedPath } from './journey/route-location';
import { applyStartupQuery } from './journey/startup-query';
import { readRuntimeConfig } from './runtime-config';
import { configureHttpClient } from './services/http-client';
import { loadCompanyInfo } from './services/company-info.service';

/** Start-up: configuration, entry query, language and company information, then the app. */
async function boot() {
  const config = readRuntimeConfig();
  configureHttpClient({ baseUrl: config.apiBaseUrl, signingKey: config.signingKey });

  // The journey scrolls to top on every step change (spec §2), back and forward included.
  window.history.scrollRestoration = 'manual';

  // Before any replaceState or routing: "//x" must stay a path of this origin (issue 8 row 5).
  const path = normalisedPath(window.location.pathname);
  const startup = applyStartupQuery(window.location.search);
  if (startup.search !== window.location.search || path !== window.location.pathname) {
    window.history.replaceState(null, '', `${path}${startup.search}${window.location.hash}`);
  }
  const [companyInfo] = await Promise.all([loadCompanyInfo(startup.lang), activateLanguage(startup.lang)]);

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <App
          boot={{
            lang: startup.lang,
            companyInfo,
            mainSiteUrl: config.mainSiteUrl,
            journey: {
              path,
              uuid: startup.uuid,
              sessionId: startup.sessionId,
              agentId: startup.agentId,
            },
          }}
        />
      </BrowserRouter>
    </StrictMode>,
  );
  hideSplash();
}

function hideSplash() {
  const splash = document.getElementById('splash');
  if (!splash) return;
  splash.classList.add('splash-hidden');
  window.setTimeout(() => splash.remove(), 300);
}

void boot();
