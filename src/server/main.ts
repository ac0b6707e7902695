import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { developmentSecretWarnings, parseConfigOrExit, publicSandboxWarning } from './config';
import { lockEmbeddedDatabase } from './db/embedded-lock';
import { embeddedDataDir, startEmbeddedDirectory } from './db/embedded-start';
import { OWNER_ONLY_UMASK, tightenDataDirModes } from './data-dir-modes';

/**
 * The rest of the server, loaded once the embedded database has begun to start (issue 34 item 6):
 * loading these modules took about 0.45 s of a 2.3 s restart, with PGlite's second-long start
 * after it; now the two run side by side. The bundle keeps them in a chunk of their own
 * (server-bundle.ts), so nothing of them is even parsed before.
 */
const serverModules = () =>
  Promise.all([import('@hono/node-server'), import('./app'), import('./db/client'), import('./admin/admin-access'), import('./db/seed'), import('./reference/reference-data'), import('./orders/order-contract')]);

/** How long a SIGTERM waits for in-flight requests before it cuts them. */
const DRAIN_TIMEOUT_MS = 10_000;

/** Starts Safar: validates configuration, migrates and seeds the database, then serves. */
async function main() {
  const startedAt = performance.now();
  // Where a start's time goes (issue 34 item 6), printed with "listening": node and the bundle's
  // modules before main(), then each step below.
  const phases: Record<string, number> = { modules: Math.round(startedAt) };
  let phaseAt = startedAt;
  const phase = (name: string) => {
    const now = performance.now();
    phases[name] = Math.round(now - phaseAt);
    phaseAt = now;
  };
  // Before anything is written: what this process, PGlite's thread and initdb's child create is
  // the owner's alone (issue 33 part 4).
  process.umask(OWNER_ONLY_UMASK);
  const config = parseConfigOrExit(process.env);
  // Once per secret still at its development default (issue 7 row 6); over https parseConfig refuses them.
  for (const warning of developmentSecretWarnings(config)) console.warn(warning);
  // A sandbox others can reach (APS_SANDBOX=true, PUBLIC_URL not loopback) is allowed, never quiet.
  const sandboxWarning = publicSandboxWarning(config);
  if (sandboxWarning) console.warn(sandboxWarning);

  // The embedded database's lock before anything touches DATA_DIR (issue 34 item 2): a second
  // start on a live folder stops here with one line naming the holder, whatever port it was given,
  // and never runs initdb, a migration or the seed over the other server's data. Held for the life
  // of the process; the kernel drops it however the process ends.
  const dataDirLock = config.databaseUrl ? null : lockEmbeddedDatabase(embeddedDataDir(config), 'server');

  // What an older version or a copied data directory left readable to others, before the database
  // opens it; with DATABASE_URL too, since the outbox's e-mails live there.
  const tightened = tightenDataDirModes(config.dataDir);
  if (tightened.directories + tightened.files > 0) console.log(JSON.stringify({ event: 'data_dir_modes_tightened', ...tightened }));
  phase('lock_and_modes');

  // PGlite starts in its thread now; its failure is taken up where it is awaited (openConfiguredDatabase).
  const started = config.databaseUrl ? null : startEmbeddedDirectory(embeddedDataDir(config));
  started?.catch(() => undefined);
  // The insurer sandbox on a thread of its own (issue 34 item 5), started beside the database,
  // unless INSURER_API_URL names another insurer API.
  const insurerSandbox = config.hostsInsurerSandbox ? import('./quoting/insurer-sandbox-thread').then((module) => module.startInsurerSandboxThread()) : null;
  insurerSandbox?.catch(() => undefined);
  const [{ serve }, { createApp }, { connectConfiguredDatabase }, { serverAdmin }, { disableDemoData, seedDatabase }, { REFERENCE_CHECK_MS }, { backfillOrderContracts }] = await serverModules();
  phase('modules_beside_database');

  // The database opens from here on, while the server already answers what needs none of it
  // (issue 34 item 6): the app is built over the opening database, listens, and answers the web
  // app's pages, their files and the health probes at once. Every other request waits until the
  // database is open, migrated and seeded, and the outbox workers start only then.
  const opening = connectConfiguredDatabase(config, started);
  let databaseOpen = false;
  const ready = opening.opened.then(async (database) => {
    phase('database');
    // A first start says how its data directory was made: copied from the template that the build
    // step keeps current (a fraction of a second), or by initdb when there was none (seconds).
    if (database.created) console.log(JSON.stringify({ event: 'data_dir_created', from: database.created.from, ms: database.created.ms }));
    // Orders paid before contracts existed (migration 0008) get theirs, once, before anything is served.
    await backfillOrderContracts(database.db);
    await seedDatabase(database.db, { demoData: config.demoData });
    if (!config.demoData) {
      // A database seeded by an earlier sandbox start still holds FREE100 and the rest (RULINGS 27).
      const disabled = await disableDemoData(database.db);
      if (disabled.coupons.length > 0 || disabled.agents.length > 0) {
        console.log(JSON.stringify({ event: 'demo_data_disabled', coupons: disabled.coupons, agents: disabled.agents }));
      }
    }
    phase('seed');
    return database;
  });
  // Its failure is taken up where it is awaited, below, once the server listens.
  ready.catch(() => undefined);

  // On embedded PGlite the broker CLI runs its commands through this server (issue 18 item 2).
  const admin = serverAdmin(config, opening);
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  // Who this instance is across restarts, so its outbox workers take back what it had claimed when
  // it died: the embedded data directory has one owner; on PostgreSQL, this host and port.
  const instanceId = opening.kind === 'pglite' ? 'embedded' : `${os.hostname()}:${config.port}`;
  const sandbox = await insurerSandbox;
  const insurerApiUrl = sandbox ? await sandbox.url : config.insurerApiUrl;
  const app = createApp({
    db: opening.db,
    config: { ...config, insurerApiUrl },
    staticDir: process.env.SAFAR_STATIC_DIR ?? path.join(root, 'dist'),
    log: config.logRequests ? (line) => process.stdout.write(`${JSON.stringify(line)}\n`) : undefined,
    // One outbox worker per instance, started once the database is open: it sends what a crash
    // left pending, then polls every second.
    mailWorker: { pollMs: 1000, start: false, instanceId },
    admin: admin?.access,
    // And the APS sandbox's feedback worker (with the sandbox only): a paid order is settled after a crash too.
    feedbackWorker: { pollMs: 1000, start: false, instanceId },
    refundWorker: { pollMs: 1000, start: false, instanceId },
    // Reference data and the catalogue are served from memory; a change by another instance or psql shows within a second.
    referenceCheckMs: REFERENCE_CHECK_MS,
    databaseOpen: () => databaseOpen,
  });
  phase('app');

  // The connection's details (node-server's `incoming`: the caller's address for the admin
  // endpoint and the rate limits) go with the request, held or not.
  const answer: typeof app.fetch = (request, ...rest) =>
    databaseOpen || app.answersBeforeOpen(request) ? app.fetch(request, ...rest) : ready.then(() => app.fetch(request, ...rest));
  let pagesMs = 0;
  let listened: (port: number) => void = () => undefined;
  const listening = new Promise<number>((resolve) => (listened = resolve));
  const server = serve({ fetch: answer, port: config.port, hostname: config.host }, (info) => {
    pagesMs = Math.round(performance.now() - startedAt);
    listened(info.port);
  });
  // Node closes an idle keep-alive connection after 5 s; a client that reuses it at that moment
  // gets "other side closed" on a POST it cannot retry (issue 18: 14–15 of 200 at proceed-review).
  // The server keeps it longer than clients and load balancers do (60 s), so it never closes first;
  // SIGTERM still closes idle connections at once (below).
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  // Every open connection, and which of them have carried a request: Node's closeIdleConnections
  // takes a connection that has not sent a byte for one still sending its first headers and leaves
  // it to headersTimeout (66 s). Node's fetch opens such a spare connection when a response body is
  // cancelled (the soak's readiness wait does it), and SIGTERM then waited its full 10 s and
  // logged drained:false with every request answered (issue 34 item 7).
  const connections = new Set<Socket>();
  const carriedRequest = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request: IncomingMessage) => carriedRequest.add(request.socket));

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
    const stopAt = performance.now();
    // The last resort if closing the database itself hangs.
    setTimeout(() => process.exit(1), DRAIN_TIMEOUT_MS + 5_000).unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A keep-alive connection is idle once its request is answered: close it then, not at the timeout.
    // One that never sent a byte has no request to answer: whatever it sends now is a new request
    // to a server that has stopped accepting, as if it had connected a moment later.
    const closeIdle = () => {
      if ('closeIdleConnections' in server) server.closeIdleConnections();
      for (const socket of connections) if (!carriedRequest.has(socket) && socket.bytesRead === 0) socket.destroy();
    };
    closeIdle();
    const idle = setInterval(closeIdle, 50);
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      closed.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), DRAIN_TIMEOUT_MS))),
    ]);
    const drainMs = Math.round(performance.now() - stopAt);
    clearInterval(idle);
    clearTimeout(timer);
    if (!drained && 'closeAllConnections' in server) server.closeAllConnections();
    try {
      // The outbox worker finishes the batch it is sending; a row it claimed and did not mark
      // stays leased and is sent again after the lease (mail/outbox.ts), so nothing is lost.
      await app.mailWorker.stop().catch(() => undefined);
      await app.feedbackWorker.stop().catch(() => undefined);
      await app.refundWorker.stop().catch(() => undefined);
      // Stopped while still opening: the open finishes first, so the directory is closed cleanly.
      await (await ready.catch(() => null))?.close();
      dataDirLock?.release();
    } catch (error) {
      console.error(JSON.stringify({ event: 'database_close_failed', error: error instanceof Error ? error.constructor.name : typeof error }));
    }
    console.log(JSON.stringify({ event: 'stopped', signal, drained, drain_ms: drainMs }));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const database = await ready;
  const port = await listening;
  if (stopping) return;
  databaseOpen = true;
  sandbox?.serve(database.db);
  app.startWorkers();
  admin?.publish(port);
  phase('ready');
  // Printed once everything answers: the database open, migrated and seeded, and the server
  // listening. pages_ms: when it began to answer the web app's pages.
  console.log(
    JSON.stringify({
      event: 'listening',
      url: config.publicUrl,
      port,
      database: database.kind,
      ...(sandbox ? { insurer_sandbox_url: insurerApiUrl } : {}),
      ready_ms: Math.round(performance.now() - startedAt),
      pages_ms: pagesMs,
      phases_ms: phases,
    }),
  );
  // The line a person starting Safar reads; the JSON above is for the logs (issue 38 item 4).
  console.log(`Safar is running on ${config.publicUrl} (port ${port}, ${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}). Stop it with Ctrl+C.`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
