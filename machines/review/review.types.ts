import type { InferOutput } from 'valibot';
import type { Language, Option } from '../../src/contract/endpoint';
import type { Invoice } from '../../src/contract/invoice.schema';
import type { LeadDetails, personalDetailsEndpoint } from '../../src/contract/lead.endpoints';
import type { ReviewTraveller, saveTravellerInfoEndpoint } from '../../src/contract/review.endpoints';
import type { ReviewErrors, ReviewPlan, ReviewTravellerValues } from '../../src/contract/traveller-review.rules';
import type { LoadFailure } from '../service-failure';
import type { ServiceFailure } from '../travel-details/travel-details.types';

export type { ServiceFailure };

/** How long the saved traveller's form stays closed before the next one opens (spec §9: 0.5 s). */
export const NEXT_TRAVELLER_DELAY_MS = 500;

export interface ReviewInput {
  lang: Language;
  /** The journey's lead; without one nothing is loaded (the journey sends the user to travel details). */
  uuid: string | null;
  sessionId: string | null;
  /** The agent's id (agent mode, RULINGS 15), or null for a customer. */
  agentId: number | null;
  /** This page's address as the agent shares it (send-email-by-page), or null. */
  link: string | null;
  /** The stored traveller index (spec §3 traveller_index): a reload resumes there. */
  storedIndex: number;
  /** A thank-you flag is stored (spec §2): the journey is over, travel details starts a new one. */
  thankYou: boolean;
  /** Unsaved forms kept across the language switch's reload (issue 17), by traveller id. */
  drafts?: ReviewDrafts;
}

/**
 * What was typed into a traveller's form and not saved yet, by the traveller's id: the form
 * opens with it again after Previous, a refused save or a language switch (issue 17).
 */
export type ReviewDrafts = Record<number, ReviewTravellerValues>;

/** The lists the traveller form offers; countries come as searchable options from the web. */
export interface ReviewOptions {
  titles: Option[];
  genders: Option[];
  /** Countries of residence: every country. */
  residences: Option[];
  /** Nationalities the insurer covers for this trip (RULINGS 4). */
  nationalities: Option[];
  /** Relationships a later traveller may have to the principal (provider 3). */
  relationships: Option[];
}

/** get-personal-details as the review reads it. */
export type PersonalDetails = InferOutput<(typeof personalDetailsEndpoint)['data']>['customer'];

/** What loadReview brings: the lead with its chosen plan, and the form's lists for that plan. */
export interface ReviewData {
  details: PersonalDetails;
  options: ReviewOptions;
  /** The lead's WhatsApp share text for this page (agent mode), or ''. */
  whatsappTemplate: string;
}

/** One traveller as the review holds it: the saved row's id and its review values. */
export interface ReviewTravellerState {
  id: number;
  values: ReviewTravellerValues;
  /** Saved at review (the server's is_field). */
  saved: boolean;
}

/**
 * Tags across the review's states, read by the selectors instead of state paths: `busy` while
 * the lead loads, a traveller saves or the saved form closes; `editing` while a traveller form
 * is open (also behind the DOB dialog and while it saves).
 */
export type ReviewTag = 'busy' | 'editing';

/** Why the page cannot show the review: the lead could not be read. */
export type ReviewFailure = LoadFailure;

export interface ReviewContext extends ReviewInput {
  lead: LeadDetails | null;
  invoice: Invoice | null;
  customer: PersonalDetails['get_customer'] | null;
  options: ReviewOptions | null;
  whatsappTemplate: string;
  plan: ReviewPlan | null;
  travellers: ReviewTravellerState[];
  /** The traveller whose form is open (or about to open). */
  index: number;
  /** Field -> code from the server's refusal of the last save of this traveller. */
  serverErrors: ReviewErrors;
  /** The values of the save in flight or last refused, so the form keeps what was typed. */
  submitted: ReviewTravellerValues | null;
  /** Each traveller's unsaved form, left by Previous or a refused save; dropped once saved. */
  drafts: ReviewDrafts;
  /** The server's message of an `error: "dob"` answer (RULINGS 8), shown in the DOB dialog. */
  dobMessage: string | null;
  /** The last save failed for a reason the form cannot fix (network, server): the system error dialog. */
  saveFailed: boolean;
  failure: ReviewFailure | null;
  /** The share e-mail went out; the toast shows while this is true (5 s). */
  emailSent: boolean;
  outcome: ReviewOutput | null;
}

export type ReviewEvent =
  /** Proceed on the open form: save this traveller with these values. */
  | { type: 'traveller.save'; values: ReviewTravellerValues }
  /** Previous: back to the traveller before (not on the first); `values` is the open form, kept as its draft. */
  | { type: 'traveller.previous'; values?: ReviewTravellerValues }
  /** The DOB dialog's "Update Details": back to travel details to re-quote. */
  | { type: 'dob.update' }
  /** The DOB dialog closed without leaving: the form stays as it was. */
  | { type: 'dob.dismiss' }
  | { type: 'saveFailed.dismiss' }
  /** Agent mode: e-mail this page to the customer. */
  | { type: 'share.email' };

export type ReviewEventType = ReviewEvent['type'];

/** How the review step ended; reviewOutcomeEvent maps it to the journey's event. */
export type ReviewOutput =
  /** Every traveller is saved (stage 3): checkout. */
  | { type: 'completed' }
  /** No plan is chosen for this lead (any more): back to its quotes. */
  | { type: 'planMissing' }
  /** The DOB dialog's button: travel details, with the lead, to change the date and re-quote. */
  | { type: 'updateDetails' }
  /** A thank-you flag is stored: the journey restarts at travel details. */
  | { type: 'finished' };

export interface LoadReviewInput {
  uuid: string;
  sessionId: string | null;
  lang: Language;
  link: string | null;
}

/** save-traveller-info's answer, as the machine reads it. */
export type SaveTravellerResult = InferOutput<(typeof saveTravellerInfoEndpoint)['data']>;

export interface SaveTravellerInput {
  uuid: string;
  sessionId: string | null;
  agentId: number | null;
  insuranceId: number;
  lang: Language;
  traveller: ReviewTraveller;
}

export interface ReviewSendEmailInput {
  uuid: string;
  lang: Language;
  agentId: number;
  link: string;
  pagename: 'review-details';
}
