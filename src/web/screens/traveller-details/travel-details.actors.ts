import { fromPromise } from 'xstate';
import { HOME_COUNTRY_ID } from '../../../contract/travel-details.rules';
import type { RecentSearch } from '../../../contract/lead.endpoints';
import { travelDetailsMachine } from '../../../../machines/travel-details/travel-details.machine';
import type { SavedLead, TravelDetailsReference, TravelDetailsValues } from '../../../../machines/travel-details/travel-details.types';
import { checkAgent, fetchPersonalDetails, fetchRecentLeads, saveLead } from '../../services/lead.service';
import { fetchCountryCodeOptions, fetchCountryOptions, fetchTravelConfigs } from '../../services/reference.service';
import { localStore } from '../../storage/local-store';
import { clearThankYou, storeThankYou } from '../../storage/journey-flags';

/**
 * The travel details machine with its calls and storage writes (DESIGN convention 1). Failed
 * calls reject with the service's ApiError, whose kind, status and envelope the machine reads.
 */

/** Countries (Lebanon left out: it is never picked, RULINGS 4), calling codes and the limits. */
export async function loadTravelDetailsReference(lang: Parameters<typeof fetchCountryOptions>[0]): Promise<TravelDetailsReference> {
  const [countries, phoneCodes, configs] = await Promise.all([
    fetchCountryOptions(lang),
    fetchCountryCodeOptions(lang),
    fetchTravelConfigs(lang),
  ]);
  return {
    countries: countries.filter((country) => country.value !== String(HOME_COUNTRY_ID)),
    phoneCodes,
    maxTravellers: configs.maxTravellerCount,
    familyChildMaxAge: configs.familyChildMaxAge,
  };
}

/** The device's leads, then its other recent searches, one entry per lead. */
export function mergeRecentLeads(leads: RecentSearch[], recent: RecentSearch[]): RecentSearch[] {
  const seen = new Set<string>();
  return [...leads, ...recent].filter((lead) => !seen.has(lead.uuid_lead) && seen.add(lead.uuid_lead));
}

/**
 * Spec §3 stored keys once the details are saved: the lead, its session and the device. The
 * `thankyou` flag marks a lead kept for a manual quote (RULINGS 12), so its later pages send the
 * customer back to travel details; a lead that quotes online clears it.
 */
export function storeSubmittedLead(saved: SavedLead, values: TravelDetailsValues): void {
  localStore.set('uuid', saved.uuid);
  if (saved.sessionId) localStore.set('session_id', saved.sessionId);
  else localStore.remove('session_id');
  localStore.set('device_uuid', saved.deviceUuid);
  localStore.set('map_id', String(saved.leadMapId));
  localStore.setJson('personal_details', values);
  localStore.set('traveller_index', '0');
  if (saved.noQuote) storeThankYou(saved.uuid);
  else clearThankYou();
}

/**
 * Spec §2: choosing a lead from the chooser sets traveller index 0 and makes it the lead. The
 * `thankyou` flag was about the lead entered last, not this one.
 */
export function storeResumedLead(uuid: string): void {
  localStore.set('uuid', uuid);
  localStore.set('traveller_index', '0');
  clearThankYou();
}

export const travelDetailsLogic = travelDetailsMachine.provide({
  actors: {
    loadReference: fromPromise(({ input }) => loadTravelDetailsReference(input.lang)),
    loadLead: fromPromise(async ({ input }) => (await fetchPersonalDetails(input.uuid, input.lang)).lead_details),
    loadRecentLeads: fromPromise(async ({ input }) => {
      const { leads, recent } = await fetchRecentLeads(input.deviceUuid, input.lang);
      return mergeRecentLeads(leads, recent);
    }),
    checkAgent: fromPromise(({ input }) => checkAgent(input.agentId, input.lang)),
    saveLead: fromPromise(async ({ input }): Promise<SavedLead> => {
      const saved = await saveLead(input);
      return {
        uuid: saved.uuid,
        sessionId: saved.session_id,
        deviceUuid: saved.device_uuid,
        leadMapId: saved.lead_map_id,
        noQuote: saved.redirect === 'thank-you',
      };
    }),
  },
  actions: {
    storeSubmitted: (_, { saved, values }) => storeSubmittedLead(saved, values),
    storeResumed: (_, { uuid }) => storeResumedLead(uuid),
  },
});
