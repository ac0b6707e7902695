import { assign, fromPromise, setup } from 'xstate';
import { notProvided } from '../not-provided';
import { isPaymentQuery } from '../../src/contract/payment.endpoints';
import {
  PAYMENT_POLL_LIMIT,
  PAYMENT_POLL_MS,
  type LoadPaymentStatusInput,
  type PaymentResultContext,
  type PaymentResultEvent,
  type PaymentResultInput,
  type PaymentResultOutput,
  type PaymentResultTag,
  type PaymentStatusData,
} from './payment-result.types';
import { asFailure } from '../service-failure';

function initialContext(input: PaymentResultInput): PaymentResultContext {
  return { ...input, payment: null, polls: 0, outcome: null };
}

const machineSetup = setup({
  types: {
    context: {} as PaymentResultContext,
    events: {} as PaymentResultEvent,
    input: {} as PaymentResultInput,
    output: {} as PaymentResultOutput,
    tags: {} as PaymentResultTag,
  },
  actors: {
    loadStatus: fromPromise<PaymentStatusData, LoadPaymentStatusInput>(notProvided('payment result', 'loadStatus')),
  },
  actions: {
    // Injected by the web: the thank-you flag of spec §3 (the journey is over; checkout, opened
    // again, sends the customer to a new quote instead of a second payment).
    storeThankYou: () => {},
    keepPayment: assign((_, params: { payment: PaymentStatusData }) => ({ payment: params.payment })),
    countPoll: assign(({ context }) => ({ polls: context.polls + 1 })),
    end: assign((_, params: { outcome: PaymentResultOutput }) => ({ outcome: params.outcome })),
  },
  guards: {
    canAsk: ({ context }) => isPaymentQuery(context.uuid, context.reference),
    // The last answer: paid and failed are final answers; pending waits for the gateway.
    // Stryker disable next-line OptionalChaining: both run only after a read kept its answer (answered, pending.counted)
    isPaid: ({ context }) => context.payment?.status === 'paid',
    // Stryker disable next-line OptionalChaining: as isPaid
    isFailed: ({ context }) => context.payment?.status === 'failed',
    // 404: no such lead, or no such order of this lead (the server answers both alike).
    isNotFound: (_, params: { error: unknown }) => asFailure(params.error)?.status === 404,
    // Counted before the guard runs: the poll just answered is among them.
    pollsLeft: ({ context }) => context.polls < PAYMENT_POLL_LIMIT,
  },
});

/** Ends the step with its outcome, for the journey to act on. */
function endWith(type: PaymentResultOutput['type']) {
  return { target: `#paymentResult.${type}`, actions: { type: 'end', params: { outcome: { type } } } } as const;
}

const newQuote = { 'result.newQuote': endWith('newQuote') } as const;

export const paymentResultMachine = machineSetup.createMachine({
  id: 'paymentResult',
  context: ({ input }) => initialContext(input),
  initial: 'starting',
  output: ({ context }) => context.outcome!,
  states: {
    starting: {
      description:
        'Without a lead in the address (the return was refused, or the page was opened by hand), or with a lead or reference that cannot name an order (a cut-off link), there is no order to read.',
      always: [{ guard: 'canAsk', target: 'loading' }, { target: 'notFound' }],
    },
    loading: {
      description: 'payment-status: the order the gateway answered, as the return handler left it; the page shows its wait message.',
      tags: ['busy'],
      entry: assign({ polls: 0 }),
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        input: ({ context }) => ({ uuid: context.uuid!, reference: context.reference, lang: context.lang }),
        onDone: { target: 'answered', actions: { type: 'keepPayment', params: ({ event }) => ({ payment: event.output }) } },
        onError: [
          { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: 'notFound' },
          { target: 'error' },
        ],
      },
    },
    answered: {
      description: 'Transient: the first answer shows the policy, the failure, or waits for the gateway.',
      always: [
        { guard: 'isPaid', target: 'paid' },
        { guard: 'isFailed', target: 'failed' },
        { target: 'pending' },
      ],
    },
    pending: {
      description:
        "The order waits for the gateway's answer (the browser can come back before the gateway tells the server): read again every 2 s, at most PAYMENT_POLL_LIMIT times.",
      tags: ['waiting'],
      initial: 'waiting',
      states: {
        waiting: {
          description: 'Between two reads.',
          after: { [PAYMENT_POLL_MS]: 'checking' },
        },
        checking: {
          description: 'payment-status again. A failed read counts as a poll and waits for the next: the answer may still come.',
          invoke: {
            id: 'loadStatus',
            src: 'loadStatus',
            input: ({ context }) => ({ uuid: context.uuid!, reference: context.reference, lang: context.lang }),
            onDone: { target: 'counted', actions: [{ type: 'keepPayment', params: ({ event }) => ({ payment: event.output }) }, 'countPoll'] },
            onError: [
              { guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) }, target: '#paymentResult.notFound' },
              { target: 'counted', actions: 'countPoll' },
            ],
          },
        },
        counted: {
          description: 'Transient: the answer arrived (paid or failed), or another read, or the answer is late.',
          always: [
            { guard: 'isPaid', target: '#paymentResult.paid' },
            { guard: 'isFailed', target: '#paymentResult.failed' },
            { guard: 'pollsLeft', target: 'waiting' },
            { target: '#paymentResult.unconfirmed' },
          ],
        },
      },
    },
    unconfirmed: {
      description: "The gateway's answer has not arrived after all the reads: the page says it will come by e-mail, and offers to look again.",
      on: { 'result.refresh': 'loading', ...newQuote },
    },
    paid: {
      description: 'Paid: the policy, its certificate link and the amount; the thank-you flag is stored, the journey is over.',
      entry: 'storeThankYou',
      on: newQuote,
    },
    failed: {
      description: 'Declined or cancelled: the reason, and "Try again", which returns to checkout for a new attempt.',
      on: { 'result.retry': endWith('retry'), ...newQuote },
    },
    notFound: {
      description: 'No order to show: no lead in the address, or the server knows no such order of it.',
      on: newQuote,
    },
    error: {
      description: 'The order could not be read (network, server): the error view with a retry.',
      on: { 'result.refresh': 'loading', ...newQuote },
    },
    retry: {
      description: 'Try again: the journey opens checkout.',
      type: 'final',
    },
    newQuote: {
      description: 'Start a new quote: the journey opens travel details.',
      type: 'final',
    },
  },
});
