import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { developmentSecretWarnings, parseConfigOrExit } from './config';
import { openConfiguredDatabase } from './db/client';
import { seedDatabase } from './db/seed';

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
  });

  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    const ms = Math.round(performance.now() - startedAt);
    console.log(
      JSON.stringify({ event: 'listening', url: config.publicUrl, port: info.port, database: database.kind, ready_ms: ms }),
    );
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(JSON.stringify({ event: 'stopping', signal }));
    // Stop accepting connections, let in-flight requests finish, then close the database.
    server.close(async () => {
      await database.close();
      process.exit(0);
    });
    if ('closeIdleConnections' in server) server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
