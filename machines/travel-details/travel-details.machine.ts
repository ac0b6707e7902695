import { assign, fromPromise, setup } from 'xstate';
import { notProvided } from '../not-provided';
import type { Language } from '../../src/contract/endpoint';
import type { AddCustomerLeadRequest, LeadDetails, RecentSearch } from '../../src/contract/lead.endpoints';
import type { LeadStage } from '../journey.types';
import {
  asUuid,
  blankValues,
  isAgentId,
  isAgentUnknown,
  isLeadMissing,
  prefillWithKnownCode,
  refusalCodes,
  toLeadPayload,
  valuesFromLead,
  withKnownPhoneCode,
} from './travel-details.payload';
import type {
  CheckAgentInput,
  LoadLeadInput,
  LoadRecentLeadsInput,
  SavedLead,
  TravelDetailsContext,
  TravelDetailsEvent,
  TravelDetailsInput,
  TravelDetailsOutput,
  TravelDetailsReference,
  TravelDetailsValues,
} from './travel-details.types';

function initialContext(input: TravelDetailsInput): TravelDetailsContext {
  const agentOk = input.agentId === null || isAgentId(input.agentId);
  return {
    lang: input.lang,
    deviceUuid: asUuid(input.deviceUuid),
    leadUuid: asUuid(input.leadUuid),
    sessionId: input.sessionId || null,
    // An agent id that is not even a number names no agent: say so instead of dropping it.
    agentId: agentOk ? input.agentId : null,
    agentError: agentOk ? null : 'agent_unknown',
    prefill: input.prefill,
    utm: input.utm,
    fromPolicy: input.buyAgain?.policyToken ?? null,
    reference: null,
    recentLeads: [],
    values: input.buyAgain ? { ...input.buyAgain.details, start_date: null, end_date: null, deleted_members: [] } : blankValues(input.prefill),
    submitted: null,
    serverErrors: {},
    saveFailed: false,
    failure: null,
    outcome: null,
  };
}

const machineSetup = setup({
  types: {
    context: {} as TravelDetailsContext,
    events: {} as TravelDetailsEvent,
    input: {} as TravelDetailsInput,
    output: {} as TravelDetailsOutput,
  },
  actors: {
    loadReference: fromPromise<TravelDetailsReference, { lang: Language }>(notProvided('travel details', 'loadReference')),
    loadLead: fromPromise<LeadDetails, LoadLeadInput>(notProvided('travel details', 'loadLead')),
    loadRecentLeads: fromPromise<RecentSearch[], LoadRecentLeadsInput>(notProvided('travel details', 'loadRecentLeads')),
    checkAgent: fromPromise<unknown, CheckAgentInput>(notProvided('travel details', 'checkAgent')),
    saveLead: fromPromise<SavedLead, AddCustomerLeadRequest>(notProvided('travel details', 'saveLead')),
  },
  actions: {
    // Injected by the web: local storage writes of spec §3 once the step is over.
    storeSubmitted: (_, _params: { saved: SavedLead; values: TravelDetailsValues }) => {},
    storeResumed: (_, _params: { uuid: string; stage: LeadStage }) => {},
    forgetAgent: assign({ agentId: null, agentError: 'agent_unknown' as const }),
  },
  guards: {
    hasLeadUuid: ({ context }) => context.leadUuid !== null,
    // Not while buying again: the form already holds the trip the customer chose to repeat.
    shouldListRecentLeads: ({ context }) => context.deviceUuid !== null && context.leadUuid === null && context.fromPolicy === null,
    hasAgentId: ({ context }) => context.agentId !== null,
    hasRecentLeads: ({ context }) => context.recentLeads.length > 0 && context.leadUuid === null,
    savedWithoutQuote: (_, params: { saved: SavedLead }) => params.saved.noQuote,
    leadMissing: (_, params: { error: unknown }) => isLeadMissing(params.error),
    agentUnknown: (_, params: { error: unknown }) => isAgentUnknown(params.error),
    refusedWithCodes: (_, params: { error: unknown }) => Object.keys(refusalCodes(params.error)).length > 0,
  },
});

/** A region of `loading` that runs one optional call and then is done. */
const skipUnless = (guard: 'hasLeadUuid' | 'shouldListRecentLeads' | 'hasAgentId') => ({
  always: [{ guard, target: 'pending' }, { target: 'done' }],
});

export const travelDetailsMachine = machineSetup.createMachine({
  id: 'travelDetails',
  context: ({ input }) => initialContext(input),
  initial: 'loading',
  output: ({ context }) => context.outcome!,
  states: {
    loading: {
      description:
        'Reference lists, and at the same time the lead named by the link, the leads entered earlier on this device (only without a named lead) and the agent check. Only missing reference lists or an unreadable lead stop the step.',
      type: 'parallel',
      onDone: [{ guard: 'hasRecentLeads', target: 'chooser' }, { target: 'editing' }],
      states: {
        reference: {
          description: 'Countries, calling codes and the traveller limits; the form cannot show without them.',
          initial: 'pending',
          states: {
            pending: {
              invoke: {
                // Invocations have ids, so their done and error events have fixed names (the model test sends them).
                id: 'loadReference',
                src: 'loadReference',
                input: ({ context }) => ({ lang: context.lang }),
                onDone: {
                  target: 'done',
                  actions: assign({
                    reference: ({ event }) => event.output,
                    // Issue 8 row 7: a calling code from the link that no country has becomes +961.
                    prefill: ({ context, event }) => prefillWithKnownCode(context.prefill, event.output.phoneCodes),
                    values: ({ context, event }) => withKnownPhoneCode(context.values, event.output.phoneCodes),
                  }),
                },
                onError: { target: '#travelDetails.failed', actions: assign({ failure: 'reference_failed' }) },
              },
            },
            done: { type: 'final' },
          },
        },
        lead: {
          description: 'The lead named by ?uuid=, restored into the form; a missing one leaves the form blank.',
          initial: 'checking',
          states: {
            checking: skipUnless('hasLeadUuid'),
            pending: {
              invoke: {
                id: 'loadLead',
                src: 'loadLead',
                input: ({ context }) => ({ uuid: context.leadUuid!, lang: context.lang }),
                onDone: { target: 'done', actions: assign({ values: ({ event }) => valuesFromLead(event.output) }) },
                onError: [
                  // A stale or mistyped link: start blank and save a new lead.
                  {
                    guard: { type: 'leadMissing', params: ({ event }) => ({ error: event.error }) },
                    target: 'done',
                    actions: assign({ leadUuid: null }),
                  },
                  { target: '#travelDetails.failed', actions: assign({ failure: 'lead_failed' }) },
                ],
              },
            },
            done: { type: 'final' },
          },
        },
        recentLeads: {
          description: 'Leads entered earlier on this device, for the chooser; skipped when the link names a lead.',
          initial: 'checking',
          states: {
            checking: skipUnless('shouldListRecentLeads'),
            pending: {
              invoke: {
                id: 'loadRecentLeads',
                src: 'loadRecentLeads',
                input: ({ context }) => ({ deviceUuid: context.deviceUuid!, lang: context.lang }),
                onDone: { target: 'done', actions: assign({ recentLeads: ({ event }) => event.output }) },
                // The chooser is a shortcut; without it the customer simply types the details.
                onError: { target: 'done' },
              },
            },
            done: { type: 'final' },
          },
        },
        agent: {
          description: 'Whether ?agent_id= names an active agent (RULINGS 14).',
          initial: 'checking',
          states: {
            checking: skipUnless('hasAgentId'),
            pending: {
              invoke: {
                id: 'checkAgent',
                src: 'checkAgent',
                input: ({ context }) => ({ agentId: context.agentId!, lang: context.lang }),
                onDone: { target: 'done' },
                onError: [
                  {
                    guard: { type: 'agentUnknown', params: ({ event }) => ({ error: event.error }) },
                    target: 'done',
                    actions: 'forgetAgent',
                  },
                  // Unverified for now (network); the save re-checks the agent on the server.
                  { target: 'done' },
                ],
              },
            },
            done: { type: 'final' },
          },
        },
      },
    },
    chooser: {
      description:
        'Dialog of leads entered earlier on this device: continue one where it stopped (by its stage), or enter new details.',
      on: {
        'leads.pick': {
          target: 'resumed',
          actions: [
            assign({
              outcome: ({ context, event }) => ({ type: 'resumed', uuid: event.uuid, stage: event.stage, sessionId: context.sessionId }),
            }),
            { type: 'storeResumed', params: ({ event }) => ({ uuid: event.uuid, stage: event.stage }) },
          ],
        },
        'leads.new': {
          target: 'editing',
          actions: assign({ values: ({ context }) => blankValues(context.prefill) }),
        },
      },
    },
    editing: {
      description:
        'The form. Refused saves come back here with field codes (or a save failure flag) and the submitted values kept.',
      on: {
        'details.submit': {
          target: 'saving',
          actions: assign({ submitted: ({ event }) => event.values, serverErrors: {}, saveFailed: false }),
        },
      },
    },
    saving: {
      description: 'add-customer-lead: a new lead, or the restored one updated in place.',
      invoke: {
        id: 'saveLead',
        src: 'saveLead',
        input: ({ context }) => toLeadPayload(context.submitted!, context),
        onDone: [
          {
            guard: { type: 'savedWithoutQuote', params: ({ event }) => ({ saved: event.output }) },
            target: 'noQuote',
            actions: [
              assign({ outcome: ({ event }) => ({ type: 'noQuote', ...event.output }) }),
              { type: 'storeSubmitted', params: ({ context, event }) => ({ saved: event.output, values: context.submitted! }) },
            ],
          },
          {
            target: 'submitted',
            actions: [
              assign({ outcome: ({ event }) => ({ type: 'submitted', ...event.output }) }),
              { type: 'storeSubmitted', params: ({ context, event }) => ({ saved: event.output, values: context.submitted! }) },
            ],
          },
        ],
        onError: [
          {
            guard: { type: 'refusedWithCodes', params: ({ event }) => ({ error: event.error }) },
            target: 'editing',
            actions: assign(({ event }) => {
              const { agent_id: agentCode, ...serverErrors } = refusalCodes(event.error);
              // RULINGS 14: an unknown agent is shown and dropped, never kept on the lead.
              return agentCode === 'agent_unknown' ? { serverErrors, agentId: null, agentError: agentCode } : { serverErrors };
            }),
          },
          { target: 'editing', actions: assign({ saveFailed: true }) },
        ],
      },
    },
    failed: {
      description:
        'The reference lists or the named lead could not be read: the page offers a refresh. Not final, so the journey is not told anything.',
    },
    submitted: {
      description: 'Saved: the journey goes on to the quotes for this lead.',
      type: 'final',
    },
    resumed: {
      description: 'A lead from the chooser: the journey opens it at the page of its stage.',
      type: 'final',
    },
    noQuote: {
      description:
        'Saved, but no plan can quote the trip online (RULINGS 12): the server keeps it for a manual quote and the journey shows /thank-you.',
      type: 'final',
    },
  },
});
