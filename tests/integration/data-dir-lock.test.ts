import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_FILE_NAME, readAdminFile } from '../../src/server/admin/admin-file';
import { ADMIN_BROKER_PATH } from '../../src/server/admin/admin.routes';
import { readLockHolder } from '../../src/server/db/embedded-lock';
import { bundleServer } from '../../src/server/server-bundle';
import { freePort, startServerProcess, type ServerProcess } from '../support/server-process';
import { runBroker } from './broker-cli-process';
import { leadAtCheckoutOverHttp, payWithFullCoupon, signedSender, type Send } from './server-journey-fixtures';

/**
 * Issue 34 item 2: one owner per PGlite data directory, enforced by the kernel's lock on
 * DATA_DIR/pglite.lock. Before, a second `npm start` on the same folder and port migrated and
 * seeded the live directory before it died with EADDRINUSE, and after the first server's next
 * crash 4 of 20 paid orders were pending again; on another port both served and half the leads
 * were lost; and the broker CLI opened the directory itself once the pid file named a dead process.
 * Here a second server (same port, then another port) and the CLI meet a live folder: they are
 * refused, the first server crashes (SIGKILL), and a new start finds every acknowledged payment.
 * Real processes throughout: the server bundle under node, as `npm start` runs it.
 */

const SECRET = 'data-dir-lock-test-signing-secret-0123456789';
const SLOW = 240_000;

const started: ServerProcess[] = [];
let dataDir: string;

function start(port: number): ServerProcess {
  const server = startServerProcess({ PORT: String(port), DATA_DIR: dataDir, SIGNING_SECRET: SECRET, SAFAR_STATIC_DIR: '' }, { bundle: true });
  started.push(server);
  return server;
}

interface OrderItem {
  merchant_reference: string;
  status: string;
  policy_number: string | null;
}

/** The one line a refused start prints, naming the holder by pid and since when. */
function expectRefusedStart(refused: ServerProcess, holderPid: number, code: number | null) {
  expect(code).toBe(1);
  const holder = readLockHolder(path.join(dataDir, 'pglite'))!;
  expect(holder.pid).toBe(holderPid);
  const lines = refused.stderr().trim().split('\n');
  expect(lines.filter((line) => line.startsWith('Refused: '))).toEqual([
    `Refused: the server (pid ${holderPid}, since ${holder.since}) holds the embedded database ${path.join(dataDir, 'pglite')} (lock ${path.join(dataDir, 'pglite.lock')}). One process owns a PGlite data directory: stop that one first, or give this one a DATA_DIR of its own.`,
  ]);
  // Refused before it listened, opened, migrated or seeded anything.
  expect(refused.stdout()).toBe('');
  expect(refused.stderr()).not.toContain('EADDRINUSE');
}

beforeAll(async () => {
  await bundleServer();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'safar-data-dir-lock-'));
}, SLOW);

afterEach(() => {
  for (const server of started.splice(0)) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a live PGlite folder has one owner', () => {
  it(
    'a second server on the same port and on another port, and the CLI whose holder does not answer, are refused; after a SIGKILL a new start takes the folder and nothing acknowledged is lost',
    async () => {
      const port = await freePort();
      const first = start(port);
      await first.listening();
      const firstPid = first.child.pid!;
      const send: Send = signedSender(`http://127.0.0.1:${port}`, SECRET);
      const paid: string[] = [];
      for (let customer = 0; customer < 2; customer += 1) paid.push(await payWithFullCoupon(send, await leadAtCheckoutOverHttp(send), 'FREE100'));

      // The operator starts it again on the same folder and port, then on another port.
      const samePort = start(port);
      expectRefusedStart(samePort, firstPid, await samePort.exited);
      const otherPort = await freePort();
      const elsewhere = start(otherPort);
      expectRefusedStart(elsewhere, firstPid, await elsewhere.exited);
      expect(await fetch(`http://127.0.0.1:${otherPort}/health/live`).then(() => 'answered', () => 'nothing listens')).toBe('nothing listens');

      // The CLI goes through the holder: its command runs in the server, over the server's database.
      const added = await runBroker(dataDir, ['coupons', 'add', '--code', 'LOCKED50', '--type', 'percent', '--value', '50']);
      expect(added).toMatchObject({ code: 0, stderr: '' });
      // When the holder's admin endpoint does not answer, the CLI refuses, naming the holder; it never opens the folder itself.
      const adminFile = path.join(dataDir, ADMIN_FILE_NAME);
      const published = readFileSync(adminFile, 'utf8');
      const closed = await freePort();
      writeFileSync(adminFile, JSON.stringify({ ...readAdminFile(dataDir)!, port: closed }), { mode: 0o600 });
      const unanswered = await runBroker(dataDir, ['coupons', 'add', '--code', 'NEVER10', '--type', 'percent', '--value', '10']);
      writeFileSync(adminFile, published, { mode: 0o600 });
      expect(unanswered.code).toBe(1);
      expect(unanswered.stdout).toBe('');
      expect(unanswered.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(`^The server \\(pid ${firstPid}, since [^)]+\\) holds the embedded database .*, and its admin endpoint http://127\\.0\\.0\\.1:${closed}${ADMIN_BROKER_PATH} did not answer \\(ECONNREFUSED\\): stop it`),
        ),
      ]);
      const restore = await runBroker(dataDir, ['restore', path.join(dataDir, 'no-such-backup.tar.gz')]);
      expect(restore.code).toBe(1);
      expect(restore.stderr).toMatch(new RegExp(`^The server \\(pid ${firstPid}, since [^)]+\\) holds the embedded database .*: stop it, then restore`));

      // The first server goes on serving after all that; then it crashes.
      for (let customer = 0; customer < 2; customer += 1) paid.push(await payWithFullCoupon(send, await leadAtCheckoutOverHttp(send), 'FREE100'));
      first.child.kill('SIGKILL');
      await first.exited;

      // A start after a SIGKILL takes the lock at once: the kernel dropped it with the process.
      const restarted = start(port);
      await restarted.listening();
      expect(readLockHolder(path.join(dataDir, 'pglite'))).toMatchObject({ pid: restarted.child.pid, role: 'server' });
      const orders = JSON.parse((await runBroker(dataDir, ['orders', '--json'])).stdout) as OrderItem[];
      expect(orders.filter((order) => paid.includes(order.merchant_reference))).toEqual(
        paid.map((reference) => expect.objectContaining({ merchant_reference: reference, status: 'paid', policy_number: expect.any(String) })).reverse(),
      );
      const coupons = JSON.parse((await runBroker(dataDir, ['coupons', '--json'])).stdout) as { code: string }[];
      expect(coupons.map((coupon) => coupon.code)).toContain('LOCKED50');
      expect(coupons.map((coupon) => coupon.code)).not.toContain('NEVER10');
      expect((await restarted.stop()).code).toBe(0);
    },
    SLOW,
  );
});
