/**
 * The messages between the server's thread (pglite-thread.ts) and the embedded database's
 * thread (pglite-worker.ts). Each request carries an id; the answer repeats it. Id 0 is the
 * worker's own "ready" (or its failure to open the database).
 */

export interface PgliteWorkerData {
  /** The URL of @electric-sql/pglite's ES module: the worker imports it by URL, its own code being a data: URL. */
  pglite: string;
  /** The data directory PGlite opens (created beforehand: client.ts). */
  dataDir: string;
  /** PostgreSQL settings passed at start (`-c name=value`), beside PGlite's own defaults. */
  settings?: Record<string, string>;
}

export type WorkerRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; rowMode: 'array' | 'object'; tx?: number }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'dump' }
  | { id: number; op: 'close' };

export type WorkerReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: Record<string, unknown> };
