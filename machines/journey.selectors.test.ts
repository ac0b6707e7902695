import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { journeyMachine } from './journey.machine';
import type { JourneyInput } from './journey.types';
import {
  selectCallBackReason,
  selectIsAgent,
  selectLead,
  selectPath,
  selectStep,
  selectVisited,
  selectWizardIndex,
  selectWizardSteps,
} from './journey.selectors';

function start(input: Partial<JourneyInput> = {}) {
  return createActor(journeyMachine, {
    input: { path: '/traveller-details', uuid: null, sessionId: null, agentId: null, ...input },
  }).start();
}

function statuses(actor: ReturnType<typeof start>) {
  return selectWizardSteps(actor.getSnapshot()).map(({ id, status }) => `${id}:${status}`);
}

describe('selectStep and selectPath', () => {
  it('name the page being shown and its path', () => {
    const actor = start({ path: '/compare-offers/', uuid: 'lead-1' });
    expect(selectStep(actor.getSnapshot())).toBe('compareOffers');
    expect(selectPath(actor.getSnapshot())).toBe('/compare-offers');
    expect(selectWizardIndex(actor.getSnapshot())).toBe(1);
  });

  it('follow transitions', () => {
    const actor = start();
    actor.send({ type: 'details.submitted', uuid: 'lead-1', sessionId: 'sess-1' });
    expect(selectStep(actor.getSnapshot())).toBe('compareQuotes');
  });
});

describe('selectWizardSteps', () => {
  it('returns the four header steps in order with their indexes', () => {
    const steps = selectWizardSteps(start().getSnapshot());
    expect(steps.map(({ id, index }) => [id, index])).toEqual([
      ['travel', 0],
      ['quotes', 1],
      ['review', 2],
      ['purchase', 3],
    ]);
  });

  it('marks earlier steps done, the page current and later steps upcoming', () => {
    expect(statuses(start({ path: '/review-details', uuid: 'lead-1' }))).toEqual([
      'travel:done',
      'quotes:done',
      'review:current',
      'purchase:upcoming',
    ]);
  });

  it('keeps compare offers under the quotes step', () => {
    expect(statuses(start({ path: '/compare-offers', uuid: 'lead-1' }))).toEqual([
      'travel:done',
      'quotes:current',
      'review:upcoming',
      'purchase:upcoming',
    ]);
  });

  it('shows later steps as upcoming after going back, even if seen before', () => {
    const actor = start({ path: '/checkout', uuid: 'lead-1' });
    actor.send({ type: 'wizard.jump', step: 'quotes' });
    expect(statuses(actor)).toEqual(['travel:done', 'quotes:current', 'review:upcoming', 'purchase:upcoming']);
  });

  it('has no current step on a page outside the header, and marks visited steps done', () => {
    const actor = start({ path: '/checkout', uuid: 'lead-1' });
    actor.send({ type: 'checkout.paidInFull' });
    expect(statuses(actor)).toEqual(['travel:done', 'quotes:done', 'review:done', 'purchase:done']);

    const noQuote = start();
    noQuote.send({ type: 'lead.noQuote', uuid: 'lead-1', sessionId: 'sess-1' });
    expect(statuses(noQuote)).toEqual(['travel:done', 'quotes:upcoming', 'review:upcoming', 'purchase:upcoming']);
  });
});

describe('selectLead and selectIsAgent', () => {
  it('returns the lead ids held by the journey', () => {
    const actor = start({ agentId: 'agent-7' });
    actor.send({ type: 'details.submitted', uuid: 'lead-1', sessionId: 'sess-1' });
    expect(selectLead(actor.getSnapshot())).toEqual({ uuid: 'lead-1', sessionId: 'sess-1', agentId: 'agent-7' });
  });

  it('reports no lead after a reset', () => {
    const actor = start({ uuid: 'lead-1', sessionId: 'sess-1' });
    actor.send({ type: 'journey.reset' });
    expect(selectLead(actor.getSnapshot())).toEqual({ uuid: null, sessionId: null, agentId: null });
  });

  it('is agent mode exactly when an agent id is present', () => {
    expect(selectIsAgent(start({ agentId: 'agent-7' }).getSnapshot())).toBe(true);
    expect(selectIsAgent(start().getSnapshot())).toBe(false);
    expect(selectIsAgent(start({ agentId: '' }).getSnapshot())).toBe(false);
  });

  it('lists the visited pages', () => {
    const actor = start();
    actor.send({ type: 'lead.noQuote', uuid: 'lead-1', sessionId: 'sess-1' });
    expect(selectVisited(actor.getSnapshot())).toEqual(['travellerDetails', 'thankYou']);
  });
});

describe('selectCallBackReason', () => {
  it('names the reason the form was opened for, and the customer request when opened by its URL', () => {
    const actor = start();
    actor.send({ type: 'details.submitted', uuid: 'lead-1', sessionId: 'sess-1' });
    actor.send({ type: 'callBack.requested' });
    expect(selectCallBackReason(actor.getSnapshot())).toBe('no_quotes_found');
    expect(selectCallBackReason(start({ path: '/request-call-back' }).getSnapshot())).toBe('customer_request');
  });
});
