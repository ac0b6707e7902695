import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { journeyMachine, type ShowRouteParams } from './journey.machine';
import { STEP_IDS, STEP_PATHS, needsLead, stepPath, type StepId, type WizardStepId } from './journey.routes';
import type { JourneyContext, JourneyEvent, JourneyInput } from './journey.types';

const LEAD = { uuid: 'lead-1', sessionId: 'sess-1' };
const POLICY = 'a1'.repeat(32);

function boot(input: Partial<JourneyInput> = {}) {
  const showRoute = vi.fn<(params: ShowRouteParams) => void>();
  const machine = journeyMachine.provide({ actions: { showRoute: (_, params) => showRoute(params) } });
  const actor = createActor(machine, {
    input: { path: '/', uuid: null, sessionId: null, agentId: null, ...input },
  }).start();
  return { actor, showRoute, step: () => actor.getSnapshot().value, context: () => actor.getSnapshot().context };
}

/** Starts on `step` without running its entry, for checks that only concern what happens next. */
function resumeAt(step: StepId, context: Partial<JourneyContext> = {}) {
  const showRoute = vi.fn<(params: ShowRouteParams) => void>();
  const machine = journeyMachine.provide({ actions: { showRoute: (_, params) => showRoute(params) } });
  const snapshot = machine.resolveState({
    value: step,
    context: { uuid: 'lead-1', sessionId: 'sess-1', agentId: null, visited: [...STEP_IDS], entryPath: '/', callBackReason: null, policyToken: POLICY, paidNotice: false, ...context },
  });
  // The input is required by the type but unused when starting from a snapshot.
  const actor = createActor(machine, { snapshot, input: { path: '/', uuid: null, sessionId: null, agentId: null } }).start();
  return { actor, showRoute, step: () => actor.getSnapshot().value, context: () => actor.getSnapshot().context };
}

function route(path: string): JourneyEvent {
  return { type: 'route.changed', path };
}

/** Walks the happy path from a fresh visit to checkout. */
function bootToCheckout() {
  const journey = boot({ path: '/traveller-details' });
  journey.actor.send({ type: 'details.submitted', ...LEAD });
  journey.actor.send({ type: 'quote.chosen' });
  journey.actor.send({ type: 'review.completed' });
  expect(journey.step()).toBe('checkout');
  return journey;
}

describe('booting', () => {
  it.each(STEP_IDS)('opens %s from its path when a lead uuid is present', (step) => {
    const { step: current } = boot({ path: stepPath(step, POLICY), ...LEAD });
    expect(current()).toBe(step);
  });

  it.each(STEP_IDS)('opens %s from its path without a uuid only if it needs no lead', (step) => {
    const { step: current } = boot({ path: stepPath(step, POLICY) });
    expect(current()).toBe(needsLead(step) ? 'travellerDetails' : step);
  });

  it.each(['/', '/nowhere', '', '/compare-quotes/extra'])('falls back to travel details for %j', (path) => {
    const { step } = boot({ path, ...LEAD });
    expect(step()).toBe('travellerDetails');
  });

  it('accepts a deep link with a trailing slash', () => {
    expect(boot({ path: '/review-details/', ...LEAD }).step()).toBe('reviewDetails');
  });

  it('boots without any input (a test model\'s first snapshot) like a fresh visit: travel details, no lead, no entry path', () => {
    const actor = createActor(journeyMachine.provide({ actions: { showRoute: () => {} } }), { input: undefined as unknown as JourneyInput }).start();
    expect(actor.getSnapshot().value).toBe('travellerDetails');
    expect(actor.getSnapshot().context).toEqual({
      uuid: null,
      sessionId: null,
      agentId: null,
      visited: ['travellerDetails'],
      entryPath: '',
      callBackReason: null,
      policyToken: null,
      paidNotice: false,
    });
  });

  it('treats an empty uuid from the query as no lead', () => {
    const { step, context } = boot({ path: '/checkout', uuid: '' });
    expect(step()).toBe('travellerDetails');
    expect(context().uuid).toBeNull();
  });

  it('carries uuid, session id and agent id from the input', () => {
    const { context } = boot({ path: '/compare-quotes', ...LEAD, agentId: 'agent-7' });
    expect(context()).toMatchObject({ uuid: 'lead-1', sessionId: 'sess-1', agentId: 'agent-7' });
  });

  it('marks the first page of every earlier header step visited on a deep link', () => {
    expect(boot({ path: '/checkout', ...LEAD }).context().visited).toEqual([
      'travellerDetails',
      'compareQuotes',
      'reviewDetails',
      'checkout',
    ]);
    expect(boot({ path: '/compare-offers', ...LEAD }).context().visited).toEqual([
      'travellerDetails',
      'compareQuotes',
      'compareOffers',
    ]);
  });

  it('shows the deep-linked route once, replacing the history entry', () => {
    const { showRoute } = boot({ path: '/checkout/', ...LEAD });
    expect(showRoute).toHaveBeenCalledTimes(1);
    expect(showRoute).toHaveBeenCalledWith({
      step: 'checkout',
      path: '/checkout',
      uuid: 'lead-1',
      sessionId: 'sess-1',
      replace: true,
    });
  });

  it('redirects a refused deep link to travel details without a history entry, keeping the query', () => {
    const { showRoute } = boot({ path: '/checkout', uuid: null, sessionId: 'sess-9' });
    expect(showRoute).toHaveBeenCalledTimes(1);
    expect(showRoute).toHaveBeenCalledWith({
      step: 'travellerDetails',
      path: '/traveller-details',
      uuid: null,
      sessionId: 'sess-9',
      replace: true,
    });
  });
});

describe('showRoute on user actions', () => {
  it('pushes compare quotes with the new lead after details are submitted', () => {
    const { actor, showRoute, step } = boot({ path: '/traveller-details' });
    actor.send({ type: 'details.submitted', ...LEAD });
    expect(step()).toBe('compareQuotes');
    expect(showRoute).toHaveBeenLastCalledWith({
      step: 'compareQuotes',
      path: '/compare-quotes',
      uuid: 'lead-1',
      sessionId: 'sess-1',
      replace: false,
    });
  });

  it('shows every page of the happy path in order', () => {
    const { showRoute } = bootToCheckout();
    expect(showRoute.mock.calls.map(([params]) => params.path)).toEqual([
      '/traveller-details',
      '/compare-quotes',
      '/review-details',
      '/checkout',
    ]);
  });

  it('adds every entered page to visited', () => {
    const { actor, context } = boot({ path: '/traveller-details' });
    actor.send({ type: 'details.submitted', ...LEAD });
    actor.send({ type: 'compare.opened' });
    expect(context().visited).toEqual(['travellerDetails', 'compareQuotes', 'compareOffers']);
  });
});

describe('route.changed', () => {
  it('goes back to a visited page and replaces rather than pushes the history entry', () => {
    const { actor, showRoute, step } = bootToCheckout();
    actor.send(route('/compare-quotes'));
    expect(step()).toBe('compareQuotes');
    expect(showRoute).toHaveBeenLastCalledWith(expect.objectContaining({ step: 'compareQuotes', replace: true }));
  });

  it('goes forward again to a page visited before going back', () => {
    const { actor, step } = bootToCheckout();
    actor.send(route('/traveller-details'));
    actor.send(route('/review-details'));
    expect(step()).toBe('reviewDetails');
  });

  it('refuses a page never visited, stays, and corrects the URL with replace', () => {
    const { actor, showRoute, step } = boot({ path: '/traveller-details' });
    actor.send({ type: 'details.submitted', ...LEAD });
    showRoute.mockClear();
    actor.send(route('/checkout'));
    expect(step()).toBe('compareQuotes');
    expect(showRoute).toHaveBeenCalledTimes(1);
    expect(showRoute).toHaveBeenCalledWith({
      step: 'compareQuotes',
      path: '/compare-quotes',
      uuid: 'lead-1',
      sessionId: 'sess-1',
      replace: true,
    });
  });

  it('refuses an unknown path and restores the current page', () => {
    const { actor, showRoute, step } = bootToCheckout();
    actor.send(route('/admin'));
    expect(step()).toBe('checkout');
    expect(showRoute).toHaveBeenLastCalledWith(expect.objectContaining({ step: 'checkout', replace: true }));
  });

  it('does nothing when the URL names the current page', () => {
    const { actor, showRoute, step } = bootToCheckout();
    const before = actor.getSnapshot();
    showRoute.mockClear();
    actor.send(route('/checkout/'));
    expect(step()).toBe('checkout');
    expect(showRoute).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context).toBe(before.context);
  });

  it('always allows travel details, even when it was never visited', () => {
    const { actor, context, step } = boot({ path: '/thank-you' });
    expect(context().visited).not.toContain('travellerDetails');
    actor.send(route('/traveller-details'));
    expect(step()).toBe('travellerDetails');
  });

  it('refuses a visited lead page once no uuid is held', () => {
    const { actor, step, showRoute } = resumeAt('thankYou', { uuid: null, sessionId: null });
    actor.send(route('/compare-quotes'));
    expect(step()).toBe('thankYou');
    expect(showRoute).toHaveBeenLastCalledWith(expect.objectContaining({ step: 'thankYou', replace: true }));
    actor.send(route('/call-back'));
    expect(step()).toBe('callBack');
  });
});

describe('wizard.jump', () => {
  it.each([
    ['travel', 'travellerDetails'],
    ['quotes', 'compareQuotes'],
    ['review', 'reviewDetails'],
  ] as const)('jumps from checkout back to %s (%s) and pushes it', (wizardStep, target) => {
    const { actor, showRoute, step } = bootToCheckout();
    actor.send({ type: 'wizard.jump', step: wizardStep });
    expect(step()).toBe(target);
    expect(showRoute).toHaveBeenLastCalledWith(expect.objectContaining({ step: target, replace: false }));
  });

  it.each(['review', 'purchase'] as const)('refuses a jump from review details to %s (not earlier)', (wizardStep) => {
    const { actor, step } = resumeAt('reviewDetails', { visited: [...STEP_IDS] });
    expect(actor.getSnapshot().can({ type: 'wizard.jump', step: wizardStep })).toBe(false);
    actor.send({ type: 'wizard.jump', step: wizardStep });
    expect(step()).toBe('reviewDetails');
  });

  it('treats compare offers as the quotes header step', () => {
    const { actor, step } = resumeAt('compareOffers');
    expect(actor.getSnapshot().can({ type: 'wizard.jump', step: 'quotes' })).toBe(false);
    actor.send({ type: 'wizard.jump', step: 'travel' });
    expect(step()).toBe('travellerDetails');
  });

  it.each(['thankYou', 'callBack', 'thankYouHundred', 'requestCallBack', 'paymentResult'] as const)(
    'refuses header jumps from %s, which is outside the header',
    (page) => {
      const snapshot = resumeAt(page).actor.getSnapshot();
      const jumps: WizardStepId[] = ['travel', 'quotes', 'review', 'purchase'];
      expect(jumps.map((wizardStep) => snapshot.can({ type: 'wizard.jump', step: wizardStep }))).toEqual([
        false,
        false,
        false,
        false,
      ]);
    },
  );
});

describe('lead.resumed', () => {
  it.each([
    [1, 'compareQuotes', ['travellerDetails', 'compareQuotes']],
    [2, 'reviewDetails', ['travellerDetails', 'compareQuotes', 'reviewDetails']],
    [3, 'checkout', ['travellerDetails', 'compareQuotes', 'reviewDetails', 'checkout']],
  ] as const)('opens a stage %i lead on %s with the earlier pages visited', (stage, target, visited) => {
    const { actor, step, context, showRoute } = boot({ path: '/traveller-details' });
    actor.send({ type: 'lead.resumed', uuid: 'lead-2', sessionId: 'sess-2', stage });
    expect(step()).toBe(target);
    expect(context()).toMatchObject({ uuid: 'lead-2', sessionId: 'sess-2', visited });
    expect(showRoute).toHaveBeenLastCalledWith({
      step: target,
      path: STEP_PATHS[target],
      uuid: 'lead-2',
      sessionId: 'sess-2',
      replace: false,
    });
  });

  it('keeps the current session id when the lead carries none', () => {
    const { actor, context } = boot({ path: '/traveller-details', sessionId: 'sess-0' });
    actor.send({ type: 'lead.resumed', uuid: 'lead-2', stage: 1 });
    expect(context().sessionId).toBe('sess-0');
  });

  it('forgets pages visited for the previous lead', () => {
    const { actor, step } = bootToCheckout();
    actor.send(route('/traveller-details'));
    actor.send({ type: 'lead.resumed', uuid: 'lead-2', stage: 1 });
    actor.send(route('/checkout'));
    expect(step()).toBe('compareQuotes');
  });
});

describe('details.submitted', () => {
  it('makes the pages after quotes unreachable again, since the old quote is stale', () => {
    const { actor, step } = bootToCheckout();
    actor.send(route('/traveller-details'));
    actor.send({ type: 'details.submitted', uuid: 'lead-1', sessionId: 'sess-1' });
    actor.send(route('/review-details'));
    expect(step()).toBe('compareQuotes');
  });
});

describe('journey.reset', () => {
  it('clears uuid and session id, keeps the agent, and shows travel details without the lead', () => {
    const { actor, step, context, showRoute } = boot({ path: '/traveller-details', agentId: 'agent-7' });
    actor.send({ type: 'details.submitted', ...LEAD });
    actor.send(route('/traveller-details'));
    actor.send({ type: 'journey.reset' });
    expect(step()).toBe('travellerDetails');
    expect(context()).toMatchObject({ uuid: null, sessionId: null, agentId: 'agent-7', visited: ['travellerDetails'] });
    expect(showRoute).toHaveBeenLastCalledWith({
      step: 'travellerDetails',
      path: '/traveller-details',
      uuid: null,
      sessionId: null,
      replace: false,
    });
  });

  it('makes pages of the cleared lead unreachable', () => {
    const { actor, step } = bootToCheckout();
    actor.send(route('/traveller-details'));
    actor.send({ type: 'journey.reset' });
    actor.send(route('/compare-quotes'));
    expect(step()).toBe('travellerDetails');
  });

  // compareQuotes and compareOffers: "Start a new quote" when the lead in the address is unknown.
  it.each(['thankYou', 'callBack', 'thankYouHundred', 'paymentResult', 'compareQuotes', 'compareOffers', 'reviewDetails', 'checkout'] as const)(
    'starts over from %s',
    (page) => {
      const { actor, step, context } = resumeAt(page);
      actor.send({ type: 'journey.reset' });
      expect(step()).toBe('travellerDetails');
      expect(context().uuid).toBeNull();
    },
  );
});

describe('leaving the review', () => {
  /** Walks to review details with a plan chosen. */
  function bootToReview() {
    const journey = boot({ path: '/traveller-details' });
    journey.actor.send({ type: 'details.submitted', ...LEAD });
    journey.actor.send({ type: 'compare.opened' });
    journey.actor.send({ type: 'quote.chosen' });
    expect(journey.step()).toBe('reviewDetails');
    return journey;
  }

  it('review.planMissing shows the lead\'s quotes in place of the review (replace), keeping the lead', () => {
    const { actor, step, context, showRoute } = bootToReview();
    actor.send({ type: 'review.planMissing' });
    expect(step()).toBe('compareQuotes');
    expect(context()).toMatchObject({ uuid: 'lead-1', sessionId: 'sess-1' });
    expect(showRoute).toHaveBeenLastCalledWith({
      step: 'compareQuotes',
      path: '/compare-quotes',
      uuid: 'lead-1',
      sessionId: 'sess-1',
      replace: true,
    });
  });

  it('review.planMissing forgets review and checkout until a plan is chosen again, but keeps the compare table', () => {
    const { actor, step, context } = bootToCheckout();
    actor.send(route('/review-details'));
    actor.send({ type: 'review.planMissing' });
    expect(context().visited).toEqual(['travellerDetails', 'compareQuotes']);
    actor.send(route('/review-details'));
    expect(step()).toBe('compareQuotes');
    actor.send(route('/checkout'));
    expect(step()).toBe('compareQuotes');

    const offers = bootToReview();
    offers.actor.send({ type: 'review.planMissing' });
    expect(offers.context().visited).toEqual(['travellerDetails', 'compareQuotes', 'compareOffers']);
    offers.actor.send(route('/compare-offers'));
    expect(offers.step()).toBe('compareOffers');
  });

  it('review.updateDetails pushes travel details with the same lead, and the review stays reachable by Back', () => {
    const { actor, step, context, showRoute } = bootToReview();
    actor.send({ type: 'review.updateDetails' });
    expect(step()).toBe('travellerDetails');
    expect(context()).toMatchObject({ uuid: 'lead-1', sessionId: 'sess-1' });
    expect(showRoute).toHaveBeenLastCalledWith({
      step: 'travellerDetails',
      path: '/traveller-details',
      uuid: 'lead-1',
      sessionId: 'sess-1',
      replace: false,
    });
    actor.send(route('/review-details'));
    expect(step()).toBe('reviewDetails');
  });

  it.each(['reviewDetails', 'checkout'] as const)('journey.reset on %s (thank-you flag) clears the lead and pushes travel details', (page) => {
    const { actor, step, context, showRoute } = resumeAt(page, { agentId: 'agent-7' });
    actor.send({ type: 'journey.reset' });
    expect(step()).toBe('travellerDetails');
    expect(context()).toMatchObject({ uuid: null, sessionId: null, agentId: 'agent-7', visited: ['travellerDetails'] });
    expect(showRoute).toHaveBeenLastCalledWith(expect.objectContaining({ step: 'travellerDetails', uuid: null, replace: false }));
  });
});

describe('leaving checkout', () => {
  it('checkout.planMissing shows the lead\'s quotes in place of checkout (replace), keeping the lead', () => {
    const { actor, step, context, showRoute } = bootToCheckout();
    actor.send({ type: 'checkout.planMissing' });
    expect(step()).toBe('compareQuotes');
    expect(context()).toMatchObject({ uuid: 'lead-1', sessionId: 'sess-1' });
    expect(showRoute).toHaveBeenLastCalledWith({ step: 'compareQuotes', path: '/compare-quotes', uuid: 'lead-1', sessionId: 'sess-1', replace: true });
  });

  it('checkout.planMissing forgets review and checkout until a plan is chosen again', () => {
    const { actor, step, context } = bootToCheckout();
    actor.send({ type: 'checkout.planMissing' });
    expect(context().visited).toEqual(['travellerDetails', 'compareQuotes']);
    actor.send(route('/checkout'));
    expect(step()).toBe('compareQuotes');
    actor.send(route('/review-details'));
    expect(step()).toBe('compareQuotes');
    actor.send({ type: 'quote.chosen' });
    expect(step()).toBe('reviewDetails');
  });

  it('checkout.reviewMissing shows review details in place of checkout (replace), keeping the lead and the visits', () => {
    const { actor, step, context, showRoute } = bootToCheckout();
    actor.send({ type: 'checkout.reviewMissing' });
    expect(step()).toBe('reviewDetails');
    expect(context()).toMatchObject({ uuid: 'lead-1', sessionId: 'sess-1', visited: ['travellerDetails', 'compareQuotes', 'reviewDetails', 'checkout'] });
    expect(showRoute).toHaveBeenLastCalledWith({ step: 'reviewDetails', path: '/review-details', uuid: 'lead-1', sessionId: 'sess-1', replace: true });
    actor.send({ type: 'review.completed' });
    expect(step()).toBe('checkout');
  });
});

// Every page event, the pages that accept it, and where it leads from each of them.
const ACCEPTED: Record<Exclude<JourneyEvent['type'], 'route.changed' | 'wizard.jump'>, {
  event: JourneyEvent;
  from: Partial<Record<StepId, StepId>>;
}> = {
  'details.submitted': { event: { type: 'details.submitted', ...LEAD }, from: { travellerDetails: 'compareQuotes' } },
  'lead.resumed': { event: { type: 'lead.resumed', uuid: 'lead-2', stage: 2 }, from: { travellerDetails: 'reviewDetails' } },
  'lead.noQuote': { event: { type: 'lead.noQuote', ...LEAD }, from: { travellerDetails: 'thankYou' } },
  'journey.reset': {
    event: { type: 'journey.reset' },
    from: {
      travellerDetails: 'travellerDetails',
      thankYou: 'travellerDetails',
      callBack: 'travellerDetails',
      thankYouHundred: 'travellerDetails',
      paymentResult: 'travellerDetails',
      policy: 'travellerDetails',
      // "Start a new quote" when the lead in the address is unknown.
      compareQuotes: 'travellerDetails',
      compareOffers: 'travellerDetails',
      // A stored thank-you flag, found by the review or checkout step; or an unknown lead.
      reviewDetails: 'travellerDetails',
      checkout: 'travellerDetails',
    },
  },
  'quote.chosen': { event: { type: 'quote.chosen' }, from: { compareQuotes: 'reviewDetails', compareOffers: 'reviewDetails' } },
  'compare.opened': { event: { type: 'compare.opened' }, from: { compareQuotes: 'compareOffers' } },
  'compare.closed': { event: { type: 'compare.closed' }, from: { compareOffers: 'compareQuotes' } },
  'review.completed': { event: { type: 'review.completed' }, from: { reviewDetails: 'checkout' } },
  'review.planMissing': { event: { type: 'review.planMissing' }, from: { reviewDetails: 'compareQuotes' } },
  'review.updateDetails': { event: { type: 'review.updateDetails' }, from: { reviewDetails: 'travellerDetails' } },
  'checkout.paidInFull': { event: { type: 'checkout.paidInFull' }, from: { checkout: 'thankYouHundred' } },
  'checkout.planMissing': { event: { type: 'checkout.planMissing' }, from: { checkout: 'compareQuotes' } },
  'checkout.reviewMissing': { event: { type: 'checkout.reviewMissing' }, from: { checkout: 'reviewDetails' } },
  'payment.returned': { event: { type: 'payment.returned' }, from: { checkout: 'paymentResult' } },
  'payment.retry': { event: { type: 'payment.retry' }, from: { paymentResult: 'checkout' } },
  'callBack.requested': {
    event: { type: 'callBack.requested', reason: 'header' },
    // Every page offers a call back (the header), except the call-back pages themselves.
    from: Object.fromEntries(
      STEP_IDS.filter((page) => page !== 'requestCallBack' && page !== 'callBack').map((page) => [page, 'requestCallBack']),
    ),
  },
  'callBack.submitted': { event: { type: 'callBack.submitted' }, from: { requestCallBack: 'callBack' } },
  // RULINGS 28: every journey page that can be opened for a lead, and travel details with its uuid.
  'lead.paid': {
    event: { type: 'lead.paid', policyToken: POLICY },
    from: { travellerDetails: 'policy', compareQuotes: 'policy', compareOffers: 'policy', reviewDetails: 'policy', checkout: 'policy' },
  },
  'policy.opened': { event: { type: 'policy.opened', policyToken: POLICY }, from: { travellerDetails: 'policy', paymentResult: 'policy', thankYouHundred: 'policy' } },
  'policy.buyAgain': { event: { type: 'policy.buyAgain' }, from: { policy: 'travellerDetails' } },
};

describe('page events', () => {
  const cases = Object.values(ACCEPTED).flatMap(({ event, from }) =>
    STEP_IDS.map((page) => [event.type, page, from[page] ?? null, event] as const),
  );

  it.each(cases)('%s on %s leads to %s (null: refused)', (_type, page, target, event) => {
    const { actor, step } = resumeAt(page);
    expect(actor.getSnapshot().can(event)).toBe(target !== null);
    actor.send(event);
    expect(step()).toBe(target ?? page);
  });
});

describe('payment.retry (issue 11: "Try again" after a failed payment)', () => {
  it('opens checkout for the lead of the return address as a new history entry, the lead\'s earlier pages and the result visited', () => {
    const { actor, step, context, showRoute } = boot({ path: '/payment-result', ...LEAD });
    expect(step()).toBe('paymentResult');
    expect(context().visited).toEqual(['paymentResult']);
    actor.send({ type: 'payment.retry' });
    expect(step()).toBe('checkout');
    expect(context()).toMatchObject({ ...LEAD, visited: ['travellerDetails', 'compareQuotes', 'reviewDetails', 'checkout', 'paymentResult'] });
    expect(showRoute).toHaveBeenLastCalledWith({ step: 'checkout', path: '/checkout', ...LEAD, replace: false });
    // Back shows the failure again; the review stays reachable from checkout.
    actor.send(route('/payment-result'));
    expect(step()).toBe('paymentResult');
    actor.send({ type: 'payment.retry' });
    actor.send(route('/review-details'));
    expect(step()).toBe('reviewDetails');
  });

  it('is refused without a lead (the return was refused: /payment-result?lang=…), which has no checkout to go back to', () => {
    const { actor, step } = boot({ path: '/payment-result' });
    expect(step()).toBe('paymentResult');
    expect(actor.getSnapshot().can({ type: 'payment.retry' })).toBe(false);
    actor.send({ type: 'payment.retry' });
    expect(step()).toBe('paymentResult');
  });
});

describe('lead.noQuote', () => {
  it('shows /thank-you holding the saved lead, with only travel details visited before it', () => {
    const { actor, step, context, showRoute } = bootToCheckout();
    actor.send(route('/traveller-details'));
    actor.send({ type: 'lead.noQuote', uuid: 'lead-9', sessionId: 'sess-9' });
    expect(step()).toBe('thankYou');
    expect(context()).toMatchObject({ uuid: 'lead-9', sessionId: 'sess-9', visited: ['travellerDetails', 'thankYou'] });
    expect(showRoute).toHaveBeenLastCalledWith({ step: 'thankYou', path: '/thank-you', uuid: 'lead-9', sessionId: 'sess-9', replace: false });
    actor.send(route('/compare-quotes'));
    expect(step()).toBe('thankYou');
  });
});

describe('callBack.requested', () => {
  it.each([
    ['compareQuotes', 'no_quotes_found'],
    ['thankYou', 'no_online_quote'],
    ['travellerDetails', 'customer_request'],
    ['checkout', 'customer_request'],
  ] as const)('on %s without a reason keeps the reason of that page (%s)', (page, reason) => {
    const { actor, step, context } = resumeAt(page);
    actor.send({ type: 'callBack.requested' });
    expect(step()).toBe('requestCallBack');
    expect(context().callBackReason).toBe(reason);
  });

  it('keeps the reason the event names (the header)', () => {
    const { actor, context } = resumeAt('compareQuotes');
    actor.send({ type: 'callBack.requested', reason: 'header' });
    expect(context().callBackReason).toBe('header');
  });

  it('forgets the reason once the form is left, submitted or not', () => {
    const submitted = resumeAt('thankYou');
    submitted.actor.send({ type: 'callBack.requested' });
    submitted.actor.send({ type: 'callBack.submitted' });
    expect(submitted.step()).toBe('callBack');
    expect(submitted.context().callBackReason).toBeNull();

    const left = resumeAt('compareQuotes');
    left.actor.send({ type: 'callBack.requested' });
    left.actor.send(route('/compare-quotes'));
    expect(left.step()).toBe('compareQuotes');
    expect(left.context().callBackReason).toBeNull();
  });

  it('opens the form by its URL with no reason, and keeps the lead it had', () => {
    const { step, context } = boot({ path: '/request-call-back', ...LEAD });
    expect(step()).toBe('requestCallBack');
    expect(context()).toMatchObject({ callBackReason: null, uuid: 'lead-1' });
  });
});

// Issue 20: no transition that cannot fire. The visits restart whenever the lead changes, so
// /thank-you (a lead quoted by hand) and the pages of a quoted lead are never both visited, and
// the address bar has no route between them.
describe('routes the address bar can take', () => {
  const QUOTED_LEAD_PAGES: readonly StepId[] = ['compareQuotes', 'compareOffers', 'reviewDetails', 'checkout', 'thankYouHundred', 'paymentResult'];

  /** The pages route.changed may lead to from `page`, in the order its transitions are tried. */
  function routeTargets(page: StepId): StepId[] {
    const transitions = journeyMachine.root.states[page]!.on['route.changed'] ?? [];
    return transitions.flatMap((transition) => (transition.target ?? []).map((target) => target.key as StepId));
  }

  it('gives /thank-you no route to a quoted lead\'s pages, only to travel details and the call-back pages', () => {
    expect(routeTargets('thankYou')).toEqual(['travellerDetails', 'callBack', 'requestCallBack']);
  });

  it.each(QUOTED_LEAD_PAGES)('gives %s a route to every other page but /thank-you', (page) => {
    expect(routeTargets(page)).toEqual(STEP_IDS.filter((target) => target !== page && target !== 'thankYou' && target !== 'policy'));
  });

  it.each(['travellerDetails', 'callBack', 'requestCallBack'] as const)('gives %s a route to every other page, /thank-you and the policy included', (page) => {
    expect(routeTargets(page)).toEqual(STEP_IDS.filter((target) => target !== page));
  });

  it('gives the policy page (it holds no lead) routes only to travel details and the call-back pages', () => {
    expect(routeTargets('policy')).toEqual(['travellerDetails', 'callBack', 'requestCallBack']);
  });
});

describe('the policy page of a paid trip (issue 37, RULINGS 28)', () => {
  it('a journey page opened for a paid lead shows its policy instead, replacing the page in history, with the lead dropped and the paid line on', () => {
    const { actor, step, context, showRoute } = boot({ path: '/checkout', ...LEAD });
    expect(step()).toBe('checkout');
    actor.send({ type: 'lead.paid', policyToken: POLICY });
    expect(step()).toBe('policy');
    expect(context()).toMatchObject({ uuid: null, sessionId: null, policyToken: POLICY, paidNotice: true, visited: ['policy'] });
    expect(showRoute).toHaveBeenLastCalledWith({ step: 'policy', path: `/policy/${POLICY}`, uuid: null, sessionId: null, replace: true });
  });

  it('Back to a page of the paid lead is refused: the policy stays, and the address is put back', () => {
    const { actor, step, showRoute } = boot({ path: '/review-details', ...LEAD });
    actor.send({ type: 'lead.paid', policyToken: POLICY });
    for (const path of ['/checkout', '/review-details', '/compare-quotes', '/compare-offers', '/payment-result', '/thank-you-p']) {
      actor.send(route(path));
      expect(step()).toBe('policy');
      expect(showRoute).toHaveBeenLastCalledWith({ step: 'policy', path: `/policy/${POLICY}`, uuid: null, sessionId: null, replace: true });
    }
  });

  it('boots at /policy/<token> (a link, a reload), and not at /policy without one', () => {
    const opened = boot({ path: `/policy/${POLICY}` });
    expect(opened.step()).toBe('policy');
    expect(opened.context()).toMatchObject({ policyToken: POLICY, paidNotice: false });
    expect(opened.showRoute).toHaveBeenLastCalledWith({ step: 'policy', path: `/policy/${POLICY}`, uuid: null, sessionId: null, replace: true });
    expect(boot({ path: '/policy' }).step()).toBe('travellerDetails');
    expect(boot({ path: '/policy/' }).step()).toBe('travellerDetails');
    expect(boot({ path: '/policy/a/b' }).step()).toBe('travellerDetails');
  });

  it('the resume dialog and the result pages open it as a new history entry, without the paid line', () => {
    const { actor, step, context, showRoute } = boot({ path: '/traveller-details' });
    actor.send({ type: 'policy.opened', policyToken: POLICY });
    expect(step()).toBe('policy');
    expect(context()).toMatchObject({ policyToken: POLICY, paidNotice: false });
    expect(showRoute).toHaveBeenLastCalledWith({ step: 'policy', path: `/policy/${POLICY}`, uuid: null, sessionId: null, replace: false });
    // Back to travel details is allowed, and Forward opens the policy again; taking up a lead forgets it.
    actor.send(route('/traveller-details'));
    expect(step()).toBe('travellerDetails');
    actor.send(route(`/policy/${POLICY}`));
    expect(step()).toBe('policy');
    actor.send(route('/traveller-details'));
    actor.send({ type: 'details.submitted', ...LEAD });
    expect(context()).toMatchObject({ policyToken: null, paidNotice: false });
    actor.send(route(`/policy/${POLICY}`));
    expect(step()).toBe('compareQuotes');
  });

  it('"Buy again" and "Start a new quote" open travel details without a lead', () => {
    for (const type of ['policy.buyAgain', 'journey.reset'] as const) {
      const { actor, step, context, showRoute } = boot({ path: `/policy/${POLICY}` });
      actor.send({ type });
      expect(step()).toBe('travellerDetails');
      expect(context()).toMatchObject({ uuid: null, policyToken: null, visited: ['travellerDetails'] });
      expect(showRoute).toHaveBeenLastCalledWith({ step: 'travellerDetails', path: '/traveller-details', uuid: null, sessionId: null, replace: false });
    }
  });
});
