import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { requestNonces } from '../db/schema';

/** Nonces older than twice the allowed clock skew can no longer pass the timestamp check. */
export const NONCE_RETENTION_MS = 10 * 60 * 1000;

/** How often an instance deletes expired nonces (one statement for all of them). */
const PURGE_EVERY_MS = 60_000;

interface Pending {
  key: string;
  nonce: string;
  signature: string;
  settle: (fresh: boolean) => void;
  fail: (error: unknown) => void;
}

/**
 * Records signed requests' nonces in the table every instance shares (RULINGS 23), as a group
 * commit: the nonces of the requests that arrive while one INSERT is in flight go together into
 * the next one, a single `INSERT … ON CONFLICT DO NOTHING RETURNING`, so a request costs at most
 * one row of one statement and the database's primary key still decides, across instances, which
 * request saw a nonce first. An idle server writes at once (setImmediate, no timer delays a request).
 * Expired nonces are deleted by one statement a minute, off the request's path.
 * `record` resolves true for a nonce not seen before, false for a replay.
 */
export function createNonceRecorder(db: Db, now: () => number) {
  let pending: Pending[] = [];
  let flushing = false;
  let lastPurge = now();

  const purge = () => {
    lastPurge = now();
    // Not awaited by any request; a failed purge is retried a minute later, and the rows it
    // would have removed only take space (they can no longer pass the timestamp check).
    db.delete(requestNonces)
      .where(lt(requestNonces.seenAt, sql`now() - make_interval(secs => ${NONCE_RETENTION_MS / 1000})`))
      .then(
        () => undefined,
        () => undefined,
      );
  };

  const flush = async () => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      // The same nonce twice in one batch: the first request is the one the INSERT may accept.
      const first = new Map<string, Pending>();
      for (const entry of batch) if (!first.has(entry.key)) first.set(entry.key, entry);
      try {
        const rows = await db
          .insert(requestNonces)
          .values([...first.values()].map(({ nonce, signature }) => ({ nonce, signature })))
          .onConflictDoNothing()
          .returning({ nonce: requestNonces.nonce, signature: requestNonces.signature });
        const inserted = new Set(rows.map((row) => `${row.nonce} ${row.signature}`));
        for (const entry of batch) entry.settle(first.get(entry.key) === entry && inserted.has(entry.key));
      } catch (error) {
        for (const entry of batch) entry.fail(error);
      }
    }
    flushing = false;
    if (now() - lastPurge > PURGE_EVERY_MS) purge();
  };

  return {
    record(nonce: string, signature: string): Promise<boolean> {
      return new Promise<boolean>((settle, fail) => {
        pending.push({ key: `${nonce} ${signature}`, nonce, signature, settle, fail });
        if (!flushing) {
          flushing = true;
          // After the requests this turn of the event loop read, so they share the first INSERT
          // too: each statement costs the embedded database's thread a message either way.
          setImmediate(() => void flush());
        }
      });
    },
  };
}
