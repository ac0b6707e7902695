import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';

/**
 * Every machine builds when its module loads. Imported inside the tests, not above them: a machine
 * whose config names a state that does not exist (an `initial`, a target, an `#id`) then fails a
 * test here. A test file that cannot load fails no test, and `npm run test:mutation` (issue 35
 * item 4) would count such a mutant as one the tests did not notice; its machines.mjs runs this
 * file with every machine's own tests.
 */
const MACHINES: Record<string, () => Promise<AnyStateMachine>> = {
  journey: async () => (await import('./journey.machine')).journeyMachine,
  'travel-details': async () => (await import('./travel-details/travel-details.machine')).travelDetailsMachine,
  quotes: async () => (await import('./quotes/quotes.machine')).quotesMachine,
  'call-back': async () => (await import('./call-back/call-back.machine')).callBackMachine,
  review: async () => (await import('./review/review.machine')).reviewMachine,
  checkout: async () => (await import('./checkout/checkout.machine')).checkoutMachine,
  'payment-result': async () => (await import('./payment-result/payment-result.machine')).paymentResultMachine,
};

describe('every machine builds', () => {
  for (const [name, load] of Object.entries(MACHINES)) {
    it(`${name}: its module loads and the machine has its states`, async () => {
      const machine = await load();
      expect(Object.keys(machine.root.states).length).toBeGreaterThan(1);
    });
  }
});
