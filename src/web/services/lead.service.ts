import {
  addCustomerLeadEndpoint,
  agentCheckEndpoint,
  latestLeadsByDeviceEndpoint,
  personalDetailsEndpoint,
  type AddCustomerLeadRequest,
} from '../../contract/lead.endpoints';
import type { Language } from '../../contract/endpoint';
import { callEndpoint } from './http-client';

/** Saves the travel details as a new lead, or updates the lead named by `uuid`. */
export function saveLead(payload: AddCustomerLeadRequest) {
  return callEndpoint(addCustomerLeadEndpoint, payload);
}

/** The saved lead, to restore the form when the customer comes back with ?uuid=. */
export async function fetchPersonalDetails(uuid: string, lang: Language) {
  return (await callEndpoint(personalDetailsEndpoint, { uuid, lang })).customer;
}

/** Leads recently entered on this device, for the chooser dialog. */
export function fetchRecentLeads(deviceUuid: string, lang: Language) {
  return callEndpoint(latestLeadsByDeviceEndpoint, { device_uuid: deviceUuid, lang });
}

/** The agent named by ?agent_id=, or an ApiError (kind invalid, agent_id: agent_unknown). */
export async function checkAgent(agentId: number, lang: Language) {
  return (await callEndpoint(agentCheckEndpoint, { agent_id: agentId, lang })).agent;
}
