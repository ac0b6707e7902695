import { percentile, info, type Figure } from './soak-figures';
import type { Instance } from './soak-servers';

/**
 * How fast the HTTP insurer answers while the customers load the servers (issue 34 item 5): every
 * 250 ms, each instance's insurer sandbox (the address its quotes call, from its "listening" line)
 * is asked the soak's own trip, as the server's adapter asks it. Measured from the soak's process,
 * which the customers keep busy too, so it reads a little high; the figure that must hold is the
 * quote lists missing an insurer.
 */

/** The demo catalogue's insurer quoted over HTTP (seed-data.ts). */
const HTTP_INSURER = 15;
const QUOTE = JSON.stringify({ insurer_id: HTTP_INSURER, travellers: [{ age: 35 }], trip_days: 10, trip_type: 1, destination_ids: [250], is_family: false, family_child_max_age: 18 });

export function probeInsurer(instances: () => readonly Instance[]) {
  const samples = new Map<number, number[]>();
  let failed = 0;
  let running = true;
  const ask = async (instance: Instance) => {
    const started = performance.now();
    try {
      const res = await fetch(`${instance.insurerUrl}/quote`, {
        method: 'POST',
        body: QUOTE,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      await res.text();
      if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
      const list = samples.get(instance.index) ?? [];
      list.push(performance.now() - started);
      samples.set(instance.index, list);
    } catch {
      // A dead instance (--kill-one) or no answer in 10 s.
      failed += 1;
    }
  };
  const loop = (async () => {
    while (running) {
      await Promise.all(instances().map(ask));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    /** Stops asking; the figure: per instance, p50 / p99 / max in ms. */
    async stop(): Promise<Figure> {
      running = false;
      await loop;
      const text = [...samples.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, list]) => {
          const sorted = [...list].sort((a, b) => a - b);
          return `#${index + 1} ${Math.round(percentile(sorted, 50))} / ${Math.round(percentile(sorted, 99))} / ${Math.round(sorted.at(-1) ?? 0)}`;
        })
        .join(', ');
      return info('insurer answer to a probe during the load, ms (p50 / p99 / max)', `${text || 'none'}${failed ? `; ${failed} without an answer` : ''}`);
    },
  };
}
