import { HOME_PHONE_CODE, onlyDigits, phoneDigits } from '../../contract/digits';
import type { Language } from '../../contract/endpoint';
import type { TravelDetailsPrefill, Utm } from '../../../machines/travel-details/travel-details.types';
import { isLanguage, storedLanguage } from '../i18n/locale';
import { insuranceTypeOf } from './route-location';
import { AGENT_RESET_KEYS, DRAFT_KEYS, localStore } from '../storage/local-store';

export interface StartupState {
  lang: Language;
  uuid: string | null;
  sessionId: string | null;
  agentId: string | null;
  /** The query string to keep in the address bar (without `state`). */
  search: string;
}

/**
 * Applies the entry query of spec §2 to local storage, once, before the app renders:
 * `state` is removed (and `state=new` clears the drafts), `agent_id` starts agent mode
 * (spec §4), `lang`, `uuid` and `sid`/`session_id` are stored. The query wins over storage.
 */
export function applyStartupQuery(search: string): StartupState {
  const query = new URLSearchParams(search);
  const state = query.get('state');
  if (state !== null) {
    query.delete('state');
    if (state === 'new') localStore.removeAll(DRAFT_KEYS);
  }
  const agentId = query.get('agent_id');
  if (agentId) {
    localStore.removeAll(AGENT_RESET_KEYS);
    localStore.set('agent_id', agentId);
  }
  const lang = query.get('lang');
  if (isLanguage(lang)) localStore.set('language', lang);
  const uuid = query.get('uuid');
  // The stored session id belongs to the stored lead: a link to another lead (an agent's, a
  // mistyped one) must not carry this device's session id into its address (issue 37).
  const storedSessionIsThisLeads = !uuid || uuid.toLowerCase() === localStore.get('uuid')?.toLowerCase();
  if (uuid) localStore.set('uuid', uuid);
  const sessionId = query.get('sid') ?? query.get('session_id');
  if (sessionId) localStore.set('session_id', sessionId);
  else if (uuid && !storedSessionIsThisLeads) localStore.remove('session_id');

  const rest = query.toString();
  return {
    lang: storedLanguage(),
    uuid: uuid || null,
    sessionId: sessionId || (storedSessionIsThisLeads ? localStore.get('session_id') : null),
    agentId: localStore.get('agent_id'),
    search: rest ? `?${rest}` : '',
  };
}

/** What a link to the entry page may carry besides the lead (spec §2 query parameters). */
export interface EntryQuery {
  prefill: TravelDetailsPrefill;
  utm: Utm;
}

const text = (query: URLSearchParams, key: string) => query.get(key)?.trim() || null;

/**
 * Reads name, email, pn and country_code (default 961) to prefill the travel details, and the
 * utm_* parameters carried onto the lead. Issue 8 row 7: country_code must look like a calling
 * code (1 to 4 digits, Arabic-keyboard ones too) or +961 is used; the travel details step then
 * keeps it only if get-country-codes lists it (knownCallingCode). pn goes through the phone
 * field's own normaliser, so it is capped for the code as if it had been pasted.
 */
export function readEntryQuery(search: string): EntryQuery {
  const query = new URLSearchParams(search);
  const code = onlyDigits(query.get('country_code') ?? '');
  const phoneCountryCode = /^\d{1,4}$/.test(code) ? `+${code}` : HOME_PHONE_CODE;
  const pn = query.get('pn');
  const tripType = insuranceTypeOf(search);
  return {
    prefill: {
      name: text(query, 'name'),
      email: text(query, 'email'),
      phoneNumber: (pn && phoneDigits(pn, phoneCountryCode)) || null,
      phoneCountryCode,
      // insurance_type preselects the trip type; an unknown value is ignored (issue 8 row 4).
      ...(tripType === null ? {} : { tripType }),
    },
    utm: {
      utm_source: text(query, 'utm_source'),
      utm_medium: text(query, 'utm_medium'),
      utm_campaign: text(query, 'utm_campaign'),
      utm_content: text(query, 'utm_content'),
    },
  };
}
