import { renderToString } from 'react-dom/server';
import type { Language } from '../../contract/endpoint';
import { activateLanguage } from '../i18n/locale';
import { createMemoryHistory } from '../journey/app-location';
import { SafarApp } from '../safar-app';
import { PRERENDERED_PATH, prerenderBoot } from './prerender-boot';

/**
 * The first screen, /traveller-details, as HTML, rendered at build time in `lang` (issue 19):
 * the header, the step header, the heading and the loading placeholder the app shows until
 * the travel details arrive. The page paints it before any script has run; main.tsx then
 * hydrates it, so the same elements stay on screen and become live.
 */
export async function renderShell(lang: Language): Promise<string> {
  // The document is the browser's; here only its language attributes are written, and dropped.
  await activateLanguage(lang, { documentElement: {} } as Document);
  return renderToString(<SafarApp boot={prerenderBoot(lang)} history={() => createMemoryHistory(PRERENDERED_PATH)} />);
}
