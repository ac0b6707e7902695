import { assign, fromPromise, setup } from 'xstate';
import { notProvided } from '../not-provided';
import { blankCallBackValues, contactRefusalCodes, isCallBackAgentUnknown, isRateLimited, toCallBackPayload } from './call-back.payload';
import type {
  CallBackContext,
  CallBackEvent,
  CallBackForm,
  CallBackInput,
  CallBackOutput,
  CallBackPayload,
  CallBackValues,
  LoadCallBackFormInput,
} from './call-back.types';

function initialContext(input: CallBackInput): CallBackContext {
  return {
    lang: input.lang,
    reason: input.reason,
    leadUuid: input.leadUuid || null,
    agentId: input.agentId,
    phoneCodes: [],
    values: blankCallBackValues(),
    submitted: null,
    serverErrors: {},
    failure: null,
    callBackId: null,
  };
}

const machineSetup = setup({
  types: {
    context: {} as CallBackContext,
    events: {} as CallBackEvent,
    input: {} as CallBackInput,
    output: {} as CallBackOutput,
  },
  actors: {
    loadForm: fromPromise<CallBackForm, LoadCallBackFormInput>(notProvided('call back', 'loadForm')),
    sendRequest: fromPromise<{ call_back_id: number }, CallBackPayload>(notProvided('call back', 'sendRequest')),
  },
  // Stryker disable next-line ObjectLiteral: the one action is an empty placeholder; without it nothing changes
  actions: {
    // Injected by the web: the spec §3 `callBack` flag once the request is stored.
    storeSent: (_, _params: { callBackId: number; values: CallBackValues }) => {},
  },
  guards: {
    refusedOnFields: (_, params: { error: unknown }) => Object.keys(contactRefusalCodes(params.error)).length > 0,
    rateLimited: (_, params: { error: unknown }) => isRateLimited(params.error),
    agentUnknown: (_, params: { error: unknown }) => isCallBackAgentUnknown(params.error),
  },
});

/**
 * The short wizard's first step (RULINGS 13): who to call. The form starts from what the visitor
 * entered before; the request is stored as a call-back task for the broker.
 */
export const callBackMachine = machineSetup.createMachine({
  // Stryker disable next-line StringLiteral: no transition targets the machine by its id
  id: 'callBack',
  context: ({ input }) => initialContext(input),
  // Stryker disable next-line StringLiteral: with no initial state XState enters the first one, which is this
  initial: 'loading',
  output: ({ context }) => ({ callBackId: context.callBackId! }),
  states: {
    loading: {
      description: 'Calling codes, and the name, phone and e-mail entered earlier (stored details or the lead).',
      invoke: {
        id: 'loadForm',
        src: 'loadForm',
        input: ({ context }) => ({ lang: context.lang, leadUuid: context.leadUuid }),
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({ phoneCodes: event.output.phoneCodes, values: event.output.values })),
        },
        onError: { target: 'failed', actions: assign({ failure: 'load_failed' }) },
      },
    },
    editing: {
      description: 'The form. Refusals come back here with field codes or a failure code, the typed values kept.',
      on: {
        'callBack.submit': {
          target: 'sending',
          actions: assign({ submitted: ({ event }) => event.values, serverErrors: {}, failure: null }),
        },
      },
    },
    sending: {
      description: 'request-call-back: stores the task with the reason and the lead.',
      invoke: {
        id: 'sendRequest',
        src: 'sendRequest',
        input: ({ context }) => toCallBackPayload(context.submitted!, context),
        onDone: {
          target: 'sent',
          actions: [
            assign({ callBackId: ({ event }) => event.output.call_back_id }),
            { type: 'storeSent', params: ({ context, event }) => ({ callBackId: event.output.call_back_id, values: context.submitted! }) },
          ],
        },
        onError: [
          {
            guard: { type: 'refusedOnFields', params: ({ event }) => ({ error: event.error }) },
            target: 'editing',
            actions: assign({ serverErrors: ({ event }) => contactRefusalCodes(event.error) }),
          },
          {
            guard: { type: 'rateLimited', params: ({ event }) => ({ error: event.error }) },
            target: 'editing',
            actions: assign({ failure: 'rate_limited' }),
          },
          {
            // RULINGS 14: said, and the agent dropped, never silently kept.
            guard: { type: 'agentUnknown', params: ({ event }) => ({ error: event.error }) },
            target: 'editing',
            actions: assign({ failure: 'agent_unknown', agentId: null }),
          },
          { target: 'editing', actions: assign({ failure: 'send_failed' }) },
        ],
      },
    },
    failed: {
      description: 'The calling codes could not be read: the page offers a refresh.',
    },
    sent: {
      description: 'Stored: the journey shows the call-back thanks.',
      type: 'final',
    },
  },
});
