import { spawn } from 'node:child_process';
import { ROOT } from '../support/server-process';

/** What one `npm run broker -- …` printed, and its exit code. */
export interface BrokerResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `npm run -s broker -- …argv` as its own process, the way a broker types it, on DATA_DIR
 * `dataDir` (embedded PGlite: DATABASE_URL empty unless `env` sets it).
 */
export function runBroker(dataDir: string, argv: readonly string[], env: Record<string, string> = {}): Promise<BrokerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'broker', '--', ...argv], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
