import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addDays, todayIso } from '../../src/contract/dates';
import { PAGES_TABLE } from '../../src/contract/built-pages';
import { addCustomerLeadEndpoint } from '../../src/contract/lead.endpoints';
import { DEV_SIGNING_SECRET } from '../../src/server/config';
import { message } from '../../src/server/http/messages';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process';
import { signedHeaders } from '../support/signed-request';
import { onPostgres } from '../support/test-db';
import { startTarget, type Target } from '../support/database-target';
import { WireProxy } from '../support/wire-proxy';
import { leadBody } from './lead-fixtures';

/**
 * Issue 34 item 6: the server answers the web app's pages while its database is still opening,
 * and holds every other request until it is open, migrated and seeded. The real server process
 * runs on PostgreSQL's wire protocol (the test cluster under `npm run test:postgres`, else
 * PGlite's wire server) behind a TCP proxy at the edge of the world, which holds the database's
 * answers from the migration's first look at its table until the test releases them: the start
 * is caught half way, for as long as the test needs, with no clock involved.
 */

/** A built web app of one page and one script, as `npm run build` lays it out. */
function builtApp(dir: string): string {
  mkdirSync(path.join(dir, 'pages'), { recursive: true });
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(path.join(dir, PAGES_TABLE), JSON.stringify({ paths: { '/checkout': 'pages/checkout.html' }, fallback: 'index.html' }));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta name="safar-config" content=""></head><body><div id="root">home</div></body></html>');
  writeFileSync(path.join(dir, 'pages/checkout.html'), '<!doctype html><html><head></head><body><div id="root">checkout</div></body></html>');
  writeFileSync(path.join(dir, 'assets/app-1234.js'), 'console.log("safar")');
  return dir;
}

describe(`a server whose database is still opening (a TCP proxy holds the migration's answers${onPostgres ? ', PostgreSQL' : ", PGlite's wire server"})`, () => {
  let target: Target | undefined;
  let proxy: WireProxy | undefined;
  let server: ServerProcess | undefined;
  let dir = '';

  afterEach(async () => {
    await server?.stop();
    await proxy?.stop();
    await target?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the server with the database's answers held from the migration's first statement on its table. */
  async function startHeld(): Promise<string> {
    target = await startTarget('opening');
    proxy = await WireProxy.start(target);
    proxy.holdAfterStatement(/__drizzle_migrations/);
    dir = mkdtempSync(path.join(os.tmpdir(), 'safar-opening-'));
    const port = await freePort();
    server = startServerProcess({
      PORT: String(port),
      DATA_DIR: path.join(dir, 'data'),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/${target.database}`,
      DATABASE_POOL_SIZE: onPostgres ? '4' : '1',
      SAFAR_STATIC_DIR: builtApp(path.join(dir, 'dist')),
    });
    const base = `http://127.0.0.1:${port}`;
    // The migration is caught, and the server answers its first page: both are state, waited on.
    await expect.poll(() => proxy!.isHolding).toBe(true);
    await expect.poll(() => fetch(`${base}/`).then((res) => res.status, () => 0)).toBe(200);
    return base;
  }

  it('answers its pages, their files and the health probes at once, /health/ready 503 "starting" with Retry-After, holds a customer\'s lead (never refused, never 5xx) and answers it 200 once the database is open, then prints "listening"', async () => {
    const base = await startHeld();
    const start = addDays(todayIso(), 30);
    const text = JSON.stringify(leadBody({ start_date: start, end_date: addDays(start, 9), lang: 'ar' }));
    let leadSettled = false;
    const lead = fetch(`${base}${addCustomerLeadEndpoint.path}`, { method: 'POST', body: text, headers: await signedHeaders(DEV_SIGNING_SECRET, text) }).finally(() => (leadSettled = true));

    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await home.text()).toContain('<div id="root">home</div>');
    expect(await (await fetch(`${base}/checkout`)).text()).toContain('<div id="root">checkout</div>');
    const script = await fetch(`${base}/assets/app-1234.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toBe('console.log("safar")');
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    const ready = await fetch(`${base}/health/ready`, { headers: { 'accept-language': 'ar' } });
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(await ready.json()).toEqual({ status: 503, message: message('service_unavailable', 'ar'), data: { status: 'not_ready', reason: 'starting' } });
    // Everything above was asked after the lead and answered; the lead waits on the database.
    expect(leadSettled).toBe(false);
    expect(server!.stdout()).not.toContain('"event":"listening"');

    proxy!.release();
    const answered = await lead;
    expect(answered.status).toBe(200);
    await server!.listening();
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    const listening = JSON.parse(server!.stdout().split('\n').find((line) => line.includes('"event":"listening"'))!) as { pages_ms: number; ready_ms: number };
    expect(listening.pages_ms).toBeGreaterThan(0);
    expect(listening.pages_ms).toBeLessThan(listening.ready_ms);
  });

  it('SIGTERM while the database opens: the open is let finish, the database closed, and the process exits 0 with "stopped"', async () => {
    await startHeld();
    server!.child.kill('SIGTERM');
    await expect.poll(() => server!.stdout()).toContain('"event":"stopping"');
    proxy!.release();
    expect(await server!.exited).toBe(0);
    expect(server!.stdout()).toContain('"event":"stopped","signal":"SIGTERM","drained":true');
    expect(server!.stderr()).not.toMatch(/uncaught|Unhandled/i);
  });
});
