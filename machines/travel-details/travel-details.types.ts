import type { Language, Option } from '../../src/contract/endpoint';
import type { ErrorEnvelope } from '../../src/contract/envelope';
import type { RecentSearch } from '../../src/contract/lead.endpoints';
import type { TravelDetails, TravelDetailsCode, TravelDetailsErrors } from '../../src/contract/travel-details.rules';
import type { LeadStage } from '../journey.types';

/** What the form holds: the travel details plus the saved travellers removed from the list. */
export interface TravelDetailsValues extends TravelDetails {
  deleted_members: number[];
}

/** Reference lists the form needs (destinations and sources never include the home country). */
export interface TravelDetailsReference {
  countries: Option[];
  phoneCodes: Option[];
  maxTravellers: number;
  familyChildMaxAge: number;
}

/** Name, e-mail and phone carried by a marketing link (spec §2 entry query). */
export interface TravelDetailsPrefill {
  name: string | null;
  email: string | null;
  phoneNumber: string | null;
  /** Calling code with its "+", e.g. "+961". */
  phoneCountryCode: string | null;
  /** Trip type named by `insurance_type` (spec §2; 1 single, 2 annual), preselected; absent or null: single. */
  tripType?: 1 | 2 | null;
}

export interface Utm {
  utm_source: string | null;
  utm_medium: string | null;
  utm_campaign: string | null;
  utm_content: string | null;
}

export interface TravelDetailsInput {
  lang: Language;
  /** The stored device id, which lists the leads entered earlier on this browser. */
  deviceUuid: string | null;
  /** The lead named by ?uuid=, restored into the form and updated on save. */
  leadUuid: string | null;
  sessionId: string | null;
  /** From ?agent_id= or storage; NaN or a non-positive number is an unknown agent. */
  agentId: number | null;
  prefill: TravelDetailsPrefill;
  utm: Utm;
  /**
   * "Buy again" from a policy page (issue 37): the form opens with that policy's trip and
   * travellers (no dates), no chooser, and the saved lead names the policy (from_policy).
   */
  buyAgain?: { policyToken: string; details: TravelDetails } | null;
}

/** Codes of the step's own failures (field codes come from TRAVEL_DETAILS_CODES). */
export type TravelDetailsFailure = 'reference_failed' | 'lead_failed';

export interface TravelDetailsContext {
  lang: Language;
  deviceUuid: string | null;
  leadUuid: string | null;
  sessionId: string | null;
  agentId: number | null;
  agentError: Extract<TravelDetailsCode, 'agent_unknown'> | null;
  prefill: TravelDetailsPrefill;
  utm: Utm;
  /** The policy whose travellers are bought for again (issue 37), or null. */
  fromPolicy: string | null;
  reference: TravelDetailsReference | null;
  recentLeads: RecentSearch[];
  /** What the form starts from; replaced only when a lead is restored or new details are chosen. */
  values: TravelDetailsValues;
  /** The values of the last submit, kept while saving and after a refused save. */
  submitted: TravelDetailsValues | null;
  /** Field -> code from the server's refusal of the last save. */
  serverErrors: TravelDetailsErrors;
  /** The last save failed for a reason the form cannot fix (network, server). */
  saveFailed: boolean;
  failure: TravelDetailsFailure | null;
  /** Set on the way to a final state; becomes the machine's output. */
  outcome: TravelDetailsOutput | null;
}

export type TravelDetailsEvent =
  | { type: 'leads.pick'; uuid: string; stage: LeadStage }
  | { type: 'leads.new' }
  | { type: 'details.submit'; values: TravelDetailsValues };

export type TravelDetailsEventType = TravelDetailsEvent['type'];

/** What add-customer-lead gave back, as the step needs it. */
export interface SavedLead {
  uuid: string;
  /** Null when the lead was edited by uuid alone: the server hands its session id only to its holder. */
  sessionId: string | null;
  deviceUuid: string;
  leadMapId: number;
  /** No plan can quote the trip online (add-customer-lead answered redirect "thank-you", RULINGS 12). */
  noQuote: boolean;
}

export type TravelDetailsOutput =
  | ({ type: 'submitted' } & SavedLead)
  /** Saved for a manual quote: the journey shows /thank-you instead of the quotes. */
  | ({ type: 'noQuote' } & SavedLead)
  | { type: 'resumed'; uuid: string; stage: LeadStage; sessionId: string | null };

/**
 * How a failed call is seen by the machine: the web's ApiError has this shape (kind, status and
 * the error envelope), and test stubs reject with plain objects of it.
 */
export interface ServiceFailure {
  kind: string;
  status: number | null;
  body: ErrorEnvelope | null;
}

export interface LoadLeadInput {
  uuid: string;
  lang: Language;
}
export interface LoadRecentLeadsInput {
  deviceUuid: string;
  lang: Language;
}
export interface CheckAgentInput {
  agentId: number;
  lang: Language;
}
