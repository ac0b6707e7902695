import { exec } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { countriesEndpoint } from '../../src/contract/reference.endpoints';
import { REFERENCE_CHECK_MS } from '../../src/server/reference/reference-data';
import { runJourney, type Acknowledged, type JourneyOutcome } from './customer-journey';
import { databaseLabel, outcomeFigures, referenceInsurers, settle, soakCoupons, STEP_ORDER, type SoakOptions } from './journeys';
import { equals, errorKinds, goal, info, stepFigures, type Figure, type SoakSummary } from './soak-figures';
import { BotSolver, CustomerHttp, signedInit, StepTimes } from './soak-http';
import { ledgerFigures, lostFigures } from './soak-ledger';
import { prepareTarget, rowsOf, startInstance, type Instance } from './soak-servers';

/**
 * `npm run soak -- outage --database-url URL --stop CMD --stop-immediate CMD --start CMD`: the
 * database taken away under load (issue 34 item 1). One server runs on a database of its own on
 * that PostgreSQL. Three disruptions follow one another, each while a batch of --journeys
 * customers (default 10) is paying through the sandbox: `--stop` (pg_ctl stop -m fast: 57P01 on
 * every session) for --outage-ms, then `--start`; `--stop-immediate` (pg_ctl stop -m immediate:
 * sockets reset, crash recovery at the start) for --outage-ms, then `--start`; and a restart
 * (`--stop`, then `--start` at once) in the middle of payments. Customers retry a 503 and a call
 * that found no server, as a reloading customer does, for up to two minutes.
 *
 * Goals: the server process never exits (one start, the same pid throughout), customers see 503
 * at worst (no other 5xx, no refused or reset connection), the signed API and /health/ready
 * answer 503 while the database is away and 200 again by themselves, every customer's journey
 * ends paid with its policy, and afterwards, read from the database, every payment acknowledged
 * is applied exactly once (one success result, one policy, one e-mail) and nothing acknowledged
 * is lost.
 */

export interface OutageOptions extends SoakOptions {
  /** Stops PostgreSQL fast (pg_ctl stop -m fast). */
  stopCommand: string;
  /** Stops PostgreSQL at once (pg_ctl stop -m immediate). */
  stopImmediateCommand: string;
  startCommand: string;
  outageMs: number;
}

/** How long a customer keeps retrying a 503 or a call that found no server. */
const CUSTOMER_PATIENCE_MS = 120_000;
/** How long the database may take to be answered as ready again after its start command returned. */
const RECOVERY_GOAL_MS = 30_000;
/** How long a batch may take to have payments under way before its disruption goes ahead anyway. */
const PAYMENTS_UNDER_WAY_TIMEOUT_MS = 180_000;

interface Probe {
  at: number;
  api: number;
  ready: number;
  live: number;
}

interface Disruption {
  name: 'fast stop' | 'immediate stop' | 'restart mid-payment';
  stop: string;
  /** How long the database stays down (0: started again at once). */
  downMs: number;
}

interface DisruptionResult {
  disruption: Disruption;
  /** Journeys of the batch not finished when the stop began, and how many of its customers had paid. */
  unfinished: number;
  paid: number;
  stoppedAt: number;
  stopReturnedAt: number;
  startedAgainAt: number;
  /** ms from the start command's return to the first probe answered 200 by the API and /health/ready, or null. */
  recoveredMs: number | null;
}

const run = promisify(exec);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const addressOf = (index: number) => `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;

async function statusOf(request: () => Promise<{ status: number }>): Promise<number> {
  try {
    const res = await request();
    if (res instanceof Response) await res.body?.cancel().catch(() => undefined);
    return res.status;
  } catch {
    return 0;
  }
}

const tally = (values: readonly (number | null)[]) => {
  const counts = new Map<string, number>();
  for (const value of values) {
    const key = value === null || value === 0 ? 'no answer' : String(value);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].sort().map(([status, count]) => `${status} × ${count}`).join(', ') || 'none';
};

/**
 * The soak's database commits as the server's would in production: with synchronous_commit off
 * (the test cluster's speed setting), an immediate stop loses the commits still in PostgreSQL's
 * WAL buffers, which is the cluster's choice, not the app's loss.
 */
async function durableCommits(databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`alter database "${name.replaceAll('"', '""')}" set synchronous_commit = on`);
  } finally {
    await client.end();
  }
}

export async function runOutage(options: OutageOptions): Promise<SoakSummary> {
  const started = Date.now();
  const disruptions: Disruption[] = [
    { name: 'fast stop', stop: options.stopCommand, downMs: options.outageMs },
    { name: 'immediate stop', stop: options.stopImmediateCommand, downMs: options.outageMs },
    { name: 'restart mid-payment', stop: options.stopCommand, downMs: 0 },
  ];
  const perBatch = options.journeys;
  const total = perBatch * disruptions.length;
  const coupons = soakCoupons(total);
  const target = await prepareTarget({ databaseUrl: options.databaseUrl, instances: 1, keep: options.keep }, coupons);
  const solver = new BotSolver();
  let instance: Instance | null = null;
  try {
    await durableCommits(target.databaseUrl);
    instance = (await startInstance(target, 0)).instance;
    const server = instance.server;
    const pid = server.child.pid;
    let exitedAt: number | null = null;
    void server.exited.then(() => (exitedAt = Date.now()));
    const base = instance.base;
    const times = new StepTimes();
    const insurers = await referenceInsurers(instance, times);

    const probes: Probe[] = [];
    let probing = true;
    const probeHttp = new CustomerHttp(() => base, '10.9.9.9', new StepTimes(), { giveUpAfterMs: 0 });
    const probeLoop = (async () => {
      while (probing) {
        const at = Date.now();
        const [api, ready, live] = await Promise.all([
          statusOf(() => probeHttp.request('api', countriesEndpoint.path, () => signedInit(JSON.stringify({ lang: 'en', isDropdown: true })))),
          statusOf(() => fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(5_000) })),
          statusOf(() => fetch(`${base}/health/live`, { signal: AbortSignal.timeout(5_000) })),
        ]);
        probes.push({ at, api, ready, live });
        await sleep(200);
      }
    })();

    // Every attempt any customer made, retried ones included: what customers saw.
    const seen: (number | null)[] = [];
    const ack: Acknowledged = { leads: [], orders: [], paid: [] };
    const [percent, free] = coupons;
    const outcomes: JourneyOutcome[] = [];
    const results: DisruptionResult[] = [];

    for (const [batch, disruption] of disruptions.entries()) {
      const paidBefore = ack.paid.length;
      let finished = 0;
      const journeys = Promise.all(
        Array.from({ length: perBatch }, async (_, offset) => {
          const index = batch * perBatch + offset;
          const http = new CustomerHttp(() => base, addressOf(index), times, { giveUpAfterMs: CUSTOMER_PATIENCE_MS }, (status) => seen.push(status));
          const outcome = await runJourney(
            {
              index,
              http,
              solver,
              ack,
              coupons: { percent: percent!.code, free: free!.code },
              otherBase: null,
              settleTimeoutMs: options.settleMs,
              tolerant: true,
            },
            insurers,
          );
          finished += 1;
          return outcome;
        }),
      );
      // Payments under way: a fifth of the batch paid, the rest still on their way through checkout and the gateway.
      const wantPaid = Math.max(1, Math.floor(perBatch / 5));
      const waitedFrom = Date.now();
      while (ack.paid.length - paidBefore < wantPaid && finished < perBatch && Date.now() - waitedFrom < PAYMENTS_UNDER_WAY_TIMEOUT_MS) await sleep(20);

      const unfinished = perBatch - finished;
      const paid = ack.paid.length - paidBefore;
      const stoppedAt = Date.now();
      await run(disruption.stop, { shell: '/bin/sh' });
      const stopReturnedAt = Date.now();
      if (disruption.downMs > 0) await sleep(disruption.downMs);
      const startedAgainAt = Date.now();
      await run(options.startCommand, { shell: '/bin/sh' });
      const backAt = Date.now();
      let recoveredMs: number | null = null;
      while (Date.now() - backAt < 60_000) {
        const back = probes.find((probe) => probe.at >= backAt && probe.api === 200 && probe.ready === 200);
        if (back) {
          recoveredMs = back.at - backAt;
          break;
        }
        await sleep(100);
      }
      results.push({ disruption, unfinished, paid, stoppedAt, stopReturnedAt, startedAgainAt, recoveredMs });
      outcomes.push(...(await journeys));
    }

    const paidByClients = outcomes.filter((outcome) => outcome.policyNumber !== null).length;
    await settle(target, options, paidByClients);
    probing = false;
    await probeLoop;
    const starts = (server.stdout().match(/"event":"listening"/g) ?? []).length;
    const aliveAtEnd = exitedAt === null && server.child.exitCode === null && server.child.signalCode === null;
    const crashLines = server.stderr().split('\n').filter((line) => /Unhandled 'error' event|uncaught/i.test(line)).length;
    await server.stop();

    const figures: Figure[] = [];
    figures.push(info('customers per disruption (paying through the sandbox)', perBatch));
    for (const result of results) {
      const { disruption } = result;
      figures.push(
        info(
          `${disruption.name}: at the stop`,
          `${result.paid} of ${perBatch} paid, ${result.unfinished} journeys under way; database down ${((result.startedAgainAt - result.stoppedAt) / 1000).toFixed(1)} s`,
        ),
      );
      if (disruption.downMs > 0) {
        // Away once the stop command has returned and the probed reference data (countries) has had
        // its check interval to notice: until its next check it answers from memory, as it should.
        const awayFrom = Math.max(result.stoppedAt + 500, result.stopReturnedAt + REFERENCE_CHECK_MS);
        const away = probes.filter((probe) => probe.at > awayFrom && probe.at < result.startedAgainAt);
        figures.push(goal(`${disruption.name}: signed API while away`, tally(away.map((probe) => probe.api)), 'all 503', away.length > 0 && away.every((probe) => probe.api === 503)));
        figures.push(goal(`${disruption.name}: /health/ready while away`, tally(away.map((probe) => probe.ready)), 'all 503', away.length > 0 && away.every((probe) => probe.ready === 503)));
      }
      figures.push(
        goal(
          `${disruption.name}: API and /health/ready 200 again after the start command`,
          result.recoveredMs === null ? 'no (60 s)' : `${result.recoveredMs} ms`,
          `< ${RECOVERY_GOAL_MS / 1000} s, by itself`,
          result.recoveredMs !== null && result.recoveredMs < RECOVERY_GOAL_MS,
        ),
      );
    }
    figures.push(
      goal(
        'server process (whole run)',
        `pid ${pid}, ${starts} start${starts === 1 ? '' : 's'}, ${aliveAtEnd ? 'still running at the end' : 'EXITED'}${crashLines ? `, ${crashLines} crash lines` : ''}`,
        'one start, never exited',
        starts === 1 && aliveAtEnd && crashLines === 0,
      ),
    );
    figures.push(info('customer answers (every attempt, retries included)', tally(seen)));
    figures.push(equals('customer answers 5xx other than 503', seen.filter((status) => status !== null && status >= 500 && status !== 503).length, 0));
    figures.push(equals('customer calls with no answer (refused, reset)', seen.filter((status) => status === null).length, 0));
    figures.push(equals('/health/live not 200 (whole run)', probes.filter((probe) => probe.live !== 200).length, 0));
    figures.push(equals('probe answers 5xx other than 503 (whole run)', probes.filter((probe) => probe.api >= 500 && probe.api !== 503).length, 0));
    figures.push(...outcomeFigures(outcomes, total));

    const database = await target.open();
    try {
      figures.push(...(await lostFigures(database, ack, Number.POSITIVE_INFINITY)));
      // Applied once: a charged order has exactly one success result (a notice applied twice would
      // make a second), a free one (a 100 % coupon) none, and each exactly one policy.
      const references = ack.paid.map((row) => row.reference).filter((reference) => /^[A-Za-z0-9_.-]{1,40}$/.test(reference));
      const [applied] = references.length
        ? await rowsOf<{ once: number; free: number }>(
            database,
            `select count(*) filter (where ok)::int as once, count(*) filter (where ok and total_cents = 0)::int as free from (
               select o.total_cents,
                      o.status = 'paid'
                      and (select count(*) from payment_results r where r.order_id = o.id and r.status = '14') = (case when o.total_cents > 0 then 1 else 0 end)
                      and (select count(*) from policies p where p.order_id = o.id) = 1 as ok
                 from orders o where o.merchant_reference in (${references.map((reference) => `'${reference}'`).join(',')})) checked`,
          )
        : [{ once: 0, free: 0 }];
      figures.push(
        goal(
          'payments customers saw paid, applied exactly once (one success result, none when free; one policy)',
          `${applied?.once ?? 'n/a'} / ${references.length} (${applied?.free ?? 0} free)`,
          'all',
          applied?.once === references.length,
        ),
      );
      figures.push(...(await ledgerFigures(target, database, { paidByClients })));
    } finally {
      await database.close();
    }
    return {
      command: `outage --journeys ${perBatch}`,
      date: new Date(started).toISOString(),
      database: databaseLabel(options),
      instances: 1,
      figures,
      steps: stepFigures(times, STEP_ORDER),
      errors: errorKinds(outcomes.flatMap((outcome) => (outcome.error ? [outcome.error.message] : []))),
      ok: figures.every((figure) => figure.ok !== false),
    };
  } finally {
    await instance?.server.stop().catch(() => undefined);
    await solver.close();
    await target.cleanup();
  }
}
