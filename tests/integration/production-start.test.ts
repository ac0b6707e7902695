import { existsSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tempCheckoutEndpoint } from '../../src/contract/checkout.endpoints';
import { agentCheckEndpoint } from '../../src/contract/lead.endpoints';
import { DEV_ALTCHA_HMAC_KEY, DEV_APS_RESPONSE_PHRASE } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import * as t from '../../src/server/db/schema';
import { DEMO_COUPONS } from '../../src/server/db/seed-data';
import { freePort, PROCESS_START_GUARD_MS, type ServerProcess } from '../support/server-process';
import { serverProcessesOfThisFile } from '../support/server-processes';
import { runBroker } from './broker-cli-process';
import { leadAtCheckoutOverHttp, signedSender, validateCoupon, type Send } from './server-journey-fixtures';

/**
 * Issue 33 part 1 (RULINGS 27): a production start (https PUBLIC_URL, a real APS gateway, every
 * secret set) carries no demo data. Before, the seed put FREE100 (a free plan, 1,000 times) and
 * SAVE25 (every plan under $25 free) into every database whatever the gateway, and a database
 * a sandbox start had seeded kept them. The servers here are real processes (the bundle `npm
 * start` runs); the coupons are tried through the signed API and listed with the broker's CLI.
 * Nothing is contacted at start: the gateway URL is only where the payments page would post.
 */

const START_TIMEOUT_MS = PROCESS_START_GUARD_MS;
const SECRET = 'production-start-signing-secret-0123456789';
const PRODUCTION: Record<string, string> = {
  PUBLIC_URL: 'https://safar.example.com',
  APS_GATEWAY_URL: 'https://sbcheckout.payfort.com/FortAPI/paymentPage',
  SIGNING_SECRET: SECRET,
  ALTCHA_HMAC_KEY: 'production-start-altcha-key-0123456789',
  APS_REQUEST_PHRASE: 'production-start-request-phrase',
  APS_RESPONSE_PHRASE: 'production-start-response-phrase',
  APS_ACCESS_CODE: 'zx0IPmPy5jp1vAz8Kpg7',
  APS_MERCHANT_IDENTIFIER: 'CycHZxVj',
};
const DEMO_CODES = DEMO_COUPONS.map((coupon) => coupon.code);

/** The server as `npm start` runs it (plain node on the bundle), on loopback, without the SPA. */
const processes = serverProcessesOfThisFile();
const start = (env: Record<string, string>): ServerProcess => processes.start(env);
const newDataDir = () => processes.scratch('safar-production-');

/** A production start on `dataDir`, listening: the server and a signed sender to it. */
async function startProduction(dataDir: string): Promise<{ server: ServerProcess; send: Send }> {
  const port = await freePort();
  const server = start({ ...PRODUCTION, PORT: String(port), DATA_DIR: dataDir });
  await server.listening(START_TIMEOUT_MS);
  return { server, send: signedSender(`http://127.0.0.1:${port}`, SECRET) };
}

/** The JSON lines a server printed on stdout with this event. */
function events(server: ServerProcess, event: string): unknown[] {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { event?: string })
    .filter((line) => line.event === event);
}

interface CouponItem {
  code: string;
  active: boolean;
}

/** `npm run broker -- coupons --json` as the broker runs it beside the production server (through it). */
async function brokerCoupons(dataDir: string): Promise<Record<string, boolean>> {
  const result = await runBroker(dataDir, ['coupons', '--json'], PRODUCTION);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return Object.fromEntries((JSON.parse(result.stdout) as CouponItem[]).map((coupon) => [coupon.code, coupon.active]));
}

/** agent-check's status and field code for an agent id, as a shared link's ?agent_id= asks it. */
async function agentCheck(send: Send, agentId: number): Promise<{ status: number; code: unknown }> {
  const res = await send(agentCheckEndpoint.path, { agent_id: agentId, lang: 'en' });
  const json = (await res.json()) as { data: { errors?: { agent_id?: string } } };
  return { status: res.status, code: json.data.errors?.agent_id ?? null };
}

/** temp-checkout for `uuid` with a coupon and the total sent: its status and body. */
async function checkout(send: Send, uuid: string, coupon: string | null, total: number): Promise<{ status: number; json: { data: Record<string, unknown> } }> {
  const res = await send(tempCheckoutEndpoint.path, { uuid, total_price_vat: total, language: 'en', coupon });
  return { status: res.status, json: (await res.json()) as { data: Record<string, unknown> } };
}

/**
 * FREE100 and SAVE25 as a customer tries them at checkout on a production server: coupon/validate
 * answers coupon_unknown, and temp-checkout places no order, neither at $0 (what FREE100 gave on a
 * plan without add-ons) nor at the lead's own total (the customer is told about the coupon).
 */
async function expectFreeCouponsRefused(send: Send): Promise<void> {
  const uuid = await leadAtCheckoutOverHttp(send);
  for (const code of ['FREE100', 'SAVE25']) {
    expect(await validateCoupon(send, uuid, code)).toMatchObject({ status: 422, json: { data: { errors: { promo_code: 'coupon_unknown' } } } });
  }
  // A total that is not the server's answers the server's own (409 totals_changed): the lead's price.
  const probe = await checkout(send, uuid, null, 1);
  expect(probe).toMatchObject({ status: 409, json: { data: { errors: { total_price_vat: 'totals_changed' } } } });
  const ownTotal = (probe.json.data.totals as { total: number }).total;
  expect(ownTotal).toBeGreaterThan(0);

  // 422 where $0 is what FREE100 gave this plan, 409 where add-ons or a stamp fee kept a price: no order either way.
  const free = await checkout(send, uuid, 'FREE100', 0);
  expect([409, 422]).toContain(free.status);
  expect(free.json.data).not.toHaveProperty('merchant_reference');
  for (const code of ['FREE100', 'SAVE25']) {
    expect(await checkout(send, uuid, code, ownTotal)).toMatchObject({ status: 422, json: { data: { errors: { promo_code: 'coupon_unknown', coupon: 'coupon_unknown' } } } });
  }
}

describe('a production start refuses what would put the sandbox or its demo data in front of customers', () => {
  const refusals: [what: string, env: Record<string, string>, message: RegExp][] = [
    ['DEMO_DATA=true beside a real gateway', { ...PRODUCTION, DEMO_DATA: 'true' }, /^\s*DEMO_DATA: true while APS_GATEWAY_URL names a real gateway/m],
    ['the sandbox on https without APS_SANDBOX=true', { ...PRODUCTION, APS_GATEWAY_URL: '' }, /^\s*APS_GATEWAY_URL: empty while PUBLIC_URL is https/m],
    [
      'the sandbox on a non-loopback http PUBLIC_URL without APS_SANDBOX=true',
      { ...PRODUCTION, APS_GATEWAY_URL: '', PUBLIC_URL: 'http://safar.example.com' },
      /^\s*APS_GATEWAY_URL: empty while PUBLIC_URL \(http:\/\/safar\.example\.com\) is not a loopback address/m,
    ],
    [
      'the sandbox on a LAN address without APS_SANDBOX=true',
      { ...PRODUCTION, APS_GATEWAY_URL: '', PUBLIC_URL: 'http://192.168.1.5:8080' },
      /^\s*APS_GATEWAY_URL: empty while PUBLIC_URL \(http:\/\/192\.168\.1\.5:8080\) is not a loopback address/m,
    ],
    ['a development secret over https', { ...PRODUCTION, ALTCHA_HMAC_KEY: DEV_ALTCHA_HMAC_KEY }, /^\s*ALTCHA_HMAC_KEY: still the development default while PUBLIC_URL is https/m],
    ['an APS phrase at its demo default beside a real gateway', { ...PRODUCTION, APS_RESPONSE_PHRASE: DEV_APS_RESPONSE_PHRASE }, /^\s*APS_RESPONSE_PHRASE: still the sandbox's development default/m],
  ];

  it.each(refusals)(
    'refuses %s: exits 1 naming the variable, before it opens or seeds a database',
    async (_what, env, message) => {
      const dataDir = newDataDir();
      const server = start({ ...env, DATA_DIR: dataDir, PORT: String(await freePort()) });
      // A start that is not refused listens instead: say so rather than wait for the timeout.
      expect(await Promise.race([server.exited, server.listening(START_TIMEOUT_MS).then(() => 'listening', () => 'exited')])).toBe(1);
      expect(server.stderr()).toMatch(message);
      expect(server.stdout()).not.toContain('listening');
      expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
    },
    START_TIMEOUT_MS,
  );
});

describe('a production start carries no demo data (RULINGS 27)', () => {
  it(
    'on an empty database: seeds no demo coupon or agent, says nothing was disabled, and FREE100 and SAVE25 are unknown at checkout',
    async () => {
      const dataDir = newDataDir();
      const { server, send } = await startProduction(dataDir);
      expect(events(server, 'demo_data_disabled')).toEqual([]);
      // A real gateway and every secret set: nothing to warn about either.
      expect(server.stderr()).toBe('');

      const coupons = await brokerCoupons(dataDir);
      expect(DEMO_CODES.filter((code) => code in coupons)).toEqual([]);
      expect(await agentCheck(send, 101)).toEqual({ status: 422, code: 'agent_unknown' });
      expect(await agentCheck(send, 102)).toEqual({ status: 422, code: 'agent_unknown' });
      await expectFreeCouponsRefused(send);
      expect((await server.stop()).code).toBe(0);
    },
    3 * START_TIMEOUT_MS,
  );

  it(
    'on a database a sandbox start seeded: disables the demo rows left as seeded, prints one line naming them, and keeps the coupon the broker edited',
    async () => {
      const dataDir = newDataDir();
      // A sandbox start seeds the demo coupons and agents: here a staging one on a LAN address,
      // as a broker tries the site first, which runs only by name and says what it lets through.
      const { APS_GATEWAY_URL: _gateway, ...secrets } = PRODUCTION;
      const staging = { ...secrets, PUBLIC_URL: 'http://192.168.1.5:8080', APS_SANDBOX: 'true' };
      const sandbox = start({ ...staging, PORT: String(await freePort()), DATA_DIR: dataDir });
      await sandbox.listening(START_TIMEOUT_MS);
      expect(sandbox.stderr().trim().split('\n')).toEqual([expect.stringMatching(/^APS_SANDBOX is true on http:\/\/192\.168\.1\.5:8080: .*public test card pays any order/)]);
      expect((await sandbox.stop()).code).toBe(0);

      // The broker edits one demo coupon and one demo agent by hand: those rows are theirs now.
      const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
      try {
        const seeded = await database.db.select({ code: t.coupons.code, active: t.coupons.active }).from(t.coupons);
        expect(Object.fromEntries(seeded.map((row) => [row.code, row.active]))).toEqual(Object.fromEntries(DEMO_CODES.map((code) => [code, true])));
        await database.db.update(t.coupons).set({ usageLimit: 50 }).where(eq(t.coupons.code, 'SAFAR10'));
        await database.db.update(t.agents).set({ email: 'karim@broker.example' }).where(eq(t.agents.id, 102));
      } finally {
        await database.close();
      }

      const { server, send } = await startProduction(dataDir);
      expect(events(server, 'demo_data_disabled')).toEqual([
        { event: 'demo_data_disabled', coupons: ['FREE100', 'OLD15', 'PHOENICIA20', 'SAVE25'], agents: [101] },
      ]);
      expect(await brokerCoupons(dataDir)).toEqual({ FREE100: false, OLD15: false, PHOENICIA20: false, SAVE25: false, SAFAR10: true });
      expect(await agentCheck(send, 101)).toEqual({ status: 422, code: 'agent_unknown' });
      expect(await agentCheck(send, 102)).toEqual({ status: 200, code: null });
      await expectFreeCouponsRefused(send);
      expect((await server.stop()).code).toBe(0);
    },
    4 * START_TIMEOUT_MS,
  );
});
