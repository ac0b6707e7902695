import { assign, setup } from 'xstate';
import {
  STEP_IDS,
  WIZARD_STEPS,
  firstStepOf,
  needsLead,
  policyTokenOfPath,
  stepForPath,
  stepPath,
  wizardIndexOf,
  wizardStepIndex,
  type StepId,
  type WizardStepId,
} from './journey.routes';
import type { CallBackReason } from '../src/contract/quote.endpoints';
import type { JourneyContext, JourneyEvent, JourneyEventType, JourneyInput, LeadStage, ShowRouteParams } from './journey.types';

export type { ShowRouteParams } from './journey.types';

const STAGE_STEPS: Record<LeadStage, StepId> = { 1: 'compareQuotes', 2: 'reviewDetails', 3: 'checkout' };

// The call-back offer a page makes when the event names no reason: the empty quote list and the
// no-online-quote page each offer it for their own reason; the header always names 'header'.
const PAGE_CALL_BACK_REASONS: Partial<Record<StepId, CallBackReason>> = {
  compareQuotes: 'no_quotes_found',
  thankYou: 'no_online_quote',
};

// Events that stand for a user action on the page: the step they lead to deserves its own history
// entry. Anything else (route.changed, and the init event while booting) means the address bar
// already shows, or must silently be corrected to, the step being entered. Typed as a record so a
// new event cannot be added without deciding this.
// review.planMissing, checkout.planMissing and checkout.reviewMissing are left out too: each
// corrects a page that cannot be shown (no chosen plan, a traveller not reviewed), so the page
// that can be shown replaces it and Back does not return to it.
// lead.paid too: the page of a paid lead cannot be shown, so its policy page replaces it, and Back
// does not return to a form for buying it again (RULINGS 28).
type ReplacingEventType = 'route.changed' | 'review.planMissing' | 'checkout.planMissing' | 'checkout.reviewMissing' | 'lead.paid';
// Stryker disable BooleanLiteral: replacesHistory asks only whether an event is a key of PUSHES_HISTORY (Object.hasOwn); the values are `true` for the type's sake and nothing reads them
const PUSHES_HISTORY: Record<Exclude<JourneyEventType, ReplacingEventType>, true> = {
  'wizard.jump': true,
  'details.submitted': true,
  'lead.resumed': true,
  'lead.noQuote': true,
  'journey.reset': true,
  'quote.chosen': true,
  'compare.opened': true,
  'compare.closed': true,
  'review.completed': true,
  'review.updateDetails': true,
  'checkout.paidInFull': true,
  'payment.returned': true,
  // A click on "Try again": checkout gets its own entry, so Back returns to the failure shown.
  'payment.retry': true,
  'callBack.requested': true,
  'callBack.submitted': true,
  'policy.opened': true,
  'policy.buyAgain': true,
};
// Stryker restore BooleanLiteral

function replacesHistory(event: { type: string }): boolean {
  return !Object.hasOwn(PUSHES_HISTORY, event.type);
}

// Route-table order keeps `visited` canonical, so two journeys through the same pages have equal
// contexts (the model-based tests rely on that to keep the state space small).
function inRouteOrder(steps: Iterable<StepId>): StepId[] {
  const wanted = new Set(steps);
  return STEP_IDS.filter((step) => wanted.has(step));
}

// A lead opened at a later page (deep link, resumed lead) was necessarily taken through the
// first page of each header step up to it (compare offers is reached from compare quotes), so
// they count as visited and back navigation to them works.
function stepsLeadingTo(step: StepId): StepId[] {
  const index = wizardIndexOf(step);
  // Stryker disable next-line ArrayDeclaration: inRouteOrder keeps only step ids, so whatever else this list holds is dropped
  const earlier = index === null ? [] : WIZARD_STEPS.slice(0, index + 1).map((wizardStep) => wizardStep.steps[0]);
  return inRouteOrder([...earlier, step]);
}

function canOpen(context: JourneyContext, step: StepId): boolean {
  if (step === 'policy') return context.policyToken !== null;
  return !needsLead(step) || context.uuid !== null;
}

function routeOf(step: StepId, context: JourneyContext, replace: boolean): ShowRouteParams {
  return { step, path: stepPath(step, context.policyToken), uuid: context.uuid, sessionId: context.sessionId, replace };
}

// Test-model traversals may build an initial snapshot without input, and a URL may carry
// `uuid=` with nothing after it; both must boot like a fresh visit.
function initialContext(input: JourneyInput | undefined): JourneyContext {
  return {
    uuid: input?.uuid || null,
    sessionId: input?.sessionId || null,
    agentId: input?.agentId || null,
    // Stryker disable next-line ArrayDeclaration: every way out of booting restarts the visits, so this first list is never read
    visited: [],
    entryPath: input?.path ?? '',
    callBackReason: null,
    policyToken: input?.policyToken ?? policyTokenOfPath(input?.path ?? ''),
    paidNotice: false,
  };
}

const machineSetup = setup({
  types: {
    context: {} as JourneyContext,
    events: {} as JourneyEvent,
    input: {} as JourneyInput,
  },
  actions: {
    // Injected by the web app: navigates when the URL differs. The machine never touches the URL.
    showRoute: (_, _params: ShowRouteParams) => {},
    markVisited: assign(({ context }, params: { step: StepId }) => ({
      visited: inRouteOrder([...context.visited, params.step]),
    })),
    restartVisits: assign((_, params: { upTo: StepId }) => ({ visited: stepsLeadingTo(params.upTo) })),
    // A lead brought back to one of its pages has been through the pages before it (as on a deep link).
    addVisitsTo: assign(({ context }, params: { step: StepId }) => ({
      visited: inRouteOrder([...context.visited, ...stepsLeadingTo(params.step)]),
    })),
    forgetVisits: assign(({ context }, params: { steps: readonly StepId[] }) => ({
      visited: context.visited.filter((step) => !params.steps.includes(step)),
    })),
    setLead: assign((_, params: { uuid: string | null; sessionId: string | null }) => ({
      uuid: params.uuid,
      sessionId: params.sessionId,
    })),
    setCallBackReason: assign((_, params: { reason: CallBackReason | null }) => ({ callBackReason: params.reason })),
    // The policy page holds no lead: its address carries the policy's token alone, and Back to a
    // page of the paid lead is refused (it needs a lead), so it stays on the policy (RULINGS 28).
    showPolicy: assign((_, params: { policyToken: string; paidNotice: boolean }) => ({
      policyToken: params.policyToken,
      paidNotice: params.paidNotice,
      uuid: null,
      sessionId: null,
      visited: stepsLeadingTo('policy'),
    })),
    // Kept while the call-back pages or travel details are reached from the policy, so Back opens
    // it again; dropped once another lead is taken up or the journey starts over.
    leavePolicy: assign({ policyToken: null, paidNotice: false }),
  },
  guards: {
    canBootAt: ({ context }, params: { step: StepId }) =>
      stepForPath(context.entryPath) === params.step && canOpen(context, params.step),
    isCurrentPath: ({ event }, params: { step: StepId }) =>
      event.type === 'route.changed' && stepForPath(event.path) === params.step,
    canVisitPath: ({ context, event }, params: { step: StepId }) =>
      event.type === 'route.changed' &&
      stepForPath(event.path) === params.step &&
      (params.step === 'travellerDetails' || context.visited.includes(params.step)) &&
      canOpen(context, params.step),
    canJumpBack: ({ event }, params: { from: StepId; to: WizardStepId }) => {
      const fromIndex = wizardIndexOf(params.from);
      return (
        event.type === 'wizard.jump' &&
        event.step === params.to &&
        // Stryker disable next-line ConditionalExpression: navigationFrom makes no wizard.jump transition on a page outside the header, so fromIndex is never null here (were it, `< null` would refuse too)
        fromIndex !== null &&
        // Stryker disable next-line ConditionalExpression,EqualityOperator: navigationFrom only makes wizard.jump transitions to header steps before the page's, so this is always true where it runs (this also leaves out the line's false and >=, which the wizard.jump tests kill)
        wizardStepIndex(params.to) < fromIndex
      );
    },
    isStage: ({ event }, params: { stage: LeadStage }) => event.type === 'lead.resumed' && event.stage === params.stage,
    hasLead: ({ context }) => context.uuid !== null,
  },
});

/** Entry of every page: record the visit, then let the web app mirror the step in the URL. */
function enter(step: StepId) {
  return [
    { type: 'markVisited', params: { step } },
    {
      type: 'showRoute',
      params: ({ context, event }: { context: JourneyContext; event: JourneyEvent }) =>
        routeOf(step, context, replacesHistory(event)),
    },
  ] as const;
}

/**
 * The pages of a quoted lead. /thank-you (a lead that cannot be quoted online) never shares a
 * visit history with them: the visits restart whenever the lead changes (details.submitted,
 * lead.resumed, lead.noQuote, a deep link), so the address bar can never move between the two
 * and the machine has no transition for it (issue 20: none that cannot fire).
 */
const QUOTED_LEAD_PAGES: ReadonlySet<StepId> = new Set(['compareQuotes', 'compareOffers', 'reviewDetails', 'checkout', 'thankYouHundred', 'paymentResult']);
/**
 * The policy page holds no lead, and the visits restart whenever a lead is taken up again, so it
 * shares a visit history only with travel details (Back from the policy) and the call-back pages.
 */
const POLICY_SHARES_VISITS_WITH: ReadonlySet<StepId> = new Set(['travellerDetails', 'callBack', 'requestCallBack']);
const mayShareVisits = (from: StepId, to: StepId) =>
  !((from === 'thankYou' && QUOTED_LEAD_PAGES.has(to)) || (to === 'thankYou' && QUOTED_LEAD_PAGES.has(from))) &&
  (from !== 'policy' || POLICY_SHARES_VISITS_WITH.has(to)) &&
  (to !== 'policy' || POLICY_SHARES_VISITS_WITH.has(from));

/** URL and header navigation, handled alike on every page; guards decide what is allowed. */
function navigationFrom(step: StepId) {
  return {
    'route.changed': [
      // Same page (for example a trailing slash): nothing to do, and no second history entry.
      { guard: { type: 'isCurrentPath', params: { step } } },
      ...STEP_IDS.filter((target) => target !== step && mayShareVisits(step, target)).map((target) => ({
        guard: { type: 'canVisitPath', params: { step: target } } as const,
        target,
      })),
      // Refused: stay, and put the current page back in the address bar without a history entry.
      {
        actions: {
          type: 'showRoute',
          params: ({ context }: { context: JourneyContext }) => routeOf(step, context, true),
        },
      },
    ],
    // Back only, to a header step before this page's (issue 20: no transition that cannot fire).
    'wizard.jump': WIZARD_STEPS.filter((wizardStep) => wizardStepIndex(wizardStep.id) < (wizardIndexOf(step) ?? 0)).map((wizardStep) => ({
      guard: { type: 'canJumpBack', params: { from: step, to: wizardStep.id } } as const,
      target: firstStepOf(wizardStep.id),
    })),
  } as const;
}

// `reenter` so a reset on travel details itself still runs showRoute and drops the uuid from the URL.
const resetJourney = {
  target: 'travellerDetails',
  reenter: true,
  actions: [
    { type: 'setLead', params: { uuid: null, sessionId: null } },
    { type: 'restartVisits', params: { upTo: 'travellerDetails' } },
    'leavePolicy',
  ],
} as const;

/** A journey page of a paid lead: its policy page instead, saying the trip is paid (RULINGS 28). */
const toPaidLeadsPolicy = {
  target: 'policy',
  actions: {
    type: 'showPolicy',
    params: ({ event }: { event: JourneyEvent }) => ({ policyToken: event.type === 'lead.paid' ? event.policyToken : '', paidNotice: true }),
  },
} as const;

/** A paid trip's policy page, opened on purpose (the resume dialog, a result page). */
const openPolicy = {
  target: 'policy',
  actions: {
    type: 'showPolicy',
    params: ({ event }: { event: JourneyEvent }) => ({ policyToken: event.type === 'policy.opened' ? event.policyToken : '', paidNotice: false }),
  },
} as const;

/** The call-back offer, taken on `step` (every page but the call-back pages themselves). */
function requestCallBackFrom(step: StepId) {
  return {
    target: 'requestCallBack',
    actions: {
      type: 'setCallBackReason',
      params: ({ event }: { event: JourneyEvent }) => ({
        reason: (event.type === 'callBack.requested' ? event.reason : undefined) ?? PAGE_CALL_BACK_REASONS[step] ?? 'customer_request',
      }),
    },
  } as const;
}

function resumeAt(stage: LeadStage) {
  const step = STAGE_STEPS[stage];
  return {
    guard: { type: 'isStage', params: { stage } },
    target: step,
    actions: [
      {
        type: 'setLead',
        // Built outside the config, so the event is not narrowed for us; only lead.resumed gets here.
        params: ({ context, event }: { context: JourneyContext; event: JourneyEvent }) =>
          event.type === 'lead.resumed'
            ? { uuid: event.uuid, sessionId: event.sessionId ?? context.sessionId }
            : { uuid: context.uuid, sessionId: context.sessionId },
      },
      { type: 'restartVisits', params: { upTo: step } },
      'leavePolicy',
    ],
  } as const;
}

export const journeyMachine = machineSetup.createMachine({
  // Stryker disable next-line StringLiteral: no target or test names the machine by its id
  id: 'journey',
  initial: 'booting',
  context: ({ input }) => initialContext(input),
  states: {
    booting: {
      description:
        'Transient: opens the page the URL names when it may be opened directly (a lead page needs a uuid; the server re-checks the lead stage later), else travel details.',
      always: [
        ...STEP_IDS.map((step) => ({
          guard: { type: 'canBootAt', params: { step } } as const,
          target: step,
          actions: { type: 'restartVisits', params: { upTo: step } } as const,
        })),
        // Stryker disable next-line ObjectLiteral,StringLiteral: visited starts empty and travel details marks itself on entry, so restarting the visits here leaves the same list (this also leaves out the transition emptied and its target emptied, which stop the machine and are killed)
        { target: 'travellerDetails', actions: { type: 'restartVisits', params: { upTo: 'travellerDetails' } } },
      ],
    },
    travellerDetails: {
      description:
        'Trip and personal details, or a pick from saved leads. Always reachable, so it is where refused deep links and resets land.',
      entry: enter('travellerDetails'),
      on: {
        ...navigationFrom('travellerDetails'),
        'details.submitted': {
          target: 'compareQuotes',
          // New or changed details make any later page of the old quote stale.
          actions: [
            { type: 'setLead', params: ({ event }) => ({ uuid: event.uuid, sessionId: event.sessionId }) },
            { type: 'restartVisits', params: { upTo: 'travellerDetails' } },
            'leavePolicy',
          ],
        },
        'lead.resumed': [resumeAt(1), resumeAt(2), resumeAt(3)],
        'lead.noQuote': {
          target: 'thankYou',
          // The lead is saved (the team quotes it by hand), so the call-back request can name it.
          actions: [
            { type: 'setLead', params: ({ event }) => ({ uuid: event.uuid, sessionId: event.sessionId }) },
            { type: 'restartVisits', params: { upTo: 'travellerDetails' } },
            'leavePolicy',
          ],
        },
        'journey.reset': resetJourney,
        'lead.paid': toPaidLeadsPolicy,
        'policy.opened': openPolicy,
        // Stryker disable next-line StringLiteral: the page only picks its own call-back reason (PAGE_CALL_BACK_REASONS), and this page has none: any other name gives 'customer_request' too
        'callBack.requested': requestCallBackFrom('travellerDetails'),
      },
    },
    compareQuotes: {
      description: 'Quotes for the lead; needs its uuid. Plans can be compared or one chosen.',
      entry: enter('compareQuotes'),
      on: {
        ...navigationFrom('compareQuotes'),
        'quote.chosen': 'reviewDetails',
        'compare.opened': 'compareOffers',
        // The lead is unknown (a stale or mistyped link): "Start a new quote".
        'journey.reset': resetJourney,
        'lead.paid': toPaidLeadsPolicy,
        'callBack.requested': requestCallBackFrom('compareQuotes'),
      },
    },
    compareOffers: {
      description: 'Side-by-side table of the compared plans; belongs to the quotes header step.',
      entry: enter('compareOffers'),
      on: {
        ...navigationFrom('compareOffers'),
        'quote.chosen': 'reviewDetails',
        'compare.closed': 'compareQuotes',
        // The lead is unknown (a stale or mistyped link): "Start a new quote".
        'journey.reset': resetJourney,
        'lead.paid': toPaidLeadsPolicy,
        // Stryker disable next-line StringLiteral: the page only picks its own call-back reason (PAGE_CALL_BACK_REASONS), and this page has none: any other name gives 'customer_request' too
        'callBack.requested': requestCallBackFrom('compareOffers'),
      },
    },
    reviewDetails: {
      description:
        'Traveller-by-traveller review of the chosen plan; left forward once every traveller is saved, back to the quotes when no plan is chosen, or to travel details to correct a date of birth.',
      entry: enter('reviewDetails'),
      on: {
        ...navigationFrom('reviewDetails'),
        'review.completed': 'checkout',
        // The plan is gone, so the review and checkout of the old choice are unreachable until
        // a plan is chosen again; the compare table stays reachable.
        'review.planMissing': {
          target: 'compareQuotes',
          actions: { type: 'forgetVisits', params: { steps: ['reviewDetails', 'checkout'] } },
        },
        // The lead is kept: travel details opens it to change the date of birth and re-quote.
        'review.updateDetails': 'travellerDetails',
        // A stored thank-you flag: the journey is over.
        'journey.reset': resetJourney,
        'lead.paid': toPaidLeadsPolicy,
        // Stryker disable next-line StringLiteral: the page only picks its own call-back reason (PAGE_CALL_BACK_REASONS), and this page has none: any other name gives 'customer_request' too
        'callBack.requested': requestCallBackFrom('reviewDetails'),
      },
    },
    checkout: {
      description:
        'Coupon, terms and payment. A fully discounted order ends here; otherwise the browser leaves for the payments page and comes back to the payment result. Back to the quotes without a chosen plan, to the review with a traveller not reviewed.',
      entry: enter('checkout'),
      on: {
        ...navigationFrom('checkout'),
        'checkout.paidInFull': 'thankYouHundred',
        // As review.planMissing: review and checkout of the old choice are unreachable until a
        // plan is chosen again.
        'checkout.planMissing': {
          target: 'compareQuotes',
          actions: { type: 'forgetVisits', params: { steps: ['reviewDetails', 'checkout'] } },
        },
        // A traveller is not reviewed yet: the review finishes it, then opens checkout again.
        'checkout.reviewMissing': 'reviewDetails',
        'payment.returned': 'paymentResult',
        // A stored thank-you flag: the journey is over.
        'journey.reset': resetJourney,
        'lead.paid': toPaidLeadsPolicy,
        // Stryker disable next-line StringLiteral: the page only picks its own call-back reason (PAGE_CALL_BACK_REASONS), and this page has none: any other name gives 'customer_request' too
        'callBack.requested': requestCallBackFrom('checkout'),
      },
    },
    thankYou: {
      description: 'No online quote was possible; the team calls back. The visitor may start over or ask for a call.',
      entry: enter('thankYou'),
      on: {
        ...navigationFrom('thankYou'),
        'journey.reset': resetJourney,
        'callBack.requested': requestCallBackFrom('thankYou'),
      },
    },
    callBack: {
      description: 'End of the short call-back wizard.',
      entry: enter('callBack'),
      on: { ...navigationFrom('callBack'), 'journey.reset': resetJourney },
    },
    thankYouHundred: {
      description: 'A 100 percent discount order was placed without payment; the journey is over.',
      entry: enter('thankYouHundred'),
      on: {
        ...navigationFrom('thankYouHundred'),
        'journey.reset': resetJourney,
        'policy.opened': openPolicy,
        // Stryker disable next-line StringLiteral: the page only picks its own call-back reason (PAGE_CALL_BACK_REASONS), and this page has none: any other name gives 'customer_request' too
        'callBack.requested': requestCallBackFrom('thankYouHundred'),
      },
    },
    requestCallBack: {
      description: 'First step of the short call-back wizard, offered when quoting online is not possible or wanted.',
      entry: enter('requestCallBack'),
      // The reason belongs to this visit of the form only.
      exit: { type: 'setCallBackReason', params: { reason: null } },
      on: { ...navigationFrom('requestCallBack'), 'callBack.submitted': 'callBack' },
    },
    paymentResult: {
      description: 'The gateway sent the browser back; the step reads the outcome from the server. A failed payment is tried again at checkout.',
      entry: enter('paymentResult'),
      on: {
        ...navigationFrom('paymentResult'),
        // Checkout needs the lead; its earlier pages count as visited, and this page stays
        // visited so Back shows the failure again.
        'payment.retry': { guard: 'hasLead', target: 'checkout', actions: { type: 'addVisitsTo', params: { step: 'checkout' } } },
        'journey.reset': resetJourney,
        'policy.opened': openPolicy,
        // Stryker disable next-line StringLiteral: the page only picks its own call-back reason (PAGE_CALL_BACK_REASONS), and this page has none: any other name gives 'customer_request' too
        'callBack.requested': requestCallBackFrom('paymentResult'),
      },
    },
    policy: {
      description:
        'A paid trip\'s own page, /policy/<token> (issue 37, RULINGS 28): opened by its link, from the resume dialog or a result page, or instead of any journey page of a paid lead. It holds no lead; "Buy again" and "Start a new quote" leave it for travel details.',
      entry: enter('policy'),
      on: {
        ...navigationFrom('policy'),
        'journey.reset': resetJourney,
        'policy.buyAgain': resetJourney,
        // Stryker disable next-line StringLiteral: the page only picks its own call-back reason (PAGE_CALL_BACK_REASONS), and this page has none: any other name gives 'customer_request' too
        'callBack.requested': requestCallBackFrom('policy'),
      },
    },
  },
});
