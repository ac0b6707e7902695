import type { Language } from '../../contract/endpoint';
import { personalDetailsEndpoint } from '../../contract/lead.endpoints';
import { latestLeadByUuidEndpoint } from '../../contract/quote.endpoints';
import { saveTravellerInfoEndpoint, type ReviewTraveller } from '../../contract/review.endpoints';
import { callEndpoint } from './http-client';

/**
 * The lead with its chosen plan (spec §7 get-personal-details): the travellers as saved and the
 * invoice proceed-review built, so a reload, a second tab or a shared link shows the same figures.
 */
export async function fetchLeadWithPlan(uuid: string, sessionId: string | null, lang: Language) {
  return (await callEndpoint(personalDetailsEndpoint, { uuid, session_id: sessionId, lang })).customer;
}

/** The WhatsApp text an agent shares for `link` (RULINGS 15). */
export async function fetchWhatsappTemplate(uuid: string, link: string, lang: Language): Promise<string> {
  return (await callEndpoint(latestLeadByUuidEndpoint, { uuid, link, lang })).whatapp_template;
}

/**
 * Saves one traveller at review (spec §7 save-traveller-info). Answers `error: "dob"` with the
 * server's message when the date of birth is not the quoted one (RULINGS 8); refusals reject.
 */
export function saveTravellerInfo(request: {
  uuid: string;
  sessionId: string | null;
  agentId: number | null;
  insuranceId: number;
  lang: Language;
  traveller: ReviewTraveller;
}) {
  return callEndpoint(saveTravellerInfoEndpoint, {
    uuid: request.uuid,
    session_id: request.sessionId,
    agent_id: request.agentId,
    insurance_id: request.insuranceId,
    lang: request.lang,
    traveller: request.traveller,
  });
}
