import type { CallBackReason } from '../src/contract/quote.endpoints';
import type { StepId, WizardStepId } from './journey.routes';

/** What the web app read from the URL query and local storage when it started the journey. */
export interface JourneyInput {
  path: string;
  uuid: string | null;
  sessionId: string | null;
  agentId: string | null;
  /** The token of /policy/<token> when the app opened there; read from the path when absent. */
  policyToken?: string | null;
}

export interface JourneyContext {
  uuid: string | null;
  sessionId: string | null;
  agentId: string | null;
  /** Pages reached in this journey, kept in route-table order so equal journeys compare equal. */
  visited: StepId[];
  /** The path the app was opened on; only booting reads it, because guards cannot see the input. */
  entryPath: string;
  /** Why the call-back form was opened; set only while it shows (null: opened by its URL). */
  callBackReason: CallBackReason | null;
  /** The policy page shown (issue 37): the token of /policy/<token>; null elsewhere. */
  policyToken: string | null;
  /**
   * True when the policy page opened for a journey link to a paid lead (RULINGS 28): the page
   * says the trip is paid (to an agent: the customer has paid).
   */
  paidNotice: boolean;
}

/** Stage of a saved lead, as the leads chooser reports it: 1 quotes, 2 review, 3 checkout. */
export type LeadStage = 1 | 2 | 3;

export type JourneyEvent =
  /** Back/forward, a deep link, or a header link changed the URL; guards decide whether it stands. */
  | { type: 'route.changed'; path: string }
  /** Header click; only earlier header steps are accepted. */
  | { type: 'wizard.jump'; step: WizardStepId }
  | { type: 'details.submitted'; uuid: string; sessionId: string | null }
  | { type: 'lead.resumed'; uuid: string; sessionId?: string | null; stage: LeadStage }
  /** The lead was saved, but no plan can quote it online (RULINGS 12): it waits for a call. */
  | { type: 'lead.noQuote'; uuid: string; sessionId: string | null }
  | { type: 'journey.reset' }
  | { type: 'quote.chosen' }
  | { type: 'compare.opened' }
  | { type: 'compare.closed' }
  | { type: 'review.completed' }
  /** The lead has no chosen plan (any more): back to its quotes, replacing the review in history. */
  | { type: 'review.planMissing' }
  /** The DOB dialog's "Update Details" (RULINGS 8): travel details with the same lead, to re-quote. */
  | { type: 'review.updateDetails' }
  | { type: 'checkout.paidInFull' }
  /** Checkout found no chosen plan (any more): back to the quotes, replacing checkout in history. */
  | { type: 'checkout.planMissing' }
  /** Checkout found a traveller not reviewed yet: back to review details, replacing checkout in history. */
  | { type: 'checkout.reviewMissing' }
  | { type: 'payment.returned' }
  /** "Try again" after a failed payment: checkout again, where Proceed makes a new attempt (a new merchant reference). */
  | { type: 'payment.retry' }
  /** The call-back offer was taken; without a reason, the page it was taken on gives one. */
  | { type: 'callBack.requested'; reason?: CallBackReason }
  | { type: 'callBack.submitted' }
  /** A journey page was opened for a lead that is paid (RULINGS 28): its policy page instead. */
  | { type: 'lead.paid'; policyToken: string }
  /** A paid trip's policy page, opened from the resume dialog or a result page. */
  | { type: 'policy.opened'; policyToken: string }
  /** "Buy again" on the policy page: travel details for a new quote, the travellers filled in. */
  | { type: 'policy.buyAgain' };

export type JourneyEventType = JourneyEvent['type'];

/** What the web app needs to put a step in the address bar. */
export interface ShowRouteParams {
  step: StepId;
  path: string;
  uuid: string | null;
  sessionId: string | null;
  /** True when the URL already changed or is being corrected, so no new history entry is wanted. */
  replace: boolean;
}
