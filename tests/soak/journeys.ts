import pg from 'pg';
import { compareQuotesEndpoint } from '../../src/contract/quote.endpoints';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { journeyKind, runJourney, soakLeadBody, type Acknowledged, type JourneyOutcome } from './customer-journey';
import { equals, errorKinds, goal, info, stepFigures, type Figure, type SoakSummary } from './soak-figures';
import { BotSolver, CustomerHttp, StepTimes } from './soak-http';
import { ledgerFigures } from './soak-ledger';
import { probeInsurer } from './insurer-probe';
import { outboxFiles, prepareTarget, serverRssMb, startInstance, survivors, type Instance, type SoakCoupon, type SoakTarget } from './soak-servers';

/**
 * `npm run soak -- journeys [N]`: N concurrent customers (default 200) from travel details to a
 * paid policy against the real server (or two on one PostgreSQL), then the database read back:
 * errors, p50/p99 per step, paid orders = policies = e-mails, coupon uses within limits, memory.
 */

export interface SoakOptions {
  journeys: number;
  /** A PostgreSQL server URL ('' = embedded PGlite); the soak creates and drops a database of its own on it. */
  databaseUrl: string;
  instances: number;
  json: boolean;
  keep: boolean;
  /** How long a paid order may take to show its policy, and the outbox to send every e-mail. */
  settleMs: number;
  /** Every customer behind one address (a mobile carrier's NAT) instead of one address each. */
  sharedAddress: boolean;
}

/** Step names in journey order, for the latency table. */
export const STEP_ORDER = [
  'lead',
  'quotes',
  'bot-challenge',
  'bot-solve (client)',
  'proceed',
  'review',
  'coupon',
  'checkout',
  'payfort-data',
  'gateway',
  'card',
  'return',
  'notice-extra',
  'status',
];

/** Memory at idle stays under this (issue 18 item 3). */
export const IDLE_RSS_GOAL_MB = 300;

/** The 10 % and 100 % coupons, each limited to 80 % of the journeys that try it, so the last ones race for the limit. */
export function soakCoupons(journeys: number): SoakCoupon[] {
  const trying = (kind: string) => Array.from({ length: journeys }, (_, index) => journeyKind(index)).filter((k) => k === kind).length;
  return [
    { code: 'SOAK10', percent: 10, limit: Math.max(1, Math.floor(trying('coupon') * 0.8)) },
    { code: 'SOAKFREE', percent: 100, limit: Math.max(1, Math.floor(trying('free') * 0.8)) },
  ];
}

/** A customer's own address (10.x.y.z from its number), or one shared by all. */
const addressOf = (index: number, shared: boolean) => (shared ? '100.64.0.1' : `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`);

/**
 * The insurers a quote list for the soak's trip must show, read once at idle: later lists
 * missing one of them (an insurer that timed out under load) are counted.
 */
export async function referenceInsurers(instance: Instance, times: StepTimes): Promise<Set<number>> {
  const http = new CustomerHttp(() => instance.base, '10.255.255.254', times, { giveUpAfterMs: 0 });
  const lead = await http.api<{ uuid: string }>('warm-up', addCustomerLeadEndpoint.path, { ...soakLeadBody(0, 'en'), name: 'Soak Warmup', email: `soak.warmup.${Date.now()}@example.com`, phone_number: '79999999' });
  const quotes = await http.api<{ quotes: { provider: { id: number } }[] }>('warm-up', compareQuotesEndpoint.path, { uuid: lead.data.uuid, lang: 'en' });
  times.byStep.delete('warm-up');
  return new Set(quotes.data.quotes.map((quote) => quote.provider.id));
}

export interface Load {
  outcomes: Promise<JourneyOutcome[]>;
  ack: Acknowledged;
  times: StepTimes;
}

/** Starts `count` journeys at once, spread over the instances (journey i on instance i mod n). */
export function launchJourneys(options: {
  count: number;
  instances: () => Instance[];
  solver: BotSolver;
  times: StepTimes;
  coupons: SoakCoupon[];
  insurers: ReadonlySet<number> | null;
  settleTimeoutMs: number;
  /** Crash mode: calls that find no server are retried this long, as a customer reloads. */
  giveUpAfterMs: number;
  sharedAddress: boolean;
  /** The first customer's number: a later wave (waves.ts) brings new customers, not the same ones again. */
  firstIndex?: number;
}): Load {
  const ack: Acknowledged = { leads: [], orders: [], paid: [] };
  const [percent, free] = options.coupons;
  const outcomes = Promise.all(
    Array.from({ length: options.count }, (_, offset) => {
      const index = (options.firstIndex ?? 0) + offset;
      const pick = () => options.instances()[index % options.instances().length]!;
      const others = options.instances().length > 1 ? options.instances()[(index + 1) % options.instances().length]!.base : null;
      const http = new CustomerHttp(() => pick().base, addressOf(index, options.sharedAddress), options.times, { giveUpAfterMs: options.giveUpAfterMs });
      return runJourney(
        {
          index,
          http,
          solver: options.solver,
          ack,
          coupons: { percent: percent!.code, free: free!.code },
          otherBase: others,
          settleTimeoutMs: options.settleTimeoutMs,
          tolerant: options.giveUpAfterMs > 0,
        },
        options.insurers,
      );
    }),
  );
  return { outcomes, ack, times: options.times };
}

/** Waits until the outbox directory holds `expected` distinct messages, or the time is up; answers how many it holds. */
export async function awaitMail(target: SoakTarget, expected: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { messageIds } = outboxFiles(target.outboxDir);
    if (messageIds >= expected || Date.now() > deadline) return messageIds;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * PostgreSQL only (PGlite cannot be opened while its server runs): waits until no outbox row is
 * pending (the workers ran: a feedback in backoff after a timeout under load is retried), or the
 * time is up. Answers the pending rows left, or null on PGlite.
 */
export async function awaitQueues(target: SoakTarget, timeoutMs: number): Promise<number | null> {
  if (target.kind !== 'postgres') return null;
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let pending: number;
      try {
        const result = await client.query<{ n: number }>(`select count(*)::int as n from outbox where status = 'pending'`);
        pending = result.rows[0]?.n ?? 0;
      } catch {
        return null; // no outbox table (before issue 18's durable work): nothing to wait for
      }
      if (pending === 0 || Date.now() > deadline) return pending;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    await client.end();
  }
}

/** The journey figures of a run's outcomes: completed, errors, lists missing an insurer. */
export function outcomeFigures(outcomes: readonly JourneyOutcome[], journeys: number): Figure[] {
  const completed = outcomes.filter((outcome) => outcome.policyNumber !== null).length;
  const failed = outcomes.filter((outcome) => outcome.error !== null).length;
  const kinds = new Map<string, [number, number]>();
  for (const outcome of outcomes) {
    const entry = kinds.get(outcome.kind) ?? [0, 0];
    entry[0] += outcome.policyNumber ? 1 : 0;
    entry[1] += 1;
    kinds.set(outcome.kind, entry);
  }
  return [
    equals('journeys paid with a policy', completed, journeys, `${journeys}`),
    equals('journeys with an error', failed, 0),
    info('by kind (paid/run)', [...kinds.entries()].map(([kind, [done, run]]) => `${kind} ${done}/${run}`).join(', ')),
    info('coupon refused at its limit, paid full price', outcomes.filter((outcome) => outcome.couponRefused).length),
    missingFigure(outcomes),
  ];
}

/** Quote lists that lack an insurer the idle list showed, and which insurers they lack. */
function missingFigure(outcomes: readonly JourneyOutcome[]): Figure {
  const lacking = outcomes.filter((outcome) => outcome.missingInsurers.length > 0);
  const byInsurer = new Map<number, number>();
  for (const outcome of lacking) for (const id of outcome.missingInsurers) byInsurer.set(id, (byInsurer.get(id) ?? 0) + 1);
  const detail = [...byInsurer.entries()].map(([id, count]) => `insurer ${id} missing from ${count}`).join(', ');
  return goal('quote lists missing an insurer', `${lacking.length}${detail ? ` (${detail})` : ''}`, '0', lacking.length === 0);
}

export function memoryFigure(label: string, values: number[], limitMb: number | null): Figure {
  const text = values.map((mb) => `${mb} MB`).join(', ');
  return limitMb === null ? info(label, text) : goal(label, text, `< ${limitMb} MB`, values.every((mb) => mb < limitMb));
}

export const databaseLabel = (options: Pick<SoakOptions, 'databaseUrl'>) => (options.databaseUrl ? 'PostgreSQL' : 'embedded PGlite');

/** What every soak run sets up: the coupons, the database, the servers, the solver, the reference quote list. */
export interface SoakRun {
  coupons: SoakCoupon[];
  target: SoakTarget;
  /** The running servers (a restarted one replaces its entry). */
  instances: Instance[];
  solver: BotSolver;
  times: StepTimes;
  insurers: Set<number>;
  /** Each server's RSS at idle, after start. */
  idle: number[];
  figures: Figure[];
  /** Starts the run's customers on its servers; giveUpAfterMs: how long a call that finds no server is retried (crash mode), 0 never. */
  launch(giveUpAfterMs: number, firstIndex?: number): Load;
}

/**
 * Runs `body` over a fresh target with its servers started and idle, then builds the summary from
 * the figures and the customers' outcomes; the servers, the solver and the target are cleaned up
 * whatever happens.
 */
export async function soakRun(
  options: SoakOptions,
  command: string,
  body: (run: SoakRun) => Promise<JourneyOutcome[]>,
): Promise<SoakSummary> {
  const started = Date.now();
  const coupons = soakCoupons(options.journeys);
  const target = await prepareTarget({ databaseUrl: options.databaseUrl, instances: options.instances, keep: options.keep }, coupons);
  const solver = new BotSolver();
  const instances: Instance[] = [];
  try {
    for (let index = 0; index < options.instances; index += 1) instances.push((await startInstance(target, index)).instance);
    const times = new StepTimes();
    const insurers = await referenceInsurers(instances[0]!, times);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const launch = (giveUpAfterMs: number, firstIndex = 0) =>
      launchJourneys({
        count: options.journeys,
        instances: () => instances,
        solver,
        times,
        coupons,
        insurers,
        settleTimeoutMs: options.settleMs,
        giveUpAfterMs,
        sharedAddress: options.sharedAddress,
        firstIndex,
      });
    const run: SoakRun = { coupons, target, instances, solver, times, insurers, idle: instances.map(serverRssMb), figures: [], launch };
    const outcomes = await body(run);
    return {
      command,
      date: new Date(started).toISOString(),
      database: databaseLabel(options),
      instances: options.instances,
      figures: run.figures,
      steps: stepFigures(times, STEP_ORDER),
      errors: errorKinds(outcomes.flatMap((outcome) => (outcome.error ? [outcome.error.message] : []))),
      ok: run.figures.every((figure) => figure.ok !== false),
    };
  } finally {
    for (const instance of instances) await instance.server.stop().catch(() => undefined);
    await solver.close();
    await target.cleanup();
  }
}

/** Waits until every paid customer's e-mail is sent and the queues are empty (or settleMs passed), then a second for memory to settle. */
export async function settle(target: SoakTarget, options: SoakOptions, paidByClients: number): Promise<void> {
  await awaitMail(target, paidByClients, options.settleMs);
  await awaitQueues(target, options.settleMs);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}

export function runJourneys(options: SoakOptions): Promise<SoakSummary> {
  return soakRun(options, `journeys ${options.journeys}`, async ({ target, instances, idle, figures, launch }) => {
    const loadStarted = Date.now();
    const insurer = probeInsurer(() => instances);
    const load = launch(0);
    const outcomes = await load.outcomes;
    const insurerFigure = await insurer.stop();
    const loadMs = Date.now() - loadStarted;
    const afterLoad = instances.map(serverRssMb);
    const paidByClients = outcomes.filter((outcome) => outcome.policyNumber !== null).length;
    await settle(target, options, paidByClients);
    const afterSettle = instances.map(serverRssMb);
    for (const instance of instances) await instance.server.stop();

    figures.push(...outcomeFigures(outcomes, options.journeys), insurerFigure);
    figures.push(info('load wall time', `${(loadMs / 1000).toFixed(1)} s`));
    const database = await target.open();
    try {
      figures.push(...(await ledgerFigures(target, database, { paidByClients })));
    } finally {
      await database.close();
    }
    figures.push(memoryFigure('server RSS at idle after start', idle, IDLE_RSS_GOAL_MB));
    figures.push(memoryFigure('server RSS right after the load', afterLoad, null));
    figures.push(memoryFigure('server RSS once the outbox settled', afterSettle, null));
    const left = await survivors(instances);
    figures.push(goal('server processes left running after SIGTERM', left.length === 0 ? '0' : left.join('; '), '0', left.length === 0));
    return outcomes;
  });
}
