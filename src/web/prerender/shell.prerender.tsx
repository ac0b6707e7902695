import { renderToString } from 'react-dom/server';
import type { Language } from '../../contract/endpoint';
import { stepPath, type StepId } from '../../../machines/journey.routes';
import { markLeadOpen } from '../journey/open-leads';
import { activateLanguage } from '../i18n/locale';
import { createMemoryHistory } from '../journey/app-location';
import { SafarApp } from '../safar-app';
import { preloadAllScreens } from '../screens/journey-outlet';
import { PRERENDERED_PATH, prerenderBoot } from './prerender-boot';

/**
 * Stands in for a lead in a page rendered at build time: a lead's page shows the same frame,
 * heading and loading placeholder whatever its lead, and the app replaces it, never hydrates it.
 */
const OUTLINE_LEAD = '00000000-0000-4000-8000-000000000000';
/** Stands in for a policy's page token the same way (/policy/<token>). */
const OUTLINE_POLICY = '0'.repeat(64);

/**
 * A step's page as HTML, rendered at build time in `lang` (issue 19): the header, the step
 * header, the heading and the loading placeholder the app shows until the page's data arrive.
 * The browser paints it before any script has run. Travel details, the entry page, is rendered
 * with no lead, as a first visit has it, and main.tsx hydrates it; every other step's page is
 * an outline the app's first render replaces.
 */
export async function renderShell(lang: Language, step: StepId): Promise<string> {
  // Every screen at once, so no lazy one suspends the render into its loader.
  await preloadAllScreens();
  // The document is the browser's; here only its language attributes are written, and dropped.
  await activateLanguage(lang, { documentElement: {} } as Document);
  const path = stepPath(step, OUTLINE_POLICY);
  const journey = { path, uuid: path === PRERENDERED_PATH ? null : OUTLINE_LEAD, sessionId: null, agentId: null };
  // The outline shows the page itself, not the wait while the app asks whether its lead is paid.
  markLeadOpen(OUTLINE_LEAD);
  return renderToString(<SafarApp boot={{ ...prerenderBoot(lang), journey }} history={() => createMemoryHistory(path)} />);
}
