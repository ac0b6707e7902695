import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { emptyPglite, onPostgres } from './test-db';

/**
 * A database for a real server process to reach over PostgreSQL's wire protocol, usually through
 * a WireProxy: a throwaway database of the test cluster under `npm run test:postgres`, else
 * PGlite's wire server over an empty PGlite.
 */

const adminUrl = process.env.SAFAR_TEST_DATABASE_URL ?? '';

export interface Target {
  host: string;
  port: number;
  /** The database name behind the proxy. */
  database: string;
  close(): Promise<void>;
}

/** A fresh database on the test cluster, or PGlite's wire server over an empty PGlite: the server migrates and seeds it at start. */
export async function startTarget(name: string): Promise<Target> {
  if (onPostgres) {
    const url = new URL(adminUrl);
    // safar_t_: the test run counts such databases left behind.
    const database = `safar_t_${name}_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
    await admin.end();
    return {
      host: url.hostname,
      port: Number(url.port || 5432),
      database,
      async close() {
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`drop database if exists ${database} with (force)`);
        await client.end();
      },
    };
  }
  const pglite: PGlite = await emptyPglite();
  const wire = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 20 });
  await wire.start();
  const [host, port] = wire.getServerConn().split(':');
  return {
    host: host!,
    port: Number(port),
    database: 'postgres',
    async close() {
      await wire.stop();
      await pglite.close();
    },
  };
}

