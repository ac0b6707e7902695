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
 * PGlite in a worker thread (issue 18 item 3), with the part of PGlite's client interface that
 * drizzle-orm/pglite uses, so the app's queries, transactions and migrations run unchanged while
 * the WebAssembly runs off the HTTP server's event loop. A transaction holds PGlite's own lock in
 * the worker from BEGIN until this side commits or rolls back; other queries wait there, as they
 * would in-process. When the worker stops, every call fails as "PGlite is closed", which the
 * health checks count as the database being away (503), never as a bug.
 */
export class PgliteThread implements PgliteQueryable {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopped: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: WorkerReply) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(rebuildError(message.error));
    });
    worker.on('error', (error) => this.fail(`PGlite is closed: its thread failed (${error.constructor.name})`));
    worker.on('exit', () => this.fail('PGlite is closed: its thread exited'));
  }

  /** Starts the worker and opens the database in it; rejects with PGlite's own error when it cannot. */
  static async open(data: Omit<PgliteWorkerData, 'pglite'>): Promise<PgliteThread> {
    const workerData: PgliteWorkerData = { ...data, pglite: pathToFileURL(esmEntry('@electric-sql/pglite')).href };
    const worker = new Worker(workerScript(), { workerData });
    const thread = new PgliteThread(worker);
    const ready = new Promise((resolve, reject) => thread.pending.set(0, { resolve, reject }));
    try {
      await ready;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return thread;
  }

  private fail(reason: string) {
    this.stopped ??= new Error(reason);
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
  }

  private request(request: Request): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  query(sql: string, params: unknown[] = [], options: { rowMode?: 'array' | 'object' } = {}, tx?: number): Promise<unknown> {
    return this.request({ op: 'query', sql, params, rowMode: options.rowMode ?? 'object', tx });
  }

  /** PGlite's transaction: BEGIN, the callback's queries on its own client, then COMMIT, or ROLLBACK when it throws. */
  async transaction<T>(callback: (tx: PgliteQueryable) => Promise<T>): Promise<T> {
    const tx = (await this.request({ op: 'begin' })) as number;
    let result: T;
    try {
      result = await callback({ query: (sql, params, options) => this.query(sql, params, options, tx) });
    } catch (error) {
      await this.request({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.request({ op: 'end', tx, commit: true });
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
      await this.worker.terminate();
    }
  }
}
