/**
 * Route table of the journey: the single place that knows which path shows which step.
 * The machine owns the step and the URL mirrors it, so the web app and the machine both read
 * this table instead of spelling paths themselves.
 */

export const STEP_IDS = [
  'travellerDetails',
  'compareQuotes',
  'compareOffers',
  'reviewDetails',
  'checkout',
  'thankYou',
  'callBack',
  'thankYouHundred',
  'requestCallBack',
  'paymentResult',
  'policy',
] as const;

export type StepId = (typeof STEP_IDS)[number];

export const STEP_PATHS: Record<StepId, string> = {
  travellerDetails: '/traveller-details',
  compareQuotes: '/compare-quotes',
  compareOffers: '/compare-offers',
  reviewDetails: '/review-details',
  checkout: '/checkout',
  thankYou: '/thank-you',
  callBack: '/call-back',
  thankYouHundred: '/thank-you-p',
  requestCallBack: '/request-call-back',
  paymentResult: '/payment-result',
  // A policy's own page is /policy/<token> (issue 37, RULINGS 28): stepPath writes the token in.
  policy: '/policy',
};

const POLICY_PREFIX = '/policy/';

/** The policy-page token a path names (/policy/<token>), or null. The server checks the token itself. */
export function policyTokenOfPath(pathname: string): string | null {
  const trimmed = pathname.replace(/\/+$/, '');
  if (trimmed.slice(0, POLICY_PREFIX.length).toLowerCase() !== POLICY_PREFIX) return null;
  const token = trimmed.slice(POLICY_PREFIX.length);
  return /^[A-Za-z0-9_-]{1,128}$/.test(token) ? token : null;
}

/** The address of a step: its path, or the policy's own for the policy page. */
export function stepPath(step: StepId, policyToken: string | null): string {
  return step === 'policy' && policyToken ? `${POLICY_PREFIX}${policyToken}` : STEP_PATHS[step];
}

// Matching is case-insensitive because React Router matches that way by default; the machine
// and the router must never disagree about which step a URL names.
const STEP_BY_PATH: ReadonlyMap<string, StepId> = new Map(
  STEP_IDS.map((step) => [STEP_PATHS[step].toLowerCase(), step]),
);

export function isStepId(value: unknown): value is StepId {
  // Stryker disable next-line ConditionalExpression: the typeof check set to true is equivalent, as includes() finds no non-string among step ids (this also leaves out the whole check set to true or false, which 'tells a step id from any other value' kills, checked by hand)
  return typeof value === 'string' && (STEP_IDS as readonly string[]).includes(value);
}

/** The step a pathname shows, or null for the root and unknown paths (they fall back to travel details). */
export function stepForPath(pathname: string): StepId | null {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: trimming a one-character path turns '/' into '', and neither names a step (this also leaves out false and <=, which the trailing-slash tests kill)
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (policyTokenOfPath(trimmed) !== null) return 'policy';
  return STEP_BY_PATH.get(trimmed.toLowerCase()) ?? null;
}

/** The four steps of the wizard header, in journey order, with the pages each one covers. */
export const WIZARD_STEPS = [
  { id: 'travel', steps: ['travellerDetails'] },
  { id: 'quotes', steps: ['compareQuotes', 'compareOffers'] },
  { id: 'review', steps: ['reviewDetails'] },
  { id: 'purchase', steps: ['checkout'] },
] as const satisfies readonly { id: string; steps: readonly StepId[] }[];

export type WizardStepId = (typeof WIZARD_STEPS)[number]['id'];

export const WIZARD_STEP_IDS: readonly WizardStepId[] = WIZARD_STEPS.map((wizardStep) => wizardStep.id);

/** Header position of a page; null for pages outside the header (thank-you, call-back, payment result, policy). */
export function wizardIndexOf(step: StepId): number | null {
  const index = WIZARD_STEPS.findIndex((wizardStep) => (wizardStep.steps as readonly StepId[]).includes(step));
  return index === -1 ? null : index;
}

export function wizardStepIndex(wizardStep: WizardStepId): number {
  return WIZARD_STEP_IDS.indexOf(wizardStep);
}

/** The page a header jump lands on: the first page the header step covers. */
export function firstStepOf(wizardStep: WizardStepId): StepId {
  const found = WIZARD_STEPS.find((candidate) => candidate.id === wizardStep);
  // Stryker disable next-line StringLiteral: every header step is in WIZARD_STEPS, so the fallback is never reached
  return found ? found.steps[0] : 'travellerDetails';
}

/** Pages that show a lead and therefore cannot be opened without its uuid. */
export const STEPS_NEEDING_LEAD = ['compareQuotes', 'compareOffers', 'reviewDetails', 'checkout'] as const satisfies readonly StepId[];

export function needsLead(step: StepId): boolean {
  return (STEPS_NEEDING_LEAD as readonly StepId[]).includes(step);
}
