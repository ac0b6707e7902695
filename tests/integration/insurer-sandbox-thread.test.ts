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

  it('keeps answering while the server\'s own thread is busy: a client on another thread gets its quote during a 3 s block of this one', async () => {
    const client = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       parentPort.on('message', async () => {
         const started = performance.now();
         const res = await fetch(workerData.url + '/quote', { method: 'POST', body: workerData.body, headers: { 'content-type': 'application/json' } });
         await res.text();
         parentPort.postMessage({ status: res.status, ms: performance.now() - started });
       });
       parentPort.postMessage('ready');`,
      { eval: true, workerData: { url, body: JSON.stringify(QUOTE) } },
    );
    try {
      await once(client, 'message');
      const answered = once(client, 'message');
      client.postMessage('go');
      // This thread stands for the server's event loop, kept busy by its customers.
      const until = performance.now() + 3_000;
      while (performance.now() < until) {
        // busy
      }
      const [{ status, ms }] = (await answered) as [{ status: number; ms: number }];
      expect(status).toBe(200);
      // Answered on the sandbox's thread while this one was blocked: well within the block.
      expect(ms).toBeLessThan(2_000);
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
