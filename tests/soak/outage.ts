import { execSync } from 'node:child_process';
import { countriesEndpoint } from '../../src/contract/reference.endpoints';
import { REFERENCE_CHECK_MS } from '../../src/server/reference/reference-data';
import { databaseLabel, type SoakOptions } from './journeys';
import { equals, goal, info, type Figure, type SoakSummary } from './soak-figures';
import { CustomerHttp, signedInit, StepTimes } from './soak-http';
import { prepareTarget, startInstance, type Instance } from './soak-servers';

/**
 * `npm run soak -- outage --database-url URL --stop "<command>" --start "<command>"`: the
 * database-away figure. A server runs on its own database of that PostgreSQL; a signed API call
 * and /health/ready are probed every 200 ms while the given command stops PostgreSQL for
 * --outage-ms (default 12 s) and the other starts it again. Every answer while it is away must
 * be a 503 (never a 500), and the API must recover by itself once it is back.
 */

export interface OutageOptions extends SoakOptions {
  stopCommand: string;
  startCommand: string;
  outageMs: number;
}

interface Probe {
  at: number;
  api: number;
  ready: number;
  live: number;
}

async function statusOf(run: () => Promise<{ status: number; body?: unknown }>): Promise<number> {
  try {
    const res = await run();
    if (res instanceof Response) await res.body?.cancel().catch(() => undefined);
    return res.status;
  } catch {
    return 0;
  }
}

export async function runOutage(options: OutageOptions): Promise<SoakSummary> {
  const started = Date.now();
  const target = await prepareTarget({ databaseUrl: options.databaseUrl, instances: 1, keep: options.keep }, []);
  let instance: Instance | null = null;
  try {
    instance = (await startInstance(target, 0)).instance;
    const base = instance.base;
    const http = new CustomerHttp(() => base, '10.9.9.9', new StepTimes(), { giveUpAfterMs: 0 });
    const probes: Probe[] = [];
    let probing = true;
    const loop = (async () => {
      while (probing) {
        const at = Date.now();
        const [api, ready, live] = await Promise.all([
          statusOf(() => http.request('api', countriesEndpoint.path, () => signedInit(JSON.stringify({ lang: 'en', isDropdown: true })))),
          statusOf(() => fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(5_000) })),
          statusOf(() => fetch(`${base}/health/live`, { signal: AbortSignal.timeout(5_000) })),
        ]);
        probes.push({ at, api, ready, live });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();

    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const stoppedAt = Date.now();
    execSync(options.stopCommand, { stdio: 'ignore', shell: '/bin/sh' });
    const stopReturnedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, options.outageMs));
    const startedAgainAt = Date.now();
    execSync(options.startCommand, { stdio: 'ignore', shell: '/bin/sh' });
    const backAt = Date.now();
    // Recovered: three API answers of 200 in a row after the start command returned.
    let recoveredAt: number | null = null;
    while (Date.now() - backAt < 60_000) {
      const after = probes.filter((probe) => probe.at >= backAt);
      const lastThree = after.slice(-3);
      if (lastThree.length === 3 && lastThree.every((probe) => probe.api === 200 && probe.ready === 200)) {
        recoveredAt = after.find((probe) => probe.api === 200)!.at;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    probing = false;
    await loop;

    // Away once the stop command has returned and the probed reference data (countries) has had
    // its check interval to notice: until its next check it answers from memory, as it should.
    const awayFrom = Math.max(stoppedAt + 500, stopReturnedAt + REFERENCE_CHECK_MS);
    const away = probes.filter((probe) => probe.at > awayFrom && probe.at < startedAgainAt);
    const tally = (values: number[]) => {
      const counts = new Map<number, number>();
      for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
      return [...counts.entries()].map(([status, count]) => `${status === 0 ? 'no answer' : status} × ${count}`).join(', ');
    };
    const figures: Figure[] = [
      info('database stopped for', `${(startedAgainAt - stoppedAt) / 1000} s`),
      goal('signed API while away', tally(away.map((probe) => probe.api)), 'all 503', away.length > 0 && away.every((probe) => probe.api === 503)),
      goal('/health/ready while away', tally(away.map((probe) => probe.ready)), 'all 503', away.length > 0 && away.every((probe) => probe.ready === 503)),
      equals('/health/live not 200 (whole run)', probes.filter((probe) => probe.live !== 200).length, 0),
      goal('recovered by itself', recoveredAt === null ? 'no (60 s)' : `${recoveredAt - startedAgainAt} ms after the start command`, 'yes', recoveredAt !== null),
      equals('5xx other than 503 (whole run)', probes.filter((probe) => probe.api >= 500 && probe.api !== 503).length, 0),
    ];
    return {
      command: 'outage',
      date: new Date(started).toISOString(),
      database: databaseLabel(options),
      instances: 1,
      figures,
      steps: [],
      errors: [],
      ok: figures.every((figure) => figure.ok !== false),
    };
  } finally {
    await instance?.server.stop().catch(() => undefined);
    await target.cleanup();
  }
}
