import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';

/**
 * DATA_DIR/admin.json: how the broker CLI reaches the server that holds the embedded database
 * (issue 18 item 2). The server writes it once it listens (mode 0600: the token is the only key
 * to the admin endpoint, so only the account that runs the server may read it) and removes it
 * when it exits cleanly. After a crash it stays behind, but names a dead pid, and the CLI only
 * believes a file whose pid is the holder of the database's lock (db/embedded-lock.ts).
 */

export const ADMIN_FILE_NAME = 'admin.json';

const adminFileSchema = v.object({
  pid: v.pipe(v.number(), v.integer(), v.minValue(1)),
  host: v.pipe(v.string(), v.minLength(1)),
  port: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65_535)),
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/)),
});
export type AdminFile = v.InferOutput<typeof adminFileSchema>;

export const adminFileOf = (dataDir: string) => path.join(path.resolve(dataDir), ADMIN_FILE_NAME);

/** A fresh admin token: 32 random bytes, base64url (43 characters). */
export const newAdminToken = (): string => randomBytes(32).toString('base64url');

/**
 * Where the CLI should connect: the server's own address when it listens on one, loopback when
 * it listens on every interface (the endpoint answers loopback callers only).
 */
export function adminHostFor(listenHost: string): string {
  return ['0.0.0.0', '::', '', '*'].includes(listenHost) ? '127.0.0.1' : listenHost;
}

/**
 * Writes DATA_DIR/admin.json (0600, whole or not at all: a temporary file renamed over it) and
 * removes it when this process exits, if it is still this process's. Never throws: without the
 * file the CLI refuses clearly instead of going through the server, and the server runs on.
 */
export function publishAdminFile(dataDir: string, entry: AdminFile): () => void {
  const file = adminFileOf(dataDir);
  const temporary = `${file}.${entry.pid}.tmp`;
  try {
    rmSync(temporary, { force: true });
    writeFileSync(temporary, `${JSON.stringify(entry)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    process.stderr.write(`${JSON.stringify({ event: 'admin_file_not_written', error: (error as NodeJS.ErrnoException).code ?? 'unknown' })}\n`);
    return () => {};
  }
  const remove = () => {
    if (readAdminFile(dataDir)?.token === entry.token) rmSync(file, { force: true });
  };
  // 'exit' runs on process.exit() after a clean stop (main.ts); a SIGKILL leaves a dead pid behind.
  process.once('exit', remove);
  return () => {
    process.off('exit', remove);
    remove();
  };
}

/** DATA_DIR/admin.json when it is there and well formed, else null. */
export function readAdminFile(dataDir: string): AdminFile | null {
  try {
    const parsed = v.safeParse(adminFileSchema, JSON.parse(readFileSync(adminFileOf(dataDir), 'utf8')));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}
