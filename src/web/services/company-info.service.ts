import type { Language } from '../../contract/endpoint';
import type { CompanyInfo } from '../../contract/reference.endpoints';
import { COMPANY_INFO_FALLBACK } from '../shell/company-info.fallback';
import { fetchCompanyInfo } from './reference.service';

/** How long a page waits for company information before it shows the built-in copy. */
const COMPANY_INFO_WAIT_MS = 3000;

/**
 * Company information from the server, or the built-in fallback when the call fails or is
 * slow (spec §1). The failure is reported to the console, not hidden.
 */
export async function loadCompanyInfo(lang: Language): Promise<CompanyInfo> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('company-info timed out')), COMPANY_INFO_WAIT_MS);
  });
  try {
    return await Promise.race([fetchCompanyInfo(lang), timeout]);
  } catch (error) {
    console.warn('Using built-in company information:', error);
    return COMPANY_INFO_FALLBACK[lang];
  } finally {
    clearTimeout(timer);
  }
}
