import * as v from 'valibot';
import type { AdminFile } from './admin-file';
import { ADMIN_BACKUP_PATH, ADMIN_BROKER_PATH, ADMIN_TOKEN_HEADER, adminBrokerResponseSchema } from './admin.routes';

/**
 * The CLI's side of the admin endpoint (admin.routes.ts): a command line sent to the server that
 * holds the embedded database, and its answer as the CLI prints it. Every failure to get an
 * answer is a reason in words; the CLI then refuses rather than open the database itself.
 */

/** How long a command may take in the server; a backup of a large database takes longer. */
const COMMAND_TIMEOUT_MS = 60_000;
const BACKUP_TIMEOUT_MS = 10 * 60_000;

export type ServerAnswer<T> = { ok: true; value: T } | { ok: false; reason: string };

const urlOf = (entry: AdminFile, path: string) => `http://${entry.host.includes(':') ? `[${entry.host}]` : entry.host}:${entry.port}${path}`;

async function post(entry: AdminFile, path: string, body: unknown, timeoutMs: number): Promise<ServerAnswer<Response>> {
  try {
    const res = await fetch(urlOf(entry, path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [ADMIN_TOKEN_HEADER]: `Bearer ${entry.token}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.status === 404) return { ok: false, reason: `${urlOf(entry, path)} refused the call (404: not a loopback call, or admin.json is not this server's)` };
    if (res.status !== 200) return { ok: false, reason: `${urlOf(entry, path)} answered ${res.status}` };
    return { ok: true, value: res };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const name = error instanceof Error ? error.name : 'error';
    return { ok: false, reason: `${urlOf(entry, path)} did not answer (${cause ?? (name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : name)})` };
  }
}

/** Runs a command line in the server; the answer is what the CLI prints and its exit code. */
export async function brokerThroughServer(
  entry: AdminFile,
  argv: readonly string[],
  user: string,
): Promise<ServerAnswer<v.InferOutput<typeof adminBrokerResponseSchema>>> {
  const answer = await post(entry, ADMIN_BROKER_PATH, { argv, user }, COMMAND_TIMEOUT_MS);
  if (!answer.ok) return answer;
  const parsed = v.safeParse(v.object({ data: adminBrokerResponseSchema }), await answer.value.json().catch(() => null));
  return parsed.success ? { ok: true, value: parsed.output.data } : { ok: false, reason: 'the server answered something that is not a command result' };
}

/** The embedded database as a .tar.gz, dumped by the server that holds it. */
export async function backupThroughServer(entry: AdminFile): Promise<ServerAnswer<Buffer>> {
  const answer = await post(entry, ADMIN_BACKUP_PATH, {}, BACKUP_TIMEOUT_MS);
  if (!answer.ok) return answer;
  return { ok: true, value: Buffer.from(await answer.value.arrayBuffer()) };
}
