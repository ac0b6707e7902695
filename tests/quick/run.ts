import { spawn } from 'node:child_process';
import path from 'node:path';
import { BIN, ROOT } from '../support/server-process';

/**
 * `npm run test:quick` (issue 35 item 2): the inner loop. `npm run check`'s parts: the catalogue
 * check first, then the type, lint and import checks (`check:code`) and the `logic`, `unit` and
 * `server` vitest projects without the model paths side by side, since the check is mostly one
 * process on one core while vitest's tail leaves a core idle;
 * vitest's output is shown as it comes and the check's once it ends (or at once when it failed).
 * Exits 1 when either failed. Arguments go to vitest (a file, `-t name`).
 */

function run(command: string, args: string[], show: 'live' | 'buffered'): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: show === 'live' ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolve({ ok: false, output: `${output}${String(error)}\n` }));
    child.on('exit', (code) => resolve({ ok: code === 0, output }));
  });
}

const started = Date.now();
// The catalogue check first, alone (4 s): its extraction may rewrite the catalogues, which the
// tests read. The rest of the check beside vitest.
const catalogues = await run('npm', ['run', '-s', 'i18n:check'], 'buffered');
const check = run('npm', ['run', '-s', 'check:code'], 'buffered').then((code) => {
  const result = { ok: catalogues.ok && code.ok, output: `${catalogues.output}${code.output}` };
  if (!result.ok) process.stdout.write(`\n── npm run check FAILED ──\n${result.output}\n`);
  return result;
});
const vitest = run(
  path.join(BIN, 'vitest'),
  ['run', '--project', 'logic', '--project', 'unit', '--project', 'server', '--exclude', '**/*.model.test.*', '--maxWorkers=100%', ...process.argv.slice(2)],
  'live',
);
const [checked, tested] = await Promise.all([check, vitest]);
if (checked.ok) process.stdout.write(`\n── npm run check passed ──\n${checked.output}`);
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(`\nnpm run test:quick: check ${checked.ok ? 'passed' : 'FAILED'}, vitest ${tested.ok ? 'passed' : 'FAILED'}, in ${seconds} s`);
process.exit(checked.ok && tested.ok ? 0 : 1);
