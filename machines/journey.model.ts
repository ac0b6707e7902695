import { STEP_IDS, WIZARD_STEP_IDS, stepPath } from './journey.routes';
import type { JourneySnapshot } from './journey.selectors';
import type { JourneyEvent, JourneyInput } from './journey.types';

/**
 * Inputs of model-based journey tests. The same samples drive the machine's model test
 * (machines/journey.model.test.ts) and the test of the rendered app (tests/model/), so both walk
 * the same journeys. Build the model with `createTestModel` from 'xstate/graph' (see
 * journey.model.test.ts for why not @xstate/test).
 */

/** Where model journeys start: a fresh visit to the site root, nothing stored. */
export const journeyModelInput: JourneyInput = { path: '/', uuid: null, sessionId: null, agentId: null };

/**
 * The one lead of the model: entered with details.submitted and picked again with lead.resumed
 * (the chooser lists leads entered earlier). A second lead id would double the states without
 * exercising another rule.
 */
export const JOURNEY_MODEL_LEAD = { uuid: 'lead-1', sessionId: 'sess-1' } as const;

/**
 * The gateway's return (and any reload of it) is a fresh page load of /payment-result with the
 * lead in the address (`?uuid=…&ref=…`) and its session id still stored: the journey boots there.
 */
export const journeyModelReturnInput: JourneyInput = {
  path: '/payment-result',
  uuid: JOURNEY_MODEL_LEAD.uuid,
  sessionId: JOURNEY_MODEL_LEAD.sessionId,
  agentId: null,
};

/** The policy page of the model's lead once paid (issue 37): one token, as one lead. */
export const JOURNEY_MODEL_POLICY = 'c0ffee'.repeat(10) + 'c0ff';

/** A path no page answers to, so refusals of unknown URLs are exercised too. */
export const JOURNEY_MODEL_UNKNOWN_PATH = '/no-such-page';

/**
 * Sample events for `createTestModel(journeyMachine, { events: journeyModelEvents })`: every
 * event type at least once, every route of the table, an unknown path, every header step and
 * every lead stage.
 */
export const journeyModelEvents: readonly JourneyEvent[] = [
  ...STEP_IDS.map((step): JourneyEvent => ({ type: 'route.changed', path: stepPath(step, JOURNEY_MODEL_POLICY) })),
  { type: 'route.changed', path: JOURNEY_MODEL_UNKNOWN_PATH },
  ...WIZARD_STEP_IDS.map((step): JourneyEvent => ({ type: 'wizard.jump', step })),
  { type: 'details.submitted', uuid: JOURNEY_MODEL_LEAD.uuid, sessionId: JOURNEY_MODEL_LEAD.sessionId },
  ...([1, 2, 3] as const).map(
    (stage): JourneyEvent => ({
      type: 'lead.resumed',
      uuid: JOURNEY_MODEL_LEAD.uuid,
      sessionId: JOURNEY_MODEL_LEAD.sessionId,
      stage,
    }),
  ),
  { type: 'lead.noQuote', uuid: JOURNEY_MODEL_LEAD.uuid, sessionId: JOURNEY_MODEL_LEAD.sessionId },
  { type: 'journey.reset' },
  { type: 'quote.chosen' },
  { type: 'compare.opened' },
  { type: 'compare.closed' },
  { type: 'review.completed' },
  // The review step's other outcomes: no plan chosen, and the DOB dialog's "Update Details".
  { type: 'review.planMissing' },
  { type: 'review.updateDetails' },
  { type: 'checkout.paidInFull' },
  // The checkout step's other outcomes: no plan chosen, a traveller not reviewed.
  { type: 'checkout.planMissing' },
  { type: 'checkout.reviewMissing' },
  { type: 'payment.returned' },
  // "Try again" on a failed payment.
  { type: 'payment.retry' },
  // From a page's own offer (its reason follows from the page) and from the header.
  { type: 'callBack.requested' },
  { type: 'callBack.requested', reason: 'header' },
  { type: 'callBack.submitted' },
  // RULINGS 28: a page of the paid lead shows its policy; the resume dialog and the result pages open it.
  { type: 'lead.paid', policyToken: JOURNEY_MODEL_POLICY },
  { type: 'policy.opened', policyToken: JOURNEY_MODEL_POLICY },
  { type: 'policy.buyAgain' },
];

/**
 * `serializeState` for the test model: the page and the whole context tell states apart, and
 * nothing else. The default also appends the transition that led to a state, which multiplies
 * the states past 7,000; a coarser key (page and "has a lead") would merge states whose guards
 * behave differently, so the generated paths would not replay on a live actor.
 */
export function serializeJourneyModelState(snapshot: JourneySnapshot): string {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context });
}

/** Short label of a model state for test names: the page and whether a lead is held. */
export function journeyModelStateKey(snapshot: JourneySnapshot): string {
  return `${String(snapshot.value)}|${snapshot.context.uuid === null ? 'no-lead' : 'lead'}`;
}
