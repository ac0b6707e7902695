import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, InspectionEvent } from 'xstate';

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

/** What the runs of one test file reached, by machine id. */
export type ReachedCoverage = Record<string, { states: string[]; transitions: string[]; events: string[] }>;

const reached = new Map<string, { states: Set<string>; transitions: Set<string>; events: Set<string> }>();

function reachedOf(machineId: string) {
  let entry = reached.get(machineId);
  if (!entry) {
    entry = { states: new Set(), transitions: new Set(), events: new Set() };
    reached.set(machineId, entry);
  }
  return entry;
}

/** Records the states, transitions and events of every machine actor it is passed events of. */
export function coverageInspector(event: InspectionEvent): void {
  const logic = (event.actorRef as { logic?: unknown }).logic as AnyStateMachine | undefined;
  if (!logic || !('root' in logic) || typeof logic.id !== 'string') return;
  const entry = reachedOf(logic.id);
  // Every event the actor was sent (by a path, a settled call or a timer): what its model samples.
  if (event.type === '@xstate.event') entry.events.add(event.event.type);
  if (event.type !== '@xstate.microstep' && event.type !== '@xstate.snapshot') return;
  const nodes = (event.snapshot as { _nodes?: AnyStateNode[] })._nodes ?? [];
  for (const node of nodes) entry.states.add(node.id);
  if (event.type !== '@xstate.microstep') return;
  for (const transition of event._transitions) {
    entry.transitions.add(transitionName(transition));
    // A transient state (one that only passes on, by an eventless transition) is in no snapshot:
    // it counts as reached when a transition leaves it.
    entry.states.add((transition.source as AnyStateNode).id);
  }
}

/** What this file's runs reached so far. */
export function reachedCoverage(): ReachedCoverage {
  return Object.fromEntries([...reached].map(([id, entry]) => [id, { states: [...entry.states], transitions: [...entry.transitions], events: [...entry.events] }]));
}

/**
 * Call once at the top of a model test file: answers the inspector to pass to its actors and,
 * with MODEL_COVERAGE_DIR set, writes what the file reached there once its tests have run.
 */
export function recordModelCoverage(file: string): typeof coverageInspector {
  afterAll(() => {
    const dir = process.env.MODEL_COVERAGE_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${path.basename(file)}-${process.pid}-${Date.now()}.json`), JSON.stringify(reachedCoverage()));
  });
  return coverageInspector;
}
