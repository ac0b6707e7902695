import { createActor, fromPromise, type AnyStateMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { ErrorEnvelope } from '../src/contract/envelope';
import { checkoutMachine } from './checkout/checkout.machine';
import { checkoutInput } from './checkout/checkout.model';
import { quotesMachine } from './quotes/quotes.machine';
import { quotesInput } from './quotes/quotes.model';
import { reviewMachine } from './review/review.machine';
import { reviewInput } from './review/review.model';
import { asFailure, errorsOf, loadFailureOf, selectLeadNotFound } from './service-failure';
import type { ServiceFailure } from './travel-details/travel-details.types';
import { waitForSnapshot } from './model-tooling/wait-for-snapshot';

/**
 * A lead read that fails: an unknown or stale uuid (the server's 404, or its refusal of the uuid
 * itself) is told apart from a failure Refresh may mend, in one place for every step machine.
 */

function failure(status: number | null, kind: string, data: ErrorEnvelope['data'] = {}): ServiceFailure {
  return { kind, status, body: status === null ? null : { status, message: 'refused', data } };
}

const UNKNOWN_LEAD = failure(404, 'rejected');
const UNKNOWN_LEAD_FIELD = failure(404, 'rejected', { errors: { uuid: 'not_found' } });
const MALFORMED_UUID = failure(422, 'invalid', { errors: { uuid: 'invalid_value' } });
const NETWORK = failure(null, 'network');
const SERVER = failure(500, 'server');

describe('loadFailureOf', () => {
  it('reads a 404, or a refused uuid, as a lead no one has', () => {
    expect(loadFailureOf(UNKNOWN_LEAD)).toBe('lead_not_found');
    expect(loadFailureOf(UNKNOWN_LEAD_FIELD)).toBe('lead_not_found');
    expect(loadFailureOf(MALFORMED_UUID)).toBe('lead_not_found');
  });

  it('reads network, server, other refusals and plain errors as a failed read that Refresh may mend', () => {
    expect(loadFailureOf(NETWORK)).toBe('load_failed');
    expect(loadFailureOf(SERVER)).toBe('load_failed');
    expect(loadFailureOf(failure(422, 'invalid', { errors: { lang: 'invalid_value' } }))).toBe('load_failed');
    expect(loadFailureOf(new Error('bug'))).toBe('load_failed');
    expect(loadFailureOf(undefined)).toBe('load_failed');
    expect(loadFailureOf(null)).toBe('load_failed');
    expect(loadFailureOf('refused')).toBe('load_failed');
  });

  it('reads a 422 whose body could not be read as a failed read, not as an unknown lead', () => {
    expect(loadFailureOf({ kind: 'invalid', status: 422, body: null })).toBe('load_failed');
  });
});

describe('asFailure', () => {
  it('takes an answer with a status as a failed call, and nothing else', () => {
    expect(asFailure(SERVER)).toBe(SERVER);
    expect(asFailure(NETWORK)).toBe(NETWORK);
    expect([null, undefined, 'refused', 404, new Error('bug'), { kind: 'network' }].map(asFailure)).toEqual([null, null, null, null, null, null]);
  });
});

describe('errorsOf', () => {
  it('gives the field codes of a refusal with that status', () => {
    expect(errorsOf(MALFORMED_UUID, 422)).toEqual({ uuid: 'invalid_value' });
  });

  it('gives null for another status, a refusal without codes or without a body, and what is not a failed call', () => {
    expect(errorsOf(MALFORMED_UUID, 409)).toBeNull();
    expect(errorsOf(UNKNOWN_LEAD, 404)).toBeNull();
    expect(errorsOf({ kind: 'invalid', status: 422, body: null }, 422)).toBeNull();
    expect(errorsOf(NETWORK, 422)).toBeNull();
    expect(errorsOf(null, 422)).toBeNull();
    expect(errorsOf(new Error('bug'), 422)).toBeNull();
  });
});

/** Each step machine with its lead read rejecting `error`. */
const STEPS: [string, (error: unknown) => AnyStateMachine, () => object][] = [
  ['quotes', (error) => quotesMachine.provide({ actors: { loadQuotes: fromPromise(() => Promise.reject(error)) } }), () => quotesInput()],
  ['offers', (error) => quotesMachine.provide({ actors: { loadQuotes: fromPromise(() => Promise.reject(error)) } }), () => quotesInput({ view: 'offers', compareIds: ['c1', 'c2'] })],
  ['review', (error) => reviewMachine.provide({ actors: { loadReview: fromPromise(() => Promise.reject(error)) } }), () => reviewInput()],
  ['checkout', (error) => checkoutMachine.provide({ actors: { loadCheckout: fromPromise(() => Promise.reject(error)) } }), () => checkoutInput()],
];

describe.each(STEPS)('the %s step reading an unknown lead', (_name, machineFailingWith, input) => {
  async function failedWith(error: unknown) {
    const actor = createActor(machineFailingWith(error), { input: input() }).start();
    const snapshot = await waitForSnapshot(actor, (state) => state.matches('failed'));
    actor.stop();
    return snapshot as unknown as { context: { failure: string | null } };
  }

  it('fails with lead_not_found on a 404, so the page offers a new quote', async () => {
    const snapshot = await failedWith(UNKNOWN_LEAD);
    expect(snapshot.context.failure).toBe('lead_not_found');
    expect(selectLeadNotFound(snapshot)).toBe(true);
  });

  it('keeps load_failed (the refresh view) for network and server failures', async () => {
    for (const error of [NETWORK, SERVER]) {
      const snapshot = await failedWith(error);
      expect(snapshot.context.failure).toBe('load_failed');
      expect(selectLeadNotFound(snapshot)).toBe(false);
    }
  });
});
