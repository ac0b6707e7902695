import { useEffect } from 'react';
import type { JourneyEvent } from '../../../machines/journey.types';
import { JourneyActorContext } from './journey-context';

/**
 * Tells the journey how a step ended (DESIGN "Step machines"): `toEvent` is the step's pure,
 * tested mapping from its output to the journey's event, and this hook is the one place that
 * applies it, once per outcome.
 */
export function useStepOutcome<O>(outcome: O | null, toEvent: (outcome: O) => JourneyEvent | null): void {
  const journey = JourneyActorContext.useActorRef();
  useEffect(() => {
    if (outcome === null) return;
    const event = toEvent(outcome);
    if (event) journey.send(event);
  }, [outcome, toEvent, journey]);
}
