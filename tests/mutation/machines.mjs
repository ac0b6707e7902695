// The machines `npm run test:mutation` scores (issue 35 item 4): per machine, the files Stryker
// mutates (the machine and the guards and actions it imports) and the tests run against each
// mutant (the machine's own tests and its model tests). Plain JavaScript: Stryker's config
// (stryker.config.mjs) loads it as it is.

/** Imports every machine inside a test: a mutant that stops a machine from building fails it (machines/machines.build.test.ts). */
const BUILDS = 'machines/machines.build.test.ts';

/** @type {Record<string, { mutate: string[]; tests: string[] }>} */
export const MACHINES = {
  journey: { mutate: ['machines/journey.machine.ts', 'machines/journey.routes.ts'], tests: [BUILDS, 'machines/journey.*.test.ts'] },
  'travel-details': {
    mutate: ['machines/travel-details/travel-details.machine.ts', 'machines/travel-details/travel-details.payload.ts'],
    tests: [BUILDS, 'machines/travel-details/*.test.ts'],
  },
  quotes: { mutate: ['machines/quotes/quotes.machine.ts', 'machines/quotes/quotes.pricing.ts'], tests: [BUILDS, 'machines/quotes/*.test.ts'] },
  'call-back': { mutate: ['machines/call-back/call-back.machine.ts', 'machines/call-back/call-back.payload.ts'], tests: [BUILDS, 'machines/call-back/*.test.ts'] },
  review: { mutate: ['machines/review/review.machine.ts', 'machines/review/review.travellers.ts'], tests: [BUILDS, 'machines/review/*.test.ts'] },
  checkout: { mutate: ['machines/checkout/checkout.machine.ts', 'machines/checkout/checkout.helpers.ts'], tests: [BUILDS, 'machines/checkout/*.test.ts'] },
  'payment-result': { mutate: ['machines/payment-result/payment-result.machine.ts'], tests: [BUILDS, 'machines/payment-result/*.test.ts'] },
  // The agent's share and the service-failure outcome, which quotes, review and checkout use, and
  // the placeholder of every call: scored with the tests of those machines and their own.
  shared: {
    mutate: ['machines/agent-share.ts', 'machines/service-failure.ts', 'machines/not-provided.ts'],
    tests: [BUILDS, 'machines/service-failure.test.ts', 'machines/not-provided.test.ts', 'machines/quotes/*.test.ts', 'machines/review/*.test.ts', 'machines/checkout/*.test.ts'],
  },
};
