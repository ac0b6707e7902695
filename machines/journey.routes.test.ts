import { describe, expect, it } from 'vitest';
import {
  STEPS_NEEDING_LEAD,
  STEP_IDS,
  STEP_PATHS,
  WIZARD_STEPS,
  firstStepOf,
  isStepId,
  needsLead,
  policyTokenOfPath,
  stepForPath,
  stepPath,
  wizardIndexOf,
  type StepId,
} from './journey.routes';

describe('route table', () => {
  it('gives each step the path the spec and rulings name', () => {
    expect(STEP_PATHS).toEqual({
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
      policy: '/policy',
    });
  });

  it('reads the policy page\'s token from /policy/<token> (any case, a trailing slash), and writes it back', () => {
    const token = 'ab12'.repeat(16);
    expect(stepForPath(`/policy/${token}`)).toBe('policy');
    expect(stepForPath(`/POLICY/${token}/`)).toBe('policy');
    expect(policyTokenOfPath(`/policy/${token}/`)).toBe(token);
    expect(policyTokenOfPath(`/Policy/${token}`)).toBe(token);
    expect(stepPath('policy', token)).toBe(`/policy/${token}`);
    expect(stepPath('checkout', token)).toBe('/checkout');
    expect(stepPath('policy', null)).toBe('/policy');
    for (const path of ['/policy', '/policy/', '/policy/a/b', '/policy/a%20b', '/policyx/abc', '/checkout/abc']) expect(policyTokenOfPath(path)).toBeNull();
    expect(stepForPath('/policy/a/b')).toBeNull();
  });

  it('uses a distinct path for every step', () => {
    const paths = STEP_IDS.map((step) => STEP_PATHS[step]);
    expect(new Set(paths).size).toBe(STEP_IDS.length);
  });

  it.each(STEP_IDS.map((step) => [STEP_PATHS[step], step] as const))('maps %s back to %s', (path, step) => {
    expect(stepForPath(path)).toBe(step);
  });

  it('tolerates a trailing slash', () => {
    expect(stepForPath('/compare-quotes/')).toBe('compareQuotes');
    expect(stepForPath('/thank-you-p//')).toBe('thankYouHundred');
  });

  it('matches paths case-insensitively, like the router', () => {
    expect(stepForPath('/Review-Details')).toBe('reviewDetails');
  });

  it('tells a step id from any other value (a stored or typed one)', () => {
    expect(STEP_IDS.map((step) => isStepId(step))).toEqual(STEP_IDS.map(() => true));
    expect(['nowhere', '', 'Checkout', '/checkout', 3, null, undefined].map((value) => isStepId(value))).toEqual([false, false, false, false, false, false, false]);
  });

  it('does not confuse /thank-you with /thank-you-p', () => {
    expect(stepForPath('/thank-you')).toBe('thankYou');
    expect(stepForPath('/thank-you-p')).toBe('thankYouHundred');
  });

  it.each(['/', '', '/unknown', '/compare-quotes/extra', 'compare-quotes', '/checkout-x'])(
    'returns null for the root and unknown path %j',
    (path) => {
      expect(stepForPath(path)).toBeNull();
    },
  );
});

describe('wizard header', () => {
  it('lists travel, quotes, review and purchase in journey order', () => {
    expect(WIZARD_STEPS.map((wizardStep) => wizardStep.id)).toEqual(['travel', 'quotes', 'review', 'purchase']);
  });

  it.each([
    ['travellerDetails', 0],
    ['compareQuotes', 1],
    ['compareOffers', 1],
    ['reviewDetails', 2],
    ['checkout', 3],
  ] as const)('places %s at header index %i', (step, index) => {
    expect(wizardIndexOf(step)).toBe(index);
  });

  it.each(['thankYou', 'callBack', 'thankYouHundred', 'requestCallBack', 'paymentResult'] as const)(
    'leaves %s out of the header',
    (step) => {
      expect(wizardIndexOf(step)).toBeNull();
    },
  );

  it('lands a header jump on the first page of the header step', () => {
    expect(WIZARD_STEPS.map((wizardStep) => firstStepOf(wizardStep.id))).toEqual([
      'travellerDetails',
      'compareQuotes',
      'reviewDetails',
      'checkout',
    ]);
  });
});

describe('pages needing a lead', () => {
  it('are exactly the quote, compare, review and checkout pages', () => {
    expect([...STEPS_NEEDING_LEAD].sort()).toEqual(['checkout', 'compareOffers', 'compareQuotes', 'reviewDetails']);
    const needing: StepId[] = STEP_IDS.filter((step) => needsLead(step));
    expect(needing.sort()).toEqual([...STEPS_NEEDING_LEAD].sort());
  });
});
