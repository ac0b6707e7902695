import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { staleness } from '../build-staleness';
import type { Db } from '../db/client';
import { loadPlans, type LoadedPlan } from './catalogue';
import { compileInsurerSandboxWorker, INSURER_SANDBOX_WORKER } from './insurer-sandbox-build';

/**
 * The insurer sandbox on a thread of its own (issue 34 item 5), the address the server's quotes
 * call when INSURER_API_URL is not set (main.ts).
 *
 * Why: at 200 customers on two instances, one instance's calls to the sandbox it hosted took 1.4
 * to 3 s and 3 to 23 of 200 quote lists went without that insurer (INSURER_TIMEOUT_MS, 3 s). The
 * sandbox answered on the very event loop those customers kept busy: every call waited in its
 * queue twice (the request arriving, the answer leaving) behind every other customer's database
 * results, and went through gzip both ways (hono's compress takes an answer without a length
 * whatever its size). The CPU it needs is a millisecond; the waiting was the queue. A real
 * insurer answers from a system of its own, so the stand-in does too: a plain HTTP server in a
 * worker thread, on a loopback port, pricing from a copy of the catalogue this thread sends it
 * (at start and every CATALOGUE_REFRESH_MS), so its answer no longer waits on the customers it
 * prices for. What still runs on the server's loop is the adapter's side of the call, once.
 */

/** How often the sandbox's copy of the catalogue is read again (as catalogue-snapshot.ts did for the route). */
export const CATALOGUE_REFRESH_MS = 60_000;

/** What the server's thread sends the sandbox's. */
export type SandboxThreadMessage = { type: 'catalogue'; plans: LoadedPlan[] };
/** What the sandbox's thread tells the server's. */
export type SandboxWorkerMessage = { type: 'listening'; port: number };

/** What the worker is built from: as the server bundle (server-bundle.ts). */
const WORKER_SOURCES = ['src/server', 'src/contract', 'package-lock.json'] as const;

/**
 * The compiled worker while it is current (not older than any server source, the rule of the
 * bundle it is built with); else compiled now, as tsx and the tests run the sources, and run as
 * a data: URL (everything it imports is inside it).
 */
async function workerScript(): Promise<URL> {
  if (staleness(INSURER_SANDBOX_WORKER, WORKER_SOURCES, 'the insurer sandbox worker') === null) return pathToFileURL(INSURER_SANDBOX_WORKER);
  const code = await compileInsurerSandboxWorker();
  return new URL(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

export interface InsurerSandboxThread {
  /** The sandbox's base URL, as INSURER_API_URL names one: http://127.0.0.1:<port>/insurer-sandbox. */
  url: Promise<string>;
  /**
   * Sends it the active catalogue of `db` now and every CATALOGUE_REFRESH_MS; requests wait for
   * the first copy. `load` reads it (tests hold it back).
   */
  serve(db: Db, load?: (db: Db) => Promise<LoadedPlan[]>): void;
  close(): Promise<void>;
}

/**
 * Starts the sandbox's thread. It never keeps the process alive, and its failure to start
 * rejects `url` (main.ts then does not start).
 */
export function startInsurerSandboxThread(): InsurerSandboxThread {
  let worker: Worker | null = null;
  let refresh: NodeJS.Timeout | null = null;
  const starting = workerScript().then(
    (script) =>
      new Promise<{ thread: Worker; port: number }>((resolve, reject) => {
        // Its heap holds a copy of the catalogue and the requests under way: a few MB.
        const thread = new Worker(script, { resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 } });
        worker = thread;
        thread.unref();
        thread.on('error', (error) => {
          reject(error);
          // After it started: quotes go on without this insurer (the adapter's timeout or refusal), and the reason is logged.
          process.stderr.write(`${JSON.stringify({ event: 'insurer_sandbox_failed', error: error.constructor.name })}\n`);
        });
        thread.once('exit', (code) => reject(new Error(`the insurer sandbox's thread exited (${code})`)));
        thread.once('message', (message: SandboxWorkerMessage) => resolve({ thread, port: message.port }));
      }),
  );
  return {
    url: starting.then(({ port }) => `http://127.0.0.1:${port}/insurer-sandbox`),
    serve(db, load = (from) => loadPlans(from)) {
      let copied = false;
      const send = (): Promise<void> =>
        Promise.all([starting, load(db)]).then(
          ([{ thread }, plans]) => {
            // Its own plans only, as an insurer holds them.
            const message: SandboxThreadMessage = { type: 'catalogue', plans: plans.filter((plan) => plan.insurer.quoteAdapter === 'http') };
            thread.postMessage(message);
            copied = true;
          },
          () => {
            // The copy it has stays until the next refresh; without one yet, requests wait, so soon.
            if (!copied) setTimeout(() => void send(), 1_000).unref();
          },
        );
      void send();
      refresh = setInterval(() => void send(), CATALOGUE_REFRESH_MS);
      refresh.unref();
    },
    async close() {
      if (refresh) clearInterval(refresh);
      refresh = null;
      await (worker as Worker | null)?.terminate();
    },
  };
}
