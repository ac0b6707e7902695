import type { Language, Option } from '../../src/contract/endpoint';
import type { CallBackReason } from '../../src/contract/quote.endpoints';
import type { ContactDetails, TravelDetailsErrors } from '../../src/contract/travel-details.rules';

/** What the call-back form holds: who to call (the same fields and rules as travel details). */
export type CallBackValues = ContactDetails;

export interface CallBackInput {
  lang: Language;
  /** Why the form was opened (journey context); the broker's list shows it. */
  reason: CallBackReason;
  /** The lead the visitor was on, when there is one. */
  leadUuid: string | null;
  /** From ?agent_id=; anything but a positive whole number is sent as no agent. */
  agentId: number | null;
}

/** What the form needs before it shows: calling codes, and the values to start from. */
export interface CallBackForm {
  phoneCodes: Option[];
  values: CallBackValues;
}

export interface LoadCallBackFormInput {
  lang: Language;
  leadUuid: string | null;
}

/** Codes of the step's own failures (field codes come from TRAVEL_DETAILS_CODES). */
export type CallBackFailure = 'load_failed' | 'rate_limited' | 'agent_unknown' | 'send_failed';

export interface CallBackContext {
  lang: Language;
  reason: CallBackReason;
  leadUuid: string | null;
  agentId: number | null;
  phoneCodes: Option[];
  /** What the form starts from; replaced only when the form is loaded. */
  values: CallBackValues;
  /** The values of the last submit, kept while sending and after a refusal. */
  submitted: CallBackValues | null;
  /** Field -> code from the server's refusal of the last request. */
  serverErrors: TravelDetailsErrors;
  failure: CallBackFailure | null;
  /** The stored call-back task, once sent; becomes the output. */
  callBackId: number | null;
}

export type CallBackEvent = { type: 'callBack.submit'; values: CallBackValues };

export interface CallBackOutput {
  callBackId: number;
}

/** request-call-back's payload (requestCallBackEndpoint); the web service sends it as built. */
export interface CallBackPayload {
  name: string;
  email: string;
  phone_country_code: string;
  phone_number: string;
  uuid: string | null;
  reason: CallBackReason;
  agent_id: number;
  lang: Language;
}
