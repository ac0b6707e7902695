import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_FILE_NAME, readAdminFile, type AdminFile } from '../../src/server/admin/admin-file';
import { ADMIN_BROKER_PATH } from '../../src/server/admin/admin.routes';
import { readDumpFile } from '../../src/server/admin/embedded-backup';
import { readLockHolder } from '../../src/server/db/embedded-lock';
import { holdLockInAnotherProcess } from '../support/lock-holder';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process';
import { runBroker } from './broker-cli-process';
import { leadAtCheckoutOverHttp, payWithFullCoupon, signedSender, validateCoupon, type Send } from './server-journey-fixtures';

/**
 * Issue 18 item 2: while the server holds the embedded database, `npm run broker -- …` runs its
 * command through the server's admin endpoint, so the server sees the change at once and the
 * data directory has one user. Before, the CLI opened the directory a second time: it printed
 * success, the server never saw the coupon, and after a crash every later write was gone.
 * Everything here is real: the server and the CLI are processes, the calls are HTTP.
 */

const SECRET = 'broker-admin-test-signing-secret-0123456789';
const SLOW = 240_000;

let dataDir: string;
let server: ServerProcess;
let send: Send;
let port: number;
const others: ServerProcess[] = [];

async function startServer(): Promise<void> {
  // A free port can be taken by another process before the server binds it: then try another.
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort();
    // Every interface, so a call from this machine's own non-loopback address can be tried (d).
    server = startServerProcess({ DATA_DIR: dataDir, PORT: String(port), HOST: '0.0.0.0', SIGNING_SECRET: SECRET, SAFAR_STATIC_DIR: '' });
    others.push(server);
    try {
      await server.listening();
      break;
    } catch (error) {
      if (attempt === 3 || !server.stderr().includes('EADDRINUSE')) throw error;
    }
  }
  send = signedSender(`http://127.0.0.1:${port}`, SECRET);
}

const broker = (...argv: string[]) => runBroker(dataDir, argv);

/** The printed JSON of a --json command that succeeded. */
async function brokerJson<T>(...argv: string[]): Promise<T> {
  const result = await broker(...argv, '--json');
  expect(result).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(result.stdout) as T;
}

interface OrderItem {
  merchant_reference: string;
  status: string;
  coupon: string | null;
  policy_number: string | null;
}
interface CouponItem {
  code: string;
  used_count: number;
  active: boolean;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-broker-admin-'));
  await startServer();
}, SLOW);

/** Whether a process with this pid exists (EPERM: it does, under another user). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The server's own pid, as it wrote it into the data directory's lock: tsx runs it in a child
 * process, so the spawned process is not the server.
 */
const serverPid = (): number => readLockHolder(path.join(dataDir, 'pglite'))!.pid;

afterAll(() => {
  // A failed test must not leave a server behind: the server itself, then its tsx parent.
  const holder = readLockHolder(path.join(dataDir, 'pglite'));
  if (holder && processExists(holder.pid)) process.kill(holder.pid, 'SIGKILL');
  for (const started of others) if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the broker CLI while the server runs on embedded PGlite', () => {
  it('the server writes DATA_DIR/admin.json (0600) naming its pid, port and a fresh token', () => {
    const entry = readAdminFile(dataDir)!;
    expect(entry).toMatchObject({ pid: serverPid(), host: '127.0.0.1', port });
    expect(processExists(entry.pid)).toBe(true);
    expect(entry.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(path.join(dataDir, ADMIN_FILE_NAME)).mode & 0o777).toBe(0o600);
  });

  it(
    'coupons add and disable go through the server, which accepts the coupon at once and then refuses it',
    async () => {
      const uuid = await leadAtCheckoutOverHttp(send);
      const before = await validateCoupon(send, uuid, 'ADMIN15');
      expect(before.status).toBe(422);
      expect(JSON.stringify(before.json)).toContain('coupon_unknown');

      const added = await broker('coupons', 'add', '--code', 'admin15', '--type', 'percent', '--value', '15');
      expect(added).toMatchObject({ code: 0, stderr: '' });
      expect(added.stdout).toMatch(/^Added coupon ADMIN15: 15 %, valid \d{4}-\d{2}-\d{2} to 2099-12-31\.$/m);

      // The very next request sees it: no restart, no cache to wait for.
      const after = await validateCoupon(send, uuid, 'ADMIN15');
      expect(after).toMatchObject({ status: 200, json: { data: { code: 'ADMIN15', discount_type_id: 1, discount_value: 15 } } });

      const disabled = await broker('coupons', 'disable', 'ADMIN15');
      expect(disabled).toMatchObject({ code: 0, stdout: 'Disabled coupon ADMIN15: it is now refused like an unknown code.\n', stderr: '' });
      const refused = await validateCoupon(send, uuid, 'ADMIN15');
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.json)).toContain('coupon_unknown');

      // A refused input is still the CLI's exit code 2 with the usage, decided in the server.
      const unknown = await broker('coupons', 'disable', 'NOSUCH');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('No coupon has the code "NOSUCH"');
      expect(unknown.stderr).toContain('Usage:');
    },
    SLOW,
  );

  it(
    'the change and every paid customer after it survive a SIGKILL and a restart (the lost-writes bug)',
    async () => {
      const added = await broker('coupons', 'add', '--code', 'ADMIN100', '--type', 'percent', '--value', '100', '--limit', '10');
      expect(added.code).toBe(0);
      const references: string[] = [];
      for (let customer = 0; customer < 3; customer += 1) references.push(await payWithFullCoupon(send, await leadAtCheckoutOverHttp(send), 'ADMIN100'));

      const paid = (await brokerJson<OrderItem[]>('orders', '--status', 'paid')).filter((order) => references.includes(order.merchant_reference));
      expect(paid).toHaveLength(3);
      for (const order of paid) expect(order).toMatchObject({ status: 'paid', coupon: 'ADMIN100', policy_number: expect.any(String) });
      const mail = await brokerJson<{ policy_number: string | null }[]>('mail');
      expect(mail.map((row) => row.policy_number)).toEqual(expect.arrayContaining(paid.map((order) => order.policy_number)));

      // SIGKILL to the server itself (not its tsx parent): no clean stop, no file removed.
      const killedPid = serverPid();
      process.kill(killedPid, 'SIGKILL');
      await server.exited;
      expect(processExists(killedPid)).toBe(false);
      // The crash leaves admin.json behind, naming a dead pid: the CLI believes no such file.
      expect(readAdminFile(dataDir)?.pid).toBe(killedPid);
      await startServer();
      expect(readAdminFile(dataDir)?.pid).not.toBe(killedPid);

      const survived = (await brokerJson<OrderItem[]>('orders')).filter((order) => references.includes(order.merchant_reference));
      expect(survived).toEqual(paid);
      const coupons = await brokerJson<CouponItem[]>('coupons');
      expect(coupons.find((coupon) => coupon.code === 'ADMIN100')).toMatchObject({ used_count: 3, active: true });
      expect(coupons.find((coupon) => coupon.code === 'ADMIN15')).toMatchObject({ active: false });
      // And the restarted server still takes the coupon the CLI added before the crash.
      expect((await validateCoupon(send, await leadAtCheckoutOverHttp(send), 'ADMIN100')).status).toBe(200);
    },
    SLOW,
  );

  it(
    'mail, mail resend and call-backs run through the server too: the running worker sends the resent certificate',
    async () => {
      const text = await broker('mail');
      expect(text.code).toBe(0);
      expect(text.stdout.split('\n')[0]).toMatch(/\bkind\b.*\bpolicy\b.*\bstatus\b/);
      expect(await brokerJson<unknown[]>('call-backs')).toEqual([]);

      const policy = (await brokerJson<OrderItem[]>('orders', '--status', 'paid'))[0]!.policy_number!;
      const resent = await broker('mail', 'resend', policy);
      expect(resent).toMatchObject({ code: 0, stderr: '' });
      expect(resent.stdout).toContain(`Queued the certificate mail of ${policy} again`);
      // Asked of the endpoint directly (a CLI process per poll would be slow): both sent soon.
      const entry = readAdminFile(dataDir)!;
      const rows = async () => {
        const res = await fetch(`http://127.0.0.1:${port}${ADMIN_BROKER_PATH}`, {
          method: 'POST',
          body: JSON.stringify({ argv: ['mail', '--json'] }),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${entry.token}` },
        });
        const { data } = (await res.json()) as { data: { json: { policy_number: string | null; status: string }[] } };
        return data.json.filter((row) => row.policy_number === policy);
      };
      await expect.poll(rows, { interval: 250 }).toEqual([expect.objectContaining({ status: 'sent' }), expect.objectContaining({ status: 'sent' })]);
    },
    SLOW,
  );
});

describe('the admin endpoint answers only a loopback caller with the token', () => {
  const post = (url: string, body: unknown, headers: Record<string, string>) =>
    fetch(url, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  const entry = (): AdminFile => readAdminFile(dataDir)!;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('the right token over loopback runs the command; a wrong or missing token gets the plain 404 of an unknown path', async () => {
    const url = `http://127.0.0.1:${port}${ADMIN_BROKER_PATH}`;
    const ok = await post(url, { argv: ['coupons', '--json'] }, bearer(entry().token));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: 200, data: { exit_code: 0, stderr: '', json: expect.arrayContaining([expect.objectContaining({ code: 'ADMIN100' })]) } });

    const unknownPath = await (await post(`http://127.0.0.1:${port}/_admin/nothing`, { argv: ['orders'] }, {})).json();
    const wrong = `${entry().token.slice(0, -1)}${entry().token.endsWith('A') ? 'B' : 'A'}`;
    for (const headers of [bearer(wrong), {}, { authorization: entry().token }, bearer('short')]) {
      const res = await post(url, { argv: ['orders'] }, headers);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(unknownPath);
    }
  });

  it('a caller on a non-loopback address gets 404 even with the token and X-Forwarded-For: 127.0.0.1', async () => {
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4')?.address;
    // This machine's own LAN address: the connection's remote address is then not loopback.
    expect(external, 'a non-loopback IPv4 interface to call from').toBeDefined();
    const res = await post(`http://${external}:${port}${ADMIN_BROKER_PATH}`, { argv: ['orders'] }, { ...bearer(entry().token), 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' });
    expect(res.status).toBe(404);
  });

  it.each<[string, string | object, number]>([
    ['a body that is not JSON', '{argv', 400],
    ['argv not an array', { argv: 'orders' }, 422],
    ['an empty argv', { argv: [] }, 422],
    ['a number in argv', { argv: ['orders', 7] }, 422],
    ['an unknown field', { argv: ['orders'], sql: 'drop table orders' }, 422],
    ['a control character', { argv: ['coupons', 'disable', 'A\u0000B'] }, 422],
    ['a huge argument', { argv: ['coupons', 'disable', 'X'.repeat(5000)] }, 422],
  ])('refuses %s with a 4xx envelope, never a 5xx', async (_label, body, status) => {
    const res = await post(`http://127.0.0.1:${port}${ADMIN_BROKER_PATH}`, body, bearer(entry().token));
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ status, message: expect.any(String), data: { errors: expect.any(Object) } });
  });
});

describe('backup through the running server, restore refused while it runs (issue 18 item 8)', () => {
  it(
    'backup FILE is written through the server; restore FILE is refused until the server stops, then restores it',
    async () => {
      const file = path.join(dataDir, 'live-backup.tar.gz');
      const backup = await broker('backup', file);
      expect(backup).toMatchObject({ code: 0, stderr: '' });
      expect(backup.stdout).toContain(`through the running server (pid ${readAdminFile(dataDir)!.pid})`);
      expect(existsSync(`${file}.partial`)).toBe(false);
      expect(() => readDumpFile(file)).not.toThrow();

      const refused = await broker('restore', file);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^The server \(pid \d+, since [^)]+\) holds the embedded database .*: stop it, then restore/);

      // A clean stop removes admin.json and releases the lock: the CLI then works on the directory itself.
      expect((await server.stop()).code).toBe(0);
      expect(existsSync(path.join(dataDir, ADMIN_FILE_NAME))).toBe(false);
      expect(readLockHolder(path.join(dataDir, 'pglite'))).toBeNull();
      expect((await broker('coupons', 'add', '--code', 'AFTERBACKUP', '--type', 'fixed', '--value', '5')).code).toBe(0);

      const restored = await broker('restore', file);
      expect(restored).toMatchObject({ code: 0, stderr: '' });
      expect(restored.stdout).toMatch(/The data it replaced is kept in .*pglite\.before-restore-/);
      expect(readdirSync(dataDir).filter((name) => name.startsWith('pglite.before-restore-'))).toHaveLength(1);
      const codes = (await brokerJson<CouponItem[]>('coupons')).map((coupon) => coupon.code);
      expect(codes).toContain('ADMIN100');
      expect(codes).not.toContain('AFTERBACKUP');
    },
    SLOW,
  );
});

describe('the CLI refuses clearly when a live process holds the directory but no endpoint answers', () => {
  const dirs: string[] = [];
  const holders: { kill: () => Promise<void> }[] = [];
  afterEach(async () => {
    for (const holder of holders.splice(0)) await holder.kill();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A DATA_DIR whose lock another process holds, as a server would, without an endpoint. */
  async function heldDirectory(): Promise<{ dir: string; pid: number }> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'safar-broker-held-'));
    dirs.push(dir);
    const holder = await holdLockInAnotherProcess(path.join(dir, 'pglite'), 'server');
    holders.push(holder);
    return { dir, pid: holder.pid };
  }

  it(
    'no admin.json: exit 1, naming the pid and what to do, and the directory is never opened',
    async () => {
      const { dir, pid } = await heldDirectory();
      const result = await runBroker(dir, ['coupons', 'add', '--code', 'NEVER', '--type', 'percent', '--value', '10']);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^The server \\(pid ${pid}, since [^)]+\\) holds the embedded database ${path.join(dir, 'pglite')}, and .*admin\\.json does not name it`));
      expect(result.stderr).toContain('stop it and run this again, or use DATABASE_URL');
      expect(existsSync(path.join(dir, 'pglite'))).toBe(false);
    },
    SLOW,
  );

  it(
    'an admin.json whose endpoint does not answer: exit 1 with the reason',
    async () => {
      const { dir, pid } = await heldDirectory();
      const closed = await freePort();
      writeFileSync(path.join(dir, ADMIN_FILE_NAME), JSON.stringify({ pid, host: '127.0.0.1', port: closed, token: 'x'.repeat(43) }), { mode: 0o600 });
      const result = await runBroker(dir, ['orders']);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^The server \\(pid ${pid}, since [^)]+\\) holds the embedded database`));
      expect(result.stderr).toContain(`http://127.0.0.1:${closed}${ADMIN_BROKER_PATH} did not answer (ECONNREFUSED)`);
      expect(existsSync(path.join(dir, 'pglite'))).toBe(false);
    },
    SLOW,
  );
});
