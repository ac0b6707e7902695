import type { Language } from '../../contract/endpoint';
import type { AppBoot } from '../app';
import { readRuntimeConfig } from '../runtime-config';
import { COMPANY_INFO_FALLBACK } from '../shell/company-info.fallback';

/** The entry page's path, the one pre-rendered. */
export const PRERENDERED_PATH = '/traveller-details';

/**
 * What the pre-rendered first screen was rendered with (issue 19): the built-in company
 * information, the default main-site address and a journey with no lead. The browser hydrates
 * the page with exactly this, so its first render matches the HTML, and then moves to the
 * real values, which React patches in like any other update.
 */
export function prerenderBoot(lang: Language): AppBoot {
  return {
    lang,
    companyInfo: COMPANY_INFO_FALLBACK[lang],
    mainSiteUrl: readRuntimeConfig({ querySelector: () => null } as unknown as Document).mainSiteUrl,
    journey: { path: PRERENDERED_PATH, uuid: null, sessionId: null, agentId: null },
  };
}
