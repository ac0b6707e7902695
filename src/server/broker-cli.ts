import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listOpenCallBacks, type CallBackListItem } from './call-backs/call-back-store';
import { parseConfigOrExit } from './config';
import { embeddedDataDir, openConfiguredDatabase } from './db/client';

/**
 * The broker's command line, over the database the server uses (same DATA_DIR / DATABASE_URL):
 *   npm run broker -- call-backs          open call-back tasks, newest first, as a table
 *   npm run broker -- call-backs --json   the same as JSON
 * Embedded PGlite allows one process per data directory: with it, run this while the server is
 * stopped (with DATABASE_URL, PostgreSQL serves both at once).
 */

const USAGE = 'Usage: npm run broker -- call-backs [--json]';

/** The call-backs as an aligned text table (or a one-line note when there are none). */
export function formatCallBacks(items: readonly CallBackListItem[]): string {
  if (items.length === 0) return 'No open call-back requests.';
  const header = ['id', 'created', 'reason', 'name', 'phone', 'email', 'lead uuid'];
  const rows = items.map((item) => [String(item.id), item.created, item.reason, item.name, item.phone, item.email, item.lead_uuid ?? '-']);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [command, ...flags] = argv;
  if (command !== 'call-backs' || flags.some((flag) => flag !== '--json')) {
    console.error(USAGE);
    return 2;
  }
  const config = parseConfigOrExit(process.env);
  if (!config.databaseUrl) console.error(`Embedded database ${embeddedDataDir(config)}: stop the server before using it.`);
  const database = await openConfiguredDatabase(config);
  try {
    const items = await listOpenCallBacks(database.db);
    console.log(flags.includes('--json') ? JSON.stringify(items, null, 2) : formatCallBacks(items));
    return 0;
  } finally {
    await database.close();
  }
}

// Only when run as a script, so tests can import formatCallBacks.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
