import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { developmentSecretWarnings, parseConfigOrExit } from './config';
import { openConfiguredDatabase } from './db/client';
import { seedDatabase } from './db/seed';

/** How long a SIGTERM waits for in-flight requests before it cuts them. */
const DRAIN_TIMEOUT_MS = 10_000;

/** Starts Safar: validates configuration, migrates and seeds the database, then serves. */
async function main() {
  const startedAt = performance.now();
  const config = parseConfigOrExit(process.env);
  // Once per secret still at its development default (issue 7 row 6); over https parseConfig refuses them.
  for (const warning of developmentSecretWarnings(config)) console.warn(warning);

  const database = await openConfiguredDatabase(config);
  await seedDatabase(database.db);

  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const app = createApp({
    db: database.db,
    config,
    staticDir: process.env.SAFAR_STATIC_DIR ?? path.join(root, 'dist'),
    log: config.logRequests ? (line) => process.stdout.write(`${JSON.stringify(line)}\n`) : undefined,
    // One outbox worker per instance: sends what a crash left pending now, then polls every second.
    mailWorker: { pollMs: 1000, start: true },
  });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const ms = Math.round(performance.now() - startedAt);
    console.log(
      JSON.stringify({ event: 'listening', url: config.publicUrl, port: info.port, database: database.kind, ready_ms: ms }),
    );
  });

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
