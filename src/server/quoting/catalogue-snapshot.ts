import type { Db } from '../db/client';
import { loadPlans, type LoadedPlan } from './catalogue';

/**
 * The active catalogue as a copy, for the insurer sandbox (RULINGS 10). The sandbox stands for
 * an insurer's own system, which prices from its own copy of its plans, not with queries in this
 * server's database queue: on embedded PGlite that queue is one connection, and at 200 customers
 * at once the sandbox's queries waited behind theirs past INSURER_TIMEOUT_MS, so its insurer was
 * missing from every list (issue 18 item 3). So a copy older than `ttlMs` is still answered
 * while a fresh one loads in the background; only the very first call waits for a load, and a
 * failed load is forgotten (the next call tries again).
 */
export function catalogueSnapshot(db: Db, ttlMs: number, now: () => number = Date.now): () => Promise<LoadedPlan[]> {
  let copy: { plans: LoadedPlan[]; loadedAt: number } | null = null;
  let loading: Promise<LoadedPlan[]> | null = null;
  const load = () => {
    if (!loading) {
      const startedAt = now();
      loading = loadPlans(db).then(
        (plans) => {
          copy = { plans, loadedAt: startedAt };
          loading = null;
          return plans;
        },
        (error: unknown) => {
          loading = null;
          throw error;
        },
      );
    }
    return loading;
  };
  return () => {
    if (!copy) return load();
    if (now() - copy.loadedAt >= ttlMs) load().catch(() => undefined);
    return Promise.resolve(copy.plans);
  };
}
