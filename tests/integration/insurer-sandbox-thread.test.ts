import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/client';
import { loadPlans, type LoadedPlan } from '../../src/server/quoting/catalogue';
import { startInsurerSandboxThread, type InsurerSandboxThread } from '../../src/server/quoting/insurer-sandbox-thread';
import { FRANCE, type LeadTestApp, createLeadTestApp } from './lead-fixtures';

/**
 * Issue 34 item 5: the insurer sandbox the server calls answers from a thread of its own, so a
 * busy server does not keep its own insurer's answers waiting (at 200 customers on two instances
 * they took up to 3 s on the server's event loop, and 3 to 23 lists went without that insurer).
 */

const HTTP_INSURER = 15;
const QUOTE = { insurer_id: HTTP_INSURER, travellers: [{ age: 41 }, { age: 39 }, { age: 11 }], trip_days: 10, trip_type: 1, destination_ids: [FRANCE], is_family: true, family_child_max_age: 18 };
const post = (url: string, body: unknown) => fetch(`${url}/quote`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

let app: LeadTestApp;
let sandbox: InsurerSandboxThread;
let url: string;
beforeAll(async () => {
  app = await createLeadTestApp();
  sandbox = startInsurerSandboxThread();
  sandbox.serve(app.db);
  url = await sandbox.url;
});
afterAll(async () => {
  await sandbox.close();
  await app.close();
});

describe('the insurer sandbox on its own thread', () => {
  it('answers at a loopback address of its own exactly what the app\'s /insurer-sandbox/quote answers: the prices, 404 for an insurer not quoted over HTTP, 422 for a bad request', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/insurer-sandbox$/);
    for (const body of [QUOTE, { ...QUOTE, insurer_id: 7 }, { insurer_id: 'x' }]) {
      const fromThread = await post(url, body);
      const fromApp = await app.app.request('/insurer-sandbox/quote', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      expect({ status: fromThread.status, json: await fromThread.json() }).toEqual({ status: fromApp.status, json: await fromApp.json() });
    }
    expect((await post(url, QUOTE)).status).toBe(200);
  });

  it('keeps answering while the server\'s own thread is blocked: a client on another thread gets its quote while this one waits, unable to run anything, for that answer', async () => {
    // The client writes the answer's status here and wakes this thread; a busy loop with a
    // deadline would be a wall-clock bet that a busy machine can lose.
    const answer = new Int32Array(new SharedArrayBuffer(4));
    const client = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       parentPort.on('message', async () => {
         const res = await fetch(workerData.url + '/quote', { method: 'POST', body: workerData.body, headers: { 'content-type': 'application/json' } });
         await res.text();
         Atomics.store(workerData.answer, 0, res.status);
         Atomics.notify(workerData.answer, 0);
       });
       parentPort.postMessage('ready');`,
      { eval: true, workerData: { url, body: JSON.stringify(QUOTE), answer } },
    );
    try {
      await once(client, 'message');
      client.postMessage('go');
      // This thread stands for the server's event loop, kept busy by its customers: blocked until
      // the answer comes, so the answer cannot have come from anything running on it. The 30 s
      // is the hang guard for a sandbox that does run here.
      // ('not-equal' is the answer having come already, between the message and the wait: this
      // thread ran no event loop in between either.)
      const woken = Atomics.wait(answer, 0, 0, 30_000);
      expect({ answered: woken !== 'timed-out', status: Atomics.load(answer, 0) }).toEqual({ answered: true, status: 200 });
    } finally {
      await client.terminate();
    }
  });

  it('holds a request that comes before its first copy of the catalogue, and answers it once the copy arrives', async () => {
    let release!: (plans: LoadedPlan[]) => void;
    const held = new Promise<LoadedPlan[]>((resolve) => (release = resolve));
    const fresh = startInsurerSandboxThread();
    try {
      fresh.serve(app.db, () => held);
      const freshUrl = await fresh.url;
      let settled = false;
      const pending = post(freshUrl, QUOTE).finally(() => (settled = true));
      // The thread answers other paths meanwhile, so the quote request is there and waiting.
      expect((await fetch(`${freshUrl}/other`, { method: 'POST', body: '{}' })).status).toBe(404);
      expect(settled).toBe(false);
      release(await loadPlans(app.db as Db));
      const res = await pending;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { quotes: unknown[] }).quotes.length).toBeGreaterThan(0);
    } finally {
      await fresh.close();
    }
  });
});
