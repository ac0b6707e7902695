import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { SimulatedClock, createActor, fromPromise, type AnyActorRef, type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition, type EventObject, type InspectionEvent, type Snapshot } from 'xstate';
import type { TestModel, TestPath } from 'xstate/graph';

/**
 * Which states and transitions of each machine the model tests reach (issue 20). A transition is
 * named by where it is defined: its source state's id, its event (`always` for an eventless one)
 * and its place among that event's guarded alternatives, so the same name comes out of the
 * machine's definition and out of a run of a `provide`d copy of it.
 *
 * A model test file calls `recordModelCoverage()` once and passes the inspector it returns to
 * every actor it creates (`createActor(machine, { inspect })`); the inspector sees every actor
 * of the system, so step machines running inside the journey count too. With
 * MODEL_COVERAGE_DIR set (`npm run test:model` sets it), the file writes what it reached there
 * when it ends; `tests/model/run.ts` adds the files up against each machine's definition.
 */

export const ALWAYS = 'always';

/** The name of a transition: source state, event, and its index among that event's alternatives. */
export function transitionName(transition: AnyTransitionDefinition): string {
  const source: AnyStateNode = transition.source;
  const eventType = transition.eventType;
  const alternatives: readonly AnyTransitionDefinition[] = eventType === '' || eventType === null ? (source.always ?? []) : (source.transitions.get(eventType) ?? []);
  const index = alternatives.indexOf(transition);
  return `${source.id} ${eventType ? eventType : ALWAYS} #${index}`;
}

/** Where a transition goes, for the report: its targets' ids, or "(stays)". */
export function transitionTargets(transition: AnyTransitionDefinition): string {
  return transition.target?.length ? transition.target.map((target: AnyStateNode) => target.id).join(', ') : '(stays)';
}

function stateNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states as Record<string, AnyStateNode>).flatMap(stateNodes)];
}

export interface DefinedTransition {
  name: string;
  source: string;
  event: string;
  target: string;
}

/** Every state (by id) and every transition a machine defines. */
export function definedCoverage(machine: AnyStateMachine): { states: string[]; transitions: DefinedTransition[] } {
  const nodes = stateNodes(machine.root);
  const transitions = nodes.flatMap((node) =>
    [...[...(node.transitions as Map<string, AnyTransitionDefinition[]>).values()].flat(), ...(node.always ?? [])].map((transition) => ({
      name: transitionName(transition),
      source: node.id,
      event: transition.eventType || ALWAYS,
      target: transitionTargets(transition),
    })),
  );
  return { states: nodes.map((node) => node.id), transitions };
}

/**
 * What the runs of one test file reached, by machine id; `by` names, for each state and
 * transition, the first paths (their ids, model-replay.ts withPathIds) that reached it.
 */
export type ReachedCoverage = Record<string, { states: string[]; transitions: string[]; events: string[]; paths: string[]; by: Record<string, string[]> }>;

/** What one test file writes: its machines' coverage, and whether it ran them on the rendered app (tests/model/). */
export interface FileCoverage {
  rendered: boolean;
  machines: ReachedCoverage;
}

/** Paths named per state or transition in the report: enough to replay one, not every one. */
export const PATHS_NAMED = 3;

const reached = new Map<string, { states: Set<string>; transitions: Set<string>; events: Set<string>; paths: Set<string>; by: Map<string, Set<string>> }>();

function reachedOf(machineId: string) {
  let entry = reached.get(machineId);
  if (!entry) {
    entry = { states: new Set(), transitions: new Set(), events: new Set(), paths: new Set(), by: new Map() };
    reached.set(machineId, entry);
  }
  return entry;
}

/** The id of the generated path running now (the start of its test's name), or null. */
function currentPathId(): string | null {
  const name = expect.getState().currentTestName ?? '';
  return /(?:^|\s)([0-9a-f]{8}) /.exec(name)?.[1] ?? null;
}

function reachedBy(entry: ReturnType<typeof reachedOf>, key: string) {
  const id = currentPathId();
  if (id === null) return;
  const ids = entry.by.get(key) ?? new Set<string>();
  if (ids.size < PATHS_NAMED) ids.add(id);
  entry.by.set(key, ids);
}

/** Records the states, transitions and events of every machine actor it is passed events of. */
export function coverageInspector(event: InspectionEvent): void {
  const logic = (event.actorRef as { logic?: unknown }).logic as AnyStateMachine | undefined;
  if (!logic || !('root' in logic) || typeof logic.id !== 'string') return;
  const entry = reachedOf(logic.id);
  // Every event the actor was sent (by a path, a settled call or a timer): what its model samples.
  if (event.type === '@xstate.event') {
    entry.events.add(event.event.type);
    const id = currentPathId();
    if (id !== null) entry.paths.add(id);
  }
  if (event.type !== '@xstate.microstep' && event.type !== '@xstate.snapshot') return;
  const nodes = (event.snapshot as { _nodes?: AnyStateNode[] })._nodes ?? [];
  const reach = (set: Set<string>, key: string) => {
    set.add(key);
    reachedBy(entry, key);
  };
  for (const node of nodes) reach(entry.states, node.id);
  if (event.type !== '@xstate.microstep') return;
  for (const transition of event._transitions) {
    reach(entry.transitions, transitionName(transition));
    // A transient state (one that only passes on, by an eventless transition) is in no snapshot:
    // it counts as reached when a transition leaves it.
    reach(entry.states, (transition.source as AnyStateNode).id);
  }
}

/** What this file's runs reached so far. */
export function reachedCoverage(): ReachedCoverage {
  return Object.fromEntries(
    [...reached].map(([id, entry]) => [
      id,
      { states: [...entry.states], transitions: [...entry.transitions], events: [...entry.events], paths: [...entry.paths], by: Object.fromEntries([...entry.by].map(([key, ids]) => [key, [...ids]])) },
    ]),
  );
}

/**
 * Call once at the top of a model test file: answers the inspector to pass to its actors and,
 * with MODEL_COVERAGE_DIR set, writes what the file reached there once its tests have run. A
 * file in tests/model/ runs its paths on the rendered app, and its coverage counts as on screen.
 */
export function recordModelCoverage(file: string): typeof coverageInspector {
  afterAll(() => {
    const dir = process.env.MODEL_COVERAGE_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    const written: FileCoverage = { rendered: /[\\/]tests[\\/]model[\\/]/.test(file), machines: reachedCoverage() };
    writeFileSync(path.join(dir, `${path.basename(file)}-${process.pid}-${Date.now()}.json`), JSON.stringify(written));
  });
  return coverageInspector;
}

/** The machine's transitions an event takes from a snapshot (its eventless follow-ups aside). */
function takenBy(machine: AnyStateMachine, snapshot: unknown, event: unknown): string[] {
  return ((machine.getTransitionData(snapshot as never, event as never) as AnyTransitionDefinition[] | undefined) ?? []).map(transitionName);
}

/**
 * Paths that take the transitions `paths` never take (issue 20): for each transition of the
 * machine that some event takes from some state of the model's graph, and no path takes yet,
 * one path: the events of the first path through that state, then that event. Shortest paths
 * reach every state, but never an edge back into a state they have visited (back, refusals,
 * no-ops); these take each such edge once. `serializeState` must be the model's own.
 */
export function pathsCoveringTransitions<S extends Snapshot<unknown>, E extends EventObject, I>(
  machine: AnyStateMachine,
  model: TestModel<S, E, I>,
  paths: readonly TestPath<S, E>[],
  serializeState: (state: S) => string,
): TestPath<S, E>[] {
  const start = paths[0]?.steps[0];
  if (!start) return [];
  const covered = new Set<string>();
  const eventsTo = new Map<string, E[]>();
  for (const path of paths) {
    const [first, ...steps] = path.steps;
    if (!first) continue;
    // A path from another state (a scripted journey) covers its transitions, but its events lead
    // somewhere only from that state: the prefixes come from paths of the model's own start.
    const ownStart = serializeState(first.state) === serializeState(start.state);
    let previous = first.state;
    let events: E[] = [];
    if (ownStart && !eventsTo.has(serializeState(previous))) eventsTo.set(serializeState(previous), events);
    for (const step of steps) {
      takenBy(machine, previous, step.event).forEach((name) => covered.add(name));
      events = [...events, step.event];
      previous = step.state;
      if (ownStart && !eventsTo.has(serializeState(previous))) eventsTo.set(serializeState(previous), events);
    }
  }
  type Adjacency = Record<string, { state: S; transitions: Record<string, { event: E; state: S }> }>;
  const adjacency = model.getAdjacencyMap() as unknown as Adjacency;
  // A path as the model's own are: its start step, then each event with the state it leads to.
  const pathOf = (events: E[]): TestPath<S, E> => {
    const steps = [start];
    let state = start.state;
    for (const event of events) {
      const next = Object.values(adjacency[serializeState(state)]!.transitions).find((edge) => edge.event === event)!;
      steps.push({ event, state: next.state });
      state = next.state;
    }
    const statePath = { state, steps, weight: steps.length };
    return { ...statePath, test: (params) => model.testPath(statePath, params), description: '' };
  };
  const extra: TestPath<S, E>[] = [];
  for (const [key, { state, transitions }] of Object.entries(adjacency)) {
    const prefix = eventsTo.get(key);
    if (!prefix) continue;
    for (const { event } of Object.values(transitions)) {
      const names = takenBy(machine, state, event).filter((name) => !covered.has(name));
      if (names.length === 0) continue;
      names.forEach((name) => covered.add(name));
      extra.push(pathOf([...prefix, event]));
    }
  }
  return extra;
}

/**
 * A greedy cover: again and again the candidate whose keys (transitions, pages, ends…) add the
 * most that no chosen one has yet, the one with fewer steps on a tie, until none adds anything.
 * Picks the paths a slow runner (the rendered app, Chromium) runs out of all the generated ones;
 * answers them in the order picked, the same on every run.
 */
export function greedyCover<C>(candidates: readonly C[], keysOf: (candidate: C) => Iterable<string>, stepsOf: (candidate: C) => number): C[] {
  const covered = new Set<string>();
  const chosen: C[] = [];
  const keys = new Map(candidates.map((candidate) => [candidate, new Set(keysOf(candidate))]));
  for (;;) {
    let best: C | null = null;
    let bestGain = 0;
    for (const candidate of candidates) {
      const gain = [...keys.get(candidate)!].filter((key) => !covered.has(key)).length;
      if (gain > bestGain || (gain === bestGain && gain > 0 && best !== null && stepsOf(candidate) < stepsOf(best))) {
        best = candidate;
        bestGain = gain;
      }
    }
    if (best === null) return chosen;
    chosen.push(best);
    keys.get(best)!.forEach((key) => covered.add(key));
  }
}

/**
 * The transitions (by name) a path takes, its events sent at once to a fresh actor of `machine`
 * whose calls (`actorIds`) never settle: a path's call outcomes are events of its own, and its
 * delayed events too (a simulated clock never fires). For picking paths by what they take.
 */
export function transitionsTakenBy(machine: AnyStateMachine, input: unknown, actorIds: readonly string[], path: { steps: readonly { event: unknown }[] }): Set<string> {
  const taken = new Set<string>();
  const never = fromPromise(() => new Promise<never>(() => undefined));
  const actor = createActor(machine.provide({ actors: Object.fromEntries(actorIds.map((id) => [id, never])) } as never), {
    input,
    clock: new SimulatedClock(),
    inspect: (event: InspectionEvent) => {
      if (event.type === '@xstate.microstep' && (event.actorRef as AnyActorRef)._parent === undefined) for (const transition of event._transitions) taken.add(transitionName(transition));
    },
  });
  actor.start();
  for (const { event } of path.steps.slice(1)) actor.send(event as never);
  actor.stop();
  return taken;
}
