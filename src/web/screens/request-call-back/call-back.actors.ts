import { fromPromise } from 'xstate';
import type { Language } from '../../../contract/endpoint';
import { callBackMachine } from '../../../../machines/call-back/call-back.machine';
import { blankCallBackValues } from '../../../../machines/call-back/call-back.payload';
import type { CallBackValues } from '../../../../machines/call-back/call-back.types';
import { requestCallBack } from '../../services/call-back.service';
import { fetchPersonalDetails } from '../../services/lead.service';
import { fetchCountryCodeOptions } from '../../services/reference.service';
import { typedContact } from '../../journey/typed-contact';
import { localStore } from '../../storage/local-store';

/** The call-back form's calls and storage writes (DESIGN convention 1). */

const CONTACT_KEYS = ['name', 'email', 'phone_country_code', 'phone_number'] as const;

/** Stored personal_details (the travel details last saved here) carry the contact fields. */
function hasContact(value: unknown): value is CallBackValues {
  return typeof value === 'object' && value !== null && CONTACT_KEYS.every((key) => typeof (value as Record<string, unknown>)[key] === 'string');
}

const pickContact = (source: CallBackValues): CallBackValues => ({
  name: source.name,
  email: source.email,
  phone_country_code: source.phone_country_code || blankCallBackValues().phone_country_code,
  phone_number: source.phone_number,
});

/**
 * Who the visitor said they were: what they typed just before (saved or not, RULINGS 13), each
 * empty field filled from the stored personal details, else the lead they are on, else nothing.
 * A lead that cannot be read only means typing the details again.
 */
export async function loadCallBackValues(lang: Language, leadUuid: string | null, typed: CallBackValues | null = typedContact()): Promise<CallBackValues> {
  const saved = await savedCallBackValues(lang, leadUuid);
  if (!typed) return saved;
  const typedPhone = typed.phone_number !== '';
  return {
    name: typed.name.trim() ? typed.name : saved.name,
    email: typed.email.trim() ? typed.email : saved.email,
    phone_country_code: typedPhone ? typed.phone_country_code || saved.phone_country_code : saved.phone_country_code,
    phone_number: typedPhone ? typed.phone_number : saved.phone_number,
  };
}

async function savedCallBackValues(lang: Language, leadUuid: string | null): Promise<CallBackValues> {
  const stored = localStore.getJson('personal_details', hasContact);
  if (stored) return pickContact(stored);
  if (leadUuid) {
    try {
      return pickContact((await fetchPersonalDetails(leadUuid, lang)).lead_details);
    } catch (error) {
      console.warn('call back: the lead could not be read to prefill the form:', error);
    }
  }
  return blankCallBackValues();
}

export const callBackLogic = callBackMachine.provide({
  actors: {
    loadForm: fromPromise(async ({ input }) => {
      const [phoneCodes, values] = await Promise.all([fetchCountryCodeOptions(input.lang), loadCallBackValues(input.lang, input.leadUuid)]);
      return { phoneCodes, values };
    }),
    sendRequest: fromPromise(({ input }) => requestCallBack(input)),
  },
  actions: {
    // Spec §3 `callBack`: this browser has asked for a call.
    storeSent: () => localStore.set('callBack', '1'),
  },
});
