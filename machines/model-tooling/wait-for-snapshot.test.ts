import { createActor, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { waitForSnapshot } from './wait-for-snapshot';

const machine = setup({ types: { context: {} as { tries: number }, events: {} as { type: 'finish' } } }).createMachine({
  context: { tries: 2 },
  initial: 'waiting',
  states: { waiting: { on: { finish: 'finished' } }, finished: { type: 'final' } },
});

describe('waitForSnapshot (the machines\' tests wait on a snapshot, with the hang guard)', () => {
  it('returns the first snapshot the predicate takes', async () => {
    const actor = createActor(machine).start();
    const waited = waitForSnapshot(actor, (snapshot) => snapshot.matches('finished'));
    actor.send({ type: 'finish' });
    expect((await waited).value).toBe('finished');
  });

  it('fails with where the machine was (state, status, context) when the actor ends without the predicate taking a snapshot', async () => {
    const actor = createActor(machine).start();
    const waited = waitForSnapshot(actor, (snapshot) => snapshot.context.tries > 5);
    actor.send({ type: 'finish' });
    await expect(waited).rejects.toThrow(/The machine was at "finished" \(status done\), context \{"tries":2\}$/);
  });
});
