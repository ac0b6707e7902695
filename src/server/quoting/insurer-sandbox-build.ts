import path from 'node:path';
import { ROOT } from '../build-staleness';

/**
 * How the insurer sandbox's worker (insurer-sandbox-worker.ts) is built: one ESM file with
 * everything it imports inside it but node's own modules (about 60 KB), so it runs from the bundle
 * folder or as a data: URL alike. Apart from the thread that runs it, so the bundle step
 * (server-bundle.ts) loads nothing of the server to build it.
 */

/** The worker as the bundle step writes it, beside the server bundle. */
export const INSURER_SANDBOX_WORKER = path.join(ROOT, 'dist-server', 'insurer-sandbox-worker.js');

/** The worker's code, compiled now. */
export async function compileInsurerSandboxWorker(): Promise<Uint8Array> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(ROOT, 'src/server/quoting/insurer-sandbox-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.contents;
}
