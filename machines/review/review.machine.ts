import { assign, fromPromise, setup } from 'xstate';
import { notProvided } from '../not-provided';
import { agentShareRegion } from '../agent-share';
import {
  droppedDraft,
  isPlanGone,
  keptDraft,
  loadedReview,
  reviewValues,
  saveTravellerInput,
  travellerFieldErrors,
  withSavedTraveller,
} from './review.travellers';
import { loadFailureOf } from '../service-failure';
import {
  NEXT_TRAVELLER_DELAY_MS,
  type LoadReviewInput,
  type ReviewContext,
  type ReviewData,
  type ReviewEvent,
  type ReviewInput,
  type ReviewOutput,
  type ReviewSendEmailInput,
  type ReviewTag,
  type SaveTravellerInput,
  type SaveTravellerResult,
} from './review.types';

function initialContext(input: ReviewInput): ReviewContext {
  return {
    ...input,
    lead: null,
    invoice: null,
    customer: null,
    options: null,
    whatsappTemplate: '',
    plan: null,
    travellers: [],
    index: 0,
    serverErrors: {},
    submitted: null,
    drafts: input.drafts ?? {},
    dobMessage: null,
    saveFailed: false,
    failure: null,
    emailSent: false,
    outcome: null,
  };
}

const machineSetup = setup({
  types: {
    context: {} as ReviewContext,
    events: {} as ReviewEvent,
    input: {} as ReviewInput,
    output: {} as ReviewOutput,
    tags: {} as ReviewTag,
  },
  actors: {
    loadReview: fromPromise<ReviewData, LoadReviewInput>(notProvided('review', 'loadReview')),
    saveTraveller: fromPromise<SaveTravellerResult, SaveTravellerInput>(notProvided('review', 'saveTraveller')),
    sendEmail: fromPromise<unknown, ReviewSendEmailInput>(notProvided('review', 'sendEmail')),
  },
  actions: {
    // The agent's share region (agentShareRegion) names these.
    markEmailSent: assign({ emailSent: true }),
    clearEmailSent: assign({ emailSent: false }),
    // Injected by the web: local storage writes of spec §3 (traveller_index, travellerLength).
    storeTravellerIndex: (_, _params: { index: number }) => {},
    storeTravellerLength: (_, _params: { length: number }) => {},
  },
  guards: {
    isFinished: ({ context }) => context.thankYou,
    hasLead: ({ context }) => context.uuid !== null,
    noPlan: (_, params: { data: ReviewData }) => params.data.details.get_invoice === null,
    noTravellers: (_, params: { data: ReviewData }) => params.data.details.lead_details.travellers_info.length === 0,
    hasPrevious: ({ context }) => context.index > 0,
    isLast: ({ context }) => context.index >= context.travellers.length - 1,
    isDobRefusal: (_, params: { result: SaveTravellerResult }) => params.result.error === 'dob',
    planGone: (_, params: { error: unknown }) => isPlanGone(params.error),
    hasFieldErrors: (_, params: { error: unknown }) => Object.keys(travellerFieldErrors(params.error)).length > 0,
    canShare: ({ context }) => context.agentId !== null && context.link !== null,
  },
});

export const reviewMachine = machineSetup.createMachine({
  id: 'review',
  context: ({ input }) => initialContext(input),
  initial: 'starting',
  output: ({ context }) => context.outcome!,
  states: {
    starting: {
      description: 'A stored thank-you flag ends the journey; without a lead there is nothing to load.',
      always: [
        { guard: 'isFinished', target: 'finished', actions: assign({ outcome: { type: 'finished' } }) },
        { guard: 'hasLead', target: 'loading' },
        { target: 'noLead' },
      ],
    },
    noLead: {
      description: 'No lead: the journey has already refused the page and sends the user to travel details.',
    },
    loading: {
      description: 'get-personal-details: the lead, its travellers and the plan chosen for it; the page shows its wait message.',
      tags: ['busy'],
      invoke: {
        id: 'loadReview',
        src: 'loadReview',
        input: ({ context }) => ({ uuid: context.uuid!, sessionId: context.sessionId, lang: context.lang, link: context.link }),
        onDone: [
          {
            guard: { type: 'noPlan', params: ({ event }) => ({ data: event.output }) },
            target: 'planMissing',
            actions: assign({ outcome: { type: 'planMissing' } }),
          },
          // Every lead has a traveller; one without is a broken read, not a form to show.
          {
            guard: { type: 'noTravellers', params: ({ event }) => ({ data: event.output }) },
            target: 'failed',
            actions: assign({ failure: 'load_failed' }),
          },
          {
            target: 'reviewing',
            actions: [
              assign(({ context, event }) => loadedReview(event.output, context.storedIndex)),
              { type: 'storeTravellerLength', params: ({ context }) => ({ length: context.travellers.length }) },
              // The index actually opened, so a reload comes back to the same traveller.
              { type: 'storeTravellerIndex', params: ({ context }) => ({ index: context.index }) },
            ],
          },
        ],
        onError: { target: 'failed', actions: assign({ failure: ({ event }) => loadFailureOf(event.error) }) },
      },
    },
    failed: {
      description: 'The lead could not be read: the error view.',
    },
    reviewing: {
      description: 'One traveller form at a time; an agent can share the page meanwhile.',
      type: 'parallel',
      states: {
        form: {
          initial: 'editing',
          states: {
            editing: {
              description:
                'The open traveller form: Proceed saves it, Previous opens the traveller before. What was typed stays as that ' +
                "traveller's draft (issue 17) until it is saved, so going back and forth or a refused save loses nothing.",
              tags: ['editing'],
              on: {
                'traveller.save': {
                  target: 'saving',
                  actions: assign(({ context, event }) => {
                    const submitted = reviewValues(event.values);
                    return { submitted, drafts: keptDraft(context, submitted), serverErrors: {}, saveFailed: false, dobMessage: null };
                  }),
                },
                'traveller.previous': {
                  guard: 'hasPrevious',
                  // Stryker disable next-line StringLiteral: whatever '' resolves to here (no target, or this form region), the form stays on editing, and editing has no entry, exit or call, so re-entering it or staying does the same
                  target: 'editing',
                  // Stryker disable next-line BooleanLiteral: editing has no entry, exit or call, so re-entering it or staying does the same
                  reenter: true,
                  actions: [
                    assign({
                      drafts: ({ context, event }) => (event.values ? keptDraft(context, reviewValues(event.values)) : context.drafts),
                      index: ({ context }) => context.index - 1,
                      serverErrors: {},
                      submitted: null,
                      saveFailed: false,
                    }),
                    { type: 'storeTravellerIndex', params: ({ context }) => ({ index: context.index }) },
                  ],
                },
                'saveFailed.dismiss': { actions: assign({ saveFailed: false }) },
              },
            },
            saving: {
              description: 'save-traveller-info: the server checks the traveller with the same rules, the offered options and the quoted date of birth.',
              tags: ['busy', 'editing'],
              invoke: {
                id: 'saveTraveller',
                src: 'saveTraveller',
                input: ({ context }) => saveTravellerInput(context),
                onDone: [
                  {
                    guard: { type: 'isDobRefusal', params: ({ event }) => ({ result: event.output }) },
                    target: 'dobError',
                    actions: assign({ dobMessage: ({ event }) => event.output.message }),
                  },
                  // The last traveller saved ends the step at once: the 0.5 s pause is for the next
                  // form to open (spec §4), and after the last there is none (issue 19).
                  {
                    guard: 'isLast',
                    target: '#review.completed',
                    actions: [
                      assign({ travellers: ({ context }) => withSavedTraveller(context), drafts: ({ context }) => droppedDraft(context), submitted: null }),
                      assign({ outcome: { type: 'completed' } }),
                    ],
                  },
                  {
                    target: 'closing',
                    actions: assign({ travellers: ({ context }) => withSavedTraveller(context), drafts: ({ context }) => droppedDraft(context), submitted: null }),
                  },
                ],
                onError: [
                  {
                    guard: { type: 'planGone', params: ({ event }) => ({ error: event.error }) },
                    target: '#review.planMissing',
                    actions: assign({ outcome: { type: 'planMissing' } }),
                  },
                  {
                    guard: { type: 'hasFieldErrors', params: ({ event }) => ({ error: event.error }) },
                    target: 'editing',
                    actions: assign({ serverErrors: ({ event }) => travellerFieldErrors(event.error) }),
                  },
                  // Network, server, or a refusal the form cannot show: the system error dialog.
                  { target: 'editing', actions: assign({ saveFailed: true }) },
                ],
              },
            },
            closing: {
              description:
                'Saved, and a traveller follows: the form closes and the next opens after 0.5 s (spec §4). ' +
                'A traveller saved again after Previous opens the one after it, not the end: each later traveller is shown again, filled in, on the way.',
              tags: ['busy'],
              after: {
                [NEXT_TRAVELLER_DELAY_MS]: {
                  target: 'editing',
                  actions: [
                    assign({ index: ({ context }) => context.index + 1 }),
                    { type: 'storeTravellerIndex', params: ({ context }) => ({ index: context.index }) },
                  ],
                },
              },
            },
            dobError: {
              description:
                'RULINGS 8: the date of birth is not the quoted one, or outside the plan. The DOB dialog; the form keeps what was typed behind it.',
              tags: ['editing'],
              on: {
                'dob.update': { target: '#review.updateDetails', actions: assign({ outcome: { type: 'updateDetails' } }) },
                'dob.dismiss': { target: 'editing', actions: assign({ dobMessage: null }) },
              },
            },
          },
        },
        share: agentShareRegion(() => 'review-details' as const),
      },
    },
    completed: {
      description: 'Every traveller is saved (the lead is at stage 3): the journey opens checkout.',
      type: 'final',
    },
    planMissing: {
      description: 'No plan is chosen for this lead (any more): the journey returns to its quotes.',
      type: 'final',
    },
    updateDetails: {
      description: 'The DOB dialog\'s "Update Details": the journey opens travel details with the lead to re-quote.',
      type: 'final',
    },
    finished: {
      description: 'A thank-you flag is stored: the journey starts over at travel details.',
      type: 'final',
    },
  },
});
