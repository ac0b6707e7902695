import { fireEvent } from '@testing-library/react';
import type { AnyActorRef, InspectionEvent } from 'xstate';

/**
 * What the model tests on the rendered screens share (issue 20): finding the step's actor the
 * page starts, holding the step's delayed events, and pressing a button as a pointer does.
 */

/**
 * Wraps the coverage inspector so it also finds the step's actor: the first actor of `machineId`
 * the page starts (a later one is the next page's, e.g. the compare table's after Compare plans).
 * `onStart` runs as it is created, before it starts (to hold its clock's timers).
 */
export function watchStepActor(inspect: (event: InspectionEvent) => void, machineId: string, onStart?: (actor: AnyActorRef) => void) {
  let found: AnyActorRef | null = null;
  const watch = (event: InspectionEvent) => {
    inspect(event);
    if (found || event.type !== '@xstate.actor') return;
    if ((event.actorRef as { logic?: { id?: string } }).logic?.id !== machineId) return;
    found = event.actorRef as AnyActorRef;
    onStart?.(found);
  };
  const step = (): AnyActorRef => {
    if (!found) throw new Error(`the page started no ${machineId} actor`);
    return found;
  };
  return { watch, step };
}

type ClockLike = { setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (id: unknown) => void };

/**
 * Holds the step's delayed events: the step actor's system clock keeps each timer of one of
 * `delays` until `release` runs it, as the live-actor tests' simulated clock does. The clock is
 * XState's own (`system._clock`): the edge of the world, stubbed for this actor only.
 */
export function holdDelays(actor: AnyActorRef, delays: readonly number[]) {
  const clock = (actor.system as unknown as { _clock: ClockLike })._clock;
  const { setTimeout: realSet, clearTimeout: realClear } = clock;
  const held = new Map<symbol, { fn: () => void; ms: number }>();
  clock.setTimeout = (fn, ms) => {
    if (!delays.includes(ms)) return realSet(fn, ms);
    const id = Symbol(`held ${ms} ms`);
    held.set(id, { fn, ms });
    return id;
  };
  clock.clearTimeout = (id) => {
    if (typeof id === 'symbol') held.delete(id);
    else realClear(id);
  };
  return {
    release(ms: number) {
      const entry = [...held].find(([, timer]) => timer.ms === ms);
      if (!entry) throw new Error(`no ${ms} ms timer of the step is pending`);
      held.delete(entry[0]);
      entry[1].fn();
    },
    restore() {
      clock.setTimeout = realSet;
      clock.clearTimeout = realClear;
    },
  };
}

/** Presses a button as a pointer does. */
export function press(target: HTMLElement) {
  fireEvent.mouseDown(target);
  fireEvent.mouseUp(target);
  fireEvent.click(target);
}
