import os from 'node:os';
import pg from 'pg';
import { TAKEOVER_AFTER_MS } from '../../src/server/mail/outbox';
import { CUSTOMER_PATIENCE_MS } from './crash';
import { IDLE_RSS_GOAL_MB, memoryFigure, outcomeFigures, settle, soakRun, type SoakOptions } from './journeys';
import { goal, info, type Figure, type SoakSummary } from './soak-figures';
import { probeInsurer } from './insurer-probe';
import { ledgerFigures, lostFigures } from './soak-ledger';
import { killHard, serverRssMb, survivors, type Instance } from './soak-servers';

/**
 * `npm run soak -- journeys N --database-url URL --instances 2 --kill-one` (issue 34 item 4): the
 * journeys start on every instance; once a fifth of them are paid, the last instance is SIGKILLed
 * at a moment it holds outbox claims, and never comes back. Its customers carry on with the others,
 * as behind a load balancer that dropped it (a call that found no server is tried again, on a live
 * instance). Then, beside the journey and ledger figures: the rows it had claimed, how long each
 * waited from the kill until another instance sent it (goal under 15 s: N = TAKEOVER_AFTER_MS plus
 * a poll), and the oldest heartbeat a live instance showed meanwhile (goal under N: no live
 * instance was taken for dead under the load).
 */

/** The wait from the kill to the sending of each of the dead instance's claims stays under this. */
export const TAKEOVER_GOAL_MS = 15_000;

/** The instance id main.ts gives a server on PostgreSQL: this host and its port. */
const instanceIdOf = (instance: Instance) => `${os.hostname()}:${instance.port}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Samples every instance's heartbeat age (the database's now() - heartbeat_at) every 250 ms, and
 * keeps the largest per instance; an instance in `dead` is no longer counted from then on.
 */
function watchHeartbeats(client: pg.Client) {
  const oldest = new Map<string, number>();
  const dead = new Set<string>();
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const { rows } = await client.query<{ id: string; age: number }>(
          `select instance_id as id, (extract(epoch from now() - heartbeat_at) * 1000)::int as age from outbox_instances`,
        );
        for (const row of rows) if (!dead.has(row.id)) oldest.set(row.id, Math.max(oldest.get(row.id) ?? 0, row.age));
      } catch {
        // No heartbeat table (a build before issue 34): the figure shows none seen.
      }
      await sleep(250);
    }
  })();
  return {
    dead,
    async stop(): Promise<Map<string, number>> {
      running = false;
      await loop;
      return oldest;
    },
  };
}

interface Claim {
  id: number;
  queue: string;
  /** ms from the kill until another instance held it, and until it was sent (null: never, within the wait). */
  takenMs: number | null;
  sentMs: number | null;
}

/** Follows the dead instance's claims every 100 ms until each is sent (or `timeoutMs` passed). */
async function followClaims(client: pg.Client, victim: string, killedAt: number, timeoutMs: number): Promise<Claim[]> {
  const { rows } = await client.query<{ id: number; queue: string }>(
    `select id, queue from outbox where status = 'pending' and claimed_by = $1 order by id`,
    [victim],
  );
  const claims: Claim[] = rows.map((row) => ({ ...row, takenMs: null, sentMs: null }));
  const deadline = Date.now() + timeoutMs;
  while (claims.some((claim) => claim.sentMs === null) && Date.now() < deadline) {
    const { rows: now } = await client.query<{ id: number; status: string; claimed_by: string | null; sent_at: Date | null }>(
      `select id, status, claimed_by, sent_at from outbox where id = any($1::int[])`,
      [claims.map((claim) => claim.id)],
    );
    for (const row of now) {
      const claim = claims.find((candidate) => candidate.id === row.id)!;
      if (claim.takenMs === null && row.claimed_by !== victim) claim.takenMs = Date.now() - killedAt;
      // sent_at is the sending instance's clock: this host's, as the kill's.
      if (claim.sentMs === null && row.status === 'sent' && row.sent_at) claim.sentMs = row.sent_at.getTime() - killedAt;
    }
    await sleep(100);
  }
  return claims;
}

/** The figures of the takeover: the claims the kill left, and how long they waited. */
function takeoverFigures(claims: readonly Claim[], oldest: Map<string, number>, victim: string): Figure[] {
  const queues = (queue: string) => claims.filter((claim) => claim.queue === queue).length;
  const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);
  const sent = claims.map((claim) => claim.sentMs);
  const worst = sent.some((ms) => ms === null) ? null : Math.max(0, ...(sent as number[]));
  const live = [...oldest.entries()].filter(([id]) => id !== victim);
  const livest = Math.max(0, ...live.map(([, age]) => age));
  return [
    goal('outbox rows the killed instance held (e-mails, gateway feedbacks)', `${claims.length} (${queues('mail')}, ${queues('aps-feedback')})`, 'at least 1', claims.length > 0),
    info('  each taken over by a live instance after', claims.map((claim) => seconds(claim.takenMs)).join(', ') || '—'),
    goal('  each sent, from the kill', claims.map((claim) => seconds(claim.sentMs)).join(', ') || '—', `all < ${TAKEOVER_GOAL_MS / 1000} s`, claims.length > 0 && worst !== null && worst < TAKEOVER_GOAL_MS),
    goal(
      'oldest heartbeat of a live instance during the run (database clock)',
      live.map(([id, age]) => `${id} ${seconds(age)}`).join(', ') || 'none seen',
      `< ${TAKEOVER_AFTER_MS / 1000} s (N: none taken for dead)`,
      live.length > 0 && livest < TAKEOVER_AFTER_MS,
    ),
  ];
}

export function runKillOne(options: SoakOptions): Promise<SoakSummary> {
  return soakRun(options, `journeys ${options.journeys} --kill-one`, async ({ target, instances, idle, figures, launch }) => {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      const heartbeats = watchHeartbeats(client);
      const insurer = probeInsurer(() => instances);
      const load = launch(CUSTOMER_PATIENCE_MS);
      let finished = false;
      void load.outcomes.then(() => (finished = true));

      // Mid-load, after some orders are paid, at a moment the victim holds claims (two, so one is
      // still held when the kill lands even if the first was just being marked; one after 10 s).
      const victim = instances.at(-1)!;
      const victimId = instanceIdOf(victim);
      const killAfterPaid = Math.max(2, Math.floor(options.journeys / 5));
      while (load.ack.paid.length < killAfterPaid && !finished) await sleep(20);
      const watchFrom = Date.now();
      for (;;) {
        const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from outbox where status = 'pending' and claimed_by = $1`, [victimId]);
        const held = rows[0]?.n ?? 0;
        if (held >= 2 || (held >= 1 && Date.now() - watchFrom > 10_000) || finished) break;
        await sleep(5);
      }
      const paidBeforeKill = load.ack.paid.length;
      await killHard(victim);
      const killedAt = Date.now();
      heartbeats.dead.add(victimId);
      // The load balancer drops it: its customers' next calls go to the others.
      instances.splice(instances.indexOf(victim), 1);
      const rssAtKill = instances.map(serverRssMb);

      const claims = await followClaims(client, victimId, killedAt, options.settleMs);
      const outcomes = await load.outcomes;
      const insurerFigure = await insurer.stop();
      const paidByClients = outcomes.filter((outcome) => outcome.policyNumber !== null).length;
      await settle(target, options, paidByClients);
      const oldest = await heartbeats.stop();
      const afterLoad = instances.map(serverRssMb);
      for (const instance of instances) await instance.server.stop();

      figures.push(goal('killed for good mid-load (SIGKILL)', `instance ${victim.index + 1} of ${options.instances}, ${paidBeforeKill} journeys paid`, 'some paid, some unfinished', paidBeforeKill > 0 && paidBeforeKill < options.journeys));
      figures.push(...takeoverFigures(claims, oldest, victimId));
      figures.push(...outcomeFigures(outcomes, options.journeys), insurerFigure);
      const database = await target.open();
      try {
        figures.push(...(await lostFigures(database, load.ack, killedAt)));
        figures.push(...(await ledgerFigures(target, database, { paidByClients })));
      } finally {
        await database.close();
      }
      figures.push(memoryFigure('server RSS at idle after start', idle, IDLE_RSS_GOAL_MB));
      figures.push(memoryFigure('live servers\' RSS at the kill', rssAtKill, null));
      figures.push(memoryFigure('live servers\' RSS once the outbox settled', afterLoad, null));
      const left = await survivors([victim, ...instances]);
      figures.push(goal('server processes left running after the kill and the final stop', left.length === 0 ? '0' : left.join('; '), '0', left.length === 0));
      return outcomes;
    } finally {
      await client.end();
    }
  });
}
