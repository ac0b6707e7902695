import { IDLE_RSS_GOAL_MB, memoryFigure, outcomeFigures, settle, soakRun, type SoakOptions } from './journeys';
import { goal, info, type SoakSummary } from './soak-figures';
import { ledgerFigures, lostFigures } from './soak-ledger';
import { killHard, serverRssMb, startInstance, survivors } from './soak-servers';

/**
 * `npm run soak -- crash`: journeys start; once a fifth of them are paid, every server is killed
 * with SIGKILL (a crash, nothing drained) and started again on the same data and port. Customers
 * caught in the middle reload as a browser does (a call that found no server is tried again for
 * up to three minutes; a spent bot token gets a fresh challenge) and carry on; those who closed
 * the tab on the sandbox's answer depend on the gateway's feedback alone. Then the books:
 * paid orders against policies against e-mails (exactly one each), every row acknowledged before
 * the kill still there, the sandbox's paid orders settled, and the time to /health/ready.
 */

/** How long a customer keeps reloading while the server is away. */
export const CUSTOMER_PATIENCE_MS = 180_000;

export function runCrash(options: SoakOptions): Promise<SoakSummary> {
  return soakRun(options, `crash --journeys ${options.journeys}`, async ({ target, instances, idle, figures, launch }) => {
    const load = launch(CUSTOMER_PATIENCE_MS);
    let finished = 0;
    void load.outcomes.then(() => (finished = options.journeys));

    // Mid-load: after some orders are paid, while most journeys are still under way.
    const killAfterPaid = Math.max(2, Math.floor(options.journeys / 5));
    while (load.ack.paid.length < killAfterPaid && finished === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const killedAt = Date.now();
    const paidBeforeKill = load.ack.paid.length;
    const ordersBeforeKill = load.ack.orders.length;
    const rssBeforeKill = instances.map(serverRssMb);
    const killed = [...instances];
    for (const instance of killed) await killHard(instance);

    const restartMs: number[] = [];
    for (const [index, instance] of killed.entries()) {
      const restarted = await startInstance(target, index, instance.port);
      instances[index] = restarted.instance;
      restartMs.push(restarted.readyMs);
    }

    const outcomes = await load.outcomes;
    const paidByClients = outcomes.filter((outcome) => outcome.policyNumber !== null).length;
    await settle(target, options, paidByClients);
    const afterLoad = instances.map(serverRssMb);
    for (const instance of instances) await instance.server.stop();

    figures.push(goal('killed mid-load (SIGKILL)', `${paidBeforeKill} paid, ${ordersBeforeKill} orders placed, ${options.journeys - paidBeforeKill} journeys unfinished`, 'some paid, some unfinished', paidBeforeKill > 0 && paidBeforeKill < options.journeys));
    figures.push(info('restart to /health/ready 200', restartMs.map((ms) => `${ms} ms`).join(', ')));
    figures.push(...outcomeFigures(outcomes, options.journeys));
    const database = await target.open();
    try {
      figures.push(...(await lostFigures(database, load.ack, killedAt)));
      figures.push(...(await ledgerFigures(target, database, { paidByClients })));
    } finally {
      await database.close();
    }
    figures.push(memoryFigure('server RSS at idle after start', idle, IDLE_RSS_GOAL_MB));
    figures.push(memoryFigure('server RSS at the kill', rssBeforeKill, null));
    figures.push(memoryFigure('server RSS after the restart and the load', afterLoad, null));
    const left = await survivors([...killed, ...instances]);
    figures.push(goal('server processes left running after the kill and the final stop', left.length === 0 ? '0' : left.join('; '), '0', left.length === 0));
    return outcomes;
  });
}
