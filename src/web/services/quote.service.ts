import type { Language } from '../../contract/endpoint';
import {
  compareQuotesEndpoint,
  proceedReviewEndpoint,
  sendEmailByPageEndpoint,
  type ProceedRequest,
  SHARE_PAGES,
} from '../../contract/quote.endpoints';
import { callEndpoint } from './http-client';

/**
 * The lead's quotes (spec §7 compare-quotes): every plan it can buy, priced and stored by the
 * server, with the customer, the lead and the agent's WhatsApp text for `link`.
 */
export function fetchQuotes(uuid: string, lang: Language, link: string | null) {
  return callEndpoint(compareQuotesEndpoint, { uuid, lang, link });
}

/**
 * Chooses a plan (spec §7 proceed-review): the server builds the invoice from its stored quote
 * and the ticked add-ons, and refuses without a fresh bot-check token.
 */
export function proceedReview(payload: ProceedRequest) {
  return callEndpoint(proceedReviewEndpoint, payload);
}

/** Agent share (RULINGS 15): e-mails the page link to the lead's customer. */
export function sendEmailByPage(request: {
  uuid: string;
  pagename: (typeof SHARE_PAGES)[number];
  agentId: number;
  link: string;
  lang: Language;
}) {
  return callEndpoint(sendEmailByPageEndpoint, {
    uuid: request.uuid,
    pagename: request.pagename,
    agent_id: request.agentId,
    link: request.link,
    lang: request.lang,
  });
}
