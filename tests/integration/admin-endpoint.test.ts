import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAdminToken } from '../../src/server/admin/admin-file';
import { ADMIN_BACKUP_PATH, ADMIN_BROKER_PATH, isLoopbackAddress, PROXY_HEADERS, sameToken } from '../../src/server/admin/admin.routes';
import { createTestApp, testConfig, type TestApp } from '../support/test-app';

/**
 * The admin endpoint in process (issue 18 item 2). The caller's socket address is the edge of
 * the world here: app.request() has no socket, so each request carries a stand-in socket with
 * the remote address under test, as @hono/node-server passes the real one. The same checks over
 * real sockets (loopback and this machine's LAN address) are in broker-admin.test.ts.
 */

const TOKEN = newAdminToken();
let app: TestApp;
let plain: TestApp;

beforeAll(async () => {
  // TRUST_PROXY on: even then a forwarded address never opens the endpoint.
  app = await createTestApp({ admin: { token: TOKEN }, config: testConfig({ trustProxy: true }) });
  plain = await createTestApp();
});
afterAll(async () => {
  await app.close();
  await plain.close();
});

/** A POST to the endpoint from `remoteAddress` (a stand-in socket; undefined: no socket at all). */
function call(target: TestApp, remoteAddress: string | undefined, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }, path = ADMIN_BROKER_PATH) {
  const init = { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } };
  return remoteAddress === undefined ? target.app.request(path, init) : target.app.request(path, init, { incoming: { socket: { remoteAddress } } });
}

describe('who may call', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('a loopback socket (%s) with the token runs the command', async (address) => {
    const res = await call(app, address, { argv: ['call-backs', '--json'] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 200, message: 'OK', data: { exit_code: 0, stdout: '[]', stderr: '', json: [] } });
  });

  it.each(['203.0.113.9', '192.168.1.20', '::ffff:10.0.0.1', 'fd00::2', '128.0.0.1'])(
    'a non-loopback socket (%s) gets the plain 404, even with the token and X-Forwarded-For: 127.0.0.1',
    async (address) => {
      const res = await call(app, address, { argv: ['coupons', 'add', '--code', 'NOPE99', '--type', 'percent', '--value', '99'] }, {
        authorization: `Bearer ${TOKEN}`,
        'x-forwarded-for': '127.0.0.1',
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ status: 404, message: 'Not found.', data: {} });
    },
  );

  it('no socket, a wrong token, or an app given no admin token: 404 like any unknown path', async () => {
    expect((await call(app, undefined, { argv: ['orders'] })).status).toBe(404);
    expect((await call(app, '127.0.0.1', { argv: ['orders'] }, { authorization: `Bearer ${newAdminToken()}` })).status).toBe(404);
    expect((await call(app, '127.0.0.1', { argv: ['orders'] }, { authorization: TOKEN })).status).toBe(404);
    expect((await call(plain, '127.0.0.1', { argv: ['orders'] })).status).toBe(404);
    // The backup route too: this app has no backup at all, and says no more than 404.
    expect((await call(app, '127.0.0.1', {}, undefined, ADMIN_BACKUP_PATH)).status).toBe(404);
  });

  // Issue 33 item 5: behind a reverse proxy on the same host every caller's socket is loopback.
  it.each(PROXY_HEADERS.flatMap((name) => [[name, '203.0.113.9'], [name, '127.0.0.1'], [name, '']]))(
    'a loopback socket with the token but a proxy’s %s header (%j) gets the plain 404: the endpoint is never reached through a proxy',
    async (name, value) => {
      const res = await call(app, '127.0.0.1', { argv: ['coupons', 'add', '--code', 'PROXY99', '--type', 'percent', '--value', '99'] }, {
        authorization: `Bearer ${TOKEN}`,
        [name]: value,
      });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ status: 404, message: 'Not found.', data: {} });
      expect((await call(app, '127.0.0.1', {}, { authorization: `Bearer ${TOKEN}`, [name]: value }, ADMIN_BACKUP_PATH)).status).toBe(404);
    },
  );

  it('the proxy headers refused include the three every proxy sends one of: Forwarded, X-Forwarded-For and X-Real-IP', () => {
    expect(PROXY_HEADERS).toEqual(expect.arrayContaining(['forwarded', 'x-forwarded-for', 'x-real-ip']));
  });

  it('a refused call changed nothing: the coupon a remote caller tried to add does not exist', async () => {
    const res = await call(app, '127.0.0.1', { argv: ['coupons', '--json'] });
    const { data } = (await res.json()) as { data: { json: { code: string }[] } };
    expect(data.json.map((coupon) => coupon.code)).not.toContain('NOPE99');
    expect(data.json.map((coupon) => coupon.code)).not.toContain('PROXY99');
    // Its answers carry customers' data: never kept by a cache.
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('the command runs in the server like the CLI runs it', () => {
  it('a refused input is exit code 2 with the message and the usage, in a 200 answer', async () => {
    const res = await call(app, '127.0.0.1', { argv: ['coupons', 'add', '--code', 'X'] });
    const body = (await res.json()) as { data: { exit_code: number; stderr: string; stdout: string; json: unknown } };
    expect(body.data).toMatchObject({ exit_code: 2, stdout: '', json: null });
    expect(body.data.stderr).toMatch(/--code must be 3 to 32 letters[\s\S]*Usage:/);
  });

  it('backup and restore are not run in the server: exit 2 says the CLI runs them', async () => {
    const body = (await (await call(app, '127.0.0.1', { argv: ['restore', '/tmp/x.tar.gz'] })).json()) as { data: { exit_code: number; stderr: string } };
    expect(body.data.exit_code).toBe(2);
    expect(body.data.stderr).toContain('the CLI runs it itself');
  });
});

describe('the pieces', () => {
  it('isLoopbackAddress: 127.0.0.0/8, ::1 and their IPv4-mapped form only', () => {
    for (const yes of ['127.0.0.1', '127.255.0.3', '::1', '::FFFF:127.0.0.1']) expect(isLoopbackAddress(yes)).toBe(true);
    for (const no of [undefined, '', '0.0.0.0', '10.0.0.1', '::', '::ffff:10.1.2.3', '1127.0.0.1', '127.0.0.1.evil', 'localhost']) expect(isLoopbackAddress(no)).toBe(false);
  });

  it('sameToken compares whole tokens of any length without throwing', () => {
    expect(sameToken(TOKEN, TOKEN)).toBe(true);
    expect(sameToken(TOKEN.slice(0, -1), TOKEN)).toBe(false);
    expect(sameToken('', TOKEN)).toBe(false);
    expect(sameToken(`${TOKEN}x`, TOKEN)).toBe(false);
  });
});
