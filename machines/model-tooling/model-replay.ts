import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { fromPromise, type EventObject, type Snapshot } from 'xstate';
import type { TestParam, TestPath } from 'xstate/graph';

/**
 * Test support for the model tests of the step machines: the generated paths are replayed on a
 * live actor whose promise actors never settle by themselves. A path's sample outcome event
 * (xstate.done.actor.<id> / xstate.error.actor.<id>) settles the pending call of that actor
 * instead, so the real invoke, input and onDone/onError run as in the app.
 */

export interface PendingCall {
  input: unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** One deferred promise actor per id, and the calls each has pending (one at a time per id). */
export function deferredActors<Id extends string>(ids: readonly Id[]) {
  const pending = new Map<Id, PendingCall>();
  const make = (id: Id) =>
    fromPromise<never, never>(
      ({ input }) =>
        new Promise((resolve, reject) => {
          pending.set(id, { input, resolve: resolve as (value: unknown) => void, reject });
        }),
    );
  // Typed loosely: the stubs settle with whatever the sample carries, so each machine's own
  // actor types hold; callers cast the record to their machine's actor implementations.
  const actors: Record<Id, ReturnType<typeof make>> = Object.fromEntries(ids.map((id) => [id, make(id)])) as Record<Id, ReturnType<typeof make>>;
  return { actors, pending };
}

/**
 * Performs one step of a path on the live actor: an actor outcome settles its pending call
 * (and waits a tick, since promise actors report on a later task); any other event is sent.
 */
export function replayStep<Id extends string>(pending: Map<Id, PendingCall>, send: (event: { type: string }) => void) {
  return async (step: { event: { type: string } }) => {
    const event = step.event as { type: string; output?: unknown; error?: unknown };
    const outcome = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type);
    if (!outcome) {
      send(event);
      return;
    }
    const call = pending.get(outcome[2] as Id);
    if (!call) throw new Error(`no pending call for ${event.type}`);
    pending.delete(outcome[2] as Id);
    if ('output' in event) call.resolve(event.output);
    else if ('error' in event) call.reject(event.error);
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
}

/**
 * Names generated paths for their tests: each name starts with the path's id, eight hex digits
 * from its scope (machine, case, kind of path) and its events, the same on every run while the
 * model generates the same path. `npm run test:model -- --path <id>` runs that path alone
 * (tests/model/run.ts). Two paths of one scope with the same events get the next id.
 */
export function withPathIds<P extends { steps: readonly { event: unknown }[] }>(scope: string, paths: readonly P[], labelOf: (path: P) => string): (readonly [string, P])[] {
  const taken = new Set<string>();
  return paths.map((path) => {
    const hash = createHash('sha1').update(scope).update(JSON.stringify(path.steps.map((step) => step.event)));
    let id = hash.digest('hex').slice(0, 8);
    while (taken.has(id)) id = createHash('sha1').update(id).digest('hex').slice(0, 8);
    taken.add(id);
    return [`${id} ${labelOf(path)}`, path] as const;
  });
}

/**
 * Runs a generated path on a live actor: `perform` does each step's event (by its sample's
 * type), `check` runs at every state the path reaches that matches one of `states`, and the
 * actor is stopped at the end, also when a check fails.
 */
export async function testPathOnActor<S extends Snapshot<unknown>, E extends EventObject>(
  path: TestPath<S, E>,
  actor: { stop(): void },
  { states, check, samples, perform }: { states: readonly string[]; check: (state: S) => void; samples: readonly E[]; perform: (step: { event: E }) => unknown },
): Promise<void> {
  const params: TestParam<S, E> = {
    states: Object.fromEntries(states.map((state) => [state, check])),
    events: Object.fromEntries(samples.map(({ type }) => [type, perform])) as unknown as TestParam<S, E>['events'],
  };
  try {
    await path.test(params);
  } finally {
    actor.stop();
  }
}

/** The live actor is where the model says: the same state value, context and status. */
export function expectSameSnapshot(live: { value: unknown; context: unknown; status: string }, model: { value: unknown; context: unknown; status: string }): void {
  expect(live.value).toEqual(model.value);
  expect(live.context).toEqual(model.context);
  expect(live.status).toBe(model.status);
}
