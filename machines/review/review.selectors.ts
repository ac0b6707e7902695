import type { SnapshotFrom } from 'xstate';
import { reviewFieldRules, type FieldRule, type ReviewErrors, type ReviewField, type ReviewPlan, type ReviewTravellerValues } from '../../src/contract/traveller-review.rules';
import type { JourneyEvent } from '../journey.types';
import type { reviewMachine } from './review.machine';
import type { ReviewContext, ReviewDrafts, ReviewOptions, ReviewOutput } from './review.types';

export type ReviewSnapshot = SnapshotFrom<typeof reviewMachine>;

/** What the page shows: the wait message, the review, the error view, or nothing (the journey moves on). */
export type ReviewViewState = 'loading' | 'ready' | 'failed' | 'done';

export function selectViewState(snapshot: ReviewSnapshot): ReviewViewState {
  if (snapshot.status === 'done') return 'done';
  if (snapshot.matches('reviewing')) return 'ready';
  if (snapshot.matches('failed')) return 'failed';
  return 'loading';
}

/** The traveller whose form is open (or about to open), as the form needs it. */
export interface CurrentTraveller {
  /** The saved traveller row's id. */
  id: number;
  index: number;
  /** 1-based, for "Traveller 2 of 3". */
  number: number;
  /** What the form shows: what was last submitted (refused or in flight), else its unsaved draft, else the saved values with their defaults. */
  values: ReviewTravellerValues;
  saved: boolean;
  /** Which fields this traveller is asked for, and which are required (spec §5, §9). */
  rules: Record<ReviewField, FieldRule>;
}

export function selectCurrentTraveller(snapshot: ReviewSnapshot): CurrentTraveller | null {
  const { context } = snapshot;
  const traveller = context.travellers[context.index];
  if (!traveller || !context.plan) return null;
  return {
    id: traveller.id,
    index: context.index,
    number: context.index + 1,
    values: context.submitted ?? context.drafts[traveller.id] ?? traveller.values,
    saved: traveller.saved,
    rules: reviewFieldRules(context.plan, context.index),
  };
}

export const selectTravellerCount = (snapshot: ReviewSnapshot): number => snapshot.context.travellers.length;
/** Previous is disabled on the first traveller (the button reads `can('traveller.previous')` too). */
export const selectIsFirst = (snapshot: ReviewSnapshot): boolean => snapshot.context.index === 0;
export const selectIsLast = (snapshot: ReviewSnapshot): boolean => snapshot.context.index === snapshot.context.travellers.length - 1;

/** A traveller form is shown: not while the saved one closes before the next opens. */
export const selectFormOpen = (snapshot: ReviewSnapshot): boolean => snapshot.hasTag('editing');
/** The open form is being saved: Proceed shows its loader and nothing else can be sent. */
export const selectSaving = (snapshot: ReviewSnapshot): boolean => snapshot.hasTag('busy') && snapshot.hasTag('editing');

/** Every traveller's unsaved form by traveller id; the language switch keeps them across its reload. */
export const selectDrafts = (snapshot: ReviewSnapshot): ReviewDrafts => snapshot.context.drafts;

/** The server's field codes for the open form; the first invalid field is focused. */
export const selectServerErrors = (snapshot: ReviewSnapshot): ReviewErrors => snapshot.context.serverErrors;

/** The DOB dialog (RULINGS 8) with the server's message. */
export function selectDobDialog(snapshot: ReviewSnapshot): { open: boolean; message: string | null } {
  return { open: snapshot.matches({ reviewing: { form: 'dobError' } }), message: snapshot.context.dobMessage };
}

/** A save failed for a reason the form cannot fix: the system error dialog. */
export const selectSaveFailed = (snapshot: ReviewSnapshot): boolean => snapshot.context.saveFailed;

export const selectInvoice = (snapshot: ReviewSnapshot): ReviewContext['invoice'] => snapshot.context.invoice;
export const selectLead = (snapshot: ReviewSnapshot): ReviewContext['lead'] => snapshot.context.lead;
export const selectCustomer = (snapshot: ReviewSnapshot): ReviewContext['customer'] => snapshot.context.customer;
export const selectOptions = (snapshot: ReviewSnapshot): ReviewOptions | null => snapshot.context.options;
export const selectPlan = (snapshot: ReviewSnapshot): ReviewPlan | null => snapshot.context.plan;
export const selectWhatsappTemplate = (snapshot: ReviewSnapshot): string => snapshot.context.whatsappTemplate;

/** The passports of the lead's other travellers: two travellers of one policy cannot share one. */
export function selectOtherPassports(snapshot: ReviewSnapshot): (string | null)[] {
  const { travellers, index } = snapshot.context;
  return travellers.filter((_, position) => position !== index).map((traveller) => traveller.values.passport);
}

export const selectSharing = (snapshot: ReviewSnapshot): boolean => snapshot.matches({ reviewing: { share: 'sending' } });
export const selectEmailSent = (snapshot: ReviewSnapshot): boolean => snapshot.context.emailSent;

/** How the step ended, once it has; reviewOutcomeEvent tells the journey. */
export const selectOutcome = (snapshot: ReviewSnapshot): ReviewOutput | null => (snapshot.status === 'done' ? (snapshot.output ?? null) : null);

/**
 * The journey event that follows the review's output; the journey hook applies it, so no
 * screen decides where the journey goes.
 */
export function reviewOutcomeEvent(output: ReviewOutput): JourneyEvent {
  switch (output.type) {
    case 'completed':
      return { type: 'review.completed' };
    case 'planMissing':
      return { type: 'review.planMissing' };
    case 'updateDetails':
      return { type: 'review.updateDetails' };
    case 'finished':
      return { type: 'journey.reset' };
  }
}
