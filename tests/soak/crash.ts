import {
  awaitMail,
  awaitQueues,
  databaseLabel,
  IDLE_RSS_GOAL_MB,
  launchJourneys,
  memoryFigure,
  outcomeFigures,
  referenceInsurers,
  soakCoupons,
  STEP_ORDER,
  type SoakOptions,
} from './journeys';
import { errorKinds, goal, info, stepFigures, type Figure, type SoakSummary } from './soak-figures';
import { BotSolver, StepTimes } from './soak-http';
import { ledgerFigures, lostFigures } from './soak-ledger';
import { killHard, prepareTarget, serverRssMb, startInstance, survivors, type Instance } from './soak-servers';

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
const CUSTOMER_PATIENCE_MS = 180_000;

export async function runCrash(options: SoakOptions): Promise<SoakSummary> {
  const started = Date.now();
  const coupons = soakCoupons(options.journeys);
  const target = await prepareTarget({ databaseUrl: options.databaseUrl, instances: options.instances, keep: options.keep }, coupons);
  const solver = new BotSolver();
  const instances: Instance[] = [];
  const figures: Figure[] = [];
  try {
    for (let index = 0; index < options.instances; index += 1) instances.push((await startInstance(target, index)).instance);
    const times = new StepTimes();
    const insurers = await referenceInsurers(instances[0]!, times);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const idle = instances.map(serverRssMb);

    const load = launchJourneys({
      count: options.journeys,
      instances: () => instances,
      solver,
      times,
      coupons,
      insurers,
      settleTimeoutMs: options.settleMs,
      giveUpAfterMs: CUSTOMER_PATIENCE_MS,
      sharedAddress: options.sharedAddress,
    });
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
    for (const [index, instance] of instances.entries()) {
      const restarted = await startInstance(target, index, instance.port);
      instances[index] = restarted.instance;
      restartMs.push(restarted.readyMs);
    }

    const outcomes = await load.outcomes;
    const paidByClients = outcomes.filter((outcome) => outcome.policyNumber !== null).length;
    await awaitMail(target, paidByClients, options.settleMs);
    await awaitQueues(target, options.settleMs);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
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

    return {
      command: `crash --journeys ${options.journeys}`,
      date: new Date(started).toISOString(),
      database: databaseLabel(options),
      instances: options.instances,
      figures,
      steps: stepFigures(times, STEP_ORDER),
      errors: errorKinds(outcomes.flatMap((outcome) => (outcome.error ? [outcome.error.message] : []))),
      ok: figures.every((figure) => figure.ok !== false),
    };
  } finally {
    for (const instance of instances) await instance.server.stop().catch(() => undefined);
    await solver.close();
    await target.cleanup();
  }
}
