import type { Language } from '../../contract/endpoint';
import { leadStatusEndpoint } from '../../contract/lead-status.endpoints';
import { callEndpoint } from './http-client';

/**
 * Whether a lead named by a link is paid, and its policy page if so (RULINGS 28). An unknown uuid:
 * an ApiError of status 404. Apart from the policy page's calls: every page of a lead asks it
 * first, so it is in the first load, with its own small contract.
 */
export function fetchLeadStatus(uuid: string, lang: Language) {
  return callEndpoint(leadStatusEndpoint, { uuid, lang });
}
