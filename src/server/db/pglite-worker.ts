import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { Results, Transaction } from '@electric-sql/pglite';
import type { PgliteWorkerData, WorkerReply, WorkerRequest } from './pglite-protocol';

/**
 * The embedded database's own thread (issue 18 item 3): PGlite runs its WebAssembly here, so a
 * query never stalls the HTTP server's event loop. pglite-thread.ts is the other end; the
 * protocol is in pglite-protocol.ts. Transactions are PGlite's own: each one holds PGlite's
 * transaction lock until the main thread says commit or roll back, and every other query
 * waits for it inside PGlite, exactly as when PGlite ran in the server's thread.
 */

const port = parentPort!;
const options = workerData as PgliteWorkerData;

/**
 * PGlite's file system (Emscripten's NODEFS) gives each file it creates the mode PostgreSQL asked
 * for with chmod, which the umask does not cover: under umask 077 pg_internal.init still came out
 * 0644, and initdb's files 0666 (issue 33 part 4). Masked here, in the database's own thread,
 * every mode PGlite sets honours the process umask, as a created file's does; main.ts and the
 * broker CLI set it to 077, so DATA_DIR stays owner-only while the server runs.
 */
function honourUmask() {
  const mask = process.umask();
  const masked = (mode: fs.Mode) => (typeof mode === 'number' ? mode & ~mask : mode);
  const { chmodSync, fchmodSync } = fs;
  fs.chmodSync = (target, mode) => chmodSync(target, masked(mode));
  fs.fchmodSync = (fd, mode) => fchmodSync(fd, masked(mode));
}

/**
 * drizzle-orm/pglite asks for dates, timestamps and intervals as text (its own mapping reads
 * them); its parser functions cannot cross threads, so the same table is applied here.
 */
const asText = (value: string) => value;
const drizzleParsers = (types: typeof import('@electric-sql/pglite').types) => ({
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText,
  1115: asText,
  1185: asText,
  1187: asText,
  1182: asText,
});

const openTransactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void }>();
/** Who waits for a transaction's end: the 'end' request's id, answered once PGlite committed or rolled back. */
const endReplies = new Map<number, number>();
let nextTransaction = 1;

function reply(message: WorkerReply, transfer: ArrayBuffer[] = []) {
  port.postMessage(message, transfer);
}

/** A PGlite error as plain fields (code, detail, constraint…): the class itself cannot cross. */
function errorFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

const plainResult = (result: Results<unknown>) => ({ rows: result.rows, fields: result.fields, affectedRows: result.affectedRows });

async function start() {
  honourUmask();
  const { PGlite, types } = (await import(options.pglite)) as typeof import('@electric-sql/pglite');
  const parsers = drizzleParsers(types);
  const db = await PGlite.create({
    dataDir: options.dataDir,
    // PGlite's own start parameters, then ours; postgresql.conf (written by initdb: UTC, ISO dates) stays as it is.
    startParams: [...PGlite.defaultStartParams, ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`])],
  });

  port.on('message', (request: WorkerRequest) => {
    void handle(request).catch((error: unknown) => reply({ id: request.id, ok: false, error: errorFields(error) }));
  });

  async function handle(request: WorkerRequest): Promise<void> {
    switch (request.op) {
      case 'query': {
        const target = request.tx === undefined ? db : openTransactions.get(request.tx)?.tx;
        if (!target) throw new Error('Transaction is closed');
        const result = await target.query(request.sql, request.params, { rowMode: request.rowMode, parsers });
        reply({ id: request.id, ok: true, result: plainResult(result) });
        return;
      }
      case 'begin': {
        const tx = nextTransaction++;
        let begun = false;
        // Answered once PGlite has begun (it may wait for another transaction first): the answer
        // names the transaction, whose callback stays open until 'end' settles it (commit) or
        // throws into it (rollback).
        const settled = db.transaction(
          (handle) =>
            new Promise<void>((resolve, reject) => {
              begun = true;
              openTransactions.set(tx, { tx: handle, end: (commit) => (commit ? resolve() : reject(new RollbackRequested())) });
              reply({ id: request.id, ok: true, result: tx });
            }),
        );
        settled.then(
          () => finish(tx, null),
          (error: unknown) => {
            if (!begun) reply({ id: request.id, ok: false, error: errorFields(error) });
            else finish(tx, error instanceof RollbackRequested ? null : error);
          },
        );
        return;
      }
      case 'end': {
        const open = openTransactions.get(request.tx);
        if (!open) throw new Error('Transaction is closed');
        endReplies.set(request.tx, request.id);
        open.end(request.commit);
        return;
      }
      case 'dump': {
        const blob = await db.dumpDataDir('none');
        const bytes = await blob.arrayBuffer();
        reply({ id: request.id, ok: true, result: bytes }, [bytes]);
        return;
      }
      case 'close': {
        await db.close();
        reply({ id: request.id, ok: true, result: null });
        port.close();
        return;
      }
    }
  }

  function finish(tx: number, error: unknown) {
    openTransactions.delete(tx);
    const id = endReplies.get(tx);
    endReplies.delete(tx);
    if (id === undefined) return;
    reply(error ? { id, ok: false, error: errorFields(error) } : { id, ok: true, result: null });
  }

  reply({ id: 0, ok: true, result: 'ready' });
}

class RollbackRequested extends Error {}

start().catch((error: unknown) => reply({ id: 0, ok: false, error: errorFields(error) }));
