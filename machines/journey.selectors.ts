import type { SnapshotFrom } from 'xstate';
import type { CallBackReason } from '../src/contract/quote.endpoints';
import type { journeyMachine } from './journey.machine';
import {
  STEP_PATHS,
  WIZARD_STEPS,
  isStepId,
  wizardIndexOf,
  type StepId,
  type WizardStepId,
} from './journey.routes';

export type JourneySnapshot = SnapshotFrom<typeof journeyMachine>;

export type WizardStepStatus = 'done' | 'current' | 'upcoming';

export interface WizardStepView {
  id: WizardStepId;
  index: number;
  status: WizardStepStatus;
}

export interface JourneyLead {
  uuid: string | null;
  sessionId: string | null;
  agentId: string | null;
}

/** The page being shown. */
export function selectStep(snapshot: JourneySnapshot): StepId {
  // `booting` is transient and always resolves within the first macrostep, so a snapshot a
  // screen can observe never rests there; travel details is where booting would lead anyway.
  return isStepId(snapshot.value) ? snapshot.value : 'travellerDetails';
}

export function selectPath(snapshot: JourneySnapshot): string {
  return STEP_PATHS[selectStep(snapshot)];
}

/** Header position of the page, or null on pages outside the header. */
export function selectWizardIndex(snapshot: JourneySnapshot): number | null {
  return wizardIndexOf(selectStep(snapshot));
}

/**
 * The four header steps with their status. On a header page, earlier steps are done and later
 * ones upcoming (even if seen before, since the header only jumps back). On other pages
 * (thank-you, call-back, payment result) none is current and a step is done once visited.
 */
export function selectWizardSteps(snapshot: JourneySnapshot): WizardStepView[] {
  const currentIndex = selectWizardIndex(snapshot);
  const { visited } = snapshot.context;
  return WIZARD_STEPS.map((wizardStep, index): WizardStepView => {
    let status: WizardStepStatus;
    if (currentIndex === null) {
      status = wizardStep.steps.some((step) => visited.includes(step)) ? 'done' : 'upcoming';
    } else if (index < currentIndex) {
      status = 'done';
    } else {
      status = index === currentIndex ? 'current' : 'upcoming';
    }
    return { id: wizardStep.id, index, status };
  });
}

export function selectLead(snapshot: JourneySnapshot): JourneyLead {
  const { uuid, sessionId, agentId } = snapshot.context;
  return { uuid, sessionId, agentId };
}

/** Agent mode: share buttons instead of payment controls. */
export function selectIsAgent(snapshot: JourneySnapshot): boolean {
  return snapshot.context.agentId !== null;
}

export function selectVisited(snapshot: JourneySnapshot): readonly StepId[] {
  return snapshot.context.visited;
}

/** Why the call-back form is open; opened by its URL alone, it is the customer's own request. */
export function selectCallBackReason(snapshot: JourneySnapshot): CallBackReason {
  return snapshot.context.callBackReason ?? 'customer_request';
}
