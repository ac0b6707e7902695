import { waitFor, type AnyActorRef, type SnapshotFrom } from 'xstate';
import { WAIT_GUARD_MS } from '../../tests/support/wait-guard';

/** The context as JSON, cut short; a context that cannot be written (a cycle, an actor) says so. */
function describeContext(context: unknown): string {
  try {
    const json = JSON.stringify(context) ?? String(context);
    return json.length > 2_000 ? `${json.slice(0, 2_000)}…` : json;
  } catch {
    return '(not JSON)';
  }
}

/**
 * xstate's waitFor for the machines' tests, with the hang guard every test wait has
 * (WAIT_GUARD_MS; xstate's own default waits for ever, so a broken machine ran into the test's
 * timeout and said only that). When it fails, it says where the machine was: its state value,
 * status and context.
 */
export async function waitForSnapshot<TActor extends AnyActorRef>(
  actor: TActor,
  predicate: (snapshot: SnapshotFrom<TActor>) => boolean,
): Promise<SnapshotFrom<TActor>> {
  try {
    return await waitFor(actor, predicate, { timeout: WAIT_GUARD_MS });
  } catch (error) {
    const snapshot = actor.getSnapshot() as { value?: unknown; status?: string; context?: unknown };
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}. The machine was at ${JSON.stringify(snapshot.value)} (status ${snapshot.status}), context ${describeContext(snapshot.context)}`, {
      cause: error,
    });
  }
}
