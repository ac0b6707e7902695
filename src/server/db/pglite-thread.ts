import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PgliteWorkerData, WorkerReply, WorkerRequest } from './pglite-protocol';

/** What drizzle-orm/pglite calls on its client: query, and transaction with a client of its own. */
export interface PgliteQueryable {
  query(sql: string, params?: unknown[], options?: { rowMode?: 'array' | 'object' }): Promise<unknown>;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

/** The file of a package's ES module entry, found from its CommonJS one (not every package exports its package.json). */
function esmEntry(pkg: string): string {
  const manifestIn = (dir: string) => {
    const file = path.join(dir, 'package.json');
    const manifest = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { name?: string; exports?: { '.': { import: { default: string } } } }) : null;
    return manifest?.name === pkg ? manifest : null;
  };
  for (let dir = path.dirname(createRequire(import.meta.url).resolve(pkg)); ; dir = path.dirname(dir)) {
    const manifest = manifestIn(dir);
    if (manifest?.exports) return path.join(dir, manifest.exports['.'].import.default);
    if (path.dirname(dir) === dir) throw new Error(`no ES module entry found for ${pkg}`);
  }
}

/** A file's modification time, or null when it is missing. */
const modifiedMs = (file: URL) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

/**
 * The worker thread's code. From a build, the JavaScript beside this file. From source (tsx,
 * vitest, and the server bundle, whose modules keep their source's URL), the JavaScript that
 * `npm start`'s bundle step compiled (dist-server/pglite-worker.js) while it is not older than
 * the source; else the TypeScript beside this file with its types stripped by esbuild (tsx's
 * own, about 200 ms), run as a data: URL: Node 20 does not hand a parent's module hooks to its
 * workers, and registering tsx in the thread costs about 80 MB of memory for one file without
 * imports of its own (it imports PGlite by the URL in its data).
 */
function workerScript(): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL('./pglite-worker.js', import.meta.url);
  const sourceFile = new URL('./pglite-worker.ts', import.meta.url);
  const compiled = new URL('../../../dist-server/pglite-worker.js', import.meta.url);
  const compiledMs = modifiedMs(compiled);
  const sourceMs = modifiedMs(sourceFile);
  if (compiledMs !== null && sourceMs !== null && compiledMs >= sourceMs) return compiled;
  const source = readFileSync(sourceFile, 'utf8');
  const tsxManifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const esbuild = createRequire(tsxManifest)('esbuild') as {
    transformSync(code: string, options: { loader: 'ts'; format: 'esm' }): { code: string };
    stop(): Promise<void>;
  };
  const { code } = esbuild.transformSync(source, { loader: 'ts', format: 'esm' });
  // A sync transform leaves esbuild's service thread and its child process running for good
  // (about 10 MB in this process and 12 MB in the child, issue 18 item 3); nothing here needs them again.
  void esbuild.stop();
  return new URL(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/** The error of a query that failed in the worker: PGlite's fields (code, detail, constraint…) on a plain Error. */
function rebuildError(fields: Record<string, unknown>): Error {
  const error = new Error(typeof fields.message === 'string' ? fields.message : 'PGlite query failed');
  Object.assign(error, fields);
  return error;
}

/**
 * How long PGlite's thread may leave every request unanswered before it counts as stalled and is
 * replaced (issue 34 item 3). PGlite can stop answering for good: on a full disk, a WAL segment
 * that cannot be created fails once with 53100, and the next query never returns, not even once
 * there is room again. A thread that answers anything (another query, a transaction's statement)
 * is working, however long one query waits for its lock; 30 s of silence with requests pending
 * is far beyond any query or backup Safar runs (a 200-journey soak's slowest answer is under 3 s).
 */
export const STALL_MS = 30_000;

/** Starts PGlite's worker on the data and answers it once PGlite is open; rejects with PGlite's own error when it cannot. */
function startWorker(workerData: PgliteWorkerData): Promise<Worker> {
  const worker = new Worker(workerScript(), { workerData });
  return new Promise((resolve, reject) => {
    const settle = (error: Error | null) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (!error) return resolve(worker);
      void worker.terminate().finally(() => reject(error));
    };
    const onMessage = (message: WorkerReply) => {
      if (message.id === 0) settle(message.ok ? null : rebuildError(message.error));
    };
    const onError = (error: Error) => settle(error);
    const onExit = () => settle(new Error('PGlite is closed: its thread exited'));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

/**
 * PGlite in a worker thread (issue 18 item 3), with the part of PGlite's client interface that
 * drizzle-orm/pglite uses, so the app's queries, transactions and migrations run unchanged while
 * the WebAssembly runs off the HTTP server's event loop. A transaction holds PGlite's own lock in
 * the worker from BEGIN until this side commits or rolls back; other queries wait there, as they
 * would in-process. When the worker stops, every call fails as "PGlite is closed", which the
 * health checks count as the database being away (503), never as a bug.
 *
 * A thread that stalls (STALL_MS without an answer while requests wait) is replaced: what waited
 * on it fails as "PGlite is closed" (503, and the transactions it held are rolled back, never
 * committed), its thread is terminated, and a new one opens the same data, as after a crash:
 * PostgreSQL replays its WAL, so every commit it answered is there. Calls fail as unavailable
 * until the new one is open, and it is tried again every second while it cannot open.
 */
export class PgliteThread implements PgliteQueryable {
  private readonly pending = new Map<number, Pending & { sentAt: number }>();
  private nextId = 1;
  private stopped: Error | null = null;
  /** Set while a stalled thread is being replaced: calls fail with it. */
  private replacing: Error | null = null;
  /** Which thread this is, counted from 0: a transaction begun on a replaced one is gone with it. */
  private generation = 0;
  private lastAnswerAt = performance.now();
  private readonly watch: NodeJS.Timeout;

  private constructor(
    private worker: Worker,
    private readonly workerData: PgliteWorkerData,
    private stallMs: number,
  ) {
    this.attach(worker);
    this.watch = setInterval(() => this.checkStall(), 1_000);
    this.watch.unref();
  }

  /** Starts the worker and opens the database in it; rejects with PGlite's own error when it cannot. */
  static async open(data: Omit<PgliteWorkerData, 'pglite'>): Promise<PgliteThread> {
    const workerData: PgliteWorkerData = { ...data, pglite: pathToFileURL(esmEntry('@electric-sql/pglite')).href };
    return new PgliteThread(await startWorker(workerData), workerData, STALL_MS);
  }

  /**
   * Counts a thread as stalled after `ms` without an answer instead of STALL_MS, from now on.
   * For tests that hang the thread on purpose: they shorten the wait only once what they set up
   * has answered, so a busy machine's slow setup is never taken for a stall.
   */
  stallAfter(ms: number) {
    this.stallMs = ms;
  }

  private attach(worker: Worker) {
    worker.on('message', (message: WorkerReply) => {
      if (worker !== this.worker) return;
      this.lastAnswerAt = performance.now();
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(rebuildError(message.error));
    });
    // A stalled thread's end, while it is replaced, is not the database's.
    const current = () => worker === this.worker && !this.replacing;
    worker.on('error', (error) => current() && this.fail(`PGlite is closed: its thread failed (${error.constructor.name})`));
    worker.on('exit', () => current() && this.fail('PGlite is closed: its thread exited'));
  }

  private checkStall() {
    if (this.stopped || this.replacing || this.pending.size === 0) return;
    const oldest = Math.min(...[...this.pending.values()].map((waiting) => waiting.sentAt));
    if (performance.now() - Math.max(oldest, this.lastAnswerAt) >= this.stallMs) void this.replace();
  }

  /** Replaces a stalled thread (see the class): fails what waits on it, terminates it, opens a new one. */
  private async replace() {
    const waiting = this.pending.size;
    process.stderr.write(`${JSON.stringify({ event: 'database_stalled', waiting, stall_ms: this.stallMs })}\n`);
    this.replacing = new Error('PGlite is closed: its thread stopped answering and is being replaced');
    for (const call of this.pending.values()) call.reject(this.replacing);
    this.pending.clear();
    const stalled = this.worker;
    await stalled.terminate().catch(() => undefined);
    while (!this.stopped) {
      try {
        const worker = await startWorker(this.workerData);
        if (this.stopped) {
          await worker.terminate();
          return;
        }
        this.generation += 1;
        this.worker = worker;
        this.attach(worker);
        this.lastAnswerAt = performance.now();
        this.replacing = null;
        process.stderr.write(`${JSON.stringify({ event: 'database_replaced' })}\n`);
        return;
      } catch (error) {
        process.stderr.write(`${JSON.stringify({ event: 'database_replace_failed', error: error instanceof Error ? error.constructor.name : typeof error })}\n`);
        await new Promise((resolve) => setTimeout(resolve, 1_000).unref());
      }
    }
  }

  private fail(reason: string) {
    this.stopped ??= new Error(reason);
    clearInterval(this.watch);
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
  }

  private request(request: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    if (this.replacing) return Promise.reject(this.replacing);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, sentAt: performance.now() });
      this.worker.postMessage({ ...request, id });
    });
  }

  query(sql: string, params: unknown[] = [], options: { rowMode?: 'array' | 'object' } = {}, tx?: number): Promise<unknown> {
    return this.request({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object', tx });
  }

  /** PGlite's transaction: BEGIN, the callback's queries on its own client, then COMMIT, or ROLLBACK when it throws. */
  async transaction<T>(callback: (tx: PgliteQueryable) => Promise<T>): Promise<T> {
    const generation = this.generation;
    const tx = (await this.request({ op: 'begin' })) as number;
    // Once its thread is replaced, the transaction is gone (rolled back with it): its number may
    // name another transaction on the new thread, so nothing of it is sent there.
    const onItsThread = <R>(call: () => Promise<R>) =>
      generation === this.generation ? call() : Promise.reject(new Error('PGlite is closed: the transaction was lost with a stalled thread'));
    let result: T;
    try {
      result = await callback({ query: (sql, params, options) => onItsThread(() => this.query(sql, params, options, tx)) });
    } catch (error) {
      await onItsThread(() => this.request({ op: 'end', tx, commit: false })).catch(() => undefined);
      throw error;
    }
    await onItsThread(() => this.request({ op: 'end', tx, commit: true }));
    return result;
  }

  /** The data directory as a tarball (PGlite's dumpDataDir, uncompressed). */
  async dump(): Promise<Blob> {
    return new Blob([(await this.request({ op: 'dump' })) as ArrayBuffer]);
  }

  /** Closes the database (PGlite writes what it holds), then the thread. */
  async close(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.request({ op: 'close' });
    } finally {
      this.stopped ??= new Error('PGlite is closed');
      clearInterval(this.watch);
      await this.worker.terminate();
    }
  }
}
