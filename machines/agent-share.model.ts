import { EMAIL_TOAST_MS } from './agent-share';
import type { ActorOutcomeEvent } from './quotes/quotes.model';
import { FAILURES } from './travel-details/travel-details.model';

/** The events of an agent's share region (agent-share.ts), one of each, as a step's model samples them. */
export type ShareModelEvent = { type: 'share.email' } | ActorOutcomeEvent | { type: `xstate.after.${number}.${string}` };

export const SHARE_EVENT_TYPES = ['share.email', 'xstate.done.actor.sendEmail', 'xstate.error.actor.sendEmail'] as const;

/**
 * The share region's samples for a step whose region's "sent" state has the id `sentStateId`:
 * the share, its answer either way, and the end of the toast (its delayed event, replayed as
 * the timer would send it).
 */
export function shareModelEvents(sentStateId: string): ShareModelEvent[] {
  return [
    { type: 'share.email' },
    { type: 'xstate.done.actor.sendEmail', output: { ok: true } },
    { type: 'xstate.error.actor.sendEmail', error: FAILURES.network },
    { type: `xstate.after.${EMAIL_TOAST_MS}.${sentStateId}` },
  ];
}

/** Whether an event belongs to the share region (its delayed end included). */
export const isShareEvent = (event: { type: string }) => (SHARE_EVENT_TYPES as readonly string[]).includes(event.type) || event.type.startsWith('xstate.after.');
