import type { LogError } from '../http/error-handler';

/**
 * A full disk or a database out of memory (issue 34 item 3) is an outage, not a bug: the request
 * in flight answers 503 with Retry-After, and /health/ready says why until the failures stop.
 */

/** Why the server lacks what it needs to write: its disk (or quota) is full, or the database is out of another resource. */
export type ResourceReason = 'disk_full' | 'insufficient_resources';

/**
 * PostgreSQL's class 53 (insufficient resources) and the file system's own codes. 53300
 * (too_many_connections) is not here: the database refusing a connection is "unavailable"
 * (database-health.ts), whose readiness probe sees it by itself.
 */
const RESOURCE_CODES: Record<string, ResourceReason> = {
  '53000': 'insufficient_resources',
  '53100': 'disk_full',
  '53200': 'insufficient_resources',
  '53400': 'insufficient_resources',
  ENOSPC: 'disk_full',
  EDQUOT: 'disk_full',
};

/**
 * PGlite's file system is Emscripten's: an error thrown by it rather than by PostgreSQL (opening,
 * loading or syncing a directory) is an `ErrnoError`, not an Error, with Emscripten's numbers
 * (51 ENOSPC, 19 EDQUOT; 28 is EINVAL there, not ENOSPC as on Linux).
 */
const EMSCRIPTEN_ERRNO: Record<number, string> = { 51: 'ENOSPC', 19: 'EDQUOT' };

/** Messages that say the same without a code (a driver or file system error carried as text only). */
const DISK_FULL_MESSAGES = [/No space left on device/i, /Disk quota exceeded/i];

/**
 * The code and reason that make `error` (or an error it wraps, as Drizzle's DrizzleQueryError
 * does) a lack of resources, or null. The code is a fact safe to log: a SQLSTATE, ENOSPC or EDQUOT.
 */
export function resourceExhaustion(error: unknown): { code: string; reason: ResourceReason } | null {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 4; depth += 1) {
    const { code, errno, name, message } = current as { code?: unknown; errno?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && Object.hasOwn(RESOURCE_CODES, code)) return { code, reason: RESOURCE_CODES[code]! };
    if (name === 'ErrnoError' && typeof errno === 'number' && EMSCRIPTEN_ERRNO[errno]) return { code: EMSCRIPTEN_ERRNO[errno], reason: 'disk_full' };
    if (typeof message === 'string' && DISK_FULL_MESSAGES.some((pattern) => pattern.test(message))) return { code: 'ENOSPC', reason: 'disk_full' };
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** The reason a logged code stands for, or null when it is not a lack of resources. */
export const resourceReasonOf = (code: string | undefined): ResourceReason | null =>
  code !== undefined && Object.hasOwn(RESOURCE_CODES, code) ? RESOURCE_CODES[code]! : null;

/**
 * A write to a file that failed for want of space (ENOSPC, EDQUOT): its class name says so where
 * only a class name is kept (the outbox's last_error, the broker's mail list), and its code is the
 * file system's, so the log line and readiness see it too. Nothing of the file is left behind.
 */
export class DiskFullError extends Error {
  constructor(
    readonly code: 'ENOSPC' | 'EDQUOT',
    options?: { cause?: unknown },
  ) {
    super(code === 'EDQUOT' ? 'disk quota exceeded' : 'no space left on device', options);
  }
}

/** `error` as a DiskFullError when it is a file system's ENOSPC or EDQUOT; otherwise `error` itself. */
export function asDiskFull(error: unknown): unknown {
  if (error instanceof DiskFullError) return error;
  const found = resourceExhaustion(error);
  return found && (found.code === 'ENOSPC' || found.code === 'EDQUOT') ? new DiskFullError(found.code, { cause: error }) : error;
}

/**
 * How long /health/ready stays 503 after the last write that failed for want of resources.
 * Long enough to span a load balancer's few probes between two failing customers (and two
 * Retry-After periods), short enough that a freed disk is back in service within seconds.
 */
export const RESOURCE_WINDOW_MS = 15_000;

/**
 * What readiness knows about the disk: it learns from the writes that fail, because a probe
 * cannot tell. `select 1` still works on a full disk, and so does a small write that lands in a
 * page with room and in the WAL segment already allocated, while the next one that extends a table
 * fails (measured on PGlite and PostgreSQL): a probe write would say ready while customers' writes
 * fail, and "ready again after any successful write" would flap with every such lucky write. So
 * the server is not ready while a write failed for want of resources within RESOURCE_WINDOW_MS.
 */
export interface ResourceWatch {
  /** Notes the code of a failure; only disk-full and other class-53 codes count. */
  note(code: string | undefined): void;
  /** Why the server is not ready for want of resources right now, or null. */
  reason(): ResourceReason | null;
}

export function createResourceWatch(now: () => number, windowMs = RESOURCE_WINDOW_MS): ResourceWatch {
  const lastAt = new Map<ResourceReason, number>();
  const recent = (reason: ResourceReason) => now() - (lastAt.get(reason) ?? Number.NEGATIVE_INFINITY) < windowMs;
  return {
    note(code) {
      const reason = resourceReasonOf(code);
      if (reason) lastAt.set(reason, now());
    },
    reason() {
      // A full disk outranks another resource failing in the same window: it is what an operator must fix.
      if (recent('disk_full')) return 'disk_full';
      return recent('insufficient_resources') ? 'insufficient_resources' : null;
    },
  };
}

/**
 * The error log sink, with the watch noting the code of every line that has one. Every failure
 * the app meets is logged through this one sink with its code (the request's error handler, the
 * payment notices, the outbox workers' attempts), so readiness learns from the very facts the log
 * shows, whichever path met the full disk.
 */
export function noteResourceFailures(logError: LogError, watch: ResourceWatch): LogError {
  return (line) => {
    if ('code' in line) watch.note(line.code);
    logError(line);
  };
}
