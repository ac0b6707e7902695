import { readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * One rule for both builds `npm start` may make (issue 19 part 4): an output is stale when it is
 * missing or when any file it is built from is newer than it. Plain stat calls, no build tool
 * loaded, so a start with current builds pays a few milliseconds for the check.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The newest file under the given paths (files or folders, relative to the root or absolute) and its time, or null when there are none. */
function newestFile(sources: readonly string[]): { file: string; ms: number } | null {
  let newest: { file: string; ms: number } | null = null;
  const visit = (file: string) => {
    let stat;
    try {
      stat = statSync(file);
    } catch {
      return; // an optional source (a config file a checkout may not have)
    }
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (!newest || stat.mtimeMs > newest.ms) {
      newest = { file, ms: stat.mtimeMs };
    }
  };
  for (const source of sources) visit(path.resolve(ROOT, source));
  return newest;
}

/**
 * Why `output` must be built again, as a sentence naming the newer file, or null when it is
 * current. `what` names the output in that sentence ("the server bundle", "the app build").
 */
export function staleness(output: string, sources: readonly string[], what: string): string | null {
  let builtMs: number;
  try {
    builtMs = statSync(output).mtimeMs;
  } catch {
    return `${what} does not exist yet`;
  }
  const newest = newestFile(sources);
  return newest && newest.ms > builtMs ? `${path.relative(ROOT, newest.file)} is newer than ${what}` : null;
}

/**
 * Dates a finished output to when its build began: a source saved while the build ran is then
 * newer than the output, and the next start builds again instead of serving what missed it.
 */
export function markBuiltAt(output: string, startedAtMs: number): void {
  const at = new Date(startedAtMs);
  utimesSync(output, at, at);
}
