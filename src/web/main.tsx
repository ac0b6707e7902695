// Mantine's styles in its cascade layer: the theme's variables and the app's own rules win
// wherever the stylesheet lands in the page (it loads at the end of <body>, issue 19).
import '@mantine/core/styles.layer.css';
import '@mantine/dates/styles.layer.css';
// The theme's CSS variables and breakpoint classes, computed once as the app is built or served
// (mantine-theme-css.plugin.ts), not by MantineProvider on every mount.
import 'virtual:mantine-theme.css';
// The theme's outlines of fields, checkboxes and radios (theme.ts, issue 21).
import './theme/controls.css';
import '@fontsource-variable/inter';
import './global.css';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { AppBoot } from './app';
import { activateLanguage, loadFaces } from './i18n/locale';
import { createBrowserHistory } from './journey/app-location';
import { normalisedPath } from './journey/route-location';
import { applyStartupQuery, type StartupState } from './journey/startup-query';
import { PRERENDERED_PATH, prerenderBoot } from './prerender/prerender-boot';
import { readRuntimeConfig } from './runtime-config';
import { SafarApp } from './safar-app';
import { preloadScreenAt } from './screens/journey-outlet';
import { configureHttpClient } from './services/http-client';
import { loadCompanyInfo } from './services/company-info.service';
import type { CompanyInfo } from '../contract/reference.endpoints';

/** How long the app waits for its faces before it replaces a pre-rendered outline anyway. */
const FONT_WAIT_MS = 1000;

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
  // What the first render waits for, asked for in the order the browser should fetch it: with
  // six connections, the screen's chunk and its dozens of shared parts would otherwise queue the
  // small files of the data call and the catalogue behind them (issue 19).
  // A lead's page asks for its data now, not after the app's first render. If the chunk fails
  // to load, the page calls as it always did.
  if (startup.uuid) void import('./journey/early-calls').then(({ startEarlyCalls }) => startEarlyCalls({ ...startup, path }), () => undefined);
  const language = activateLanguage(startup.lang);
  const companyInfo = loadCompanyInfo(startup.lang);
  preloadScreenAt(path);
  const shell = prerenderedShell(startup, path);
  await Promise.all([language, stylesheetsLoaded()]);
  const journey = { path, uuid: startup.uuid, sessionId: startup.sessionId, agentId: startup.agentId };
  const live = (info: CompanyInfo): AppBoot => ({ lang: startup.lang, companyInfo: info, mainSiteUrl: config.mainSiteUrl, journey });
  // As transitions, React renders or hydrates the app in slices of a few milliseconds, so the
  // first render is no long task that holds up the customer's first tap (issue 19).
  if (shell) {
    // The page shows the first screen pre-rendered at build time: hydrated with what it was
    // rendered with, the same elements stay on screen and come alive; the server's company
    // information and main-site address then replace the built-in ones as an ordinary update.
    const app = <SafarApp boot={{ ...prerenderBoot(startup.lang), journey }} next={companyInfo.then(live)} history={createBrowserHistory} />;
    startTransition(() => void hydrateRoot(shell, app));
  } else {
    // Any other page shows its step's outline, pre-rendered with no lead (src/web/prerender), or
    // the entry page's screen for a journey it was not rendered for (a returning lead): it stays
    // on screen until the app's first render replaces everything in #root. Before that render,
    // the page's faces (Inter, and the Arabic face in Arabic) have up to a second to arrive, so
    // the app does not reflow into them once shown (layout shift, issue 19).
    await Promise.race([loadFaces(startup.lang), new Promise((resolve) => setTimeout(resolve, FONT_WAIT_MS))]);
    const app = <SafarApp boot={live(await companyInfo)} history={createBrowserHistory} />;
    const root = createRoot(document.getElementById('root')!);
    startTransition(() => root.render(app));
  }
}

/**
 * The pre-rendered first screen this page can hydrate, or null (the other language's copy is
 * removed): only on the entry page, in the language the app chose, and with no lead, session
 * or agent in the journey, since the HTML was rendered without them (src/web/prerender).
 */
function prerenderedShell(startup: StartupState, path: string): HTMLElement | null {
  const shell = document.querySelector<HTMLElement>(`[data-shell-lang="${startup.lang}"]`);
  const plain = startup.uuid === null && startup.sessionId === null && startup.agentId === null;
  // As the inline chooser reads it (shell-choice.ts): a trailing slash does not count.
  const entry = [PRERENDERED_PATH, '/'].includes(path.replace(/(.)\/$/, '$1'));
  if (!shell || !plain || !entry || document.documentElement.dataset.shell !== startup.lang) return null;
  for (const other of document.querySelectorAll('[data-shell-lang]')) if (other !== shell) other.remove();
  return shell;
}

/**
 * The built page asks for its stylesheet after the first paint (src/web/prerender), so the
 * pre-rendered screen paints with its inlined rules first; the app waits for the sheet, never
 * rendering unstyled.
 */
function stylesheetsLoaded(): Promise<unknown> {
  const pending = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter((link) => !link.sheet);
  return Promise.all(
    pending.map(
      (link) =>
        new Promise((settled) => {
          link.addEventListener('load', settled, { once: true });
          link.addEventListener('error', settled, { once: true });
        }),
    ),
  );
}

// In a task of its own, not in the one that evaluates the app's modules: each stays short enough
// not to hold up a tap on the pre-rendered page (issue 19).
setTimeout(() => void boot(), 0);
