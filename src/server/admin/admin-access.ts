import type { Config } from '../config';
import type { Database } from '../db/client';
import { adminHostFor, newAdminToken, publishAdminFile } from './admin-file';
import type { AdminAccess } from './admin.routes';
import { dumpEmbeddedDatabase } from './embedded-backup';

/** The admin endpoint's access for createApp, and the step main.ts takes once the server listens. */
export interface ServerAdmin {
  access: AdminAccess;
  /** Writes DATA_DIR/admin.json for the CLI (removed when the process exits). */
  publish(port: number): void;
}

/**
 * The admin endpoint of a server on the embedded database (issue 18 item 2): a fresh token per
 * start, and backups through the running server. Null with DATABASE_URL: PostgreSQL serves the
 * CLI and the servers at once, so the CLI goes to it directly and no endpoint is opened.
 */
export function serverAdmin(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'host'>, database: Pick<Database, 'kind' | 'db' | 'dump'>): ServerAdmin | null {
  if (config.databaseUrl || database.kind !== 'pglite') return null;
  const token = newAdminToken();
  return {
    access: { token, backup: database.dump ? () => dumpEmbeddedDatabase(database) : undefined },
    publish(port) {
      publishAdminFile(config.dataDir, { pid: process.pid, host: adminHostFor(config.host), port, token });
    },
  };
}
