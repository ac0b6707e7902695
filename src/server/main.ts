import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { developmentSecretWarnings, parseConfigOrExit, publicSandboxWarning } from './config';
import { openConfiguredDatabase } from './db/client';
import { OWNER_ONLY_UMASK, tightenDataDirModes } from './data-dir-modes';
import { serverAdmin } from './admin/admin-access';
import { disableDemoData, seedDatabase } from './db/seed';
import { REFERENCE_CHECK_MS } from './reference/reference-data';

/** How long a SIGTERM waits for in-flight requests before it cuts them. */
const DRAIN_TIMEOUT_MS = 10_000;

/** Starts Safar: validates configuration, migrates and seeds the database, then serves. */
async function main() {
  const startedAt = performance.now();
  // Before anything is written: what this process, PGlite's thread and initdb's child create is
  // the owner's alone (issue 33 part 4).
  process.umask(OWNER_ONLY_UMASK);
  const config = parseConfigOrExit(process.env);
  // Once per secret still at its development default (issue 7 row 6); over https parseConfig refuses them.
  for (const warning of developmentSecretWarnings(config)) console.warn(warning);
  // A sandbox others can reach (APS_SANDBOX=true, PUBLIC_URL not loopback) is allowed, never quiet.
  const sandboxWarning = publicSandboxWarning(config);
  if (sandboxWarning) console.warn(sandboxWarning);

  // What an older version or a copied data directory left readable to others, before the database
  // opens it; with DATABASE_URL too, since the outbox's e-mails live there.
  const tightened = tightenDataDirModes(config.dataDir);
  if (tightened.directories + tightened.files > 0) console.log(JSON.stringify({ event: 'data_dir_modes_tightened', ...tightened }));

  const database = await openConfiguredDatabase(config);
  await seedDatabase(database.db, { demoData: config.demoData });
  if (!config.demoData) {
    // A database seeded by an earlier sandbox start still holds FREE100 and the rest (RULINGS 27).
    const disabled = await disableDemoData(database.db);
    if (disabled.coupons.length > 0 || disabled.agents.length > 0) {
      console.log(JSON.stringify({ event: 'demo_data_disabled', coupons: disabled.coupons, agents: disabled.agents }));
    }
  }

  // On embedded PGlite the broker CLI runs its commands through this server (issue 18 item 2).
  const admin = serverAdmin(config, database);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  // Who this instance is across restarts, so its outbox workers take back what it had claimed when
  // it died: the embedded data directory has one owner; on PostgreSQL, this host and port.
  const instanceId = database.kind === 'pglite' ? 'embedded' : `${os.hostname()}:${config.port}`;
  const app = createApp({
    db: database.db,
    config,
    staticDir: process.env.SAFAR_STATIC_DIR ?? path.join(root, 'dist'),
    log: config.logRequests ? (line) => process.stdout.write(`${JSON.stringify(line)}\n`) : undefined,
    // One outbox worker per instance: sends what a crash left pending now, then polls every second.
    mailWorker: { pollMs: 1000, start: true, instanceId },
    admin: admin?.access,
    // And the APS sandbox's feedback worker (with the sandbox only): a paid order is settled after a crash too.
    feedbackWorker: { pollMs: 1000, start: true, instanceId },
    // Reference data and the catalogue are served from memory; a change by another instance or psql shows within a second.
    referenceCheckMs: REFERENCE_CHECK_MS,
  });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const ms = Math.round(performance.now() - startedAt);
    admin?.publish(info.port);
    console.log(
      JSON.stringify({ event: 'listening', url: config.publicUrl, port: info.port, database: database.kind, ready_ms: ms }),
    );
  });
  // Node closes an idle keep-alive connection after 5 s; a client that reuses it at that moment
  // gets "other side closed" on a POST it cannot retry (issue 18: 14–15 of 200 at proceed-review).
  // The server keeps it longer than clients and load balancers do (60 s), so it never closes first;
  // SIGTERM still closes idle connections at once (below).
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }

  let stopping = false;
  /**
   * SIGTERM/SIGINT (issue 18 item 4): stop accepting, let in-flight requests finish (up to
   * DRAIN_TIMEOUT_MS, then cut the rest), close the database so the data directory is released,
   * and exit 0. `npm start` execs the server, so npm's forwarded signal reaches this process.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(JSON.stringify({ event: 'stopping', signal }));
    // The last resort if closing the database itself hangs.
    setTimeout(() => process.exit(1), DRAIN_TIMEOUT_MS + 5_000).unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A keep-alive connection is idle once its request is answered: close it then, not at the timeout.
    const closeIdle = () => ('closeIdleConnections' in server ? server.closeIdleConnections() : undefined);
    closeIdle();
    const idle = setInterval(closeIdle, 50);
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), DRAIN_TIMEOUT_MS))),
    ]);
    clearInterval(idle);
    clearTimeout(timer);
    if (!drained && 'closeAllConnections' in server) server.closeAllConnections();
    try {
      // The outbox worker finishes the batch it is sending; a row it claimed and did not mark
      // stays leased and is sent again after the lease (mail/outbox.ts), so nothing is lost.
      await app.mailWorker.stop().catch(() => undefined);
      await app.feedbackWorker.stop().catch(() => undefined);
      await database.close();
    } catch (error) {
      console.error(JSON.stringify({ event: 'database_close_failed', error: error instanceof Error ? error.constructor.name : typeof error }));
    }
    console.log(JSON.stringify({ event: 'stopped', signal, drained }));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
