import { spawn } from 'node:child_process';
import { atMost, plain, seconds } from './figures';
import { ROOT, freePort } from '../support/server-process';

/**
 * Issue 19 part 4: the real `npm start` (the staleness check of both builds, then the server
 * bundle under node) as a customer's operator runs it, timed from the command to the first
 * page (GET / answering the app's HTML).
 */

interface Started {
  ms: number;
  /** What `npm start` printed before the page answered: the build line says whether it rebuilt. */
  output: string;
  stop(): Promise<void>;
}

async function npmStart(dataDir: string): Promise<Started> {
  const port = await freePort();
  const startedAt = performance.now();
  // A group of its own, so stopping reaches npm and the server it execs, and nothing else.
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1', DATABASE_URL: '', LOG_REQUESTS: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const stop = async () => {
    if (!exited) process.kill(-child.pid!, 'SIGTERM');
    const force = setTimeout(() => !exited && process.kill(-child.pid!, 'SIGKILL'), 15_000);
    await exit;
    clearTimeout(force);
  };
  for (;;) {
    if (exited) throw new Error(`npm start exited before serving:\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`);
      if (response.ok && (await response.text()).includes('id="root"')) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - startedAt > 180_000) {
      await stop();
      throw new Error(`npm start served no page in 180 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ms: performance.now() - startedAt, output, stop };
}

/**
 * The build line of npm start's output, which says whether it rebuilt and why, and the server's
 * own time from its main() to listening (the rest is npm, the build check and loading the bundle).
 */
function detail(output: string): string {
  const build = output.split('\n').find((line) => /^Built |^Builds are current/.test(line)) ?? '(no build line)';
  const ready = /"ready_ms":(\d+)/.exec(output)?.[1];
  return `${build} Server main() to listening: ${ready ? `${ready} ms` : '?'}.`;
}

/**
 * Starts `npm start` on a new data directory (migrations and seeding: a figure), stops it, then
 * again on the same directory with current builds (the budget). Leaves the directory seeded.
 */
export async function measureStart(dataDir: string): Promise<void> {
  const fresh = await npmStart(dataDir);
  await fresh.stop();
  plain('npm start to first page, new data directory', seconds(fresh.ms), detail(fresh.output));
  const again = await npmStart(dataDir);
  await again.stop();
  atMost('npm start to first page, existing data, current build', again.ms, 2000, seconds, detail(again.output));
}
