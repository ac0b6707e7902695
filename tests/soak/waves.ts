import { readFileSync } from 'node:fs';
import type { JourneyOutcome } from './customer-journey';
import { awaitMail, awaitQueues, IDLE_RSS_GOAL_MB, memoryFigure, outcomeFigures, soakRun, type SoakOptions } from './journeys';
import { goal, info, type Figure, type SoakSummary } from './soak-figures';
import { ledgerFigures } from './soak-ledger';
import { serverRssMb, survivors, type Instance } from './soak-servers';

/**
 * `npm run soak -- journeys N --waves W` (issue 34 item 9): W waves of N concurrent journeys, one
 * after the other on the same servers, each settled (its e-mails sent) before the server's RSS is
 * read. Memory that grows per journey shows as a rise from wave to wave; the goal is that the
 * last wave ends within 10 % of the second (the first still fills caches and PGlite's buffers).
 * Each reading also splits out PGlite's WebAssembly memory, which can grow but never shrink.
 */

/** The last wave's RSS may exceed the second's by this much. */
export const WAVE_RSS_GROWTH_GOAL = 0.1;

export interface WaveMemory {
  /** Resident memory of the server and what it started, MB. */
  rssMb: number;
  /** Of it, PGlite's WebAssembly linear memory that is resident (0 on PostgreSQL), MB. */
  wasmMb: number;
}

/**
 * The resident part of the process's WebAssembly memories, MB. V8 maps each one as its read-write
 * pages between inaccessible guard reservations of gigabytes, so a read-write anonymous mapping
 * followed directly by such a guard is a WebAssembly memory; anything else is the rest of the
 * process (V8 heaps, native allocations, code).
 */
export function wasmResidentMb(pid: number): number {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return 0;
  }
  const maps = text.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/).map((block) => {
    const [range = '', perms = '', , , inode = '', file] = block.split('\n', 1)[0]!.split(/\s+/);
    const [start, end] = range.split('-').map((hex) => BigInt(`0x${hex}`)) as [bigint, bigint];
    return { start, end, perms, anonymous: inode === '0' && !file, rssKb: Number(/^Rss:\s+(\d+) kB/m.exec(block)?.[1] ?? 0) };
  });
  let kb = 0;
  maps.forEach((map, index) => {
    const next = maps[index + 1];
    const guarded = next !== undefined && next.start === map.end && next.perms === '---p' && next.end - next.start >= 1n << 30n;
    if (map.perms === 'rw-p' && map.anonymous && guarded) kb += map.rssKb;
  });
  return Math.round(kb / 1024);
}

export function waveMemory(instance: Instance): WaveMemory {
  const pid = instance.server.child.pid;
  return { rssMb: serverRssMb(instance), wasmMb: pid === undefined ? 0 : wasmResidentMb(pid) };
}

const memoryText = (memory: WaveMemory) => `${memory.rssMb} MB (PGlite WebAssembly ${memory.wasmMb} MB, rest ${memory.rssMb - memory.wasmMb} MB)`;

/** Whether the last wave's RSS is within the goal of the second's, per instance. */
export function flatFigure(perWave: readonly WaveMemory[][]): Figure {
  const second = perWave[1] ?? perWave[0]!;
  const last = perWave.at(-1)!;
  const growth = last.map((memory, index) => memory.rssMb / Math.max(1, second[index]!.rssMb) - 1);
  const value = last.map((memory, index) => `${memory.rssMb} MB vs ${second[index]!.rssMb} MB (${growth[index]! >= 0 ? '+' : ''}${(growth[index]! * 100).toFixed(1)} %)`).join(', ');
  const flat = last.every((memory, index) => memory.rssMb - second[index]!.rssMb <= second[index]!.rssMb * WAVE_RSS_GROWTH_GOAL);
  return goal(`server RSS after the last wave vs the second`, value, `≤ +${WAVE_RSS_GROWTH_GOAL * 100} %`, flat);
}

export function runWaves(options: SoakOptions, waves: number): Promise<SoakSummary> {
  return soakRun(options, `journeys ${options.journeys} --waves ${waves}`, async ({ target, instances, idle, figures, launch }) => {
    const outcomes: JourneyOutcome[] = [];
    const perWave: WaveMemory[][] = [];
    const idleMemory = instances.map(waveMemory);
    console.log(`idle: ${idleMemory.map(memoryText).join('; ')}`);
    for (let wave = 1; wave <= waves; wave += 1) {
      const started = Date.now();
      // New customers each wave, as production has: a returning one would be matched to its row.
      const load = launch(0, (wave - 1) * options.journeys);
      const done = await load.outcomes;
      outcomes.push(...done);
      // Settled as one run settles, with every paid customer so far: this wave's e-mails are out
      // and the queues empty, so what is left in memory is what stays.
      const paid = outcomes.filter((outcome) => outcome.policyNumber !== null).length;
      await awaitMail(target, paid, options.settleMs);
      await awaitQueues(target, options.settleMs);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const memory = instances.map(waveMemory);
      perWave.push(memory);
      const failed = done.filter((outcome) => outcome.error !== null).length;
      console.log(`wave ${wave}/${waves}: ${((Date.now() - started) / 1000).toFixed(1)} s, ${failed} failed, RSS ${memory.map(memoryText).join('; ')}`);
    }
    const paidByClients = outcomes.filter((outcome) => outcome.policyNumber !== null).length;
    for (const instance of instances) await instance.server.stop();

    figures.push(...outcomeFigures(outcomes, options.journeys * waves));
    const database = await target.open();
    try {
      figures.push(...(await ledgerFigures(target, database, { paidByClients })));
    } finally {
      await database.close();
    }
    figures.push(memoryFigure('server RSS at idle after start', idle, IDLE_RSS_GOAL_MB));
    figures.push(info('server RSS at idle, PGlite WebAssembly part', idleMemory.map((memory) => `${memory.wasmMb} MB`).join(', ')));
    perWave.forEach((memory, index) => figures.push(info(`server RSS after wave ${index + 1}`, memory.map(memoryText).join('; '))));
    figures.push(flatFigure(perWave));
    const left = await survivors(instances);
    figures.push(goal('server processes left running after SIGTERM', left.length === 0 ? '0' : left.join('; '), '0', left.length === 0));
    return outcomes;
  });
}
